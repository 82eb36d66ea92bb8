"""BatchedVectorEnv: a base for natively batched envs that match SyncVectorEnv's numbers."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from palaestra.utils import seeding
from palaestra.vector._autoreset import reset_arguments, resolve_autoreset_mode
from palaestra.vector._vector_env import AutoresetMode, VectorEnv

__all__ = ["BatchedVectorEnv"]


class BatchedVectorEnv(VectorEnv[Any, Any, np.ndarray]):
    """Bookkeeping for a natively batched env whose sub-envs each own a generator.

    Reproducing ``SyncVectorEnv`` of single envs means: sub-env ``i`` has its own generator
    (seeded ``seed + i``, created lazily from OS entropy otherwise), episodes are truncated
    after ``max_episode_steps`` like ``make``'s ``TimeLimit``, and ended sub-envs are
    reset per the autoreset mode. This class keeps that state; a subclass draws from
    :meth:`rng` exactly what its single env draws and implements ``reset``/``step``.

    Args:
        num_envs: Number of sub-environments.
        max_episode_steps: Steps before truncation (``None`` for no limit).
        render_mode: The render mode.
        autoreset_mode: An :class:`AutoresetMode` or its value.
    """

    # Subclasses add the attributes holding their sub-envs' state.
    snapshot_fields: ClassVar[tuple[str, ...]] = ("generators", "steps", "_needs_reset", "_has_reset")

    def __init__(
        self,
        num_envs: int = 1,
        max_episode_steps: int | None = None,
        render_mode: str | None = None,
        autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP,
    ) -> None:
        if not isinstance(num_envs, int) or isinstance(num_envs, bool) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
        self.num_envs = num_envs
        self.max_episode_steps = max_episode_steps
        self.render_mode = render_mode
        self.autoreset_mode = resolve_autoreset_mode(autoreset_mode)
        self.generators: list[np.random.Generator | None] = [None] * num_envs
        self.steps = np.zeros(num_envs, dtype=np.int64)
        self._needs_reset = np.zeros(num_envs, dtype=np.bool_)
        self._has_reset = False

    def rng(self, i: int) -> np.random.Generator:
        """Sub-env ``i``'s generator (created from OS entropy if it was never seeded)."""
        generator = self.generators[i]
        if generator is None:
            generator, _ = seeding.np_random()
            self.generators[i] = generator
        return generator

    def begin_reset(
        self, seed: int | list[int | None] | None, options: dict[str, Any] | None
    ) -> tuple[np.ndarray, dict[str, Any] | None]:
        """Seed and mark the sub-envs a ``reset`` call resets.

        Returns:
            The reset mask (all True unless ``options["reset_mask"]`` is given) and the
            options without ``reset_mask`` (the caller's dict is not modified).
        """
        seeds, options, given_mask = reset_arguments(seed, options, self.num_envs)
        mask = np.ones(self.num_envs, dtype=np.bool_) if given_mask is None else given_mask
        for i in np.flatnonzero(mask):
            if seeds[i] is not None:
                self.generators[i], _ = seeding.np_random(seeds[i])
        self.steps[mask] = 0
        self._needs_reset[mask] = False
        self._has_reset = True
        return mask, options

    def check_step_allowed(self) -> None:
        """Raise unless ``reset`` was called and (DISABLED mode) ended sub-envs were reset."""
        if not self._has_reset:
            raise RuntimeError(f"{type(self).__name__}.step called before reset; call reset() first.")
        if self.autoreset_mode is AutoresetMode.DISABLED and self._needs_reset.any():
            raise RuntimeError(
                f"Sub-envs {np.flatnonzero(self._needs_reset).tolist()} ended their episode and autoreset_mode "
                "is DISABLED; reset them with reset(options={'reset_mask': mask}) before stepping again"
            )

    def resetting_now(self) -> np.ndarray:
        """The sub-envs a NEXT_STEP autoreset resets in this step (their actions are ignored)."""
        if self.autoreset_mode is AutoresetMode.NEXT_STEP:
            return np.array(self._needs_reset)
        return np.zeros(self.num_envs, dtype=np.bool_)

    def truncations(self) -> np.ndarray:
        """Which sub-envs reached ``max_episode_steps`` (count the step first)."""
        if self.max_episode_steps is None:
            return np.zeros(self.num_envs, dtype=np.bool_)
        return self.steps >= self.max_episode_steps

    def end_step(self, done: np.ndarray) -> None:
        """Remember which sub-envs ended, for the next step's autoreset."""
        self._needs_reset = done
