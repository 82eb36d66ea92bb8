"""A batched Box2D env's block of sub-envs, stepped by a compiled kernel when it can be.

The plain step is each sub-env's own ``step`` under its :class:`~palaestra.plugin.TimeLimit`,
one sub-env at a time (what :class:`~palaestra.plugin.WorkerBlock` does): the
specification. A kernel of ``_stepping`` (``LanderKernel``, ``WalkerKernel``) steps the
whole block in one call with the same arithmetic, when every sub-env is the plain env (no
wrappers but the time limit, no render mode, nothing the kernel does not do) and the
engine's layout checked out (:mod:`palaestra_box2d._engine_layout`). Episodes still start
in Python: a sub-env that resets is handed back, reset by its own ``reset``, and taken
over again.

While the kernel has a sub-env it holds the state the step changes (the last step's
shaping, the contact flags, the time limit's count...) and the sub-env's world reports its
contacts to the kernel. :meth:`~KernelBlock.settle`, run before any other command reads or
changes the sub-envs, writes that state back and gives each world its own listener again.
A step the kernel cannot take (an action that is not one, pickled actions) is taken the
plain way, which names what is wrong as a single env does. Each env's block
(:mod:`palaestra_box2d._lander_block`, :mod:`palaestra_box2d._walker_block`) says which
sub-envs its kernel takes, what it hands over and what it writes back; tests hold each
kernel to its env's plain step bit for bit.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import weakref
from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np

from palaestra.plugin import AutoresetMode, TimeLimit, WorkerBlock, WorkerConfig, create_shared_memory, logger
from palaestra_box2d._engine_layout import SWITCH, stepping, unavailable_reason

__all__ = ["KernelBlock", "Probe", "address", "episode", "split_time_limit"]

#: A probe of a kernel: a factory of one sub-env (under its time limit) and the batch of
#: actions for step ``t`` of two such sub-envs, drawn from a generator.
Probe = tuple[Callable[[], Any], Callable[[np.random.Generator, int], np.ndarray]]

#: Steps each probe takes, both ways.
PROBE_STEPS = 90


def split_time_limit(env: Any) -> tuple[Any, TimeLimit | None]:
    """``(inner env, its time limit or None)``: the sub-env as ``make_vec`` builds it, taken apart."""
    return (env.env, env) if type(env) is TimeLimit else (env, None)


def world_hold(world: Any) -> tuple[Any, int, int]:
    """A world as a kernel's ``attach`` takes it: the proxy (kept alive), its address, its listener's."""
    return (world, address(world), address(world.contactListener))


def episode(env: Any, legs: tuple[Any, Any], limit: TimeLimit | None) -> tuple[Any, ...]:
    """What a kernel keeps of a lander's or walker's episode, as its ``attach`` takes it.

    ``(prev_shaping, game_over, first leg's contact, second leg's contact, elapsed steps,
    step limit or -1)``; its ``detach`` gives the same back without the limit, which
    :func:`restore_episode` puts back.
    """
    counted = (0, -1) if limit is None else (limit.elapsed_steps, limit.max_episode_steps)
    return (env.prev_shaping, env.game_over, legs[0].ground_contact, legs[1].ground_contact, *counted)


def restore_episode(env: Any, legs: tuple[Any, Any], limit: TimeLimit | None, state: tuple[Any, ...]) -> None:
    """Put back what a kernel's ``detach`` gave of an episode (see :func:`episode`)."""
    env.prev_shaping, env.game_over, legs[0].ground_contact, legs[1].ground_contact, elapsed = state
    if limit is not None:
        limit.elapsed_steps = elapsed


def address(proxy: Any) -> int:
    """The C++ object behind a Box2D proxy (0 for None)."""
    return 0 if proxy is None else int(proxy.this)


