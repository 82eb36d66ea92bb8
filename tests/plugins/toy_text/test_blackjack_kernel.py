"""The compiled Blackjack tables' own contract: draws, copies and the errors that name the culprit.

``test_vector.py`` holds every kind of tables to ``SyncVectorEnv`` of single envs; these
cases pin what only the compiled kind has.
"""

import copy
import pickle

import numpy as np
import pytest

from palaestra_toy_text import _blackjack_tables
from palaestra_toy_text.blackjack import deal

pytestmark = pytest.mark.skipif(
    _blackjack_tables.kernel is None, reason="the compiled Blackjack tables are not built (no C compiler)"
)


def tables(n, seed=0):
    generators = [np.random.default_rng(seed + i) for i in range(n)]
    return generators, _blackjack_tables.CompiledTables(generators, natural=False, sab=False)


def test_a_deal_draws_what_generator_integers_draws():
    generators, compiled = tables(3)
    compiled.deal(np.arange(3))
    for i in range(3):
        plain = np.random.default_rng(i)
        dealer, player, shown = deal(lambda n, g=plain: int(g.integers(n)))
        assert compiled.hand(i) == (player, dealer, shown)
        # The generator is left where the plain draws leave it.
        assert generators[i].bit_generator.state == plain.bit_generator.state


def test_a_new_generator_in_the_list_is_drawn_from_at_once():
    generators, compiled = tables(2)
    generators[1] = np.random.default_rng(99)
    compiled.deal(np.array([1]))
    plain = np.random.default_rng(99)
    dealer, player, shown = deal(lambda n: int(plain.integers(n)))
    assert compiled.hand(1) == (player, dealer, shown)


def test_copies_and_pickles_keep_the_hands_and_their_generators_paired():
    generators, compiled = tables(4)
    compiled.deal(np.arange(4))
    memo = {}
    twin_generators = copy.deepcopy(generators, memo)
    twin = copy.deepcopy(compiled, memo)
    assert twin.generators is twin_generators
    revived_generators, revived = pickle.loads(pickle.dumps((generators, compiled)))
    assert revived.generators is revived_generators
    hit = np.array([True, False, True, False])
    stick = ~hit
    expected = compiled.play(hit, stick), compiled.observe()
    for other in (twin, revived):
        got = other.play(hit, stick), other.observe()
        assert all(
            np.array_equal(a, b) for a, b in zip(got[0] + got[1], expected[0] + expected[1], strict=True)
        )


def test_a_table_without_a_generator_is_named():
    _, compiled = tables(2)
    compiled.generators[1] = None
    with pytest.raises(RuntimeError, match="sub-env 1 has no generator yet"):
        compiled.deal(np.array([0, 1]))


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (lambda k: k.deal(np.array([5])), IndexError, "table 5 is not one of 2"),
        (lambda k: k.deal(np.array([0.0])), TypeError, "tables must be a C-contiguous array"),
        (lambda k: k.hand(-1), IndexError, "table -1 is not one of 2"),
        (lambda k: k.set_state(b"x"), ValueError, "the state is of 1 bytes"),
        (
            lambda k: k.play(np.zeros(3, bool), np.zeros(2, bool), np.zeros(2), np.zeros(2, bool)),
            TypeError,
            "hit must be a C-contiguous array of 2 items",
        ),
    ],
    ids=["deal index", "deal dtype", "hand index", "state size", "play length"],
)
def test_bad_input_to_the_kernel_is_named(call, error, words):
    _, compiled = tables(2)
    with pytest.raises(error, match=words):
        call(compiled._kernel)
