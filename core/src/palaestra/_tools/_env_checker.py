"""``check_env``: a thorough API-conformance check for environment authors.

``check_env`` runs every check below in turn; each is public (with Gymnasium's names) so a
test suite can run one on its own. A broken contract raises :class:`EnvCheckError` (an
``AssertionError`` too, like Gymnasium's checks) with Gymnasium's message; questionable but legal
choices only warn, in Gymnasium's words (``docs/checking.md`` says what to do about each).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from copy import deepcopy
from itertools import combinations
from typing import Any

import numpy as np

from palaestra import logger, spaces
from palaestra._env._core import Env
from palaestra._env._passive_checks import CUSTOM_ENV_GUIDE, space_of, violation

# The passive checks are part of this module's public face too, as in Gymnasium.
from palaestra._env._passive_checks import check_action_space as check_action_space
from palaestra._env._passive_checks import check_observation_space as check_observation_space
from palaestra._env._passive_checks import data_shares_objects as data_shares_objects
from palaestra._env._passive_checks import env_render_passive_checker as env_render_passive_checker
from palaestra._env._passive_checks import env_reset_passive_checker as env_reset_passive_checker
from palaestra._env._passive_checks import env_step_passive_checker as env_step_passive_checker
from palaestra.error import EnvCheckError, EnvCheckTypeError, SnapshotError, SnapshotNotSupported

__all__ = [
    "check_env",
    "check_reset_options",
    "check_reset_return_info_deprecation",
    "check_reset_return_type",
    "check_reset_seed_determinism",
    "check_returned_data_not_reused",
    "check_seed_deprecation",
    "check_snapshot",
    "check_space_limit",
    "check_step_determinism",
    "data_equivalence",
]


def data_equivalence(data_1: Any, data_2: Any, exact: bool = False) -> bool:
    """Whether two observations/infos are equal (same types, dtypes and values).

    Args:
        data_1: First value.
        data_2: Second value.
        exact: Compare numeric arrays exactly (NaN equals NaN) instead of with Gymnasium
            1.4.0's ``np.allclose(rtol=1e-5, atol=1e-5)``, under which NaN equals nothing.
            Arrays of strings and other non-numeric dtypes are always compared exactly.
    """
    if type(data_1) is not type(data_2):
        return False
    if isinstance(data_1, dict):
        return data_1.keys() == data_2.keys() and all(
            data_equivalence(data_1[k], data_2[k], exact) for k in data_1
        )
    if isinstance(data_1, (tuple, list)):
        return len(data_1) == len(data_2) and all(
            data_equivalence(a, b, exact) for a, b in zip(data_1, data_2, strict=True)
        )
    if isinstance(data_1, np.ndarray):
        if data_1.shape != data_2.shape or data_1.dtype != data_2.dtype:
            return False
        if data_1.dtype == object:
            return all(data_equivalence(a, b, exact) for a, b in zip(data_1.flat, data_2.flat, strict=True))
        if exact or data_1.dtype.kind not in "biufc":
            return bool(np.array_equal(data_1, data_2, equal_nan=data_1.dtype.kind in "fc"))
        return bool(np.allclose(data_1, data_2, rtol=1e-5, atol=1e-5))
    return bool(data_1 == data_2)


def _require(condition: Any, message: str) -> None:
    if not condition:
        raise violation(message)


def _accepts(env: Env[Any, Any], name: str) -> bool:
    """Whether ``env.reset`` takes the keyword ``name`` (by name or through ``**kwargs``)."""
    parameters = inspect.signature(env.reset).parameters.values()
    return any(p.name == name or p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters)


def _in_space(env: Env[Any, Any], obs: Any, call: str) -> None:
    _require(
        obs in env.observation_space,
        f"The observation returned by `{call}` is not within the observation space.",
    )


def _declared_nondeterministic(env: Env[Any, Any]) -> bool:
    return env.spec is not None and bool(env.spec.nondeterministic)


def _generator_state(env: Env[Any, Any], message: str) -> Any:
    generator = env.unwrapped._np_random
    if generator is None:
        raise violation(message)
    return deepcopy(generator.bit_generator.state)


def check_reset_return_type(env: Env[Any, Any]) -> None:
    """``reset()`` returns ``(obs, info)`` with ``obs`` in the observation space and a dict ``info``."""
    result = env.reset()
    _require(
        isinstance(result, tuple),
        "The result returned by `env.reset()` was not a tuple of the form `(obs, info)`, where `obs` "
        "is a observation and `info` is a dictionary containing additional information. Actual "
        f"type: `{type(result)}`",
    )
    _require(
        len(result) == 2, f"Calling the reset method did not return a 2-tuple, actual length: {len(result)}"
    )
    obs, info = result
    _require(
        obs in env.observation_space,
        "The first element returned by `env.reset()` is not within the observation space.",
    )
    _require(
        isinstance(info, dict),
        f"The second element returned by `env.reset()` was not a dictionary, actual type: {type(info)}",
    )


def check_reset_seed_determinism(env: Env[Any, Any]) -> None:
    """``reset(seed=s)`` seeds ``np_random``: same seed, same generator state and observations.

    The observations are compared unless the env's spec declares it nondeterministic; an
    env without a spec must be deterministic (Gymnasium compares only envs with a spec).
    """
    if not _accepts(env, "seed"):
        raise violation("The `reset` method does not provide a `seed` or `**kwargs` keyword argument.")
    no_generator = (
        "Expects the random number generator to have been generated given a seed was passed to reset. "
        "Most likely the environment reset function does not call `super().reset(seed=seed)`."
    )
    try:
        obs_1 = deepcopy(env.reset(seed=123)[0])  # deep copies: envs may reuse a buffer
        _in_space(env, obs_1, "env.reset(seed=123)")
        state_1 = _generator_state(env, no_generator)
        obs_2 = deepcopy(env.reset()[0])
        _in_space(env, obs_2, "env.reset()")
        obs_3 = env.reset(seed=123)[0]
        _in_space(env, obs_3, "env.reset(seed=123)")
        state_3 = _generator_state(env, no_generator)
        obs_4 = env.reset()[0]
        _in_space(env, obs_4, "env.reset()")
        if not _declared_nondeterministic(env):
            for first, second, calls in (
                (obs_1, obs_3, "`env.reset(seed=123)`"),
                (obs_2, obs_4, "`env.reset(seed=123)` then `env.reset()`"),
            ):
                _require(
                    data_equivalence(first, second),
                    f"Using {calls} is non-deterministic as the observations are not equivalent.",
                )
                if not data_equivalence(first, second, exact=True):
                    logger.warn(f"Using {calls} observations are not equal although similar.")
        _require(
            state_1 == state_3,
            "Most likely the environment reset function does not call `super().reset(seed=seed)` as the "
            "random generates are not same when the same seeds are passed to `env.reset`.",
        )
        obs_5 = env.reset(seed=456)[0]
        _in_space(env, obs_5, "env.reset(seed=456)")
        _require(
            _generator_state(env, no_generator) != state_1,
            "Most likely the environment reset function does not call `super().reset(seed=seed)` as the "
            "random number generators are not different when different seeds are passed to `env.reset`.",
        )
    except TypeError as e:
        raise violation(
            "The environment cannot be reset with a random seed, even though `seed` or `kwargs` appear "
            f"in the signature. This should never happen, please report this issue. The error was: {e}",
        ) from e
    seed_parameter = inspect.signature(env.reset).parameters.get("seed")
    if seed_parameter is not None and seed_parameter.default is not None:
        logger.warn(
            "The default seed argument in reset should be `None`, otherwise the environment will by "
            f"default always be deterministic. Actual default: {seed_parameter.default}"
        )


def check_reset_options(env: Env[Any, Any]) -> None:
    """``reset`` takes an ``options`` keyword and accepts ``options={}``."""
    if not _accepts(env, "options"):
        raise violation(
            "The `reset` method does not provide an `options` or `**kwargs` keyword argument.",
        )
    try:
        env.reset(options={})
    except TypeError as e:
        raise violation(
            "The environment cannot be reset with options, even though `options` or `**kwargs` appear "
            f"in the signature. This should never happen, please report this issue. The error was: {e}",
        ) from e


def check_step_determinism(env: Env[Any, Any], seed: int = 123) -> None:
    """The same seed and action give the same first step (skipped for nondeterministic specs)."""
    if _declared_nondeterministic(env):
        return
    env.action_space.seed(seed)
    action = env.action_space.sample()
    env.reset(seed=seed)
    obs, reward, terminated, truncated, info = env.step(action)  # a 4-tuple fails here, as in Gymnasium
    first = (deepcopy(obs), reward, terminated, truncated, info)
    not_initialised = "env.reset() should have initialized env._np_random"
    state = _generator_state(env, not_initialised)
    env.reset(seed=seed)
    obs, reward, terminated, truncated, info = env.step(action)
    second = (obs, reward, terminated, truncated, info)
    _require(
        _generator_state(env, not_initialised) == state,
        "The `.np_random` is not properly been updated after step.",
    )
    # Gymnasium's order: observations, rewards, termination, truncation, info.
    for index, what in ((0, "observations"), (1, "rewards"), (2, "termination"), (3, None), (4, "info")):
        if what is None:
            _require(
                first[3] is False and second[3] is False,
                "Environment truncates after 1 step, something has gone very wrong.",
            )
            continue
        flags = index == 2  # compared exactly; the others within np.allclose's tolerance
        _require(
            data_equivalence(first[index], second[index], exact=flags),
            f"Deterministic step {what} are not equivalent for the same seed and action",
        )
        if not flags and not data_equivalence(first[index], second[index], exact=True):
            logger.warn(f"Step {what} are not equal although similar given the same seed and action")


def check_returned_data_not_reused(env: Env[Any, Any], seed: int = 123) -> None:
    """No two results of reset/step share an array or mutable object (users keep old ones)."""
    env.action_space.seed(seed)
    results: list[tuple[str, tuple[Any, Any]]] = []

    def keep(call: str, obs: Any, info: Any) -> None:
        results.append((f"{call} (call {len(results) + 1})", (obs, info)))

    keep("env.reset()", *env.reset(seed=seed))
    for _ in range(2):  # two steps, unless the episode ends first
        obs, _, terminated, truncated, info = env.step(env.action_space.sample())
        keep("env.step()", obs, info)
        if terminated or truncated:
            break
    keep("env.reset()", *env.reset(seed=seed))
    for (call_1, data_1), (call_2, data_2) in combinations(results, 2):
        for index, what, item in ((0, "observations", "observation"), (1, "infos", "info")):
            _require(
                not data_shares_objects(data_1[index], data_2[index]),
                f"The {what} returned by `{call_1}` and `{call_2}` share an object, therefore, "
                f"modifying one will modify the other. Environments must return new {item} data on "
                "every call as users keep the data returned to them.",
            )


def check_snapshot(env: Env[Any, Any], seed: int = 123, steps: int = 5) -> None:
    """After ``restore(snapshot)`` the env goes on exactly as it did after ``snapshot()``.

    Skipped for envs that cannot take snapshots and for nondeterministic specs.
    """
    if _declared_nondeterministic(env):
        return
    env.action_space.seed(seed)
    env.reset(seed=seed)
    env.step(env.action_space.sample())
    try:
        snapshot = env.snapshot()
    except SnapshotNotSupported:
        return
    except SnapshotError as e:
        raise EnvCheckError(f"env.snapshot() failed: {e}") from e
    actions = [env.action_space.sample() for _ in range(steps)]

    def play() -> list[Any]:
        results: list[Any] = []
        for action in actions:
            result = env.step(action)
            results.append(deepcopy(result))
            if result[2] or result[3]:
                results.append(deepcopy(env.reset()))
        return [*results, _generator_state(env, "env.reset() should have initialized env._np_random")]

    first = play()
    env.restore(snapshot)
    second = play()
    _require(
        data_equivalence(first, second, exact=True),
        "After env.restore(snapshot), the same actions give different results than they did right "
        "after env.snapshot(); snapshot_fields (or _snapshot_state/_restore_state) must cover every "
        "attribute that step and reset read and write, and randomness must come from `self.np_random`.",
    )


def check_reset_return_info_deprecation(env: Env[Any, Any]) -> None:
    """Warn when ``reset`` still takes the removed ``return_info`` argument."""
    if "return_info" in inspect.signature(env.reset).parameters:
        logger.warn(
            "`return_info` is deprecated as an optional argument to `reset`. `reset`"
            "should now always return `obs, info` where `obs` is an observation, and `info` is a dictionary"
            "containing additional information."
        )


def check_seed_deprecation(env: Env[Any, Any]) -> None:
    """Warn when the env still has the removed ``seed()`` method."""
    if callable(getattr(env, "seed", None)):
        logger.warn(
            "Official support for the `seed` function is dropped. Standard practice is to reset "
            "gymnasium environments using `env.reset(seed=<desired seed>)`"
        )


def check_space_limit(space: spaces.Space[Any], space_type: str) -> None:
    """Warn about infinite Box bounds and, for actions, unnormalised 1-D Box ranges.

    Args:
        space: The space (Tuple and Dict spaces are searched).
        space_type: ``"action"`` or ``"observation"``, for the messages and the action rule.
    """
    if isinstance(space, spaces.Tuple):
        for subspace in space.spaces:
            check_space_limit(subspace, space_type)
    elif isinstance(space, spaces.Dict):
        for subspace in space.values():
            check_space_limit(subspace, space_type)
    elif isinstance(space, spaces.Box):
        if np.any(space.low == -np.inf):
            logger.warn(f"A Box {space_type} space minimum value is -infinity. This is probably too low.")
        if np.any(space.high == np.inf):
            logger.warn(f"A Box {space_type} space maximum value is infinity. This is probably too high.")
        if space_type == "action" and len(space.shape) == 1:
            asymmetric = (space.low != 0) & (np.abs(space.low) != np.abs(space.high))
            if np.any(asymmetric) or np.any(space.low < -1) or np.any(space.high > 1):
                logger.warn(
                    "For Box action spaces, we recommend using a symmetric and normalized space "
                    "(range=[-1, 1] or [0, 1]). See "
                    "https://stable-baselines3.readthedocs.io/en/master/guide/rl_tips.html for more information."
                )


def _check_render_modes(env: Env[Any, Any]) -> None:
    """Render the env, and a fresh copy in every other declared non-window mode (needs a spec)."""
    if env.render_mode is not None:
        env_render_passive_checker(env)
    # "human" would open a window
    others = [m for m in env.metadata.get("render_modes", []) if m not in (env.render_mode, "human")]
    if env.spec is None:  # Gymnasium's words first, so filters written for them keep matching
        logger.warn(
            "Not able to test alternative render modes due to the environment not having a spec. "
            f"Try instantiating the environment through `palaestra.make` (unchecked modes: {others})"
        )
        return
    for mode in others:
        other = env.spec.make(render_mode=mode)
        try:
            other.reset(seed=0)
            env_render_passive_checker(other)
        finally:
            other.close()


def _check_close_twice(env: Env[Any, Any]) -> None:
    """Closing twice must work; checked on a fresh copy when there is a spec, else on ``env``."""
    target = env.spec.make() if env.spec is not None else env
    target.close()
    try:
        target.close()
    except Exception as e:
        logger.warn(
            "Calling `env.close()` on the closed environment should be allowed, but it raised an "
            f"exception: {e}"
        )


def _require_env(env: Any) -> None:
    if not isinstance(env, Env):
        raise violation(
            f"The environment must inherit from the gymnasium.Env class, actual class: {type(env)}. "
            f"See {CUSTOM_ENV_GUIDE} for more info.",
            EnvCheckTypeError,
        )


def _one_sampled_step(env: Env[Any, Any]) -> None:
    env_step_passive_checker(env, env.action_space.sample())


# What check_env runs between the space checks and rendering, in Gymnasium's order (a test
# compares the order of findings with Gymnasium's on broken envs).
_CONTRACT_CHECKS: tuple[Callable[[Env[Any, Any]], Any], ...] = (
    check_seed_deprecation,
    check_reset_return_info_deprecation,
    check_reset_return_type,
    check_reset_seed_determinism,
    check_reset_options,
    env_reset_passive_checker,
    _one_sampled_step,
    check_step_determinism,
    check_returned_data_not_reused,
    check_snapshot,
)


def check_env(
    env: Env[Any, Any],
    warn: bool | None = None,
    skip_render_check: bool = False,
    skip_close_check: bool = False,
) -> None:
    """Check that ``env`` follows the palaestra (Gymnasium 1.x) environment API.

    The spaces, then every ``check_*`` function of this module (``check_snapshot`` for
    envs that can take snapshots), then rendering (the env's
    own mode and, through its spec, each other declared mode except ``"human"``) and
    closing twice. Findings use Gymnasium's words exactly.

    Args:
        env: The environment, ideally unwrapped.
        warn: Ignored (kept for Gymnasium compatibility; passing it warns).
        skip_render_check: Skip the render checks.
        skip_close_check: Skip the close check.

    Raises:
        EnvCheckError: The first contract violation found (an ``AssertionError``).
        TypeError: ``env`` is not a palaestra ``Env``.
        AttributeError: ``env`` has no action or observation space.
    """
    if warn is not None:
        logger.warn("`check_env(warn=...)` parameter is now ignored.")
    _require_env(env)
    if env.unwrapped is not env:
        logger.warn(
            f"The environment ({env}) is different from the unwrapped version ({env.unwrapped}). This "
            "could effect the environment checker as the environment most likely has a wrapper applied "
            "to it. We recommend using the raw environment for `check_env` using `env.unwrapped`."
        )
    if env.metadata.get("jax", False):
        from palaestra.wrappers import JaxToNumpy  # optional dependency: jax

        env = JaxToNumpy(env)
    elif env.metadata.get("torch", False):
        from palaestra.wrappers import TorchToNumpy  # optional dependency: torch

        env = TorchToNumpy(env)
    for kind, check in (("action", check_action_space), ("observation", check_observation_space)):
        space = space_of(env, kind, f"See {CUSTOM_ENV_GUIDE} for more info.")
        check(space)
        check_space_limit(space, kind)
    for contract_check in _CONTRACT_CHECKS:  # the first failure is the one reported
        contract_check(env)
    if not skip_render_check:
        _check_render_modes(env)
    if not skip_close_check:
        _check_close_twice(env)
