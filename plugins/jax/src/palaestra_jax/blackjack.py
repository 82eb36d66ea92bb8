"""Blackjack as a JAX functional env (``tabular/Blackjack-v0``).

Gymnasium 1.4.0's tabular Blackjack: an infinite deck, hands kept as 21-slot float32
arrays (0 = no card), every card drawn with a fresh split of the key, and Sutton & Barto's
rules (a natural beats a dealer without one). The state is :class:`EnvState`.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from palaestra import spaces
from palaestra.plugin import FuncEnv
from palaestra_jax._jax import import_jax
from palaestra_jax._render import ClassicFrames, DrawnByEnv
from palaestra_jax.functional_jax_env import CompiledJaxEnv, KeywordParams

__all__ = ["BlackJackJaxEnv", "BlackJackParams", "BlackjackFunctional", "EnvState"]

jax = import_jax()
jnp, random = jax.numpy, jax.random

# Card values of one suit: ace (1) to nine, then ten and the three faces (10 each).
DECK = jnp.array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10])


class EnvState(NamedTuple):
    """The whole game: both hands, how many cards each holds, and whether the game is over."""

    dealer_hand: Any
    player_hand: Any
    dealer_cards: Any
    player_cards: Any
    done: Any


class BlackJackParams(NamedTuple):
    """Rule switches (``sutton_and_barto`` wins over ``natural``)."""

    natural: bool = False
    sutton_and_barto: bool = True


def _card(key: Any) -> tuple[Any, Any]:
    """A card drawn with replacement, and the key that drew it (the next draw splits it)."""
    key = random.split(key)[0]
    return random.choice(key, DECK, shape=(1,))[0].astype(int), key


def _deal(key: Any, hand: Any, index: Any) -> tuple[Any, Any, Any]:
    card, key = _card(key)
    return key, hand.at[index].set(card), index + 1


def _opening_hand(key: Any, hand: Any) -> tuple[Any, Any]:
    for slot in (0, 1):
        card, key = _card(key)
        hand = hand.at[slot].set(card)
    return hand, key


def usable_ace(hand: Any) -> Any:
    """An ace that can count 11 without going bust."""
    return jnp.logical_and(jnp.any(hand == 1), jnp.sum(hand) + 10 <= 21)


def sum_hand(hand: Any) -> Any:
    """The hand's points, a usable ace counted as 11."""
    return jnp.sum(hand) + (10 * usable_ace(hand))


def is_bust(hand: Any) -> Any:
    """More than 21 points."""
    return sum_hand(hand) > 21


def score(hand: Any) -> Any:
    """The points, or 0 for a bust hand."""
    return jnp.logical_not(is_bust(hand)) * sum_hand(hand)


def is_natural(hand: Any) -> Any:
    """Exactly two cards: an ace and a ten-valued card."""
    two_cards = jnp.count_nonzero(hand) == 2
    return jnp.logical_and(
        jnp.logical_and(two_cards, jnp.count_nonzero(hand == 1) > 0), jnp.count_nonzero(hand == 10) > 0
    )


def _compare(a: Any, b: Any) -> Any:
    return (a > b).astype(int) - (a < b).astype(int)


def _hit(game: tuple[EnvState, Any]) -> tuple[EnvState, Any]:
    state, key = game
    key, hand, _ = _deal(key, state.player_hand, state.player_cards)
    return state._replace(player_hand=hand, player_cards=state.player_cards + 1, done=0), key


def _stick(game: tuple[EnvState, Any]) -> tuple[EnvState, Any]:
    """The dealer draws until 17 or more; the game is over."""
    state, key = game
    key, hand, count = jax.lax.while_loop(
        lambda deal: sum_hand(deal[1]) < 17,
        lambda deal: _deal(*deal),
        (key, state.dealer_hand, state.dealer_cards),
    )
    return state._replace(dealer_hand=hand, dealer_cards=count, done=1), key


