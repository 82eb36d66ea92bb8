"""The environment and wrapper base classes."""

from __future__ import annotations

from copy import deepcopy
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Literal, SupportsFloat, TypeVar

import numpy as np

from palaestra import error, logger
from palaestra._base import _seeding as seeding
from palaestra._base._wrapper_spec import RecordConstructorArgs, WrapperSpec
from palaestra.spaces._space import Space

if TYPE_CHECKING:
    from collections.abc import Mapping

    from typing_extensions import Self

    from palaestra._env._snapshot import Snapshot
    from palaestra._env._spec import EnvSpec

__all__ = [
    "ActType",
    "Env",
    "ObsType",
    "RenderFrame",
    "Wrapper",
    "WrapperActType",
    "WrapperObsType",
]

ObsType = TypeVar("ObsType")
ActType = TypeVar("ActType")
WrapperObsType = TypeVar("WrapperObsType")
WrapperActType = TypeVar("WrapperActType")
RenderFrame = Any


class Env(seeding.OwnsGenerator, Generic[ObsType, ActType]):
    """A reinforcement-learning environment with the Gymnasium 1.x interface.

    Subclasses set ``action_space`` and ``observation_space`` and implement ``step`` and
    ``reset`` (calling ``super().reset(seed=seed)`` first so ``np_random`` is seeded), and
    ``render``/``close`` where they have something to render or release.

    Attributes:
        metadata: ``render_modes`` and ``render_fps`` among others.
        render_mode: The render mode chosen at construction.
        spec: The :class:`EnvSpec` the env was made from (set by ``make``).
    """

    metadata: dict[str, Any] = {"render_modes": []}
    render_mode: str | None = None
    spec: EnvSpec | None = None

    #: The instance attributes that hold the env's state between steps, which
    #: :meth:`snapshot` copies; ``None`` (the default) means the env cannot take snapshots.
    snapshot_fields: ClassVar[tuple[str, ...] | None] = None
    #: Why the env cannot take snapshots, for the error :meth:`snapshot` raises.
    snapshot_unsupported_reason: ClassVar[str] = (
        "its class lists no snapshot_fields (env authors: name the attributes that hold the "
        "state there, see the plugin-author guide)"
    )
    #: Construction kwargs that only change rendering: a snapshot restores into an env built
    #: with other values of these (any other kwarg must match).
    snapshot_ignores_kwargs: ClassVar[frozenset[str]] = frozenset({"render_mode"})

    action_space: Space[ActType]
    observation_space: Space[ObsType]

    def step(self, action: ActType) -> tuple[ObsType, SupportsFloat, bool, bool, dict[str, Any]]:
        """Advance the environment by one action.

        Args:
            action: An element of ``action_space``.

        Returns:
            ``(observation, reward, terminated, truncated, info)``.
        """
        raise NotImplementedError

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsType, dict[str, Any]]:
        """Start a new episode.

        The base implementation only seeds ``np_random`` when ``seed`` is given;
        subclasses call it first and then build their initial state.

        Args:
            seed: Re-seeds the environment's generator when not ``None``.
            options: Environment-specific reset options.

        Returns:
            ``(observation, info)``.
        """
        if seed is not None:
            self._reseed(seed)
        return None  # type: ignore[return-value]

    def render(self) -> RenderFrame | list[RenderFrame] | None:
        """Render according to ``render_mode`` (``None`` renders nothing)."""
        raise NotImplementedError

    def close(self) -> None:
        """Release resources (windows, simulators, processes)."""

    @property
    def unwrapped(self) -> Env[ObsType, ActType]:
        """The innermost environment (this one, for a plain ``Env``)."""
        return self

    def snapshot(self) -> Snapshot:
        """Save the env's state (and its wrappers'), to go back to it with :meth:`restore`.

        Stepping after ``restore(snapshot)`` with the same actions gives the same
        observations, rewards, flags and infos as stepping on from the moment the snapshot
        was taken, including draws from ``np_random``. The action and observation spaces'
        own samplers are not part of the state. A snapshot can be restored many times and
        pickled (with the simulator state where the env has one).

        Raises:
            SnapshotNotSupported: The env's simulator cannot save its state.
        """
        from palaestra._env import _snapshot  # start-up: few programs take snapshots (1.9 ms)

        return _snapshot.take_innermost(self, self._snapshot_state())

    def restore(self, snapshot: Snapshot) -> None:
        """Return the env (and its wrappers) to the state saved by :meth:`snapshot`.

        Raises:
            SnapshotError: The snapshot comes from a differently built env.
        """
        self._check_snapshot(snapshot)
        self._restore_snapshot(snapshot)

    def _check_snapshot(self, snapshot: object) -> None:
        """Raise unless ``snapshot`` fits this stack (before anything is changed)."""
        from palaestra._env import _snapshot  # start-up: few programs take snapshots (1.9 ms)

        layers: list[Env[Any, Any]] = [self]
        while isinstance(layers[-1], Wrapper):
            layers.append(layers[-1].env)
        spec = layers[-1].spec
        _snapshot.check_fits(layers, None if spec is None else spec.id, snapshot)

    def _restore_snapshot(self, snapshot: Snapshot) -> None:
        from palaestra._env import _snapshot  # start-up: few programs take snapshots (1.9 ms)

        self._restore_state(snapshot.state)
        _snapshot.restore_generator(self, snapshot.rng)

    def _snapshot_state(self) -> dict[str, Any]:
        """Copies of the env's state attributes; override for state a simulator holds."""
        from palaestra._env import _snapshot  # start-up: few programs take snapshots (1.9 ms)

        if self.snapshot_fields is None:
            raise error.SnapshotNotSupported(
                f"{self} cannot take snapshots: {self.snapshot_unsupported_reason}"
            )
        return _snapshot.copy_fields(
            self, self.snapshot_fields, "list the attributes that hold the state in snapshot_fields"
        )

    def _restore_state(self, state: Mapping[str, Any]) -> None:
        """Set the state attributes from a snapshot's copies (which must stay unchanged)."""
        from palaestra._env import _snapshot  # start-up: few programs take snapshots (1.9 ms)

        _snapshot.restore_fields(self, state)

    def __str__(self) -> str:
        if self.spec is None:
            return f"<{type(self).__name__} instance>"
        return f"<{type(self).__name__}<{self.spec.id}>>"

    def set_wrapper_attr(self, name: str, value: Any, *, force: bool = True) -> bool:
        """Set attribute ``name`` on the first env in the stack that has it.

        Args:
            name: Attribute name.
            value: New value.
            force: Set it on this env when no env in the stack has it.

        Returns:
            Whether the attribute was set.
        """
        if force or hasattr(self, name):
            setattr(self, name, value)
            return True
        return False

    def get_wrapper_attr(self, name: str) -> Any:
        """Get attribute ``name`` from the first env in the stack that has it."""
        return getattr(self, name)

    def has_wrapper_attr(self, name: str) -> bool:
        """Whether this env (or, on a wrapper, any env below it) has attribute ``name``."""
        return hasattr(self, name)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *args: object) -> Literal[False]:
        self.close()
        return False


