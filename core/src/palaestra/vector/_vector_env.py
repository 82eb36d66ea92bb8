"""VectorEnv, its wrappers and the autoreset modes."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

import numpy as np

from palaestra import logger
from palaestra._base import _seeding as seeding
from palaestra._env import _snapshot
from palaestra.error import ClosedEnvironmentError, InvalidEnvArgumentValue, SnapshotNotSupported
from palaestra.vector._autoreset_mode import AutoresetMode
from palaestra.vector._batch_recv import FullBatchEngine
from palaestra.vector._info import add_info
from palaestra.vector._recv import check_batch_size

if TYPE_CHECKING:
    from palaestra._env._spec import EnvSpec
    from palaestra.spaces import Space

__all__ = [
    "AutoresetMode",
    "VectorActionWrapper",
    "VectorEnv",
    "VectorObservationWrapper",
    "VectorRewardWrapper",
    "VectorWrapper",
]

ObsType = TypeVar("ObsType")
ActType = TypeVar("ActType")
ArrayType = TypeVar("ArrayType")


class VectorEnv(seeding.OwnsGenerator, Generic[ObsType, ActType, ArrayType]):
    """Base class of environments that run ``num_envs`` sub-environments in lockstep.

    ``step`` takes a batch of actions and returns batched observations, rewards,
    terminations, truncations and an info dict where every key has an array plus a
    boolean ``_key`` mask saying which sub-envs reported it.
    """

    metadata: dict[str, Any] = {}
    spec: EnvSpec | None = None
    render_mode: str | None = None
    closed: bool = False

    observation_space: Space[Any]
    action_space: Space[Any]
    single_observation_space: Space[Any]
    single_action_space: Space[Any]
    num_envs: int

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsType, dict[str, Any]]:
        """Reset every sub-environment (``seed`` int seeds sub-env i with ``seed + i``)."""
        if isinstance(seed, int):
            self._reseed(seed)
        return None  # type: ignore[return-value]

    def step(self, actions: ActType) -> tuple[ObsType, ArrayType, ArrayType, ArrayType, dict[str, Any]]:
        """Step every sub-environment with its action."""
        raise NotImplementedError(f"{self} step function is not implemented.")

    def render(self) -> tuple[Any, ...] | None:
        """Render every sub-environment."""
        raise NotImplementedError(f"{self} render function is not implemented.")

    def close(self, **kwargs: Any) -> None:
        """Close the sub-environments and release resources (idempotent)."""
        if self.closed:
            return
        try:
            self.close_extras(**kwargs)
        finally:
            self.closed = True  # a sub-env's close error is raised once, not on every call

    def close_extras(self, **kwargs: Any) -> None:
        """Release what the subclass holds (processes, envs)."""

    #: For natively batched envs: the instance attributes holding the state of all
    #: sub-envs, which :meth:`snapshot` copies (with ``np_random``); ``None``: no snapshots.
    snapshot_fields: ClassVar[tuple[str, ...] | None] = None
    #: Construction kwargs that only change rendering (see :attr:`palaestra.Env.snapshot_ignores_kwargs`).
    snapshot_ignores_kwargs: ClassVar[frozenset[str]] = frozenset({"render_mode"})

    def snapshot(self) -> Any:
        """Save the state of every sub-env (see :meth:`palaestra.Env.snapshot`).

        :class:`SyncVectorEnv` and :class:`AsyncVectorEnv` return a :class:`VectorSnapshot`;
        a natively batched env that lists ``snapshot_fields`` returns one
        :class:`~palaestra.Snapshot` of its whole batch.

        Raises:
            SnapshotNotSupported: This vector env (or wrapper) cannot take snapshots.
        """
        fields = self._snapshot_fields()
        return _snapshot.take_innermost(
            self, _snapshot.copy_fields(self, fields, "list the state attributes in snapshot_fields")
        )

    def restore(self, snapshot: Any) -> None:
        """Return the sub-envs to a saved state.

        Args:
            snapshot: What :meth:`snapshot` returned. The sync and async vectorizers also
                take one env's :class:`~palaestra.Snapshot`, which every sub-env then takes
                (to try different actions from one state), or a list of one per sub-env.
        """
        self._snapshot_fields()
        _snapshot.check_fits([self], None if self.spec is None else self.spec.id, snapshot)
        _snapshot.restore_fields(self, snapshot.state)
        _snapshot.restore_generator(self, snapshot.rng)

    def _snapshot_fields(self) -> tuple[str, ...]:
        if self.snapshot_fields is None:
            raise SnapshotNotSupported(
                f"{self} cannot take snapshots: its class lists no snapshot_fields (the sync and async "
                "vectorizers take snapshots of any sub-envs that can; vector wrappers cannot)"
            )
        return self.snapshot_fields

    @property
    def unwrapped(self) -> VectorEnv[Any, Any, Any]:
        """The innermost vector env."""
        return self

    # -- asynchronous stepping (EnvPool's send/recv; see palaestra.vector._recv) -----------

    #: The class running :meth:`send`/:meth:`recv` (None: its sub-envs step together, as one
    #: ``step`` of the whole batch once each has an action).
    recv_engine: ClassVar[Any] = None

    @property
    def batch_size(self) -> int:
        """How many sub-envs :meth:`recv` returns at a time (default: all of them)."""
        return self.__dict__.get("_batch_size") or self.num_envs

    @batch_size.setter
    def batch_size(self, value: int) -> None:
        k = check_batch_size(value, self.num_envs, type(self).__name__)
        if (self.recv_engine or FullBatchEngine).needs_divisor(self) and self.num_envs % k:
            raise InvalidEnvArgumentValue(
                f"{type(self).__name__}: batch_size={k} does not divide num_envs={self.num_envs}: its "
                "sub-envs step together, so recv() hands out each step's results in equal parts; pick a "
                "divisor, or the sync or async vectorizer, whose sub-envs step one by one"
            )
        self.__dict__["_batch_size"] = k

    def async_reset(
        self, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> None:
        """Reset every sub-env without waiting; :meth:`recv` returns the results as they come."""
        self._recv_engine().async_reset(seed, options)

    def send(self, actions: Any, env_ids: Any = None) -> None:
        """Step sub-envs ``env_ids`` (default: those of the last :meth:`recv`) without waiting.

        Each must have had its last result received; ``actions`` holds one action per id.
        """
        self._recv_engine().send(actions, env_ids)

    def recv(self, timeout: float | None = None) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        """The first :attr:`batch_size` sub-envs to be ready: ``(obs, rewards, terminated, truncated, info)``.

        Rows come in sub-env order; ``info["env_id"]`` names them.
        """
        return self._recv_engine().recv(timeout)  # type: ignore[no-any-return]

    def _recv_engine(self) -> Any:
        if self.closed:
            raise self._closed_error("recv")
        engine = self.__dict__.get("_recv")
        if engine is None:
            engine = self.__dict__["_recv"] = (self.recv_engine or FullBatchEngine)(self)
        return engine

    def _closed_error(self, name: str) -> ClosedEnvironmentError:
        """The error for calling ``name`` once closed (a vectorizer may say why it closed)."""
        return ClosedEnvironmentError(
            f"Trying to operate on `{type(self).__name__}`, after a call to `close()`; make a new one."
        )

    def _check_no_results_outstanding(self, call: str) -> None:
        """Raise if send/recv results are outstanding (``step``/``reset`` act on every sub-env)."""
        engine = self.__dict__.get("_recv")
        if engine is not None and not self.__dict__.get("_recv_busy"):
            engine.check_idle(call)

    @contextlib.contextmanager
    def _recv_internal(self) -> Iterator[None]:
        """The engine's own full-batch ``step``/``reset``, let through :meth:`_check_no_results_outstanding`."""
        self.__dict__["_recv_busy"] = True
        try:
            yield
        finally:
            self.__dict__["_recv_busy"] = False

    def _add_info(
        self, vector_infos: dict[str, Any], env_info: dict[str, Any], env_num: int
    ) -> dict[str, Any]:
        return add_info(vector_infos, env_info, env_num, self.num_envs)

    def __enter__(self) -> VectorEnv[ObsType, ActType, ArrayType]:
        return self

    def __exit__(self, *args: object) -> None:
        self.close()

    def __repr__(self) -> str:
        if self.spec is None:
            return f"{type(self).__name__}(num_envs={self.num_envs})"
        return f"{type(self).__name__}({self.spec.id}, num_envs={self.num_envs})"


