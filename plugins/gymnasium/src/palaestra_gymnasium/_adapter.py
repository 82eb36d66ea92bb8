"""What every adapter shares: one env of one library presented as an env of the other.

An adapter holds the inner env (``_inner``), answers for it with converted spaces and
spec, and otherwise passes everything through: ``step`` and ``reset`` are the inner env's
own bound methods, set on the instance, so a step through the adapter costs nothing
(unless a ``Graph`` space needs its values rewrapped). Attribute reads the adapter cannot
answer go to the inner env, and so do writes of attributes the inner env has, so
``adapter.unwrapped.state = ...`` reaches the simulator as it does in either library.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from palaestra_gymnasium._spaces import graph_converter

__all__ = ["Adapter", "plug_in"]

Convert = Callable[[Any], Any]


def converting_step(step: Callable[[Any], Any], action: Convert | None, observation: Convert | None) -> Any:
    """``step`` with actions converted on the way in and observations on the way out."""

    def step_converting(act: Any) -> Any:
        obs, reward, terminated, truncated, info = step(act if action is None else action(act))
        return (obs if observation is None else observation(obs)), reward, terminated, truncated, info

    return step_converting


def converting_reset(reset: Callable[..., Any], observation: Convert) -> Any:
    """``reset`` with observations converted on the way out."""

    def reset_converting(*, seed: Any = None, options: Any = None) -> Any:
        obs, info = reset(seed=seed, options=options)
        return observation(obs), info

    return reset_converting


def plug_in(
    adapter: Adapter, inner: Any, to_space: Convert, graphs: tuple[type, type], space_names: tuple[str, ...]
) -> None:
    """Give an adapter its inner env, the converted spaces, and ``step``/``reset``.

    Args:
        adapter: The adapter being set up.
        inner: The env it presents.
        to_space: Converts one of the inner env's spaces.
        graphs: ``(outer GraphInstance, inner GraphInstance)``.
        space_names: The space attributes to convert (the first two are the observation and
            action spaces that ``step`` and ``reset`` deal in).
    """
    object.__setattr__(adapter, "_inner", inner)
    for name in space_names:
        object.__setattr__(adapter, name, to_space(getattr(inner, name)))
    observation = graph_converter(inner.observation_space, graphs[0])
    action = graph_converter(inner.action_space, graphs[1])
    # The inner env's bound methods: a step through the adapter is the inner env's step.
    step = (
        inner.step
        if observation is None and action is None
        else converting_step(inner.step, action, observation)
    )
    reset = inner.reset if observation is None else converting_reset(inner.reset, observation)
    object.__setattr__(adapter, "step", step)
    object.__setattr__(adapter, "reset", reset)
    object.__setattr__(adapter, "_unwrapped_view", None)


class Adapter:
    """Mixin for the four adapters; the subclass names the inner env and converts specs.

    Subclasses set ``_inner`` first in ``__init__`` and implement :meth:`_convert_spec`
    and :meth:`_view` (the same adapter class around another inner env).
    """

    _inner: Any
    _assigned_spec: Any = None
    _unwrapped_view: Any = None

    def _convert_spec(self, spec: Any) -> Any:
        raise NotImplementedError

    def _view(self, inner: Any) -> Any:
        raise NotImplementedError

    # -- attribute pass-through ---------------------------------------------------------

    def __getattr__(self, name: str) -> Any:
        inner = self.__dict__.get("_inner")
        if inner is None or name.startswith("__"):  # private names too: ALE's wrappers read _frameskip
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        return getattr(inner, name)

    def __setattr__(self, name: str, value: Any) -> None:
        inner = self.__dict__.get("_inner")
        own = name.startswith("_") or name in self.__dict__ or hasattr(type(self), name)
        if inner is None or own or not hasattr(inner, name):
            object.__setattr__(self, name, value)
        else:
            setattr(inner, name, value)

    def get_wrapper_attr(self, name: str) -> Any:
        """``name`` from the adapter if it has it, else from the inner env's stack."""
        if name in self.__dict__ or hasattr(type(self), name):
            return getattr(self, name)
        return self._inner.get_wrapper_attr(name)

    def has_wrapper_attr(self, name: str) -> bool:
        """Whether the adapter or the inner env's stack has ``name``."""
        return name in self.__dict__ or hasattr(type(self), name) or self._inner.has_wrapper_attr(name)

    def set_wrapper_attr(self, name: str, value: Any, *, force: bool = True) -> bool:
        """Set ``name`` where the inner env's stack has it, else (``force``) on the adapter."""
        if self._inner.set_wrapper_attr(name, value, force=False):
            return True
        if force:
            object.__setattr__(self, name, value)
        return force

    # -- what the inner env answers ----------------------------------------------------

    @property
    def metadata(self) -> Any:
        """The inner env's metadata (the same dict)."""
        return self._inner.metadata

    @metadata.setter
    def metadata(self, value: Any) -> None:
        self._inner.metadata = value

    @property
    def render_mode(self) -> Any:
        """The inner env's render mode."""
        return self._inner.render_mode

    @property
    def spec(self) -> Any:
        """The inner env's spec, converted; or the spec this library's ``make`` assigned."""
        if self._assigned_spec is not None:
            return self._assigned_spec
        spec = self._inner.spec
        return None if spec is None else self._convert_spec(spec)

    @spec.setter
    def spec(self, value: Any) -> None:
        self._assigned_spec = value

    @property
    def np_random(self) -> Any:
        """The inner env's generator."""
        return self._inner.np_random

    @np_random.setter
    def np_random(self, value: Any) -> None:
        self._inner.np_random = value

    @property
    def np_random_seed(self) -> Any:
        """The inner env's seed."""
        return self._inner.np_random_seed

    @property
    def unwrapped(self) -> Any:
        """This adapter when the inner env is bare, else an adapter of the inner bare env."""
        bare = self._inner.unwrapped
        if bare is self._inner:
            return self
        view = self._unwrapped_view
        if view is None or view._inner is not bare:
            view = self._unwrapped_view = self._view(bare)
        return view

    def render(self) -> Any:
        """The inner env's frame(s)."""
        return self._inner.render()

    def close(self, **kwargs: Any) -> None:
        """Close the inner env."""
        self._inner.close(**kwargs)

    def __str__(self) -> str:
        return f"<{type(self).__name__}{self._inner}>"

    def __repr__(self) -> str:
        return str(self)
