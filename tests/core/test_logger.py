"""palaestra.logger writes Gymnasium 1.4.0's warning text byte for byte (colour codes included)."""

import warnings

import gymnasium
import pytest

from palaestra import logger


def _messages(emit):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        emit()
    return [(w.category, str(w.message)) for w in caught]


@pytest.mark.parametrize(
    ("name", "args", "kwargs"),
    [
        ("warn", ("Box bound %s is odd", 3), {}),
        ("warn", ("plain text",), {}),
        ("warn", ("a category",), {"category": RuntimeWarning}),
        ("deprecation", ("use %s instead", "new()"), {}),
        ("error", ("it broke in %d places", 2), {}),
    ],
)
def test_the_same_text_and_category_as_gymnasium(name, args, kwargs):
    ours = _messages(lambda: getattr(logger, name)(*args, **kwargs))
    theirs = _messages(lambda: getattr(gymnasium.logger, name)(*args, **kwargs))
    assert ours == theirs
    assert ours[0][1].startswith("\x1b[3")  # coloured, as Gymnasium colours them


def test_a_percent_sign_without_arguments_is_printed_as_is():
    # Gymnasium formats even without arguments ("100% done" % () raises); palaestra does not.
    assert _messages(lambda: logger.warn("100% done")) == [(UserWarning, "\x1b[33mWARN: 100% done\x1b[0m")]


def test_plain_text_strips_colour_and_prefix():
    assert logger.plain_text("\x1b[33mWARN: a \x1b[1mbold\x1b[0m word\x1b[0m") == "a bold word"
    assert logger.plain_text("\x1b[31mERROR: bad\x1b[0m") == "bad"
    assert logger.plain_text("no decoration") == "no decoration"


def test_min_level_silences_warnings(monkeypatch):
    monkeypatch.setattr(logger, "min_level", logger.ERROR)
    assert _messages(lambda: logger.warn("quiet")) == []
    assert len(_messages(lambda: logger.error("loud"))) == 1
