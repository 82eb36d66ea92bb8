"""Seeded streams, seeding results, flattening and JSON forms match Gymnasium 1.4.0 exactly."""

import gymnasium.spaces as gs
import gymnasium.spaces.utils as gu
import numpy as np
import pytest

import palaestra.spaces as ps
import palaestra.spaces.utils as pu
from tests.core.spaces.cases import FLATTENABLE, build
from tests.core.spaces.helpers import same

pytestmark = pytest.mark.filterwarnings("ignore:.*precision lowered:UserWarning")

OURS = build(ps)
REF = build(gs)
NAMES = sorted(OURS)


def both(name):
    return build(ps)[name], build(gs)[name]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("seed", [0, 1, 42, 2**31 + 5])
def test_seeded_samples_are_identical(name, seed):
    ours, ref = both(name)
    assert same(ours.seed(seed), ref.seed(seed))
    for _ in range(20):
        a, b = ours.sample(), ref.sample()
        assert same(a, b), (name, a, b)
        assert a in ours


@pytest.mark.parametrize("name", NAMES)
def test_repr_shape_dtype_and_flattenability_match(name):
    ours, ref = OURS[name], REF[name]
    assert repr(ours) == repr(ref)
    assert ours.shape == ref.shape
    assert ours.dtype == ref.dtype
    assert ours.is_np_flattenable == ref.is_np_flattenable
    assert ours == build(ps)[name]


def masks_for(name, m):
    return {
        "discrete": [np.array([0, 1, 0, 1, 0], np.int8), np.zeros(5, np.int8)],
        "discrete_start": [np.array([1, 0, 0, 0, 0, 0, 1], np.int8)],
        "multi_discrete": [
            (np.array([1, 0, 1], np.int8), np.array([0, 0, 0, 1], np.int8), np.ones(5, np.int8))
        ],
        "multi_binary": [np.array([0, 1, 2, 2, 1], np.int8)],
        "text_charset": [(None, np.array([1, 0, 1, 0], np.int8)), (2, None), (3, np.zeros(4, np.int8))],
        "text": [(3, None)],
        "tuple": [(np.array([1, 1, 0], np.int8), None, np.array([2, 0], np.int8))],
        "dict": [{"a": None, "b": np.array([0, 1], np.int8), "c": (2, None)}],
        "sequence": [(3, np.array([1, 0, 0, 1], np.int8)), (np.array([0, 2, 5]), None), (None, None)],
        "graph": [(None, np.array([1, 0, 1], np.int8))],
        "oneof": [(np.array([0, 1], np.int8), None)],
    }.get(name, [])


def probabilities_for(name):
    return {
        "discrete": [np.array([0.1, 0.2, 0.3, 0.2, 0.2])],
        "multi_discrete": [
            (np.array([0.5, 0.5, 0.0]), np.array([0.25] * 4), np.array([0.0, 0.0, 0.0, 0.0, 1.0]))
        ],
        "multi_binary": [np.array([0.0, 1.0, 0.5, 0.2, 0.9])],
        "text_charset": [(None, np.array([0.7, 0.1, 0.1, 0.1]))],
        "tuple": [(np.array([0.2, 0.3, 0.5]), None, np.array([0.5, 0.5]))],
        "sequence": [(2, np.array([0.25, 0.25, 0.25, 0.25]))],
    }.get(name, [])


@pytest.mark.parametrize("name", NAMES)
def test_masked_and_probability_samples_are_identical(name):
    ours, ref = both(name)
    for kind, variants in (("mask", masks_for(name, ps)), ("probability", probabilities_for(name))):
        for variant in variants:
            ours.seed(7)
            ref.seed(7)
            for _ in range(10):
                a = ours.sample(**{kind: variant})
                b = ref.sample(**{kind: variant})
                assert same(a, b), (name, kind, a, b)


