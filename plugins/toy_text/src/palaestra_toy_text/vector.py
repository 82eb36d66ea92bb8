"""Natively batched toy-text envs (the specs' ``vector_entry_point``).

Each reproduces ``SyncVectorEnv`` of ``make(id)`` envs for the same seeds and actions:
sub-env i has its own generator seeded ``seed + i`` and draws exactly what the single env
draws; observations, rewards, flags and infos (including the ``prob`` dtype rule and Taxi's
``action_mask``) match in every autoreset mode, with the time limit applied as ``make``
applies it.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from palaestra.plugin import AutoresetMode, BatchedVectorEnv, invalid_actions
from palaestra_toy_text._blackjack_tables import blackjack_tables
from palaestra_toy_text._uniform_streams import CHUNK, draw_uniforms, new_streams
from palaestra_toy_text.blackjack import BlackjackEnv
from palaestra_toy_text.cliffwalking import CliffWalkingEnv
from palaestra_toy_text.frozen_lake import FrozenLakeEnv
from palaestra_toy_text.taxi import TaxiEnv

__all__ = ["BlackjackVectorEnv", "CliffWalkingVectorEnv", "FrozenLakeVectorEnv", "TaxiVectorEnv"]


class _Batched(BatchedVectorEnv):
    """Spaces, action checks and rendering shared by the batched toy-text envs.

    One single env (``model``) provides the spaces and metadata, and draws each sub-env in
    turn when rendering.
    """

    env_class: type = type(None)
    #: Whether exact integers given as floats are actions (the tabular envs' dict lookup takes them).
    takes_integral_floats = False

    def __init__(
        self,
        num_envs: int,
        max_episode_steps: int | None,
        render_mode: str | None,
        autoreset_mode: Any,
        env_kwargs: dict[str, Any],
    ) -> None:
        self.model = self.env_class(render_mode=render_mode, **env_kwargs)
        self.single_observation_space = self.model.observation_space
        self.single_action_space = self.model.action_space
        super().__init__(num_envs, max_episode_steps, render_mode, autoreset_mode)
        self.metadata = {**self.model.metadata, "autoreset_mode": self.autoreset_mode}

    def check_actions(self, actions: Any) -> np.ndarray:
        """Integer actions within the single env's ``Discrete`` range."""
        arr = np.asarray(actions)
        n = int(self.single_action_space.n)  # type: ignore[attr-defined]
        if arr.dtype.kind == "f" and self.takes_integral_floats and np.array_equal(arr, np.trunc(arr)):
            arr = arr.astype(np.int64)  # exact integers in floats, as the single env takes them
        if arr.shape != (self.num_envs,) or arr.dtype.kind not in "iu" or (arr < 0).any() or (arr >= n).any():
            raise invalid_actions(self, actions)
        return arr

    def render(self) -> tuple[Any, ...] | None:
        """One frame (or text) per sub-env, drawn by the single env in each sub-env's state."""
        frames = []
        for i in range(self.num_envs):
            self._load_model(i)
            frames.append(self.model.render())
        return tuple(frames)

    def begin_reset(
        self, seed: int | list[int | None] | None, options: dict[str, Any] | None
    ) -> tuple[np.ndarray, dict[str, Any] | None]:
        """Seed as the template does; a sub-env given a new generator forgets what was drawn ahead."""
        before = list(self.generators)
        mask, options = super().begin_reset(seed, options)
        for i, (old, new) in enumerate(zip(before, self.generators, strict=True)):
            if old is not new:
                self.forget(i)
        return mask, options

    def forget(self, i: int) -> None:
        """Sub-env ``i`` has a new generator: drop whatever was read ahead from its old one."""

    def _load_model(self, i: int) -> None:
        raise NotImplementedError

    def close_extras(self, **kwargs: Any) -> None:
        """Close the drawing model."""
        self.model.close()