class BlackjackFunctional(
    DrawnByEnv, KeywordParams, FuncEnv[EnvState, Any, Any, Any, Any, Any, BlackJackParams]
):
    """Blackjack as pure functions of an :class:`EnvState`; actions 0 stick, 1 hit."""

    drawn_by = ("palaestra_toy_text.blackjack", "BlackjackEnv")
    params_type = BlackJackParams

    default_params: BlackJackParams
    action_space = spaces.Discrete(2)
    observation_space = spaces.Box(
        low=np.array([1, 1, 0]), high=np.array([32, 11, 1]), shape=(3,), dtype=np.int32
    )

    def initial(self, rng: Any, params: BlackJackParams | None = None) -> EnvState:
        """Two cards each, the player's first."""
        player, rng = _opening_hand(rng, jnp.zeros(21))
        dealer, rng = _opening_hand(rng, jnp.zeros(21))
        return EnvState(dealer_hand=dealer, player_hand=player, dealer_cards=2, player_cards=2, done=0)

    def transition(
        self, state: EnvState, action: Any, key: Any, params: BlackJackParams | None = None
    ) -> EnvState:
        """Hit (draw a card; a bust ends the game) or stick (the dealer plays; the game ends)."""
        played: EnvState = jax.lax.cond(action, _hit, _stick, (state, key))[0]
        done = (is_bust(played.player_hand) * action) + (jnp.logical_not(action) * 1)
        return played._replace(done=done)

    def observation(self, state: EnvState, rng: Any, params: BlackJackParams | None = None) -> Any:
        """``(player's points, dealer's showing card, usable ace)`` as int32."""
        return jnp.array(
            [sum_hand(state.player_hand), state.dealer_hand[0], usable_ace(state.player_hand) * 1.0],
            dtype=np.int32,
        )

    def terminal(self, state: EnvState, rng: Any, params: BlackJackParams | None = None) -> Any:
        """The game is over."""
        return state.done > 0

    def reward(
        self,
        state: EnvState,
        action: Any,
        next_state: EnvState,
        rng: Any,
        params: BlackJackParams | None = None,
    ) -> Any:
        """-1 for a bust hit; on sticking +1, 0 or -1 by the scores (naturals per the rules)."""
        p = params or self.default_params
        dealer, player = next_state.dealer_hand, next_state.player_hand
        reward = (
            0.0
            + (is_bust(player) * -1 * action)
            + (jnp.logical_not(action) * _compare(score(player), score(dealer)))
        )
        if p.natural and not p.sutton_and_barto:
            natural_win = jnp.logical_and(is_natural(player), reward == 1)
            reward = reward * jnp.logical_not(natural_win) + 1.5 * natural_win
        if p.sutton_and_barto:
            natural_win = jnp.logical_and(is_natural(player), jnp.logical_not(is_natural(dealer)))
            reward = reward * jnp.logical_not(natural_win) + 1 * natural_win
        return reward

    def render_image(
        self, state: EnvState, render_state: ClassicFrames, params: BlackJackParams | None = None
    ) -> tuple[ClassicFrames, np.ndarray]:
        """The table of ``state``, drawn as toy-text Blackjack draws its game."""
        player = [int(card) for card in np.asarray(state.player_hand) if card]
        dealer = [int(card) for card in np.asarray(state.dealer_hand) if card]
        showing = dealer[0]
        face = "A" if showing == 1 else ("K" if showing == 10 else str(showing))
        return render_state, render_state.frame(player=player, dealer=dealer, dealer_top_card_value_str=face)


class BlackJackJaxEnv(CompiledJaxEnv):
    """``tabular/Blackjack-v0``: :class:`BlackjackFunctional` jit-compiled; keywords set :class:`BlackJackParams`."""

    functional = BlackjackFunctional
    metadata = {"render_modes": ["rgb_array"], "render_fps": 50, "jax": True}