@pytest.mark.parametrize("name", FLATTENABLE)
def test_flatten_unflatten_and_flatten_space_match(name):
    ours, ref = both(name)
    ours.seed(3)
    ref.seed(3)
    flat_ours, flat_ref = pu.flatten_space(ours), gu.flatten_space(ref)
    assert repr(flat_ours) == repr(flat_ref)
    assert pu.flatdim(ours) == gu.flatdim(ref)
    for _ in range(10):
        x = ours.sample()
        f1, f2 = pu.flatten(ours, x), gu.flatten(ref, ref.sample())
        assert same(f1, f2)
        assert f1 in flat_ours
        assert same(pu.unflatten(ours, f1), x)
        try:
            expected = gu.unflatten(ref, f2)
        except TypeError:  # Gymnasium cannot unflatten Text from a float64 Dict/Tuple array
            continue
        assert same(pu.unflatten(ours, f1), expected)


@pytest.mark.parametrize("name", ["sequence", "sequence_stack", "graph", "graph_no_edges"])
def test_structured_flatten_matches(name):
    ours, ref = both(name)
    ours.seed(5)
    ref.seed(5)
    for _ in range(5):
        x, y = ours.sample(), ref.sample()
        f1, f2 = pu.flatten(ours, x), gu.flatten(ref, y)
        assert same(tuple(f1) if hasattr(f1, "_fields") else f1, tuple(f2) if hasattr(f2, "_fields") else f2)
        assert repr(pu.flatten_space(ours)) == repr(gu.flatten_space(ref))


@pytest.mark.parametrize("name", NAMES)
def test_jsonable_round_trip_matches(name):
    ours, ref = both(name)
    ours.seed(9)
    ref.seed(9)
    batch_ours = [ours.sample() for _ in range(3)]
    batch_ref = [ref.sample() for _ in range(3)]
    json_ours, json_ref = ours.to_jsonable(batch_ours), ref.to_jsonable(batch_ref)
    assert json_ours == json_ref or same(json_ours, json_ref)
    back = ours.from_jsonable(json_ours)
    assert all(x in ours for x in back)


@pytest.mark.parametrize(
    ("name", "seed"),
    [
        ("tuple", [1, 2, 3]),
        ("dict", {"a": 1, "b": 2, "c": 3}),
        ("sequence", (4, 5)),
        ("graph", (1, 2, 3)),
        ("graph_no_edges", [1, 2]),
        ("oneof", (1, 2, 3)),
    ],
)
def test_composite_seed_forms_match(name, seed):
    ours, ref = both(name)
    assert same(ours.seed(seed), ref.seed(seed))
    assert same(ours.sample(), ref.sample())


CONTAINS = [
    ("discrete", 3),
    ("discrete", True),
    ("discrete", 3.0),
    ("discrete", np.array([3])),
    ("discrete", np.array(3)),
    ("discrete", np.uint64(2)),
    ("discrete", np.int8(4)),
    ("discrete", 5),
    ("box_f32", np.zeros(6, np.float64)),
    ("box_f32", [0.0] * 6),
    ("box_f32", np.zeros(6, np.float32)),
    ("box_f32", np.ones(6, np.float32) * 2),
    ("box_f32", np.zeros(5, np.float32)),
    ("multi_binary", np.array([0, 1, 1, 0, 1], np.float64)),
    ("multi_binary", [0, 1, 2, 0, 1]),
    ("multi_discrete", [2, 3, 4]),
    ("multi_discrete", np.array([3, 0, 0])),
    ("text_charset", "abca"),
    ("text_charset", "abcde"),
    ("text_charset", ""),
    ("oneof", (1, np.zeros(3, np.float32))),
    ("oneof", (np.int32(1), np.zeros(3, np.float32))),
    ("tuple", [0, np.zeros(2, np.float32), np.array([0, 1], np.int8)]),
]


@pytest.mark.parametrize(("name", "value"), CONTAINS, ids=[f"{n}-{i}" for i, (n, _) in enumerate(CONTAINS)])
@pytest.mark.filterwarnings("ignore:.*Casting input x to numpy array:UserWarning")
def test_contains_agrees(name, value):
    assert OURS[name].contains(value) == REF[name].contains(value)


def test_batch_space_matches_and_keeps_the_original_stream():
    from gymnasium.vector.utils import batch_space as gbatch

    from palaestra.vector.utils import batch_space as pbatch

    for name in NAMES:
        ours, ref = both(name)
        ours.seed(1)
        ref.seed(1)
        bo, br = pbatch(ours, 3), gbatch(ref, 3)
        assert repr(bo) == repr(br)
        assert same(bo.sample(), br.sample())
        assert same(ours.sample(), ref.sample())  # batching did not advance the original