class VectorWrapper(VectorEnv[ObsType, ActType, ArrayType]):
    """Base class of vector wrappers: forwards everything to ``self.env``."""

    def __init__(self, env: VectorEnv[Any, Any, Any]) -> None:
        if not isinstance(env, VectorEnv):
            raise TypeError(f"Expected env to be a `palaestra.vector.VectorEnv` but got {type(env)}")
        self.env = env
        self._observation_space: Space[Any] | None = None
        self._action_space: Space[Any] | None = None
        self._single_observation_space: Space[Any] | None = None
        self._single_action_space: Space[Any] | None = None
        self._metadata: dict[str, Any] | None = None

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsType, dict[str, Any]]:
        """Forward ``reset``."""
        return self.env.reset(seed=seed, options=options)

    def step(self, actions: ActType) -> tuple[ObsType, ArrayType, ArrayType, ArrayType, dict[str, Any]]:
        """Forward ``step``."""
        return self.env.step(actions)

    def render(self) -> tuple[Any, ...] | None:
        """Forward ``render``."""
        return self.env.render()

    def close(self, **kwargs: Any) -> None:
        """Forward ``close``."""
        self.env.close(**kwargs)

    def close_extras(self, **kwargs: Any) -> None:
        """Forward ``close_extras``."""
        self.env.close_extras(**kwargs)

    @property
    def unwrapped(self) -> VectorEnv[Any, Any, Any]:
        """The innermost vector env."""
        return self.env.unwrapped

    def __repr__(self) -> str:
        return f"<{type(self).__name__}, {self.env}>"

    def _get(self, name: str) -> Any:
        value = getattr(self, f"_{name}")
        return getattr(self.env, name) if value is None else value

    @property
    def observation_space(self) -> Space[Any]:
        """Batched observation space (the wrapped env's unless set)."""
        return self._get("observation_space")  # type: ignore[no-any-return]

    @observation_space.setter
    def observation_space(self, space: Space[Any]) -> None:
        self._observation_space = space

    @property
    def action_space(self) -> Space[Any]:
        """Batched action space (the wrapped env's unless set)."""
        return self._get("action_space")  # type: ignore[no-any-return]

    @action_space.setter
    def action_space(self, space: Space[Any]) -> None:
        self._action_space = space

    @property
    def single_observation_space(self) -> Space[Any]:
        """One sub-env's observation space."""
        return self._get("single_observation_space")  # type: ignore[no-any-return]

    @single_observation_space.setter
    def single_observation_space(self, space: Space[Any]) -> None:
        self._single_observation_space = space

    @property
    def single_action_space(self) -> Space[Any]:
        """One sub-env's action space."""
        return self._get("single_action_space")  # type: ignore[no-any-return]

    @single_action_space.setter
    def single_action_space(self, space: Space[Any]) -> None:
        self._single_action_space = space

    @property
    def num_envs(self) -> int:  # type: ignore[override]
        """Number of sub-environments."""
        return self.env.num_envs

    @property
    def batch_size(self) -> int:
        """The wrapped vector env's :attr:`~VectorEnv.batch_size`."""
        return self.env.batch_size

    @batch_size.setter
    def batch_size(self, value: int) -> None:
        self.env.batch_size = value

    def _recv_engine(self) -> Any:
        # A wrapper changes what step returns; recv would hand out the inner env's results
        # unchanged, so it is not offered under a wrapper's name.
        raise AttributeError(
            f"{type(self).__name__} does not pass send/recv/async_reset through (its changes to "
            "step's results would be skipped); call them on the vector env itself, "
            "envs.unwrapped.recv(), and apply the wrapper's processing yourself"
        )

    @property
    def np_random(self) -> np.random.Generator:
        """The wrapped env's generator."""
        return self.env.np_random

    @np_random.setter
    def np_random(self, value: np.random.Generator) -> None:
        self.env.np_random = value

    @property
    def np_random_seed(self) -> Any:
        """The wrapped env's seed."""
        return self.env.np_random_seed

    @property
    def metadata(self) -> dict[str, Any]:
        """Metadata (the wrapped env's unless set)."""
        return self.env.metadata if self._metadata is None else self._metadata

    @metadata.setter
    def metadata(self, value: dict[str, Any]) -> None:
        self._metadata = value

    @property
    def spec(self) -> EnvSpec | None:  # type: ignore[override]
        """The wrapped env's spec."""
        return self.env.spec

    @property
    def render_mode(self) -> str | None:  # type: ignore[override]
        """The wrapped env's render mode."""
        return self.env.render_mode

    def _closed(self) -> bool:
        return self.env.closed

    def _set_closed(self, value: bool) -> None:
        self.env.closed = value

    closed = property(_closed, _set_closed, doc="Whether the wrapped env is closed (set on it too).")


