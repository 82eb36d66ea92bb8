"""Shared-memory observation buffers: every fixed-size space, and a TypeError for the others."""

import functools
import multiprocessing as mp

import numpy as np
import pytest

from palaestra import spaces
from palaestra.error import CustomSpaceError, DynamicSpaceError
from palaestra.utils.env_checker import data_equivalence
from palaestra.vector import AsyncVectorEnv, AutoresetMode, SyncVectorEnv
from palaestra.vector.utils import create_shared_memory, read_from_shared_memory, write_to_shared_memory
from tests.fixtures.vector_envs import graph_env, one_of_env, text_and_box_env, text_env

TEXT = spaces.Text(5, min_length=0, charset="abc")
ONE_OF = spaces.OneOf([spaces.Box(-1, 1, (2,), np.float32), TEXT, spaces.Discrete(4)])
NESTED = spaces.Tuple([TEXT, spaces.Dict({"pick": ONE_OF, "n": spaces.Discrete(3)})])


@pytest.mark.parametrize("space", [TEXT, ONE_OF, NESTED], ids=["text", "one_of", "nested"])
def test_strings_and_one_of_round_trip_through_shared_memory(space):
    space.seed(3)
    values = [space.sample() for _ in range(4)]
    memory = create_shared_memory(space, n=4, ctx=mp.get_context("spawn"))
    for index, value in enumerate(values):
        write_to_shared_memory(space, index, value, memory)
    batch = read_from_shared_memory(space, memory, n=4)
    for index, value in enumerate(values):
        if isinstance(space, spaces.Tuple):  # a Tuple batches each part: pick out sub-env `index`
            element = (batch[0][index], {"pick": batch[1]["pick"][index], "n": batch[1]["n"][index]})
        else:
            element = batch[index]
        assert data_equivalence(element, value, exact=True), (index, element, value)


def test_text_reads_back_the_strings_written():
    # Gymnasium 1.4.0 reads "00000" back here; the strings written are what must come out.
    space = spaces.Text(5, charset="abc0")
    memory = create_shared_memory(space, n=3)
    for index, text in enumerate(["abc", "", "c0a"]):
        write_to_shared_memory(space, index, text, memory)
    assert read_from_shared_memory(space, memory, n=3) == ("abc", "", "c0a")


@pytest.mark.parametrize(
    "space",
    [spaces.Graph(spaces.Box(0, 1, (2,)), None), spaces.Sequence(spaces.Discrete(2))],
    ids=["graph", "sequence"],
)
def test_dynamic_spaces_have_no_shared_memory(space):
    with pytest.raises(TypeError, match=r"no fixed size.*shared_memory=False") as caught:
        create_shared_memory(space, n=2)
    assert isinstance(caught.value, DynamicSpaceError)
    assert isinstance(caught.value, CustomSpaceError)


def test_async_refuses_dynamic_observations_in_shared_memory_with_a_type_error():
    with pytest.raises(TypeError, match="shared_memory=False"):
        AsyncVectorEnv([graph_env] * 2, num_workers=2)
    env = AsyncVectorEnv([graph_env] * 2, num_workers=2, shared_memory=False)
    obs, _ = env.reset(seed=0)
    assert len(obs) == 2 and all(isinstance(o, spaces.GraphInstance) for o in obs)
    env.close()


def test_a_space_without_shared_memory_support_names_the_fix():
    class Odd(spaces.Space):
        pass

    with pytest.raises(
        CustomSpaceError,
        match="doesn't have an registered .create_shared_memory. function.*pass shared_memory=False",
    ):
        create_shared_memory(Odd(), n=2)


@pytest.mark.parametrize("mode", list(AutoresetMode), ids=lambda m: m.value)
@pytest.mark.parametrize("factory", [text_env, one_of_env, text_and_box_env], ids=lambda f: f.__name__)
def test_async_with_shared_memory_equals_sync_for_strings_and_one_of(factory, mode):
    fns = [functools.partial(factory, index=i) for i in range(3)]
    sync = SyncVectorEnv(fns, autoreset_mode=mode)
    shared = AsyncVectorEnv(fns, autoreset_mode=mode, num_workers=2)  # shared_memory=True by default
    try:
        assert shared.observation_space == sync.observation_space
        expected, got = sync.reset(seed=5), shared.reset(seed=5)
        assert data_equivalence(got, expected, exact=True)
        for step in range(8):
            actions = np.array([step % 3] * 3)
            expected, got = sync.step(actions), shared.step(actions)
            assert data_equivalence(got, expected, exact=True), step
            ended = expected[2] | expected[3]
            if mode is AutoresetMode.DISABLED and ended.any():
                expected = sync.reset(options={"reset_mask": ended})
                got = shared.reset(options={"reset_mask": ended})
                assert data_equivalence(got, expected, exact=True)
    finally:
        sync.close()
        shared.close()
