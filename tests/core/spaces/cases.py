"""The same spaces built with palaestra and with Gymnasium, for differential tests."""

import warnings

import numpy as np


def build(m):
    """A dict of named spaces built from module ``m`` (palaestra.spaces or gymnasium.spaces)."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", ".*precision lowered")
        return _build(m)


def _build(m):
    return {
        "box_f32": m.Box(-1, 1, (6,), np.float32),
        "box_scalar": m.Box(0.0, 1.0),
        "box_uint8_image": m.Box(0, 255, (12, 10, 3), np.uint8),
        "box_unbounded": m.Box(-np.inf, np.inf, (3, 2), np.float64),
        "box_mixed": m.Box(
            np.array([-np.inf, 0, -1, -np.inf]), np.array([np.inf, np.inf, 1, 3.0]), dtype=np.float32
        ),
        "box_int64": m.Box(-5, 5, (3,), np.int64),
        "box_int32_inf": m.Box(-np.inf, np.inf, (2,), np.int32),
        "box_int8": m.Box(np.array([-3, 0], dtype=np.int8), np.array([3, 100], dtype=np.int8), dtype=np.int8),
        "box_bool": m.Box(0, 1, (4,), np.bool_),
        "box_f16": m.Box(-2, 2, (2,), np.float16),
        "box_empty_shape": m.Box(-1.0, 1.0, (), np.float64),
        "box_int_scalar": m.Box(-3, 3, (), np.int64),
        "box_uint16_half": m.Box(np.array([0, 5], np.uint16), np.array([10, 5], np.uint16), dtype=np.uint16),
        "discrete": m.Discrete(5),
        "discrete_start": m.Discrete(7, start=-3),
        "discrete_int32": m.Discrete(4, start=2, dtype=np.int32),
        "multi_discrete": m.MultiDiscrete([3, 4, 5]),
        "multi_discrete_2d": m.MultiDiscrete(np.array([[3, 4], [5, 6]]), start=np.array([[1, -1], [0, 2]])),
        "multi_binary": m.MultiBinary(5),
        "multi_binary_2d": m.MultiBinary([2, 3]),
        "text": m.Text(6),
        "text_charset": m.Text(4, min_length=0, charset="abcd"),
        "tuple": m.Tuple([m.Discrete(3), m.Box(0, 1, (2,)), m.MultiBinary(2)]),
        "dict": m.Dict({"b": m.Discrete(2), "a": m.Box(0, 1, (2,)), "c": m.Text(3)}),
        "dict_unsorted": m.Dict({"z": m.Discrete(2), "a": m.Discrete(3)}, sort_keys=False),
        "nested": m.Dict(
            {"t": m.Tuple([m.Discrete(2), m.Dict({"x": m.Box(-1, 1, (1,))})]), "d": m.Discrete(4)}
        ),
        "sequence": m.Sequence(m.Discrete(4)),
        "sequence_stack": m.Sequence(m.Box(0, 1, (2,)), stack=True),
        "graph": m.Graph(m.Box(0, 1, (2,)), m.Discrete(3)),
        "graph_no_edges": m.Graph(m.Discrete(3), None),
        "oneof": m.OneOf([m.Discrete(2), m.Box(0, 1, (3,))]),
    }


FLATTENABLE = [
    "box_f32",
    "box_scalar",
    "box_uint8_image",
    "box_int64",
    "box_int8",
    "discrete",
    "discrete_start",
    "discrete_int32",
    "multi_discrete",
    "multi_discrete_2d",
    "multi_binary",
    "multi_binary_2d",
    "text",
    "text_charset",
    "tuple",
    "dict",
    "nested",
    "oneof",
]
