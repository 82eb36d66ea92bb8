"""The batched LunarLander's block of sub-envs, stepped by the compiled kernel when it can be.

The plain step is :meth:`LunarLander.step <palaestra_box2d.lunar_lander.LunarLander.step>`
under its :class:`~palaestra.plugin.TimeLimit`, one sub-env at a time (what
:class:`~palaestra.plugin.WorkerBlock` does): the specification. ``_stepping.LanderKernel``
steps the whole block in one call with the same arithmetic, when every sub-env is a plain
lander (no wrappers but the time limit, no wind, no render mode) and the engine's layout
checked out (:mod:`palaestra_box2d._engine_layout`). Episodes still start in Python: a
sub-env that resets is handed back, reset by its own ``reset``, and taken over again.

While the kernel has a sub-env, the kernel holds the state the step changes (the shaping
of the last step, the contact flags, the time limit's count) and the world reports its
contacts to the kernel; :meth:`settle`, run before any other command reads or changes the
sub-envs, writes that state back and gives each world its own listener again. A step the
kernel cannot take (an action that is not one, a lander at rest, pickled actions) is
taken the plain way, which names what is wrong as a single env does.
``tests/plugins/box2d/test_lander_kernel.py`` holds the two ways to the same bits.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from palaestra.plugin import AutoresetMode, TimeLimit, WorkerBlock
from palaestra_box2d._engine_layout import stepping
from palaestra_box2d._lander_scene import FPS, SCALE
from palaestra_box2d.lunar_lander import (
    DISCRETE_THROTTLES,
    HALF_H,
    HALF_W,
    LEG_DOWN,
    MAIN_ENGINE_POWER,
    MAIN_ENGINE_Y_LOCATION,
    POSITION_ITERATIONS,
    SIDE_ENGINE_AWAY,
    SIDE_ENGINE_HEIGHT,
    SIDE_ENGINE_POWER,
    SIDE_ENGINE_X,
    VELOCITY_ITERATIONS,
    LunarLander,
)

__all__ = ["LanderBlock", "plain_lander"]

# The env's constants in the order _stepping.c's LanderKernel takes them.
KERNEL_RULES = tuple(
    float(value)
    for value in (
        SCALE,
        FPS,
        MAIN_ENGINE_POWER,
        SIDE_ENGINE_POWER,
        MAIN_ENGINE_Y_LOCATION,
        SIDE_ENGINE_AWAY,
        SIDE_ENGINE_HEIGHT,
        SIDE_ENGINE_X,
        LEG_DOWN,
        HALF_W,
        HALF_H,
        VELOCITY_ITERATIONS,
        POSITION_ITERATIONS,
    )
)
KERNEL_THROTTLES = tuple(value for throttle in DISCRETE_THROTTLES for value in throttle)


def plain_lander(env: Any) -> tuple[LunarLander, TimeLimit | None] | None:
    """``(lander, time limit or None)`` when ``env`` is a lander the kernel can step, else None."""
    limit = env if type(env) is TimeLimit else None
    lander = env.env if limit is not None else env
    if type(lander) is not LunarLander or lander.render_mode is not None or lander.enable_wind:
        return None
    return lander, limit


def _address(proxy: Any) -> int:
    return int(proxy.this)


class LanderBlock(WorkerBlock):
    """A :class:`~palaestra.plugin.WorkerBlock` of LunarLanders that steps them in one compiled call."""

    def __init__(self, conn: Any, config: Any, envs: list[Any]) -> None:
        super().__init__(conn, config, envs)
        n, first = len(envs), self.first
        self._kernel: Any = None
        self._attached = [False] * n
        self._parts = [plain_lander(env) for env in envs]
        module = stepping()
        if module is None or self._views is None or self.actions is None or None in self._parts:
            return
        continuous = self._parts[0][0].continuous  # type: ignore[index]
        if any(part[0].continuous != continuous for part in self._parts):  # type: ignore[index]
            return
        self._kernel = module.LanderKernel(n, KERNEL_RULES, KERNEL_THROTTLES, continuous)
        rows = slice(first, first + n)
        self._rows = (
            self.actions[rows],
            self._views[rows],
            self.rewards[rows],
            self.terminations[rows],
            self.truncations[rows],
        )
        self._active = np.ones(n, dtype=np.bool_)

    @property
    def compiled(self) -> bool:
        """Whether the kernel steps this block (else every step is the plain one)."""
        return self._kernel is not None

    # -- handing sub-envs over ------------------------------------------------------------

    def _attach(self, j: int) -> bool:
        """Hand sub-env ``j`` to the kernel; False when it is not in a state the kernel takes."""
        lander, limit = self._parts[j]  # type: ignore[misc]
        world, hull = lander.world, lander.lander
        if world is None or hull is None or len(lander.legs) != 2 or lander.particles:
            return False
        listener = world.contactListener
        left, right = lander.legs
        self._kernel.attach(
            j,
            (world, _address(world), 0 if listener is None else _address(listener)),
            (_address(hull), _address(left), _address(right)),
            lander.np_random.bit_generator.capsule,
            lander.helipad_y,
            lander.prev_shaping,
            lander.game_over,
            left.ground_contact,
            right.ground_contact,
            (0, -1) if limit is None else (limit._elapsed_steps, limit._max_episode_steps),
        )
        self._attached[j] = True
        return True

    def _detach(self, j: int) -> None:
        """Write sub-env ``j``'s state back from the kernel; its world reports to its own listener."""
        self._attached[j] = False
        prev_shaping, game_over, left, right, elapsed = self._kernel.detach(j)
        lander, limit = self._parts[j]  # type: ignore[misc]
        lander.prev_shaping, lander.game_over = prev_shaping, game_over
        lander.legs[0].ground_contact, lander.legs[1].ground_contact = left, right
        if limit is not None:
            limit._elapsed_steps = elapsed

    def settle(self) -> None:
        """Every sub-env back from the kernel, up to date, before a command other than a step."""
        if self._kernel is not None:
            for j, attached in enumerate(self._attached):
                if attached:
                    self._detach(j)

    # -- stepping ---------------------------------------------------------------------------

    def step(self, actions: Any) -> list[tuple[int, Any, dict[str, Any]]]:
        """Step the block in one compiled call, or the plain way when the kernel cannot."""
        results = None if actions is not None or self._kernel is None else self._compiled_step()
        if results is None:
            self.settle()
            return super().step(actions)
        return results

    def _compiled_step(self) -> list[tuple[int, Any, dict[str, Any]]] | None:
        mode, pending = self.config.autoreset_mode, self.autoreset
        if mode is AutoresetMode.DISABLED and True in pending:
            return None  # the plain step says which sub-env needs a reset
        active = self._active
        restarting = mode is AutoresetMode.NEXT_STEP and True in pending
        if restarting:
            np.logical_not(pending, out=active)
        for j, attached in enumerate(self._attached):
            if not attached and active[j] and not self._attach(j):
                return None
        actions, obs, rewards, terminations, truncations = self._rows
        if not self._kernel.step(actions, active, obs, rewards, terminations, truncations):
            return None
        self.failures = []
        results: list[tuple[int, Any, dict[str, Any]]] = []
        ended = np.flatnonzero((terminations | truncations) & active).tolist()
        if restarting:  # NEXT_STEP: those that ended last step start anew, with reward 0
            for j in np.flatnonzero(pending).tolist():
                if self._restart(j, results):
                    rewards[j], terminations[j], truncations[j] = 0.0, False, False
            active.fill(True)
        for j in ended:
            self.autoreset[j] = True
            if mode is AutoresetMode.SAME_STEP:
                # Gymnasium's AsyncVectorEnv order: final_info before final_obs.
                results.append((self.first + j, None, {"final_info": {}, "final_obs": obs[j].copy()}))
                self._restart(j, results)
        return results

    def _restart(self, j: int, results: list[tuple[int, Any, dict[str, Any]]]) -> bool:
        """Reset sub-env ``j`` the plain way (kept for the kernel's next step); False if it raised."""
        i = self.index = self.first + j
        if self._attached[j]:
            self._attached[j] = False
            self._kernel.detach(j)  # its state is the reset's to replace
        try:
            obs, info = self.envs[j].reset()
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as e:
            self.failures.append((i, e))
            return False
        self._rows[1][j] = obs
        if self.config.autoreset_mode is AutoresetMode.NEXT_STEP:
            self.autoreset[j] = False
        if info:
            results.append((i, None, info))
        return True