class _TabularBatched(_Batched):
    """Batched FrozenLake/CliffWalking/Taxi from the single env's transition table.

    Each step and reset draws one uniform number per sub-env from its own generator, through
    :func:`~palaestra_toy_text._uniform_streams.draw_uniforms` (``Generator.random`` for many
    generators at once) unless a sub-env also draws otherwise (Taxi's fickle passenger).
    """

    snapshot_fields = (
        *BatchedVectorEnv.snapshot_fields,
        "states",
        "lastactions",
        "_probs",
        "uniform_words",
        "uniform_next",
    )
    row_axes: ClassVar[dict[str, int | None] | None] = {
        "states": 0,
        "lastactions": 0,
        "_probs": 0,
        "uniform_words": 0,
        "uniform_next": 0,
    }
    takes_integral_floats = True

    reset_prob: Any = 1

    def __init__(
        self,
        num_envs: int = 1,
        max_episode_steps: int | None = None,
        render_mode: str | None = None,
        autoreset_mode: Any = AutoresetMode.NEXT_STEP,
        **kwargs: Any,
    ) -> None:
        super().__init__(num_envs, max_episode_steps, render_mode, autoreset_mode, kwargs)
        self._tables()
        self.states = np.zeros(num_envs, dtype=np.int64)
        self.lastactions = np.full(num_envs, -1, dtype=np.int64)  # -1: none since the reset
        self._probs = np.zeros(num_envs)  # each sub-env's last transition probability
        self.uniform_words, self.uniform_next = new_streams(num_envs)

    def _tables(self) -> None:
        model = self.model
        width = max(len(model.P[s][a]) for s in model.P for a in model.P[s])
        shape = (model.nS, model.nA, width)
        # Padding never wins the draw: -inf is never above a uniform number.
        self._cum = np.full(shape, -np.inf)
        self._next = np.zeros(shape, dtype=np.int64)
        self._reward = np.zeros(shape)
        self._term = np.zeros(shape, dtype=np.bool_)
        self._prob = np.zeros(shape)
        for s in range(model.nS):
            for a in range(model.nA):
                cumulative, transitions = model._table[s][a]
                k = len(transitions)
                self._cum[s, a, :k] = cumulative
                self._next[s, a, :k] = [t[1] for t in transitions]
                self._reward[s, a, :k] = [t[2] for t in transitions]
                self._term[s, a, :k] = [t[3] for t in transitions]
                self._prob[s, a, :k] = [t[0] for t in transitions]
        self._initial = np.asarray(model._initial_cumulative)

    def _draws_otherwise(self) -> bool:
        """Whether a sub-env draws more than one uniform number a step or reset (then no streams)."""
        return False

    def _draws(self, mask: np.ndarray | None) -> np.ndarray:
        """One uniform number from each chosen sub-env's generator (every one when None)."""
        if self._draws_otherwise():
            indices = range(self.num_envs) if mask is None else np.flatnonzero(mask).tolist()
            return np.array([self.rng(i).random() for i in indices], dtype=np.float64)
        envs = np.arange(self.num_envs) if mask is None else np.flatnonzero(mask)
        # rng(i): a never-seeded sub-env's generator from OS entropy, as the single env's.
        return draw_uniforms(self.rng, self.uniform_words, self.uniform_next, envs)

    def forget(self, i: int) -> None:
        """Sub-env ``i`` has a new generator: drop what its stream read from the old one."""
        self.uniform_next[i] = CHUNK

    def reset_envs(self, mask: np.ndarray, options: dict[str, Any] | None) -> None:
        """Draw each chosen sub-env's initial state from the initial-state distribution."""
        u = self._draws(mask)
        self.states[mask] = np.argmax(self._initial[None, :] > u[:, None], axis=1)
        self.lastactions[mask] = -1
        self._reset_extras(mask)

    def _reset_extras(self, mask: np.ndarray) -> None:
        """Draws a sub-class makes at reset after the initial state (Taxi's fickle passenger)."""

    def advance(self, actions: Any, stepping: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
        """One transition per stepping sub-env, each drawn with one uniform number."""
        rewards = np.zeros(self.num_envs)
        terminated = np.zeros(self.num_envs, dtype=np.bool_)
        chosen = np.ones(self.num_envs, dtype=np.bool_) if stepping is None else stepping
        if chosen.any():
            states, moves = self.states[chosen], actions[chosen]
            cum = self._cum[states, moves]
            k = np.argmax(cum > self._draws(stepping)[:, None], axis=1)  # first cumulative above u
            idx = (states, moves, k)
            after = self.states.copy()
            after[chosen] = self._next[idx]
            rewards[chosen], terminated[chosen], self._probs[chosen] = (
                self._reward[idx],
                self._term[idx],
                self._prob[idx],
            )
            self.states = self._after_transition(after, chosen)
        self.lastactions[chosen] = actions[chosen]
        return rewards, terminated

    def _after_transition(self, states: np.ndarray, stepping: np.ndarray) -> np.ndarray:
        """Hook for draws after the transition (Taxi's fickle passenger)."""
        return states

    def observe(self) -> np.ndarray:
        """Each sub-env's state index."""
        states: np.ndarray = self.states.copy()
        return states

    def final_observation(self, observation: Any, i: int) -> int:
        """The state index as the single env returns it: a Python int."""
        return int(observation[i])

    def info(self, reported: np.ndarray, reset: np.ndarray) -> dict[str, Any]:
        """``prob`` (the last transition's probability, or the reset's) where reported."""
        probs = np.where(reset, self.reset_prob, self._probs) * reported
        # The batched dtype is the type of the first reporting sub-env's value (SyncVectorEnv's
        # rule); a reset's prob is the int 1 for FrozenLake and CliffWalking.
        first = int(np.argmax(reported))
        if isinstance(self.reset_prob, int) and reset[first]:
            probs = probs.astype(np.int64)
        return {"prob": probs, "_prob": reported.copy()}

    def _load_model(self, i: int) -> None:
        self.model.s = int(self.states[i])
        last = int(self.lastactions[i])
        self.model.lastaction = None if last < 0 else last


class FrozenLakeVectorEnv(_TabularBatched):
    """``FrozenLake-v1``/``FrozenLake8x8-v1`` for ``num_envs`` lakes at once.

    Args:
        num_envs: Number of sub-environments.
        max_episode_steps: Steps before truncation (``make_vec`` passes the registration's).
        render_mode: ``"ansi"``, ``"rgb_array"`` or ``None``.
        autoreset_mode: An :class:`~palaestra.vector.AutoresetMode` or its value.
        **kwargs: ``FrozenLakeEnv`` arguments (``map_name``, ``desc``, ``is_slippery``, ...).
    """

    env_class = FrozenLakeEnv


class CliffWalkingVectorEnv(_TabularBatched):
    """``CliffWalking-v1``/``CliffWalkingSlippery-v1`` for ``num_envs`` walkers at once.

    Args:
        num_envs: Number of sub-environments.
        max_episode_steps: Steps before truncation (``None``: the registrations have none).
        render_mode: ``"ansi"``, ``"rgb_array"`` or ``None``.
        autoreset_mode: An :class:`~palaestra.vector.AutoresetMode` or its value.
        **kwargs: ``CliffWalkingEnv`` arguments (``is_slippery``).
    """

    env_class = CliffWalkingEnv


class TaxiVectorEnv(_TabularBatched):
    """``Taxi-v4`` for ``num_envs`` taxis at once (infos carry ``prob`` and ``action_mask``).

    Args:
        num_envs: Number of sub-environments.
        max_episode_steps: Steps before truncation (``make_vec`` passes 200).
        render_mode: ``"ansi"``, ``"rgb_array"`` or ``None``.
        autoreset_mode: An :class:`~palaestra.vector.AutoresetMode` or its value.
        **kwargs: ``TaxiEnv`` arguments (``is_rainy``, ``fickle_passenger``, ...).
    """

    snapshot_fields = (*_TabularBatched.snapshot_fields, "fickle_steps")
    row_axes = {**_TabularBatched.row_axes, "fickle_steps": 0}  # type: ignore[dict-item]

    env_class = TaxiEnv
    reset_prob = 1.0

    def __init__(
        self,
        num_envs: int = 1,
        max_episode_steps: int | None = None,
        render_mode: str | None = None,
        autoreset_mode: Any = AutoresetMode.NEXT_STEP,
        **kwargs: Any,
    ) -> None:
        super().__init__(num_envs, max_episode_steps, render_mode, autoreset_mode, **kwargs)
        self._mask_table = np.array(self.model._masks, dtype=np.int8)
        self.fickle_steps = np.zeros(num_envs, dtype=np.bool_)

    def info(self, reported: np.ndarray, reset: np.ndarray) -> dict[str, Any]:
        """``prob`` (always float) and the ``action_mask`` of each reporting sub-env's state."""
        action_mask = self._mask_table[self.states] * reported[:, None].astype(np.int8)
        return {
            "prob": np.where(reset, self.reset_prob, self._probs) * reported,
            "_prob": reported.copy(),
            "action_mask": action_mask,
            "_action_mask": reported.copy(),
        }

    def _draws_otherwise(self) -> bool:
        return bool(self.model.fickle_passenger)  # a second draw at reset, integers on the way

    def _reset_extras(self, mask: np.ndarray) -> None:
        if not self.model.fickle_passenger:
            self.fickle_steps[mask] = False  # what fickle_at_reset says without drawing
            return
        for i in np.flatnonzero(mask).tolist():
            self.fickle_steps[i] = self.model.fickle_at_reset(self.rng(i))

    def _after_transition(self, states: np.ndarray, stepping: np.ndarray) -> np.ndarray:
        if not self.model.fickle_passenger:
            return states
        for i in np.flatnonzero(stepping & self.fickle_steps).tolist():
            changed = self.model.changed_destination(
                int(self.states[i]), int(states[i]), self.rng(i).integers
            )
            if changed is not None:
                self.fickle_steps[i] = False
                states[i] = changed
        return states


class BlackjackVectorEnv(_Batched):
    """``Blackjack-v1`` for ``num_envs`` tables played together (each dealt from its own generator).

    Each table's cards come from its own generator in the order the single env draws them,
    so the results are ``SyncVectorEnv``'s. The tables are dealt and played in C where the
    optional kernel is built (``_blackjack_tables.CompiledTables``); otherwise in Python, up to
    :data:`~palaestra_toy_text._blackjack_tables.ARRAY_TABLES` tables one by one with the
    single env's rules, more as rows of arrays (``_blackjack_tables``), drawing through
    :class:`~palaestra_toy_text._integer_streams.IntegerStreams`.

    Args:
        num_envs: Number of sub-environments.
        max_episode_steps: Steps before truncation (``None``: the registration has none).
        render_mode: ``"rgb_array"`` or ``None``.
        autoreset_mode: An :class:`~palaestra.vector.AutoresetMode` or its value.
        **kwargs: ``BlackjackEnv`` arguments (``natural``, ``sab``).
    """

    snapshot_fields = (*BatchedVectorEnv.snapshot_fields, "tables")

    env_class = BlackjackEnv

    def __init__(
        self,
        num_envs: int = 1,
        max_episode_steps: int | None = None,
        render_mode: str | None = None,
        autoreset_mode: Any = AutoresetMode.NEXT_STEP,
        **kwargs: Any,
    ) -> None:
        super().__init__(num_envs, max_episode_steps, render_mode, autoreset_mode, kwargs)
        self.tables = blackjack_tables(num_envs, self.generators, self.model)

    def forget(self, i: int) -> None:
        """Table ``i`` has a new generator: drop the draws read ahead from the old one."""
        self.tables.forget(i)

    def reset_envs(self, mask: np.ndarray, options: dict[str, Any] | None) -> None:
        """Deal new hands at the chosen tables."""
        tables = np.flatnonzero(mask)
        if None in self.generators:  # never seeded: from OS entropy, as the single env
            for i in tables.tolist():
                self.rng(i)
        self.tables.deal(tables)

    def advance(self, actions: Any, stepping: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
        """Every stepping table's move: hit (1) or stick (0)."""
        hit = actions.astype(np.bool_)
        stick = ~hit
        if stepping is not None:
            hit &= stepping
            stick &= stepping
        return self.tables.play(hit, stick)

    def observe(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Player sums, dealer's showing cards, usable aces: one array each."""
        return self.tables.observe()

    def final_observation(self, observation: Any, i: int) -> tuple[int, ...]:
        """Table ``i``'s observation as the single env returns it: a tuple of Python ints."""
        return tuple(int(column[i]) for column in observation)

    def _load_model(self, i: int) -> None:
        model = self.model
        model.player, model.dealer, shown = self.tables.hand(i)
        model.dealer_top_card_value_str, model.dealer_top_card_suit = shown
