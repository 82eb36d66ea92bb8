"""The utilities (play, step-API conversion, seeding) speak Gymnasium's words first."""

import importlib
import warnings

import gymnasium
import numpy as np
import pytest

import palaestra
from tests.fixtures.checker import outcome

# Gymnasium warns once per process, when gymnasium.utils.play is first imported, that matplotlib is
# missing: imported here, so that no case's words depend on which test imported it first.
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    importlib.import_module("gymnasium.utils.play")


def util(lib, module):
    return importlib.import_module(f"{lib.__name__}.utils.{module}")


def _make(lib, env_id, **kwargs):
    return lib.make(env_id, **kwargs)


VECTOR_STEP = (np.zeros(2), np.zeros(2), np.array([True, False]), np.array([False, True]), 3)

CASES = {
    "seed of a string": lambda lib: util(lib, "seeding").np_random("a"),
    "negative seed": lambda lib: util(lib, "seeding").np_random(-1),
    "float seed": lambda lib: util(lib, "seeding").np_random(1.5),
    "vector infos of the wrong type (to terminated/truncated)": lambda lib: util(
        lib, "step_api_compatibility"
    ).convert_to_terminated_truncated_step_api(VECTOR_STEP[:3] + VECTOR_STEP[4:], is_vector_env=True),
    "vector infos of the wrong type (to done)": lambda lib: util(
        lib, "step_api_compatibility"
    ).convert_to_done_step_api(VECTOR_STEP, is_vector_env=True),
    "PlayableGame without rgb_array": lambda lib: util(lib, "play").PlayableGame(_make(lib, "CartPole-v1")),
    "PlayableGame zoom": lambda lib: util(lib, "play").PlayableGame(
        _make(lib, "CartPole-v1", render_mode="rgb_array"), zoom=-1
    ),
    "PlayableGame keys not a dict": lambda lib: util(lib, "play").PlayableGame(
        _make(lib, "CartPole-v1", render_mode="rgb_array"), keys_to_action=[1]
    ),
    "PlayableGame without a mapping": lambda lib: util(lib, "play").PlayableGame(
        _make(lib, "Pendulum-v1", render_mode="rgb_array")
    ),
    "play with an empty combination": lambda lib: util(lib, "play").play(
        _make(lib, "CartPole-v1", render_mode="rgb_array"), keys_to_action={(): 0}
    ),
    "play with a float in a combination": lambda lib: util(lib, "play").play(
        _make(lib, "CartPole-v1", render_mode="rgb_array"), keys_to_action={(1.5,): 0}
    ),
    "play with a float key": lambda lib: util(lib, "play").play(
        _make(lib, "CartPole-v1", render_mode="rgb_array"), keys_to_action={1.5: 0}
    ),
    "play with an invalid action": lambda lib: util(lib, "play").play(
        _make(lib, "CartPole-v1", render_mode="rgb_array"), keys_to_action={"a": 5}
    ),
    "play without a mapping": lambda lib: util(lib, "play").play(
        _make(lib, "Pendulum-v1", render_mode="rgb_array")
    ),
    "play without a spec or mapping": lambda lib: util(lib, "play").play(
        _make(lib, "Pendulum-v1", render_mode="rgb_array").unwrapped
    ),
}


@pytest.mark.needs_plugins
@pytest.mark.parametrize("case", sorted(CASES))
def test_utility_mistakes_read_as_in_gymnasium(case):
    pytest.importorskip("pygame", reason="play needs pygame (palaestra[classic-control])")
    (ours, our_warnings), (theirs, their_warnings) = (
        outcome(lambda lib=lib: CASES[case](lib)) for lib in (palaestra, gymnasium)
    )
    assert our_warnings == their_warnings
    assert theirs is not None and ours is not None
    assert type(theirs).__name__ in {
        cls.__name__ for cls in type(ours).__mro__
    }  # the same class, or a subclass
    assert str(ours).startswith(str(theirs)), (str(ours), str(theirs))
