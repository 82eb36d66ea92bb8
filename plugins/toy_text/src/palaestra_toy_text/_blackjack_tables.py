"""The tables of batched Blackjack: compiled, or in Python (a few one by one, many as arrays).

Every kind deals and plays exactly as :mod:`palaestra_toy_text.blackjack` does, each table
drawing from its own generator in the single env's order. :class:`ListTables` *is* the single
env's rules (``deal``, ``play``, ``observe`` on Python lists), table after table: the
specification. :class:`ArrayTables` spells the same rules as array operations over every
table at once, which wins from :data:`ARRAY_TABLES` tables on; both draw through
:class:`~palaestra_toy_text._integer_streams.IntegerStreams`. :class:`CompiledTables` plays
them in C (``_blackjack_kernel.c``, built where a C compiler is: optional), drawing straight
from each generator, and is the one chosen whenever it is built. The batched env's tests hold
all three to ``SyncVectorEnv`` of single envs.
"""

from __future__ import annotations

import copy
from functools import partial
from typing import Any

import numpy as np

from palaestra_toy_text._integer_streams import IntegerStreams
from palaestra_toy_text.blackjack import DECK, deal, observe, play, shown_card

try:  # optional dependency: the compiled tables, built where a C compiler is
    from palaestra_toy_text import _blackjack_kernel as kernel
except ImportError:
    kernel = None

__all__ = ["ARRAY_TABLES", "ArrayTables", "CompiledTables", "ListTables", "blackjack_tables"]

#: From this many tables on, the array spelling of the rules is the faster (of the Python kinds).
ARRAY_TABLES = 48


def blackjack_tables(
    num_envs: int, generators: list[np.random.Generator | None], model: Any
) -> ListTables | ArrayTables | CompiledTables:
    """The fastest kind of tables for ``num_envs`` (``model``: a ``BlackjackEnv`` with the rules' flags).

    ``generators`` is the vector env's list of the tables' generators, kept current by it.
    """
    if kernel is not None:
        return CompiledTables(generators, model.natural, model.sab)
    kind = ArrayTables if num_envs >= ARRAY_TABLES else ListTables
    return kind(num_envs, IntegerStreams(num_envs, generators), model.natural, model.sab)


class _Tables:
    """What the Python kinds of tables hold: a stream of draws per table and the rules' two flags.

    Args:
        num_envs: Number of tables.
        streams: One stream of draws per table.
        natural: Pay 1.5 for a winning natural (ignored when ``sab``).
        sab: Sutton & Barto's rules.
    """

    def __init__(self, num_envs: int, streams: IntegerStreams, natural: bool, sab: bool) -> None:
        self.streams, self.natural, self.sab = streams, natural, sab

    def forget(self, i: int) -> None:
        """Table ``i`` has a new generator: drop the draws read ahead from the old one."""
        self.streams.forget(i)


