"""Playing an environment with the keyboard in a pygame window, and live plots of what happens.

pygame (``pip install "palaestra[render]"``) is needed by :func:`play`; matplotlib by
:class:`PlayPlot`. Both are imported on use.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from palaestra._env._canvas import import_pygame
from palaestra._env._core import Env
from palaestra.error import DependencyNotInstalled
from palaestra.spaces import Box

__all__ = ["MissingKeysToAction", "PlayPlot", "PlayableGame", "display_arr", "play"]

StepCallback = Callable[[Any, Any, Any, Any, bool, bool, dict[str, Any]], Any]


class MissingKeysToAction(Exception):
    """The env offers no ``get_keys_to_action`` and none was passed to :func:`play`."""


def _pygame() -> Any:
    return import_pygame()


def _frame(env: Env[Any, Any]) -> np.ndarray:
    rendered = env.render()
    if isinstance(rendered, list):
        rendered = rendered[-1]
    if not isinstance(rendered, np.ndarray):
        raise TypeError(f"play needs env.render() to return an RGB array, got {type(rendered)}")
    return rendered


def _keys_to_action_of(
    env: Env[Any, Any], keys_to_action: dict[Any, Any] | None, for_play: bool = True
) -> dict[Any, Any]:
    """The mapping to use: ``keys_to_action``, else the env's own.

    ``for_play``: :func:`play`'s words when there is none, else :class:`PlayableGame`'s (as in
    Gymnasium).
    """
    if keys_to_action is None:
        if env.has_wrapper_attr("get_keys_to_action"):
            keys_to_action = env.get_wrapper_attr("get_keys_to_action")()
        else:
            example = "e.g. play(env, keys_to_action={'a': 0, 'd': 1})"
            if env.spec is None and for_play:
                raise ValueError(
                    "The environment must have an `env.spec` to auto-detect missing keys to action "
                    f"mappings. Pass the mapping, {example}."
                )
            name = env.spec.id if env.spec is not None else type(env.unwrapped).__name__
            how = "" if for_play else ", `play(env, keys_to_action=...)`"
            raise MissingKeysToAction(
                f"{name} does not have explicit key to action mapping, please specify one manually{how}; {example}"
            )
    if not isinstance(keys_to_action, dict):
        raise TypeError(f"keys_to_action must be a dictionary, got {type(keys_to_action)}")
    return keys_to_action


def key_codes(env: Env[Any, Any], keys_to_action: dict[Any, Any]) -> dict[tuple[int, ...], Any]:
    """Normalise ``{key or key combination: action}`` to ``{sorted key codes: action}``.

    Keys are characters (``"a"``) or pygame key codes; a tuple is a combination.

    Raises:
        TypeError, ValueError: A malformed key or an action outside the action space.
    """
    codes: dict[tuple[int, ...], Any] = {}
    for key, action in keys_to_action.items():
        combination = key if isinstance(key, tuple) else (key,)
        if not combination:
            raise ValueError("Key combinations in keys_to_action tuples cannot be empty")
        if not all(isinstance(k, str | int) for k in combination):
            if isinstance(key, tuple):
                raise TypeError(f"All keys in key combination tuple must be integers or strings, got {key}")
            raise TypeError(f"Keys in keys_to_action must be integers or strings, got {type(key)}")
        if action not in env.action_space:
            raise ValueError(
                f"Action {action} is not a valid action in the environment action space: {env.action_space}"
            )
        codes[tuple(sorted(ord(k) if isinstance(k, str) else k for k in combination))] = action
    return codes


class PlayableGame:
    """The window and keyboard state of a :func:`play` session.

    Args:
        env: An env rendering ``rgb_array`` (or ``rgb_array_list``).
        keys_to_action: ``{key codes: action}`` (only these keys are tracked).
        zoom: Window scale relative to the rendered frame.
    """

    def __init__(
        self,
        env: Env[Any, Any],
        keys_to_action: dict[tuple[int, ...], Any] | None = None,
        zoom: float | None = None,
    ) -> None:
        if env.render_mode not in {"rgb_array", "rgb_array_list"}:
            raise ValueError(
                "PlayableGame wrapper works only with rgb_array and rgb_array_list render modes, but your "
                f"environment render_mode = {env.render_mode}."
            )
        if zoom is not None and zoom <= 0:
            raise ValueError(f"Zoom must be a positive float, got {zoom}")
        pygame = _pygame()
        self.env = env
        codes = (
            key_codes(env, _keys_to_action_of(env, None, for_play=False))
            if keys_to_action is None
            else _keys_to_action_of(env, keys_to_action)
        )
        self.relevant_keys = {k for combination in codes for k in combination}
        height, width = _frame(env).shape[:2]
        scale = 1.0 if zoom is None else zoom
        self.original_video_size = (int(width * scale), int(height * scale))
        self.video_size = self.original_video_size
        self.screen = pygame.display.set_mode(self.video_size, pygame.RESIZABLE)
        spec = env.spec
        pygame.display.set_caption(spec.id if spec is not None else type(env.unwrapped).__name__)
        self.pressed_keys: set[int] = set()
        self.running = True

    def process_event(self, event: Any) -> None:
        """Track relevant key presses; stop on Escape or window close; follow resizes."""
        pygame = _pygame()
        kind, key = event.type, getattr(event, "key", None)
        quit_requested = kind == pygame.QUIT or (kind == pygame.KEYDOWN and key == pygame.K_ESCAPE)
        if quit_requested and key not in self.relevant_keys:
            self.running = False
        elif kind == pygame.KEYDOWN and key in self.relevant_keys:
            self.pressed_keys.add(key)
        elif kind == pygame.KEYUP:
            self.pressed_keys.discard(key)
        elif kind == pygame.WINDOWRESIZED:  # keep the frame's aspect ratio inside the new window
            base_w, base_h = self.original_video_size
            fit = min(event.x / base_w, event.y / base_h)
            self.video_size = (round(fit * base_w), round(fit * base_h))


def display_arr(screen: Any, arr: np.ndarray, video_size: tuple[int, int], transpose: bool | None) -> None:
    """Draw an RGB array centred on ``screen``, scaled to ``video_size``.

    Args:
        screen: The pygame surface.
        arr: uint8 frame, rows first (``transpose=True``) or columns first.
        video_size: ``(width, height)`` to scale to.
        transpose: Whether ``arr`` is rows-first (as ``render()`` returns).
    """
    if not (isinstance(arr, np.ndarray) and arr.dtype == np.uint8):
        raise TypeError(f"display_arr needs a uint8 numpy array, got {type(arr)} {getattr(arr, 'dtype', '')}")
    pygame = _pygame()
    image = pygame.surfarray.make_surface(arr.swapaxes(0, 1) if transpose else arr)
    image = pygame.transform.scale(image, video_size)
    surface_width, surface_height = screen.get_size()
    screen.fill((0, 0, 0))
    screen.blit(image, ((surface_width - video_size[0]) / 2, (surface_height - video_size[1]) / 2))


def play(
    env: Env[Any, Any],
    transpose: bool | None = True,
    fps: int | None = None,
    zoom: float | None = None,
    callback: StepCallback | None = None,
    keys_to_action: dict[Any, Any] | None = None,
    seed: int | None = None,
    noop: Any = 0,
    wait_on_player: bool = False,
) -> None:
    """Play ``env`` with the keyboard until the window is closed or Escape is pressed.

    Each frame, the pressed relevant keys (sorted) pick the action from
    ``keys_to_action``; with no match, ``noop`` is taken. Episodes restart on their own.

    Args:
        env: An env made with ``render_mode="rgb_array"``.
        transpose: Whether frames are rows-first (as ``render()`` returns).
        fps: Frames per second (default: ``env.metadata["render_fps"]``, else 30).
        zoom: Window scale.
        callback: Called after every step as ``callback(obs_t, obs_tp1, action, reward,
            terminated, truncated, info)`` (e.g. :meth:`PlayPlot.callback`).
        keys_to_action: ``{"w": 0, ("w", "a"): 1, pygame.K_SPACE: 2, ...}``; default: the
            env's ``get_keys_to_action()``.
        seed: Seed of every reset.
        noop: The action when no mapped keys are pressed. The default ``0`` means "do nothing"
            for a Box action space too (an array of zeros, when zeros are valid actions).
        wait_on_player: Step only while a key is pressed.

    Raises:
        MissingKeysToAction: No mapping given and the env provides none.
        ValueError: ``noop`` is not an action of the env.
        DependencyNotInstalled: pygame is missing.
    """
    env.reset(seed=seed)
    codes = key_codes(env, _keys_to_action_of(env, keys_to_action))
    noop = _checked_noop(env, noop)
    game = PlayableGame(env, codes, zoom)
    if fps is None:
        fps = env.metadata.get("render_fps", 30)
        if not isinstance(fps, int):
            raise TypeError(f"Expected env.metadata['render_fps'] to be an integer, got {type(fps)}")
    pygame = _pygame()
    clock = pygame.time.Clock()
    obs: Any = None
    episode_over = True
    while game.running:
        held = tuple(sorted(game.pressed_keys))
        if episode_over:
            obs, episode_over = env.reset(seed=seed), False
        elif held or not wait_on_player:
            action = codes.get(held, noop)
            result = env.step(action)
            if callback is not None:
                callback(obs, result[0], action, *result[1:])
            obs, episode_over = result[0], result[2] or result[3]
        display_arr(game.screen, _frame(env), video_size=game.video_size, transpose=transpose)
        for event in pygame.event.get():
            game.process_event(event)
        pygame.display.flip()
        clock.tick(fps)
    pygame.display.quit()


def _checked_noop(env: Env[Any, Any], noop: Any) -> Any:
    """``noop`` if it is an action of ``env`` (zeros for a Box space given the default ``0``)."""
    space = env.action_space
    if isinstance(noop, int) and noop == 0 and isinstance(space, Box):
        zeros = np.zeros(space.shape, space.dtype)
        if zeros in space:
            return zeros
    if noop not in space:
        raise ValueError(
            f"noop={noop!r} is not an action of {space}; pass play(..., noop=...) with the action "
            "to take while no mapped key is pressed"
        )
    return noop


class PlayPlot:
    """Live scatter plots of values computed from each step of :func:`play`.

    Pass ``plotter.callback`` as ``play(..., callback=plotter.callback)``.

    Args:
        callback: Maps ``(obs_t, obs_tp1, action, reward, terminated, truncated, info)`` to
            one value per plot.
        horizon_timesteps: How many recent steps each plot shows.
        plot_names: One title per plot.

    Raises:
        DependencyNotInstalled: matplotlib is missing.
    """

    def __init__(
        self, callback: Callable[..., Iterable[Any]], horizon_timesteps: int, plot_names: list[str]
    ) -> None:
        try:
            import matplotlib.pyplot as plt  # optional dependency: matplotlib
        except ImportError as e:
            raise DependencyNotInstalled("PlayPlot needs matplotlib: pip install matplotlib") from e
        self.data_callback = callback
        self.horizon_timesteps = horizon_timesteps
        self.plot_names = plot_names
        self._plt = plt
        self.fig, axes = plt.subplots(len(plot_names))
        self.ax = list(np.atleast_1d(axes))
        for axis, name in zip(self.ax, plot_names, strict=True):
            axis.set_title(name)
        self.t = 0
        self.cur_plot: list[Any] = [None] * len(plot_names)
        self.data: list[deque[Any]] = [deque(maxlen=horizon_timesteps) for _ in plot_names]

    def callback(
        self,
        obs_t: Any,
        obs_tp1: Any,
        action: Any,
        rew: float,
        terminated: bool,
        truncated: bool,
        info: dict[str, Any],
    ) -> None:
        """Record this step's values and redraw the plots."""
        points = list(self.data_callback(obs_t, obs_tp1, action, rew, terminated, truncated, info))
        if len(points) != len(self.data):
            raise ValueError(f"PlayPlot's callback returned {len(points)} values for {len(self.data)} plots")
        for point, series in zip(points, self.data, strict=True):
            series.append(point)
        self.t += 1
        window = range(max(0, self.t - self.horizon_timesteps), self.t)
        for i, (axis, series) in enumerate(zip(self.ax, self.data, strict=True)):
            if self.cur_plot[i] is not None:
                self.cur_plot[i].remove()  # replace the previous scatter, keep the axes
            self.cur_plot[i] = axis.scatter(window, list(series), c="blue")
            axis.set_xlim(window.start, window.stop)
        if self._plt.get_backend().lower() == "agg":
            self.fig.canvas.draw()  # headless: render, without plt.pause's non-interactive warning
        else:
            self._plt.pause(1e-6)