class VectorObservationWrapper(VectorWrapper[ObsType, ActType, ArrayType]):
    """Transforms batched observations through :meth:`observations`."""

    def __init__(self, env: VectorEnv[Any, Any, Any]) -> None:
        super().__init__(env)
        mode = env.metadata.get("autoreset_mode")
        if mode is None:
            logger.warn(f"Vector environment ({env}) is missing `autoreset_mode` metadata key.")
        elif mode not in (AutoresetMode.NEXT_STEP, AutoresetMode.DISABLED):
            raise ValueError(f"Expected autoreset_mode to be NEXT_STEP or DISABLED, got {mode}")

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsType, dict[str, Any]]:
        """Reset and transform the observations."""
        obs, infos = self.env.reset(seed=seed, options=options)
        return self.observations(obs), infos

    def step(self, actions: ActType) -> tuple[ObsType, ArrayType, ArrayType, ArrayType, dict[str, Any]]:
        """Step and transform the observations."""
        obs, rewards, terminations, truncations, infos = self.env.step(actions)
        return self.observations(obs), rewards, terminations, truncations, infos

    def observations(self, observations: Any) -> ObsType:
        """Transform a batch of observations."""
        raise NotImplementedError


class VectorActionWrapper(VectorWrapper[ObsType, ActType, ArrayType]):
    """Transforms batched actions through :meth:`actions` before stepping."""

    def step(self, actions: ActType) -> tuple[ObsType, ArrayType, ArrayType, ArrayType, dict[str, Any]]:
        """Transform the actions and step."""
        return self.env.step(self.actions(actions))

    def actions(self, actions: ActType) -> Any:
        """Transform a batch of actions."""
        raise NotImplementedError


