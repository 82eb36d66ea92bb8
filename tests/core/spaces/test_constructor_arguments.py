"""Bad space constructor arguments raise InvalidSpaceArgument: Gymnasium's words, then what it takes.

Run side by side with Gymnasium: where it raises, our message starts with its words and our
error is an instance of its class (OverflowError aside: ours is a ValueError and a TypeError);
where it silently accepts a value that cannot be meant (2.5 counts), ours refuses.
"""

import re

import gymnasium.spaces as gs
import numpy as np
import pytest

import palaestra.spaces as ps
from palaestra.error import InvalidSpaceArgument

CASES = {
    "Discrete(2**64)": lambda s: s.Discrete(2**64),
    "Discrete(0)": lambda s: s.Discrete(0),
    "Discrete(-1)": lambda s: s.Discrete(-1),
    "Discrete(2.5)": lambda s: s.Discrete(2.5),
    "Discrete('a')": lambda s: s.Discrete("a"),
    "Discrete(None)": lambda s: s.Discrete(None),
    "Discrete(True)": lambda s: s.Discrete(True),
    "Discrete(start=1.5)": lambda s: s.Discrete(3, start=1.5),
    "Discrete(dtype=float32)": lambda s: s.Discrete(3, dtype=np.float32),
    "Discrete(start past int8)": lambda s: s.Discrete(3, start=126, dtype=np.int8),
    "MultiDiscrete([2.5])": lambda s: s.MultiDiscrete([2.5]),
    "MultiDiscrete([0])": lambda s: s.MultiDiscrete([0]),
    "MultiDiscrete('ab')": lambda s: s.MultiDiscrete("ab"),
    "MultiDiscrete(ragged)": lambda s: s.MultiDiscrete([[2], [3, 4]]),
    "MultiDiscrete([2**70])": lambda s: s.MultiDiscrete([2**70]),
    "MultiDiscrete(start=[0.5])": lambda s: s.MultiDiscrete([2], start=[0.5]),
    "MultiDiscrete(start of another shape)": lambda s: s.MultiDiscrete([2], start=[0, 0]),
    "MultiDiscrete(None)": lambda s: s.MultiDiscrete(None),
    "MultiBinary(-1)": lambda s: s.MultiBinary(-1),
    "MultiBinary(2.5)": lambda s: s.MultiBinary(2.5),
    "MultiBinary('a')": lambda s: s.MultiBinary("a"),
    "MultiBinary([2, -1])": lambda s: s.MultiBinary([2, -1]),
    "Box(shape=(-1,))": lambda s: s.Box(0, 1, shape=(-1,)),
    "Box(shape=2.5)": lambda s: s.Box(0, 1, shape=2.5),
    "Box('a', 'b')": lambda s: s.Box("a", "b"),
    "Box(1, 0)": lambda s: s.Box(1, 0, shape=(2,)),
    "Box(nan, 1)": lambda s: s.Box(np.nan, 1, shape=(2,)),
    "Box(dtype=str)": lambda s: s.Box(0, 1, shape=(2,), dtype=str),
    "Box(dtype=None)": lambda s: s.Box(0, 1, shape=(2,), dtype=None),
    "Box(high=list)": lambda s: s.Box(0, [1, 2], shape=(3,)),
    "Box(0, 300, uint8)": lambda s: s.Box(0, 300, shape=(2,), dtype=np.uint8),
    "Box(too big)": lambda s: s.Box(0, 1, shape=(2**40, 2**40)),
    "Tuple(5)": lambda s: s.Tuple(5),
    "Tuple([5])": lambda s: s.Tuple([5]),
    "Dict(5)": lambda s: s.Dict(5),
    "Dict({'a': 5})": lambda s: s.Dict({"a": 5}),
    "Sequence(5)": lambda s: s.Sequence(5),
    "Sequence(stack=5)": lambda s: s.Sequence(s.Discrete(2), stack=5),
    "Text(-1)": lambda s: s.Text(-1),
    "Text(2.5)": lambda s: s.Text(2.5),
    "Text(charset=5)": lambda s: s.Text(5, charset=5),
    "Graph(5, 5)": lambda s: s.Graph(5, 5),
    "OneOf(5)": lambda s: s.OneOf(5),
    "OneOf([])": lambda s: s.OneOf([]),
    "OneOf([5])": lambda s: s.OneOf([5]),
}
# Gymnasium accepts these: 2.5 counts become 2, 0.5 starts become 0, stack=5 counts as True.
GYMNASIUM_ACCEPTS = {
    "MultiDiscrete([2.5])",
    "MultiDiscrete(start=[0.5])",
    "Sequence(stack=5)",
    "Discrete(start past int8)",
}
# Where our words differ from Gymnasium's on purpose: its own are Python's or NumPy's and do
# not name the argument.
WORDED_BY_US = {"Discrete(2**64)", "MultiDiscrete('ab')", "MultiDiscrete([2**70])", "MultiDiscrete(None)"}


