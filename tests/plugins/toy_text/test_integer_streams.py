"""IntegerStreams (batched Blackjack's card draws) equals Generator.integers bit for bit."""

import numpy as np
import pytest

from palaestra_toy_text._integer_streams import IntegerStreams

# Blackjack's bounds, then bounds whose draws numpy rejects and redraws often (Lemire's method
# rejects with probability (2**32 % n) / 2**32), and the largest.
BOUNDS = [13, 4, 3, 2, 1, 3 * 2**30, 2**31 + 1, 2**32 - 1]


@pytest.mark.parametrize("n", BOUNDS)
@pytest.mark.parametrize("chunk", [2, 7, 64])
def test_each_sub_env_draws_what_its_generator_draws(n, chunk):
    plain = [np.random.default_rng(seed) for seed in range(6)]
    streamed = [np.random.default_rng(seed) for seed in range(6)]
    streams = IntegerStreams(6, streamed, chunk=chunk)
    pick = np.random.default_rng(n % 1000)
    for _ in range(300):
        envs = np.flatnonzero(pick.random(6) < 0.6)
        got = streams.draw(envs, n)[:, 0]
        assert got.dtype == np.int64
        assert got.tolist() == [int(plain[i].integers(n)) for i in envs]


def test_bounds_mixed_in_one_stream_follow_the_generator():
    plain, streamed = np.random.default_rng(5), np.random.default_rng(5)
    streams = IntegerStreams(1, [streamed], chunk=5)
    for n in [13, 4, 3, 2**31 + 1, 13, 1, 3] * 40:
        assert streams.draw(np.array([0]), n).tolist() == [[plain.integers(n)]]


def test_a_pending_half_in_the_generator_comes_first_and_an_odd_chunk_leaves_one():
    """A generator that already drew a 32-bit number hands its pending high half on first."""
    plain, streamed = np.random.default_rng(8), np.random.default_rng(8)
    plain.integers(13)
    streamed.integers(13)  # leaves has_uint32 set
    streams = IntegerStreams(1, [streamed], chunk=4)
    drawn = streams.draw(np.array([0]), 13, 13).tolist()[0]
    assert drawn == [plain.integers(13), plain.integers(13)]
    # After the buffer is used up, the generator continues exactly where the plain one is.
    for _ in range(2):
        streams.draw(np.array([0]), 13)
        plain.integers(13)
    assert streamed.bit_generator.state == plain.bit_generator.state


def test_forget_starts_over_from_a_new_generator():
    generators = [np.random.default_rng(1)]
    streams = IntegerStreams(1, generators)
    streams.draw(np.array([0]), 13)
    generators[0] = np.random.default_rng(2)
    streams.forget(0)
    assert streams.draw(np.array([0]), 13).tolist() == [[np.random.default_rng(2).integers(13)]]


def test_no_envs_draw_nothing():
    streams = IntegerStreams(2, [None, None])
    assert streams.draw(np.array([], dtype=np.int64), 13).shape == (0, 1)


@pytest.mark.parametrize("bounds", [(13, 13, 13, 13, 4), (3, 2**31 + 1, 13), (13, 1, 4), (3 * 2**30,) * 6])
@pytest.mark.parametrize("chunk", [6, 7, 64])
def test_several_bounds_per_call_are_drawn_in_order(bounds, chunk):
    """A row of draws is each bound's integers() in turn; a redraw anywhere shifts the rest, as in numpy."""
    plain = [np.random.default_rng(seed) for seed in range(5)]
    streamed = [np.random.default_rng(seed) for seed in range(5)]
    streams = IntegerStreams(5, streamed, chunk=chunk)
    pick = np.random.default_rng(1)
    for _ in range(200):
        envs = np.flatnonzero(pick.random(5) < 0.7)
        expected = [[int(plain[i].integers(n)) for n in bounds] for i in envs]
        assert streams.draw(envs, *bounds).tolist() == expected


def test_a_sub_env_without_a_generator_is_named():
    streams = IntegerStreams(2, [np.random.default_rng(0), None])
    with pytest.raises(RuntimeError, match="sub-env 1 has no generator yet"):
        streams.draw(np.array([0, 1]), 13)
