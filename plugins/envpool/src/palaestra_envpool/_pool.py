"""EnvPool's pool object on a palaestra vector env: ``step(actions, env_id)``, ``reset(env_id)``.

The pool owns one palaestra vector env (the id's own by default, natively batched where the
id has one) in NEXT_STEP autoreset, EnvPool's: the step after an episode ends returns the
next episode's first observation with reward 0. What the pool adds is EnvPool's shape of
things: one sub-env's spaces, sub-env ids on every call, float32 rewards, int32 integer
observations, and ``info`` with ``env_id``, ``players`` and ``elapsed_step`` (the steps of
each sub-env's episode so far, counted here).
"""

from __future__ import annotations

import inspect
import warnings
from typing import Any

import numpy as np

import palaestra
from palaestra import error
from palaestra.envs.registration import load_env_creator
from palaestra_envpool._spec import PoolSpec, observation_converter

__all__ = ["EnvPool"]


class EnvPool:
    """A pool of ``num_envs`` sub-envs with EnvPool's Gymnasium interface (``env_type="gymnasium"``).

    Make it with :func:`palaestra_envpool.make_gymnasium`. ``observation_space`` and
    ``action_space`` are one sub-env's (also as ``single_observation_space`` and
    ``single_action_space``); batches have one row per sub-env asked for.

    Attributes:
        spec: The :class:`PoolSpec` (``spec.config`` lists the settings).
        envs: The palaestra vector env underneath.
    """

    metadata: dict[str, Any] = {"render_modes": ["rgb_array"], "autoreset_mode": "NextStep"}
    is_vector_env = True

    def __init__(self, spec: PoolSpec, envs: Any) -> None:
        self.spec = spec
        self.envs = envs
        self.num_envs = int(spec.config.num_envs)
        self.all_env_ids = np.arange(self.num_envs, dtype=np.int32)
        self.observation_space = self.single_observation_space = spec.observation_space
        self.action_space = self.single_action_space = spec.action_space
        self._observations = observation_converter(spec.sub_env_observation_space)[1]
        self._elapsed = np.zeros(self.num_envs, dtype=np.int32)
        self._ended = np.zeros(self.num_envs, dtype=np.bool_)  # ended at its last result: resets next
        self._fresh = np.zeros(self.num_envs, dtype=np.bool_)  # async_reset sent, result not received
        self._seed: int | None = int(spec.config.seed)  # seeds the first reset only, as EnvPool's
        self._all_equal = self.all_env_ids.tolist()
        action_dtype = getattr(spec.palaestra_spaces()[1], "dtype", None)
        self._integer_actions = action_dtype is not None and np.dtype(action_dtype).kind in "iu"

    # -- EnvPool's properties ----------------------------------------------------------------

    @property
    def config(self) -> dict[str, Any]:
        """The pool's settings and the env's arguments (EnvPool's ``config``)."""
        return dict(self.spec.config._asdict())

    @property
    def is_async(self) -> bool:
        """Whether ``recv`` returns fewer sub-envs than there are (``batch_size < num_envs``)."""
        return bool(self.spec.config.batch_size != self.num_envs)

    @property
    def render_mode(self) -> str | None:
        """The render mode the sub-envs were made with."""
        return getattr(self.envs, "render_mode", None)

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return bool(getattr(self.envs, "closed", False))

    def __len__(self) -> int:
        return self.num_envs

    # -- synchronous calls ----------------------------------------------------------------------

    def reset(
        self, env_id: Any = None, *, seed: Any = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]] | Any:
        """Reset sub-envs ``env_id`` (all by default); return their ``(obs, info)``.

        The first reset seeds sub-env ``i`` with ``seed + i`` (``make``'s ``seed``); a
        ``seed`` given here is ignored with a warning, as EnvPool does.
        ``options={"reset_mask": mask}`` selects sub-envs as ``env_id`` does.
        """
        warn_reset_seed(seed)
        observations, info = self._reset(env_id, options)
        if not self.spec.config.gym_reset_return_info:
            return observations
        return observations, info

    def _reset(self, env_id: Any, options: dict[str, Any] | None) -> tuple[Any, dict[str, Any]]:
        ids = self._reset_ids(env_id, options)
        if ids is None or self._seed is not None:  # every sub-env (the first reset always seeds all)
            observations, info = self.envs.reset(seed=self._take_seed())
            rows = self.all_env_ids if ids is None else ids
        else:
            mask = np.zeros(self.num_envs, dtype=np.bool_)
            mask[ids] = True
            observations, info = self.envs.reset(options={"reset_mask": mask})
            rows = ids
        self._elapsed[rows] = 0
        self._ended[rows] = False
        return _rows(self._observations(observations), rows, self.num_envs), self._info(info, rows)

    def step(
        self, action: Any, env_id: Any = None
    ) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Step sub-envs ``env_id`` (all by default) with one action each; return their results.

        In async mode (``batch_size < num_envs``) this is ``send`` then ``recv``: the results
        are those of the first ``batch_size`` sub-envs ready.
        """
        if self.is_async:
            self.send(action, env_id)
            return self.recv()
        action = self._action_batch(action)
        ids = self._ids(env_id)
        if ids is None:
            result = self.envs.step(action)
            rows = self.all_env_ids
        else:
            result, rows = self._step_some(action, ids)
        return self._result(result, rows)

    # -- asynchronous calls -------------------------------------------------------------------

    def async_reset(self) -> None:
        """Reset every sub-env without waiting; :meth:`recv` returns the results as they come."""
        self.envs.async_reset(seed=self._take_seed())
        self._fresh[:] = True

    def send(self, action: Any, env_id: Any = None) -> None:
        """Step sub-envs ``env_id`` (default: every sub-env) without waiting for the results."""
        ids = self.all_env_ids if env_id is None else self._id_array(env_id)
        self.envs.send(self._action_batch(action), ids)

    def recv(
        self, timeout: float | None = None
    ) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """The results of the first ``batch_size`` sub-envs ready, with ``info["env_id"]``."""
        result = self.envs.recv(timeout)
        rows = np.asarray(result[4]["env_id"], dtype=np.int32)
        return self._result(result, rows, from_recv=True)

    # -- the rest -----------------------------------------------------------------------------

    def render(self, env_ids: Any = None) -> np.ndarray | None:
        """Frames of sub-envs ``env_ids`` (default: sub-env 0), stacked: ``(k, H, W, 3)``."""
        frames = self.envs.render()
        if frames is None:
            return None
        ids = [0] if env_ids is None else self._id_array(env_ids).tolist()
        return np.stack([frames[i] for i in ids])

    def seed(self, seed: Any = None) -> None:
        """EnvPool's abandoned ``seed``: warns, as EnvPool does, and changes nothing."""
        warnings.warn(
            "The `seed` function in envpool is abandoned. You can set seed by envpool.make(..., seed=seed) instead.",
            stacklevel=2,
        )

    def close(self, **kwargs: Any) -> None:
        """Close the vector env (its worker processes or threads go with it)."""
        self.envs.close()

    def __enter__(self) -> EnvPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        settings = ", ".join(f"{k}={v!r}" for k, v in self.config.items())
        return f"{type(self).__name__}({self.spec.palaestra_id!r}, {settings})"

    # -- helpers ------------------------------------------------------------------------------

    def _take_seed(self) -> int | None:
        seed, self._seed = self._seed, None
        return seed

    def _action_batch(self, action: Any) -> Any:
        """Whole-number float actions of a discrete space as integers (EnvPool casts to the action's dtype)."""
        if self._integer_actions and isinstance(action, np.ndarray) and action.dtype.kind == "f":
            as_integers = action.astype(np.int64)
            if np.array_equal(as_integers, action):
                return as_integers
        return action

    def _id_array(self, env_id: Any) -> np.ndarray:
        ids = np.asarray(env_id)
        if ids.ndim == 0:
            ids = ids.reshape(1)
        if ids.ndim != 1 or not (ids.size == 0 or np.issubdtype(ids.dtype, np.integer)):
            raise error.InvalidAction(
                f"env_id must be sub-env ids (integers in [0, {self.num_envs})), got {env_id!r}"
            )
        ids = ids.astype(np.int32)
        outside = ids[(ids < 0) | (ids >= self.num_envs)]
        if outside.size:
            raise error.InvalidAction(
                f"env_id {outside.tolist()} out of range: this pool has sub-envs 0 to {self.num_envs - 1}"
            )
        if np.unique(ids).size != ids.size:
            raise error.InvalidAction(f"env_id {ids.tolist()} names a sub-env twice; name each once")
        return ids

    def _ids(self, env_id: Any) -> np.ndarray | None:
        """The sub-envs named, or ``None`` for every one of them in order."""
        if env_id is None:
            return None
        ids = self._id_array(env_id)
        return None if ids.tolist() == self._all_equal else ids

    def _reset_ids(self, env_id: Any, options: dict[str, Any] | None) -> np.ndarray | None:
        if options:
            unknown = sorted(set(options) - {"reset_mask"})
            if unknown:
                raise ValueError(f"Unsupported Gymnasium reset options for EnvPool: {unknown}")
            if env_id is not None:
                raise ValueError("Pass either env_id or options['reset_mask'], not both.")
            mask = np.asarray(options["reset_mask"], dtype=np.bool_)
            if mask.shape != (self.num_envs,):
                raise ValueError(f"reset_mask must have shape ({self.num_envs},), got {mask.shape}")
            if not mask.any():
                raise ValueError("reset_mask must select at least one environment.")
            env_id = np.flatnonzero(mask)
        return self._ids(env_id)

    def _step_some(self, action: Any, ids: np.ndarray) -> tuple[tuple[Any, ...], np.ndarray]:
        """Step some sub-envs only, through the vector env's send/recv."""
        inner = self.envs.unwrapped
        if inner.recv_engine is None and not getattr(inner, "steps_some", False):
            raise error.InvalidAction(
                f"step(actions, env_id) for {ids.size} of {self.num_envs} sub-envs: "
                f"{type(inner).__name__} steps its sub-envs together, never some of them. "
                "Make the pool with envpool.make(..., vectorization_mode='sync') (or 'async'), whose "
                "sub-envs step one by one (Tianshou's Collector does this when it collects n_episode)"
            )
        order = np.argsort(ids, kind="stable")
        previous = self.envs.batch_size
        self.envs.batch_size = ids.size
        try:
            self.envs.send(np.asarray(action)[order], ids[order])
            result = self.envs.recv()
        finally:
            self.envs.batch_size = previous
        # recv's rows come in sub-env order; EnvPool's in the order the ids were given.
        back = np.argsort(order, kind="stable")
        observations = _rows(result[0], back, ids.size)
        arrays = tuple(np.asarray(part)[back] for part in result[1:4])
        return (observations, *arrays, _info_rows(result[4], back, ids.size)), ids

    def _result(
        self, result: tuple[Any, ...], rows: np.ndarray, from_recv: bool = False
    ) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        observations, rewards, terminated, truncated, info = result
        if from_recv:  # results of async_reset: their episodes start (elapsed 0)
            fresh = self._fresh[rows]
            if fresh.any():
                self._ended[rows[fresh]] = True
                self._fresh[rows] = False
        index = slice(None) if rows is self.all_env_ids else rows  # a slice is cheaper than rows
        elapsed = self._elapsed[index] + 1
        elapsed[self._ended[index]] = 0  # ended at its last result: this one is a reset's
        self._elapsed[index] = elapsed
        terminated = np.asarray(terminated, dtype=np.bool_)
        truncated = np.asarray(truncated, dtype=np.bool_)
        self._ended[index] = terminated | truncated
        return (
            self._observations(observations),
            np.asarray(rewards).astype(np.float32, copy=False),
            terminated,
            truncated,
            self._batch_info(info, rows, elapsed),
        )

    def _info(self, info: dict[str, Any], rows: np.ndarray) -> dict[str, Any]:
        """A reset's info for ``rows`` (taken from the whole batch's)."""
        info = _info_rows(info, rows, self.num_envs) if rows.size != self.num_envs else info
        return self._batch_info(info, rows, self._elapsed[rows].copy())

    def _batch_info(self, info: dict[str, Any], rows: np.ndarray, elapsed: np.ndarray) -> dict[str, Any]:
        ids = rows.astype(np.int32, copy=True)
        out = {"env_id": ids, "players": {"env_id": ids}}
        out.update(_without_masks(info))
        out["elapsed_step"] = elapsed
        return out