def gymnasium_error(case):
    try:
        CASES[case](gs)
    except Exception as e:
        return e
    return None


@pytest.mark.parametrize("case", CASES)
def test_a_bad_argument_is_named_after_gymnasiums_words(case):
    with pytest.raises(InvalidSpaceArgument) as raised:
        CASES[case](ps)
    ours = raised.value
    assert isinstance(ours, TypeError) and isinstance(ours, ValueError)
    # The message is Gymnasium's alone, without notes (its tests match some whole, `^...$`);
    # what the constructor takes (the fix) is a note on the cause, shown above it.
    assert not getattr(ours, "__notes__", None)
    assert " takes " in ours.__cause__.__notes__[-1]
    theirs = gymnasium_error(case)
    if case in GYMNASIUM_ACCEPTS:
        assert theirs is None
        return
    assert theirs is not None
    if not isinstance(theirs, (OverflowError, AssertionError)):
        assert isinstance(ours, type(theirs))
    words = str(theirs).replace("gymnasium.Space", "gymnasium.Space")
    if "does not fit" not in str(ours) and "must hold integers" not in str(ours):
        assert str(ours).startswith(words.split(" (")[0][:40]), (str(ours), words)
    if case not in WORDED_BY_US:
        assert str(ours) == str(theirs), "Gymnasium's tests compare whole messages"


def test_integral_floats_still_count_as_gymnasium_accepts_them():
    assert ps.MultiDiscrete([2.0, 3.0]) == ps.MultiDiscrete([2, 3])
    assert ps.MultiDiscrete(np.array([2.0]), start=[1.0]).start.tolist() == [1]


def test_named_errors_raised_inside_a_constructor_pass_unchanged():
    from palaestra.error import InvalidSeed

    with pytest.raises(InvalidSeed, match="Seed must be greater or equal to zero"):
        ps.Discrete(3, seed=-1)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (
            {"low": 0, "high": 1, "shape": (None,)},
            "Expected all Box shape elements to be integer, actual type=(<class 'NoneType'>,)",
        ),
        (
            {"low": np.zeros(3), "high": np.ones(2), "shape": None},
            "Box low.shape and high.shape don't match, low.shape=(3,), high.shape=(2,)",
        ),
        (
            {"low": np.zeros(2), "high": np.ones(2), "shape": (3,)},
            "Box low.shape doesn't match provided shape, low.shape=(2,), shape=(3,)",
        ),
        (
            {"low": 0, "high": np.ones(2), "shape": (3,)},
            "Box high.shape doesn't match provided shape, high.shape=(2,), shape=(3,)",
        ),
    ],
)
def test_box_shape_errors_match_gymnasiums_whole(arguments, message):
    """Gymnasium's own tests match these with ``^...$``: no advice may follow, not even a note."""
    with pytest.raises(ValueError if "match" in message else TypeError, match=f"^{re.escape(message)}$"):
        ps.Box(**arguments, dtype=np.float64)
