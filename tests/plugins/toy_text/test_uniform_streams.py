"""``draw_uniforms``: many generators' ``random()`` at once, held to ``Generator.random`` bit for bit."""

import numpy as np

from palaestra_toy_text._uniform_streams import CHUNK, draw_uniforms, new_streams


def test_every_sub_env_sees_its_own_generators_numbers_in_order():
    n = 7
    ours = [np.random.default_rng(100 + i) for i in range(n)]
    plain = [np.random.default_rng(100 + i) for i in range(n)]
    # A pending 32-bit half (left by an integers draw) is neither used nor dropped by random().
    for generators in (ours, plain):
        generators[3].integers(5)
    words, next_word = new_streams(n)
    chooser = np.random.default_rng(0)
    for _ in range(3 * CHUNK):
        envs = np.flatnonzero(chooser.random(n) < 0.6)
        got = draw_uniforms(ours.__getitem__, words, next_word, envs)
        expected = np.array([plain[i].random() for i in envs.tolist()], dtype=np.float64)
        assert got.dtype == np.float64 and got.tobytes() == expected.tobytes()
    # What is left unread in a row is what the generator gives next.
    for i in range(n):
        rest = words[i, next_word[i] :]
        assert [int(w) for w in rest] == [int(w) for w in plain[i].bit_generator.random_raw(rest.size)]


def test_generators_are_asked_for_only_when_a_stream_refills():
    """A never-seeded sub-env's generator can be made there: no scan of the generators a step."""
    generators = [np.random.default_rng(0), np.random.default_rng(1)]
    asked = []

    def generator_of(i):
        asked.append(i)
        return generators[i]

    words, next_word = new_streams(2)
    for _ in range(CHUNK + 1):
        draw_uniforms(generator_of, words, next_word, np.array([0, 1]))
    assert asked == [0, 1, 0, 1]  # the first draw, then after CHUNK draws each