def warn_reset_seed(seed: Any) -> None:
    """EnvPool's warning for a seed given to ``reset`` (the pool's seed is ``make``'s)."""
    if seed is not None:
        warnings.warn(
            "EnvPool seeds are fixed when the environment is created. reset(seed=...) is ignored; "
            "pass seed to envpool.make instead.",
            stacklevel=3,
        )


def _without_masks(info: dict[str, Any]) -> dict[str, Any]:
    """Palaestra's batched info without its ``_key`` presence masks (EnvPool has none).

    ``recv``'s own ``env_id`` is left out too: the pool states the ids in the caller's order.
    """
    return {
        key: _without_masks(value) if isinstance(value, dict) else value
        for key, value in info.items()
        if key != "env_id" and not (key.startswith("_") and key[1:] in info)
    }


def _rows(batch: Any, rows: np.ndarray, size: int) -> Any:
    """Rows ``rows`` of a batch (arrays, dicts and tuples of them), unless it is all of them in order."""
    if isinstance(batch, dict):
        return {key: _rows(value, rows, size) for key, value in batch.items()}
    if isinstance(batch, tuple):
        return tuple(_rows(value, rows, size) for value in batch)
    array = np.asarray(batch)
    if rows.size == size and rows.tolist() == list(range(size)):
        return array
    return array[rows]