class ListTables(_Tables):
    """Tables played one by one with the single env's rules, on Python lists."""

    def __init__(self, num_envs: int, streams: IntegerStreams, natural: bool, sab: bool) -> None:
        super().__init__(num_envs, streams, natural, sab)
        self.players: list[list[int]] = [[] for _ in range(num_envs)]
        self.dealers: list[list[int]] = [[] for _ in range(num_envs)]
        self.shown: list[tuple[str, str]] = [("", "")] * num_envs

    def deal(self, tables: np.ndarray) -> None:
        """New hands at the listed tables."""
        draw_one = self.streams.draw_one
        for i in tables.tolist():
            self.dealers[i], self.players[i], self.shown[i] = deal(partial(draw_one, i))

    def play(self, hit: np.ndarray, stick: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """One move at each table that hits or sticks; rewards and ends of every table."""
        rewards = np.zeros(hit.size)
        ended = np.zeros(hit.size, dtype=np.bool_)
        draw_one, natural, sab = self.streams.draw_one, self.natural, self.sab
        players, dealers = self.players, self.dealers
        for i in np.flatnonzero(hit | stick).tolist():
            rewards[i], ended[i] = play(players[i], dealers[i], hit[i], partial(draw_one, i), natural, sab)
        return rewards, ended

    def observe(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Player sums, dealer's showing cards, usable aces: one array each."""
        sums, showing, aces = zip(*map(observe, self.players, self.dealers), strict=True)
        return np.array(sums), np.array(showing), np.array(aces)

    def hand(self, i: int) -> tuple[list[int], list[int], tuple[str, str]]:
        """Table ``i``'s player and dealer cards and the dealer card's face and suit."""
        return self.players[i], self.dealers[i], self.shown[i]


class ArrayTables(_Tables):
    """Tables as rows of arrays, every move a few array operations over all of them."""

    def __init__(self, num_envs: int, streams: IntegerStreams, natural: bool, sab: bool) -> None:
        super().__init__(num_envs, streams, natural, sab)
        self.player = _Hands(num_envs)
        self.dealer = _Hands(num_envs)
        self.shown = np.zeros((num_envs, 2), dtype=np.int64)  # the suit and face (-1: none) drawn
        self._deck = np.array(DECK, dtype=np.int64)

    def deal(self, tables: np.ndarray) -> None:
        """New hands at the listed tables (the draws of :func:`blackjack.deal`, in its order)."""
        drawn = self.streams.draw(tables, 13, 13, 13, 13, 4)
        cards = self._deck[drawn[:, :4]]
        self.dealer.deal(tables, cards[:, 0], cards[:, 1])
        self.player.deal(tables, cards[:, 2], cards[:, 3])
        self.shown[tables, 0] = drawn[:, 4]
        self.shown[tables, 1] = -1
        tens = tables[cards[:, 0] == 10]  # a ten-card also draws the face shown
        self.shown[tens, 1] = self.streams.draw(tens, 3)[:, 0]

    def play(self, hit: np.ndarray, stick: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """One move at each table that hits or sticks (the rules of :func:`blackjack.play`)."""
        hitting = np.flatnonzero(hit)
        if hitting.size:
            self.player.add(hitting, self._card(hitting))
        bust = hit & (self.player.value() > 21)
        rewards = np.where(bust, -1.0, 0.0)
        if stick.any():
            rewards = np.where(stick, self._showdown(stick), rewards)
        return rewards, bust | stick

    def _card(self, tables: np.ndarray) -> np.ndarray:
        cards: np.ndarray = self._deck[self.streams.draw(tables, 13)[:, 0]]
        return cards

    def _showdown(self, sticking: np.ndarray) -> np.ndarray:
        """The sticking tables' dealers draw to 17; every hand is scored (naturals as the rules say)."""
        while True:
            drawing = np.flatnonzero(sticking & (self.dealer.value() < 17))
            if not drawing.size:
                break
            self.dealer.add(drawing, self._card(drawing))
        mine, theirs = self.player.score(), self.dealer.score()
        reward = (mine > theirs).astype(np.float64) - (mine < theirs)
        natural = self.player.natural()
        if self.sab:
            reward[natural & ~self.dealer.natural()] = 1.0
        elif self.natural:
            reward[natural & (reward == 1.0)] = 1.5
        return reward

    def observe(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Player sums, dealer's showing cards, usable aces: one array each."""
        return self.player.value(), self.dealer.cards[:, 0].copy(), self.player.usable_ace()

    def hand(self, i: int) -> tuple[list[int], list[int], tuple[str, str]]:
        """Table ``i``'s player and dealer cards and the dealer card's face and suit."""
        dealer = self.dealer.hand(i)
        suit, face = self.shown[i].tolist()
        return self.player.hand(i), dealer, shown_card(dealer[0], suit, None if face < 0 else face)


class CompiledTables:
    """The tables played in C (``_blackjack_kernel``), drawing straight from each table's generator.

    Args:
        generators: The vector env's list of the tables' generators (read at every call).
        natural: Pay 1.5 for a winning natural (ignored when ``sab``).
        sab: Sutton & Barto's rules.
    """

    def __init__(self, generators: list[np.random.Generator | None], natural: bool, sab: bool) -> None:
        self.generators, self.natural, self.sab = generators, natural, sab
        self._kernel = kernel.BlackjackKernel(generators, natural, sab)
        n = len(generators)
        self._rewards = np.zeros(n)
        self._ended = np.zeros(n, dtype=np.bool_)

    def forget(self, i: int) -> None:
        """Nothing to drop: the kernel reads no draws ahead."""

    def deal(self, tables: np.ndarray) -> None:
        """New hands at the listed tables."""
        self._kernel.deal(np.ascontiguousarray(tables, dtype=np.int64))

    def play(self, hit: np.ndarray, stick: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """One move at each table that hits or sticks; rewards and ends of every table."""
        self._kernel.play(hit, stick, self._rewards, self._ended)
        return self._rewards.copy(), self._ended.copy()

    def observe(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Player sums, dealer's showing cards, usable aces: one array each."""
        n = len(self.generators)
        sums, showing, aces = np.empty(n, np.int64), np.empty(n, np.int64), np.empty(n, np.int64)
        self._kernel.observe(sums, showing, aces)
        return sums, showing, aces

    def hand(self, i: int) -> tuple[list[int], list[int], tuple[str, str]]:
        """Table ``i``'s player and dealer cards and the dealer card's face and suit."""
        player, dealer, suit, face = self._kernel.hand(i)
        return player, dealer, shown_card(dealer[0], suit, None if face < 0 else face)

    def __deepcopy__(self, memo: dict[int, Any]) -> CompiledTables:
        # The generators through the memo: a snapshot copies them with the vector env's list.
        clone = CompiledTables(copy.deepcopy(self.generators, memo), self.natural, self.sab)
        clone._kernel.set_state(self._kernel.state())
        return clone

    def __reduce__(self) -> tuple[Any, ...]:
        return (_compiled_tables, (self.generators, self.natural, self.sab, self._kernel.state()))


def _compiled_tables(
    generators: list[np.random.Generator | None], natural: bool, sab: bool, state: bytes
) -> CompiledTables:
    """Compiled tables from their pickled parts."""
    tables = CompiledTables(generators, natural, sab)
    tables._kernel.set_state(state)
    return tables


class _Hands:
    """One hand per table: its cards, their count, their sum (aces as 1) and whether it holds an ace.

    The array spelling of :mod:`palaestra_toy_text.blackjack`'s hand rules (``usable_ace``,
    ``sum_hand``, ``score``, ``is_natural``), for every table at once.
    """

    #: The most cards a hand can hold: 21 aces and the card that busts them.
    WIDTH = 22

    def __init__(self, num_envs: int) -> None:
        self.cards = np.zeros((num_envs, self.WIDTH), dtype=np.int64)
        self.count = np.zeros(num_envs, dtype=np.int64)
        self.total = np.zeros(num_envs, dtype=np.int64)
        self.ace = np.zeros(num_envs, dtype=np.bool_)

    def deal(self, tables: np.ndarray, first: np.ndarray, second: np.ndarray) -> None:
        """Two cards at each listed table (its old hand is gone)."""
        self.cards[tables] = 0
        self.cards[tables, 0], self.cards[tables, 1] = first, second
        self.count[tables] = 2
        self.total[tables] = first + second
        self.ace[tables] = (first == 1) | (second == 1)

    def add(self, tables: np.ndarray, card: np.ndarray) -> None:
        """One card more at each listed table."""
        self.cards[tables, self.count[tables]] = card
        self.count[tables] += 1
        self.total[tables] += card
        self.ace[tables] |= card == 1

    def usable_ace(self) -> np.ndarray:
        """1 where an ace can count 11 without busting."""
        return (self.ace & (self.total <= 11)).astype(np.int64)

    def value(self) -> np.ndarray:
        """Each hand's value, a usable ace counted 11."""
        value: np.ndarray = self.total + 10 * self.usable_ace()
        return value

    def score(self) -> np.ndarray:
        """Each hand's value, 0 when bust."""
        value = self.value()
        score: np.ndarray = np.where(value > 21, 0, value)
        return score

    def natural(self) -> np.ndarray:
        """Whether each hand is an ace and a ten-card."""
        natural: np.ndarray = (self.count == 2) & self.ace & (self.total == 11)
        return natural

    def hand(self, i: int) -> list[int]:
        """Table ``i``'s cards as the single env keeps them."""
        cards: list[int] = self.cards[i, : self.count[i]].tolist()
        return cards
