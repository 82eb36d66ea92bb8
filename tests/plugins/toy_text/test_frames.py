"""Toy-text frames: our own drawing, on Gymnasium 1.4.0's canvas and grid.

Gymnasium draws these envs from image files, which palaestra does not copy; the pictures
are our own. What is shared is the geometry: the frame's size, each cell's size and where
the grid lies, so a cell's pixels are at the same place in both frames.
"""

import warnings

import gymnasium
import numpy as np
import pytest

import palaestra

pytest.importorskip("pygame", reason="frames need pygame (pip install pygame-ce)")

CASES = [
    ("FrozenLake-v1", {}),
    ("FrozenLake8x8-v1", {}),
    ("FrozenLake-v1", {"map_name": "8x8"}),
    ("FrozenLake-v1", {"desc": ["SFFFFFFFFFFH", "FFFFFFFFFFFF", "FFFFFFFFFFFF", "FFFFFFFFFFFG"]}),
    ("FrozenLake-v1", {"desc": ["SF", "HG"]}),
    ("CliffWalking-v1", {}),
    ("Taxi-v4", {}),
    ("Blackjack-v1", {}),
]


@pytest.mark.parametrize(("env_id", "kwargs"), CASES, ids=[f"{i}-{k}" for i, k in CASES])
def test_frames_have_gymnasiums_size_and_grid(env_id, kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = palaestra.make(env_id, render_mode="rgb_array", **kwargs)
        theirs = gymnasium.make(env_id, render_mode="rgb_array", **kwargs)
    ours.reset(seed=0)
    theirs.reset(seed=0)
    mine, reference = ours.render(), theirs.render()
    assert mine.shape == reference.shape and mine.dtype == reference.dtype == np.uint8
    for name in ("cell_size", "window_size"):
        if hasattr(theirs.unwrapped, name):
            assert tuple(getattr(ours.unwrapped, name)) == tuple(getattr(theirs.unwrapped, name)), name
    assert not np.array_equal(mine, reference), "our own drawing, not Gymnasium's sprites"


def test_taxi_draws_its_cab_in_gymnasiums_cell():
    """The cab's cell (Gymnasium's grid origin and cell size) holds the cab's pixels."""
    env = palaestra.make("Taxi-v4", render_mode="rgb_array")
    env.reset(seed=3)
    row, col, _, _ = env.unwrapped.decode(env.unwrapped.s)
    frame = env.render()
    (x0, y0), (w, h) = env.unwrapped.grid_origin, env.unwrapped.cell_size
    empty = palaestra.make("Taxi-v4", render_mode="rgb_array")
    empty.reset(seed=3)
    empty.unwrapped.s = empty.unwrapped.encode((row + 2) % 5, (col + 2) % 5, 4, 0)
    other = empty.render()
    cell = (slice(y0 + row * h, y0 + (row + 1) * h), slice(x0 + col * w, x0 + (col + 1) * w))
    assert not np.array_equal(frame[cell], other[cell]), "the cab is drawn in its own cell"