def _info_rows(info: dict[str, Any], rows: np.ndarray, size: int) -> dict[str, Any]:
    return {
        key: _info_rows(value, rows, size)
        if isinstance(value, dict)
        else _rows(value, rows, size)
        if isinstance(value, np.ndarray) and value.shape[:1] == (size,)
        else value
        for key, value in info.items()
    }


def build_vector_env(spec: PoolSpec, vectorization_mode: Any, vector_kwargs: dict[str, Any] | None) -> Any:
    """The palaestra vector env behind a pool: its parallelism and batch size set as EnvPool's say."""
    config = spec.config
    env_kwargs = dict(spec.env_kwargs)
    vector_kwargs = dict(vector_kwargs or {})
    # EnvPool's num_threads is palaestra's one knob (threads or processes alike); the sync
    # vectorizer, chosen by name, steps in the calling thread.
    if config.num_threads and vectorization_mode != "sync":
        vector_kwargs.setdefault("num_workers", min(config.num_threads, config.num_envs))
    registered = palaestra.spec(spec.palaestra_id)
    if vectorization_mode in (None, "vector_entry_point") and registered.vector_entry_point is not None:
        parameters = _parameters(registered.vector_entry_point)
        for name in ("batch_size", "thread_affinity_offset"):  # ALE fixes them when it is made
            if name in parameters:
                env_kwargs[name] = getattr(config, name)
    env_kwargs["max_episode_steps"] = -1 if config.max_episode_steps is None else config.max_episode_steps
    envs = palaestra.make_vec(
        spec.palaestra_id,
        config.num_envs,
        vectorization_mode=vectorization_mode,
        vector_kwargs=vector_kwargs or None,
        **env_kwargs,
    )
    if envs.batch_size != config.batch_size:
        try:
            envs.batch_size = config.batch_size
        except error.Error:
            envs.close()
            raise
    return envs


def _parameters(entry_point: Any) -> set[str]:
    """The keyword arguments a vector entry point takes."""
    creator = entry_point if callable(entry_point) else load_env_creator(entry_point)
    return set(inspect.signature(creator).parameters)
