"""Ray itself, imported on first use, and the translation of what its actors raise."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from palaestra.error import DependencyNotInstalled, SubEnvError
from palaestra.plugin import logger
from palaestra_ray._actor import EnvBlock

__all__ = ["_cluster_cpus", "_describe", "_first_line", "_ray", "_remote_block", "_reraise", "_start_ray"]


@functools.cache
def _ray() -> Any:
    try:
        import ray
    except ImportError as e:
        raise DependencyNotInstalled(
            f'RayVectorEnv needs Ray ({e}); install it with `pip install "palaestra[ray]"`'
        ) from e
    return ray


@functools.cache
def _remote_block() -> Any:
    return _ray().remote(EnvBlock)


def _start_ray(ray: Any, init_kwargs: dict[str, Any] | None) -> None:
    if not ray.is_initialized():
        ray.init(**(init_kwargs or {}))
    elif init_kwargs:
        logger.warn(f"Ray is already running; RayVectorEnv ignores ray_init_kwargs={init_kwargs}")


def _cluster_cpus(ray: Any) -> int:
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def _describe(blocks: list[range]) -> str:
    return ", ".join(
        f"sub-env {b.start}" if len(b) == 1 else f"sub-envs {b.start}-{b.stop - 1}" for b in blocks
    )


def _first_line(error: BaseException) -> str:
    return str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__


def _reraise(failure: Any, others: Sequence[Any] = ()) -> None:
    """Raise a Ray task error as the sub-env's own exception, naming the sub-env.

    ``others``: more task errors that came with it (each logged; a note lists them), so no
    failure goes unreported.
    """
    others = list(others)
    for other in others:  # in the words the other vectorizers log them
        index = getattr(other.cause, "sub_env_index", "?")
        logger.error(f"Received the following error from sub-env {index}:\n{other}")
    original = failure.cause
    text = str(failure)
    if not isinstance(original, BaseException):
        raise SubEnvError(
            f"A RayVectorEnv actor raised {failure.cause_cls.__name__}:\n{text}",
            index=-1,
            error_type=failure.cause_cls.__name__,
            worker_traceback=text,
        )
    index = getattr(original, "sub_env_index", None)
    cause = SubEnvError(
        f"{'Sub-env ' + str(index) if index is not None else 'A RayVectorEnv actor'} raised "
        f"{type(original).__name__}: {original}\n--- actor traceback ---\n{text}",
        index=-1 if index is None else index,
        error_type=type(original).__name__,
        worker_traceback=text,
    )
    if index is not None and hasattr(original, "add_note"):
        original.add_note(f"Raised by sub-env {index} of a RayVectorEnv (actor traceback in the cause).")
    if others and hasattr(original, "add_note"):
        original.add_note("Also raised (logged above): " + "; ".join(_described(other) for other in others))
    raise original from cause


def _described(failure: Any) -> str:
    """``sub-env i raised Type: message`` of a Ray task error."""
    cause = failure.cause
    if not isinstance(cause, BaseException):
        return f"an actor raised {failure.cause_cls.__name__}"
    index = getattr(cause, "sub_env_index", None)
    who = f"sub-env {index}" if index is not None else "an actor"
    return f"{who} raised {type(cause).__name__}: {cause}"