class KernelBlock(WorkerBlock):
    """A :class:`~palaestra.plugin.WorkerBlock` whose sub-envs a compiled kernel steps together.

    The kernel steps them on ``config.threads`` threads with the GIL released (its crew:
    each thread takes the next sub-env until none is left), so the workers of a vector env
    are threads here rather than processes, as far as :data:`THREADS_PER_BLOCK` a block. In
    NEXT_STEP mode the block resets the sub-envs that ended last step while the crew's helpers
    step the others.
    """

    @classmethod
    def steps_in_threads(cls, env: Any) -> bool:
        """Whether the kernel will step blocks of sub-envs like ``env`` (so they step in threads)."""
        inner, _ = split_time_limit(env)
        return cls.takes(inner) and cls.verdict()[0] is not None

    def __init__(self, conn: Any, config: Any, envs: list[Any]) -> None:
        super().__init__(conn, config, envs)
        n, first = len(envs), self.first
        self._kernel: Any = None
        self._attached = [False] * n
        self._parts = [split_time_limit(env) for env in envs]
        if self._views is None or self.actions is None or not self.fits():
            return
        module, reason = self.verdict()  # the checks run once a block could use the kernel
        if module is None:
            if conn is None and not reason.endswith(f"{SWITCH}=0"):
                _warn_once(type(self), reason)  # in the parent only: the user sees it once
            return
        self._kernel = self.make_kernel(module, n)
        if self._kernel is None:
            return
        if config.threads > 1:
            self._kernel.set_threads(config.threads)
            _CREWED.add(self)
        rows = slice(first, first + n)
        self._rows = (
            self.actions[rows],
            self._views[rows],
            self.rewards[rows],
            self.terminations[rows],
            self.truncations[rows],
        )
        self._active = np.ones(n, dtype=np.bool_)

    # -- the kernel's verdict ---------------------------------------------------------------

    #: The compiled kernel's name, for messages.
    kernel_name: ClassVar[str] = "kernel"

    @classmethod
    def verdict(cls) -> tuple[Any, str]:
        """``(the _stepping module, "")`` when this class's kernel may step blocks, else ``(None, why not)``.

        The engine's layout must check out (:func:`~palaestra_box2d._engine_layout.stepping`),
        and the kernel must give the plain step's bits on every :meth:`probes` case, with every
        engine function it calls in play (motors, contacts, resets); checked once a process.
        """
        known = _VERDICTS.get(cls)
        if known is not None:
            return known
        module = stepping()
        if module is None:
            known = (None, unavailable_reason() or "the compiled stepping is off")
        else:
            _VERDICTS[cls] = (module, "")  # the probe's own block uses the kernel
            try:
                problem = cls._self_test()
            except Exception as e:  # whatever went wrong, the plain step is the safe one
                problem = f"its probe raised {type(e).__name__}: {e}"
            known = (module, "") if problem is None else (None, f"the compiled {cls.kernel_name} {problem}")
        _VERDICTS[cls] = known
        return known

    @classmethod
    def prepare(cls) -> None:
        """Reach the verdict in the parent, before workers start: forked ones inherit it."""
        cls.verdict()

    @classmethod
    def probes(cls) -> list[Probe]:
        """The cases :meth:`verdict` holds the kernel to its env's plain step on."""
        raise NotImplementedError

    @classmethod
    def _self_test(cls) -> str | None:
        """Step each probe's two sub-envs by the kernel and the plain way; the first difference, or None."""
        for case, (make_env, actions_at) in enumerate(cls.probes()):
            ours = cls(None, _probe_config(make_env, cls), [make_env(), make_env()])
            plain = WorkerBlock(None, _probe_config(make_env, WorkerBlock), [make_env(), make_env()])
            try:
                if not ours.compiled:
                    return f"did not take probe {case}'s sub-envs"
                ours.reset(([0, 1], None, None))
                plain.reset(([0, 1], None, None))
                rng = np.random.default_rng(case)
                for t in range(PROBE_STEPS):
                    ours.actions[:] = plain.actions[:] = actions_at(rng, t)  # type: ignore[index]
                    ours.step(None)
                    plain.step(None)
                    if ours.failures or plain.failures:
                        return f"probe {case} step {t} raised: {ours.failures or plain.failures}"
                    for got, expected, what in zip(
                        _outputs(ours), _outputs(plain), _OUTPUT_NAMES, strict=True
                    ):
                        if got.tobytes() != expected.tobytes():
                            return f"gave other {what} than the plain step (probe {case}, step {t})"
            finally:
                ours.close()
                plain.close()
        return None

    # -- what each env's block says ----------------------------------------------------------

    @classmethod
    def takes(cls, env: Any) -> bool:
        """Whether the kernel can step ``env`` (the sub-env inside its time limit)."""
        raise NotImplementedError

    def fits(self) -> bool:
        """Whether one kernel can step this block's sub-envs as they are set now."""
        return all(self.takes(env) for env, _ in self._parts)

    def make_kernel(self, module: Any, n: int) -> Any:
        """The kernel for ``n`` sub-envs (from the ``_stepping`` module), or None."""
        raise NotImplementedError

    # -- commands that may change what the kernel was made for ----------------------------------

    def call(self, payload: tuple[str, tuple[Any, ...], dict[str, Any]]) -> list[Any]:
        try:
            return super().call(payload)
        finally:
            self._check_fit()

    def set_attr(self, payload: tuple[str, list[Any]]) -> None:
        try:
            super().set_attr(payload)
        finally:
            self._check_fit()

    def restore(self, payload: tuple[list[Any], list[bool]]) -> None:
        try:
            super().restore(payload)
        finally:
            self._check_fit()

    def _check_fit(self) -> None:
        """Step the plain way from now on if the sub-envs no longer fit the kernel (wind set, say)."""
        if self._kernel is None or self.fits():
            return
        self.settle()
        self._kernel = None  # its helper threads end with it
        _CREWED.discard(self)
        if self.conn is None:  # in the parent only: the user sees it once
            logger.warn(
                f"{type(self).__name__}: the sub-envs were set so that the {self.kernel_name} cannot step "
                f"them ({type(self).__name__}.fits); they step in Python from now on, with the same "
                "numbers, about half as fast"
            )

    def handover(self, env: Any, limit: TimeLimit | None) -> tuple[Any, ...] | None:
        """What the kernel's ``attach`` takes after the sub-env's index; None if not now."""
        raise NotImplementedError

    def write_back(self, env: Any, limit: TimeLimit | None, state: tuple[Any, ...]) -> None:
        """Put what the kernel's ``detach`` returned back into the sub-env."""
        raise NotImplementedError

    @property
    def compiled(self) -> bool:
        """Whether the kernel steps this block (else every step is the plain one)."""
        return self._kernel is not None

    # -- handing sub-envs over ------------------------------------------------------------

    def _attach(self, j: int) -> bool:
        """Hand sub-env ``j`` to the kernel; False when it is not in a state the kernel takes."""
        handover = self.handover(*self._parts[j])
        if handover is None:
            return False
        self._kernel.attach(j, *handover)
        self._attached[j] = True
        return True

    def _detach(self, j: int) -> None:
        """Write sub-env ``j``'s state back from the kernel; its world reports to its own listener."""
        self._attached[j] = False
        self.write_back(*self._parts[j], self._kernel.detach(j))

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
        _, obs, rewards, terminations, truncations = self._rows
        results: list[tuple[int, Any, dict[str, Any]]] = []
        try:
            if not self._kernel_begins(active):
                return None
            self.failures = []
            try:
                if restarting:
                    # NEXT_STEP: those that ended last step start anew, with reward 0, while the
                    # kernel's helpers step the others (the kernel leaves them alone).
                    for j in np.flatnonzero(pending).tolist():
                        if self._restart(j, results):
                            rewards[j], terminations[j], truncations[j] = 0.0, False, False
            finally:
                self._kernel.finish()
            ended = np.flatnonzero((terminations | truncations) & active).tolist()
        finally:
            if restarting:
                # Every sub-env is active again, whether the kernel stepped or handed the step
                # back: one left inactive would never be stepped again (NEXT_STEP only).
                active.fill(True)
        for j in ended:
            self.autoreset[j] = True
            if mode is AutoresetMode.SAME_STEP:
                # Gymnasium's AsyncVectorEnv order: final_info before final_obs (the kernels'
                # envs report no info from a step).
                results.append((self.first + j, None, {"final_info": {}, "final_obs": obs[j].copy()}))
                self._restart(j, results)
        return results

    def _kernel_begins(self, active: np.ndarray) -> bool:
        """Start stepping the ``active`` sub-envs (``finish()`` completes it); False when the kernel hands the step back."""
        if not all(self._attached):  # after resets and other commands only
            for j, attached in enumerate(self._attached):
                if not attached and active[j] and not self._attach(j):
                    return False
        actions, obs, rewards, terminations, truncations = self._rows
        return bool(self._kernel.begin(actions, active, obs, rewards, terminations, truncations))

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
        self._put_obs(i, obs)
        if self.config.autoreset_mode is AutoresetMode.NEXT_STEP:
            self.autoreset[j] = False
        if info:
            results.append((i, None, info))
        return True


