"""The standard Atari preprocessing of Machado et al. (2018).

No-op starts, frame skip with max-pooling, resize, grayscale, optional life-loss
termination and scaling.
"""

from __future__ import annotations

from typing import Any, SupportsFloat, TypeAlias

import numpy as np

from palaestra._base._wrapper_spec import RecordConstructorArgs
from palaestra._env._core import Env, Wrapper
from palaestra.spaces import Box
from palaestra.wrappers._observations import import_cv2

__all__ = ["AtariPreprocessing"]


def _check_screen_size(screen_size: Any) -> tuple[int, int]:
    def positive(value: Any) -> bool:
        return isinstance(value, int) and not isinstance(value, bool) and value > 0

    if positive(screen_size):
        return (screen_size, screen_size)
    if isinstance(screen_size, tuple) and len(screen_size) == 2 and all(positive(s) for s in screen_size):
        return screen_size
    raise ValueError(f"Expect the `screen_size` to be positive, actually: {screen_size}")


#: The output image size: one side of a square, or ``(width, height)``.
ScreenSize: TypeAlias = "int | tuple[int, int]"


class AtariPreprocessing(Wrapper[Any, Any, Any, Any], RecordConstructorArgs):
    """Preprocess an ALE env (``frameskip=1``) the standard way.

    Reads frames straight from ``env.unwrapped.ale`` (``getScreenGrayscale`` /
    ``getScreenRGB``, ``lives``), so it works with ale-py's envs or anything exposing
    the same interface.

    Args:
        env: An Atari env created with ``frameskip=1`` and a ``Box`` image observation.
        noop_max: Up to this many no-op actions (action 0, which must mean ``NOOP``)
            after each reset; 0 disables them.
        frame_skip: Repeat each action this many frames, summing rewards; the
            observation is the pixel-wise max of the last two frames.
        screen_size: Output size, an int (square) or ``(width, height)``.
        terminal_on_life_loss: End the episode when a life is lost.
        grayscale_obs: Grayscale (True) or RGB observations.
        grayscale_newaxis: Keep a trailing channel axis of size 1 for grayscale.
        scale_obs: float32 observations in ``[0, 1]`` instead of uint8.

    Raises:
        DependencyNotInstalled: opencv is missing (``pip install "palaestra[opencv]"``).
        ValueError: A bad argument, or an env that skips frames itself.
    """

    def __init__(
        self,
        env: Env[Any, Any],
        noop_max: int = 30,
        frame_skip: int = 4,
        screen_size: ScreenSize = 84,
        terminal_on_life_loss: bool = False,
        grayscale_obs: bool = True,
        grayscale_newaxis: bool = False,
        scale_obs: bool = False,
    ) -> None:
        RecordConstructorArgs.__init__(
            self,
            noop_max=noop_max,
            frame_skip=frame_skip,
            screen_size=screen_size,
            terminal_on_life_loss=terminal_on_life_loss,
            grayscale_obs=grayscale_obs,
            grayscale_newaxis=grayscale_newaxis,
            scale_obs=scale_obs,
        )
        Wrapper.__init__(self, env)
        self._cv2 = import_cv2()
        if frame_skip <= 0:
            raise ValueError(f"Expect the `frame_skip` to be positive, actually: {frame_skip}")
        self.screen_size = _check_screen_size(screen_size)
        if frame_skip > 1 and getattr(env.unwrapped, "_frameskip", None) != 1:
            raise ValueError(
                "Disable frame-skipping in the original env (make it with frameskip=1); otherwise frames "
                "are skipped twice, by the env and by this wrapper"
            )
        if noop_max < 0:
            raise ValueError(f"Expect the `noop_max` to be non-negative, actually: {noop_max}")
        if noop_max > 0 and env.unwrapped.get_action_meanings()[0] != "NOOP":  # type: ignore[attr-defined]
            raise ValueError("When noop_max > 0, the first action meaning must be 'NOOP'")
        if not isinstance(env.observation_space, Box):
            raise TypeError(
                f"AtariPreprocessing wrapper requires a Box observation space, got {type(env.observation_space)}"
            )
        self.noop_max = noop_max
        self.frame_skip = frame_skip
        self.terminal_on_life_loss = terminal_on_life_loss
        self.grayscale_obs = grayscale_obs
        self.grayscale_newaxis = grayscale_newaxis
        self.scale_obs = scale_obs
        frame_shape = env.observation_space.shape[:2] if grayscale_obs else env.observation_space.shape
        # The last two frames of a skip, max-pooled to remove the ALE's sprite flicker.
        self.obs_buffer = [np.empty(frame_shape, dtype=np.uint8), np.empty(frame_shape, dtype=np.uint8)]
        self.lives = 0
        self.game_over = False
        width, height = self.screen_size
        shape: tuple[int, ...] = (
            (height, width)
            if grayscale_obs and not grayscale_newaxis
            else (
                height,
                width,
                1 if grayscale_obs else 3,
            )
        )
        if scale_obs:
            self.observation_space = Box(0, 1, shape, np.float32)
        else:
            self.observation_space = Box(0, 255, shape, np.uint8)

    @property
    def ale(self) -> Any:
        """The emulator interface of the unwrapped env."""
        return self.env.unwrapped.ale  # type: ignore[attr-defined]

    def _grab(self, slot: int) -> None:
        if self.grayscale_obs:
            self.ale.getScreenGrayscale(self.obs_buffer[slot])
        else:
            self.ale.getScreenRGB(self.obs_buffer[slot])

    def step(self, action: Any) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        """Repeat ``action`` for ``frame_skip`` frames (stopping at an episode end)."""
        total_reward: Any = 0.0
        terminated, truncated, info = False, False, dict[str, Any]()
        for t in range(self.frame_skip):
            _, reward, terminated, truncated, info = self.env.step(action)
            total_reward += reward
            if self.terminal_on_life_loss:
                lives, previous = self.ale.lives(), self.lives
                self.lives = lives
                terminated = terminated or lives < previous
            self.game_over = terminated
            if terminated or truncated:
                break
            frames_left = self.frame_skip - 1 - t
            if frames_left < 2:  # the last two frames are kept for max-pooling
                self._grab(frames_left)
        return self._observation(), total_reward, terminated, truncated, info

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Reset, then take a random number of no-ops (in ``[1, noop_max]``)."""
        _, info = self.env.reset(seed=seed, options=options)
        noops = self.env.unwrapped.np_random.integers(1, self.noop_max + 1) if self.noop_max > 0 else 0
        for _ in range(noops):
            _, _, terminated, truncated, step_info = self.env.step(0)
            info.update(step_info)
            if terminated or truncated:
                _, info = self.env.reset(seed=seed, options=options)
        self.lives = self.ale.lives()
        self._grab(0)
        self.obs_buffer[1].fill(0)
        return self._observation(), info

    def _observation(self) -> np.ndarray:
        if self.frame_skip > 1:
            np.maximum(self.obs_buffer[0], self.obs_buffer[1], out=self.obs_buffer[0])
        cv2 = self._cv2
        obs = cv2.resize(self.obs_buffer[0], self.screen_size, interpolation=cv2.INTER_AREA)
        obs = np.asarray(obs, dtype=np.float32) / 255.0 if self.scale_obs else np.asarray(obs, dtype=np.uint8)
        if self.grayscale_obs and self.grayscale_newaxis:
            obs = np.expand_dims(obs, axis=-1)
        return obs  # type: ignore[no-any-return]