class VectorRewardWrapper(VectorWrapper[ObsType, ActType, ArrayType]):
    """Transforms batched rewards through :meth:`rewards`."""

    def step(self, actions: ActType) -> tuple[ObsType, ArrayType, ArrayType, ArrayType, dict[str, Any]]:
        """Step and transform the rewards."""
        obs, rewards, terminations, truncations, infos = self.env.step(actions)
        return obs, self.rewards(rewards), terminations, truncations, infos

    def rewards(self, rewards: ArrayType) -> ArrayType:
        """Transform a batch of rewards."""
        raise NotImplementedError


class SubEnvVectorEnv(VectorEnv[ObsType, ActType, ArrayType]):
    """A vector env made of sub-envs: ``np_random``/``np_random_seed`` are theirs, as tuples.

    For AsyncVectorEnv the generators are copies sent back by the workers.
    """

    def get_attr(self, name: str) -> tuple[Any, ...]:
        """Attribute ``name`` of every sub-env."""
        raise NotImplementedError

    @property
    def np_random_seed(self) -> tuple[Any, ...]:  # type: ignore[override]
        """Each sub-env's seed."""
        return self.get_attr("np_random_seed")

    @property  # type: ignore[misc]
    def np_random(self) -> tuple[Any, ...]:  # type: ignore[override]
        """Each sub-env's generator."""
        return self.get_attr("np_random")