class Wrapper(
    Env[WrapperObsType, WrapperActType],
    Generic[WrapperObsType, WrapperActType, ObsType, ActType],
):
    """Base class for wrappers: forwards everything to ``self.env`` unless overridden.

    Unlike Gymnasium 0.x, arbitrary attributes are *not* forwarded (``wrapper.gravity``
    raises ``AttributeError``); use :meth:`get_wrapper_attr` to reach into the stack.
    """

    def __init__(self, env: Env[ObsType, ActType]) -> None:
        if not isinstance(env, Env):
            raise TypeError(
                f"Expected env to be a `gymnasium.Env` but got {type(env)}; in palaestra, a palaestra.Env "
                "(a Gymnasium env class becomes one by importing palaestra instead of gymnasium)"
            )
        self.env = env
        self._action_space: Space[WrapperActType] | None = None
        self._observation_space: Space[WrapperObsType] | None = None
        self._metadata: dict[str, Any] | None = None
        self._cached_spec: EnvSpec | None = None

    def step(
        self, action: WrapperActType
    ) -> tuple[WrapperObsType, SupportsFloat, bool, bool, dict[str, Any]]:
        """Forward ``step`` to the wrapped env."""
        return self.env.step(action)  # type: ignore[arg-type,return-value]

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[WrapperObsType, dict[str, Any]]:
        """Forward ``reset`` to the wrapped env."""
        return self.env.reset(seed=seed, options=options)  # type: ignore[return-value]

    def render(self) -> RenderFrame | list[RenderFrame] | None:
        """Forward ``render`` to the wrapped env."""
        return self.env.render()

    def close(self) -> None:
        """Forward ``close`` to the wrapped env."""
        return self.env.close()

    @property
    def np_random_seed(self) -> int:
        """The wrapped env's seed."""
        return self.env.np_random_seed

    @property
    def unwrapped(self) -> Env[Any, Any]:
        """The innermost environment."""
        return self.env.unwrapped

    @property
    def spec(self) -> EnvSpec | None:  # type: ignore[override]
        """The wrapped env's spec with this wrapper appended to ``additional_wrappers``."""
        if self._cached_spec is not None:
            return self._cached_spec
        env_spec = self.env.spec
        if env_spec is not None:
            try:
                env_spec = self._extend_spec(deepcopy(env_spec))
            except Exception as e:  # a spec with an unpicklable kwarg cannot be copied
                logger.warn(f"An exception occurred ({e}) while copying the env spec {env_spec}")
                return None
        self._cached_spec = env_spec
        return env_spec

    def _extend_spec(self, env_spec: EnvSpec) -> EnvSpec:
        """Record this wrapper in a copy of the inner spec (overridden by core wrappers)."""
        kwargs: dict[str, Any] | None = None
        if isinstance(self, RecordConstructorArgs):
            kwargs = {k: v for k, v in self._saved_kwargs.items() if k != "env"}
        cls = type(self)
        entry_point = f"{cls.__module__}:{cls.__name__}"
        env_spec.additional_wrappers += (WrapperSpec(cls.class_name(), entry_point, kwargs),)
        return env_spec

    @classmethod
    def wrapper_spec(cls, **kwargs: Any) -> WrapperSpec:
        """A :class:`WrapperSpec` that rebuilds this wrapper class with ``kwargs``."""
        return WrapperSpec(cls.class_name(), f"{cls.__module__}:{cls.__name__}", kwargs)

    #: The attributes that hold this wrapper's state, which :meth:`snapshot` copies; ``None``
    #: (the default) copies every attribute except the env below, spaces and functions.
    snapshot_fields: ClassVar[tuple[str, ...] | None] = None

    def snapshot(self) -> Snapshot:
        """Save the state of the env below and of this wrapper (see :meth:`Env.snapshot`)."""
        from palaestra._env import _snapshot  # start-up: few programs take snapshots (1.9 ms)

        return _snapshot.Snapshot(_snapshot.owner_of(self), self._snapshot_state(), self.env.snapshot())

    def _restore_snapshot(self, snapshot: Snapshot) -> None:
        self.env._restore_snapshot(snapshot.inner)  # type: ignore[arg-type]
        self._restore_state(snapshot.state)

    def _snapshot_state(self) -> dict[str, Any]:
        from palaestra._env import _snapshot  # start-up: few programs take snapshots (1.9 ms)

        fields = self.snapshot_fields
        if fields is None:
            fields = tuple(_snapshot.wrapper_state_names(self, (Env, Space)))
        return _snapshot.copy_fields(
            self,
            fields,
            f"set {type(self).__name__}.snapshot_fields to the attributes that hold its state "
            "(() when it has none)",
        )

    def has_wrapper_attr(self, name: str) -> bool:
        """Whether this wrapper or any env below it has attribute ``name``."""
        return hasattr(self, name) or self.env.has_wrapper_attr(name)

    def get_wrapper_attr(self, name: str) -> Any:
        """Get ``name`` from this wrapper, else from the first env below that has it.

        Raises:
            AttributeError: No env in the stack has the attribute.
        """
        if hasattr(self, name):
            return getattr(self, name)
        try:
            return self.env.get_wrapper_attr(name)
        except AttributeError as e:
            raise AttributeError(f"wrapper {self.class_name()} has no attribute {name!r}") from e

    def set_wrapper_attr(self, name: str, value: Any, *, force: bool = True) -> bool:
        """Set ``name`` where it already exists in the stack, else (``force``) here."""
        if hasattr(self, name):
            setattr(self, name, value)
            return True
        if self.env.set_wrapper_attr(name, value, force=False):
            return True
        if force:
            setattr(self, name, value)
            return True
        return False

    def __str__(self) -> str:
        return f"<{type(self).__name__}{self.env}>"

    def __repr__(self) -> str:
        return str(self)

    @classmethod
    def class_name(cls) -> str:
        """The wrapper's class name."""
        return cls.__name__

    @property
    def action_space(self) -> Space[WrapperActType]:
        """This wrapper's action space (the wrapped env's unless set)."""
        own = self._action_space
        return self.env.action_space if own is None else own  # type: ignore[return-value]

    @action_space.setter
    def action_space(self, space: Space[WrapperActType]) -> None:
        self._action_space = space

    @property
    def observation_space(self) -> Space[WrapperObsType]:
        """This wrapper's observation space (the wrapped env's unless set)."""
        own = self._observation_space
        return self.env.observation_space if own is None else own  # type: ignore[return-value]

    @observation_space.setter
    def observation_space(self, space: Space[WrapperObsType]) -> None:
        self._observation_space = space

    @property
    def metadata(self) -> dict[str, Any]:
        """This wrapper's metadata (the wrapped env's unless set)."""
        own = self._metadata
        return self.env.metadata if own is None else own

    @metadata.setter
    def metadata(self, value: dict[str, Any]) -> None:
        self._metadata = value

    @property
    def render_mode(self) -> str | None:  # type: ignore[override]
        """The wrapped env's render mode."""
        return self.env.render_mode

    @property
    def np_random(self) -> np.random.Generator:
        """The wrapped env's generator."""
        return self.env.np_random

    @np_random.setter
    def np_random(self, value: np.random.Generator) -> None:
        self.env.np_random = value

    @property
    def _np_random(self) -> np.random.Generator:  # type: ignore[override]
        raise AttributeError(
            "Can't access `_np_random` of a wrapper, use `.unwrapped._np_random` or `.np_random`."
        )