_VERDICTS: dict[type, tuple[Any, str]] = {}
#: Blocks whose kernels have helper threads.
_CREWED: weakref.WeakSet[KernelBlock] = weakref.WeakSet()


def _rest_crews() -> None:
    """Before a fork: let every crew's helpers go (they start again at their next step).

    A process forked with threads running may deadlock, and Python 3.12 warns of it; a
    child never needs the parent's helpers.
    """
    for block in list(_CREWED):
        kernel = block._kernel
        if kernel is not None:
            # RuntimeError: stepping in another thread at this moment (its helpers finish that step).
            with contextlib.suppress(RuntimeError):
                kernel.set_threads(kernel.threads)  # the same size, no helpers until needed


if hasattr(os, "register_at_fork"):
    os.register_at_fork(before=_rest_crews)
_WARNED: set[type] = set()
_OUTPUT_NAMES = ("observations", "rewards", "terminations", "truncations")


def _warn_once(block_type: type, reason: str) -> None:
    if block_type not in _WARNED:
        _WARNED.add(block_type)
        logger.warn(
            f"{block_type.__name__}: the Box2D sub-envs step in Python, about half as fast, because {reason}. "
            f"The numbers are the same; `palaestra info <env id>` says so too (set {SWITCH}=0 to "
            "choose the Python step without this warning)"
        )


def _probe_config(make_env: Callable[[], Any], block_type: type) -> WorkerConfig:
    """A two-sub-env block's buffers, as a vector env's workers get them."""
    env = make_env()
    try:
        obs_space, act_space = env.observation_space, env.action_space
    finally:
        env.close()
    raw = multiprocessing.RawArray
    return WorkerConfig(
        first_index=0,
        factories=[],
        autoreset_mode=AutoresetMode.NEXT_STEP,
        observation_space=obs_space,
        obs_buffer=create_shared_memory(obs_space, n=2),
        rewards=raw("d", 2),
        terminations=raw("B", 2),
        truncations=raw("B", 2),
        actions=create_shared_memory(act_space, n=2),
        action_space=act_space,
        num_envs=2,
        block_type=block_type,
    )


def _outputs(block: WorkerBlock) -> tuple[np.ndarray, ...]:
    return (block._views, block.rewards, block.terminations, block.truncations)
