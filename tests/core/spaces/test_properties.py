"""Property tests: every sample is a member, flattening and JSON round-trip, for every space."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import palaestra.spaces as ps
from palaestra.spaces.utils import flatten, flatten_space, unflatten
from tests.core.spaces.cases import FLATTENABLE, build
from tests.core.spaces.helpers import same

SPACES = build(ps)


@st.composite
def boxes(draw):
    shape = tuple(draw(st.lists(st.integers(1, 3), min_size=1, max_size=3)))
    dtype = draw(st.sampled_from([np.float32, np.float64, np.int64, np.int16, np.uint8]))
    if np.dtype(dtype).kind == "f":
        low = draw(st.floats(-1e3, 1e3))
        high = low + draw(st.floats(0, 1e3))
        if draw(st.booleans()):
            low = -np.inf
    else:
        info = np.iinfo(dtype)
        low = draw(st.integers(max(info.min, -1000), min(info.max, 1000)))
        high = draw(st.integers(low, min(info.max, low + 1000)))
    return ps.Box(low, high, shape, dtype)


@st.composite
def leaf_spaces(draw):
    kind = draw(st.sampled_from(["box", "discrete", "multi_discrete", "multi_binary", "text"]))
    if kind == "box":
        return draw(boxes())
    if kind == "discrete":
        return ps.Discrete(draw(st.integers(1, 50)), start=draw(st.integers(-10, 10)))
    if kind == "multi_discrete":
        return ps.MultiDiscrete(draw(st.lists(st.integers(1, 9), min_size=1, max_size=4)))
    if kind == "multi_binary":
        return ps.MultiBinary(draw(st.integers(1, 6)))
    return ps.Text(draw(st.integers(1, 8)), min_length=0)


composite_spaces = st.recursive(
    leaf_spaces(),
    lambda children: st.one_of(
        st.lists(children, min_size=1, max_size=3).map(ps.Tuple),
        st.dictionaries(st.sampled_from("abcde"), children, min_size=1, max_size=3).map(ps.Dict),
        st.lists(children, min_size=1, max_size=3).map(ps.OneOf),
    ),
    max_leaves=6,
)


@settings(max_examples=60, deadline=None)
@given(space=composite_spaces, seed=st.integers(0, 2**32 - 1))
def test_samples_are_members_and_flatten_round_trips(space, seed):
    space.seed(seed)
    flat_space = flatten_space(space)
    for _ in range(3):
        x = space.sample()
        assert x in space
        flat = flatten(space, x)
        assert flat in flat_space
        assert same(unflatten(space, flat), x)


@settings(max_examples=60, deadline=None)
@given(space=composite_spaces, seed=st.integers(0, 2**32 - 1))
def test_jsonable_round_trip(space, seed):
    space.seed(seed)
    batch = [space.sample() for _ in range(3)]
    back = space.from_jsonable(space.to_jsonable(batch))
    assert len(back) == 3
    for original, restored in zip(batch, back, strict=False):
        assert restored in space
        assert space.to_jsonable([original]) == space.to_jsonable([restored])


@settings(max_examples=40, deadline=None)
@given(space=composite_spaces, seed=st.integers(0, 2**32 - 1))
def test_same_seed_same_stream(space, seed):
    import copy

    twin = copy.deepcopy(space)
    assert same(space.seed(seed), twin.seed(seed))
    for _ in range(3):
        assert same(space.sample(), twin.sample())


def test_every_named_space_round_trips_through_pickle():
    import pickle

    for name, space in SPACES.items():
        space.seed(0)
        clone = pickle.loads(pickle.dumps(space))
        assert clone == space, name
        assert same(clone.sample(), space.sample()), name


def test_structured_spaces_samples_are_members():
    for name in ("sequence", "sequence_stack", "graph", "graph_no_edges", "oneof"):
        space = SPACES[name]
        space.seed(1)
        for _ in range(5):
            assert space.sample() in space, name
    assert set(FLATTENABLE) <= set(SPACES)
