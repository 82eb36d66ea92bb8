"""One Atari 2600 game on the Arcade Learning Environment (ale-py's emulator and ROMs).

The env drives ``ale_py.ALEInterface`` directly and follows ale-py's own Gymnasium env in
everything a user can observe: the seeding (one ``SeedSequence`` gives both the env's
generator and the emulator's seed), the loading of the ROM, mode and difficulty, frame
skipping (fixed, or drawn per step from ``[low, high)``), sticky actions (the emulator's
``repeat_action_probability``), observations, rewards, flags and infos.
"""

from __future__ import annotations

import difflib
from typing import Any

import numpy as np

from palaestra import Env, spaces
from palaestra.error import DependencyNotInstalled, Error
from palaestra.plugin import EzPickle, invalid_action
from palaestra_atari._games import ALL_GAMES
from palaestra_atari._joystick import ACTION_NAMES, KEYS, joystick_action, joystick_space

__all__ = ["AtariEnv", "ale", "rom_path"]

OBS_TYPES = ("rgb", "grayscale", "ram")
INSTALL = 'pip install "palaestra[atari]" (ale-py, which bundles the ROMs)'


def ale() -> Any:
    """The ``ale_py`` module (its banner silenced), or an error naming the install command."""
    try:
        import ale_py
    except ImportError as e:
        raise DependencyNotInstalled(f"The Atari envs need ale-py: {INSTALL}") from e
    ale_py.ALEInterface.setLoggerMode(ale_py.LoggerMode.Error)  # ALE logs errors only, no banner
    return ale_py


def rom_path(game: str) -> str:
    """The ROM file of ``game`` (snake_case), or an error naming the closest games."""
    roms = ale().roms
    known = roms.get_all_rom_ids()  # asking get_rom_path about another name warns
    path = roms.get_rom_path(game) if isinstance(game, str) and game in known else None
    if path is None:
        close = difflib.get_close_matches(str(game), known or ALL_GAMES, n=3)
        hint = f" Did you mean {', '.join(repr(c) for c in close)}?" if close else ""
        raise Error(
            f"Unknown Atari game {game!r}: games are named in snake_case, as ale-py's ROMs "
            f"(e.g. 'ms_pacman' for MsPacman).{hint}"
        )
    return str(path)


def _check_arguments(obs_type: Any, frameskip: Any, render_mode: Any) -> None:
    """Gymnasium's (ale-py's) checks, in its words."""
    if obs_type not in OBS_TYPES:
        raise Error(f"Invalid observation type: {obs_type}. Expecting: rgb, grayscale, ram.")
    if type(frameskip) not in (int, tuple):
        raise Error(f"Invalid frameskip type: {type(frameskip)}.")
    if isinstance(frameskip, int) and frameskip <= 0:
        raise Error(f"Invalid frameskip of {frameskip}, frameskip must be positive.")
    if isinstance(frameskip, tuple):
        if len(frameskip) != 2:
            raise Error(f"Invalid stochastic frameskip length of {len(frameskip)}, expected length 2.")
        if frameskip[0] >= frameskip[1]:
            raise Error("Invalid stochastic frameskip, lower bound must be strictly less than upper bound.")
        if frameskip[0] <= 0:
            raise Error("Invalid stochastic frameskip, lower bound must be positive.")
    if render_mode is not None and render_mode not in ("rgb_array", "human"):
        raise Error(f"Render mode {render_mode} not supported (rgb_array, human).")


class AtariEnv(Env[Any, Any], EzPickle):
    """An Atari game: observe the screen (or RAM), press the joystick.

    Args:
        game: The ROM, in snake_case (``"pong"``, ``"ms_pacman"``).
        mode: Game mode (``None``: the ROM's default); see Machado et al., 2018.
        difficulty: Game difficulty (``None``: the ROM's default).
        obs_type: ``"rgb"`` (210x160x3), ``"grayscale"`` (210x160) or ``"ram"`` (128 bytes).
        frameskip: Frames per step, or ``(low, high)`` to draw it from ``[low, high)`` each step.
        repeat_action_probability: Chance that the emulator repeats the previous action
            instead of the new one, per frame (sticky actions).
        full_action_space: All 18 joystick actions instead of the game's minimal set.
        continuous: Actions are ``(radius, angle, fire)`` of the joystick, a float32 Box.
        continuous_action_threshold: Where a continuous action's components count as pressed.
        max_num_frames_per_episode: Truncate episodes after this many frames.
        render_mode: ``"rgb_array"`` or ``"human"`` (the emulator's own window and sound).
        sound_obs: Observe ``{"image": ..., "sound": 512 bytes}`` instead.
    """

    metadata = {"render_modes": ["human", "rgb_array"], "render_fps": 30}

    def __init__(
        self,
        game: str,
        mode: int | None = None,
        difficulty: int | None = None,
        obs_type: str = "rgb",
        frameskip: tuple[int, int] | int = 4,
        repeat_action_probability: float = 0.25,
        full_action_space: bool = False,
        continuous: bool = False,
        continuous_action_threshold: float = 0.5,
        max_num_frames_per_episode: int | None = None,
        render_mode: str | None = None,
        sound_obs: bool = False,
    ) -> None:
        _check_arguments(obs_type, frameskip, render_mode)
        EzPickle.__init__(
            self,
            game=game,
            mode=mode,
            difficulty=difficulty,
            obs_type=obs_type,
            frameskip=frameskip,
            repeat_action_probability=repeat_action_probability,
            full_action_space=full_action_space,
            continuous=continuous,
            continuous_action_threshold=continuous_action_threshold,
            max_num_frames_per_episode=max_num_frames_per_episode,
            render_mode=render_mode,
            sound_obs=sound_obs,
        )
        self._rom = rom_path(game)
        ale_py = ale()
        self.ale = ale_py.ALEInterface()
        self._game, self._game_mode, self._game_difficulty = game, mode, difficulty
        # A fixed frame count, or a (low, high) range to draw each step's from.
        self._frameskip = frameskip if isinstance(frameskip, int) else 0
        self._frameskip_range: tuple[int, int] | None = None if isinstance(frameskip, int) else frameskip
        self._obs_type = obs_type
        self.render_mode = render_mode
        self.sound_obs = sound_obs
        self.continuous = continuous
        self.continuous_action_threshold = continuous_action_threshold
        self.ale.setFloat("repeat_action_probability", repeat_action_probability)
        if max_num_frames_per_episode is not None:
            self.ale.setInt("max_num_frames_per_episode", max_num_frames_per_episode)
        if render_mode == "human":  # the emulator draws its window and plays sound
            self.ale.setBool("display_screen", True)
            self.ale.setBool("sound", True)
        self.ale.setBool("sound_obs", sound_obs)
        self.seed_game()
        self.load_game()
        full = full_action_space or continuous
        self._action_set = self.ale.getLegalActionSet() if full else self.ale.getMinimalActionSet()
        self._num_actions = len(self._action_set)
        self.action_space: spaces.Space[Any] = (
            joystick_space() if continuous else spaces.Discrete(len(self._action_set))
        )
        self.observation_space = self._observation_space()

    def _observation_space(self) -> spaces.Space[Any]:
        if self._obs_type == "ram":
            image: spaces.Space[Any] = spaces.Box(0, 255, (self.ale.getRAMSize(),), np.uint8)
        else:
            height, width = self.ale.getScreenDims()
            shape = (height, width, 3) if self._obs_type == "rgb" else (height, width)
            image = spaces.Box(0, 255, shape, np.uint8)
        if self.sound_obs:
            return spaces.Dict(image=image, sound=spaces.Box(0, 255, (512,), np.uint8))
        return image

    # -- the emulator -----------------------------------------------------------------

    def seed_game(self, seed: int | None = None) -> tuple[Any, Any]:
        """Seed the env's generator and the emulator from one ``SeedSequence`` of ``seed``.

        Returns:
            ``(generator seed, emulator seed)``, as the seeded reset's ``info["seeds"]``.
        """
        np_seed, ale_seed = np.random.SeedSequence(seed).generate_state(n_words=2)
        self._np_random = np.random.Generator(np.random.PCG64(np.random.SeedSequence(int(np_seed))))
        self.ale.setInt("random_seed", np.int32(ale_seed))
        return np_seed, ale_seed

    def load_game(self) -> None:
        """Load the ROM (the emulator takes its seed now) and set the mode and difficulty."""
        self.ale.loadROM(self._rom)
        if self._game_mode is not None:
            self.ale.setMode(self._game_mode)
        if self._game_difficulty is not None:
            self.ale.setDifficulty(self._game_difficulty)

    # -- the API ----------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Start a new game; a seed reseeds both generators and reloads the ROM."""
        super().reset(seed=seed)
        seeded_with = None
        if seed is not None:
            seeded_with = self.seed_game(seed)
            self.load_game()
        self.ale.reset_game()
        info = self._info()
        if seeded_with is not None:
            info["seeds"] = seeded_with
        return self._observation(), info

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Press ``action`` for the step's frames; the reward is their sum."""
        frameskip = self._frameskip
        if self._frameskip_range is not None:
            frameskip = int(self.np_random.integers(*self._frameskip_range))
        if self.continuous:
            action_id, strength = self._continuous(action)
        elif (action.__class__ is int and 0 <= action < self._num_actions) or action in self.action_space:
            action_id, strength = self._action_set[int(action)], 1.0
        else:
            raise invalid_action(self, action, self.action_space)
        act = self.ale.act
        reward = 0.0
        for _ in range(frameskip):
            reward += act(action_id, strength)
        terminated = self.ale.game_over(with_truncation=False)
        truncated = self.ale.game_truncated()
        return self._observation(), reward, terminated, truncated, self._info()

    def _continuous(self, action: Any) -> tuple[Any, float]:
        if (
            not (isinstance(action, np.ndarray) and action.dtype == np.float32 and action.shape == (3,))
            or not np.isfinite(action).all()
        ):
            raise invalid_action(self, action, self.action_space)
        return joystick_action(action, self.continuous_action_threshold), action[0]

    def _observation(self) -> Any:
        if self._obs_type == "rgb":
            image = self.ale.getScreenRGB()
        elif self._obs_type == "grayscale":
            image = self.ale.getScreenGrayscale()
        else:
            image = self.ale.getRAM()
        if self.sound_obs:
            return {"image": image, "sound": self.ale.getAudio()}
        return image

    def _info(self) -> dict[str, Any]:
        return {
            "lives": self.ale.lives(),
            "episode_frame_number": self.ale.getEpisodeFrameNumber(),
            "frame_number": self.ale.getFrameNumber(),
        }

    def render(self) -> np.ndarray | None:
        """The screen as an RGB array (``"rgb_array"``); ``"human"`` is drawn by the emulator."""
        if self.render_mode == "rgb_array":
            return self.ale.getScreenRGB()  # type: ignore[no-any-return]
        if self.render_mode == "human":
            return None
        raise Error(f"Invalid render mode `{self.render_mode}`. Supported modes: `human`, `rgb_array`.")

    # -- extras -----------------------------------------------------------------------

    def get_keys_to_action(self) -> dict[tuple[str, ...], int]:
        """Keys for :func:`palaestra.utils.play.play`: w a s d to move, space to fire, e for no-op."""
        if self.continuous:
            raise AttributeError(
                "`get_keys_to_action` can't be provided for this Atari environment as `continuous=True`."
            )
        return {KEYS[action.value]: i for i, action in enumerate(self._action_set)}

    def get_action_meanings(self) -> list[str]:
        """The name of each action of the action space (``"NOOP"``, ``"FIRE"``, ...)."""
        return [ACTION_NAMES[action.value] for action in self._action_set]

    def clone_state(self, include_rng: bool = False) -> Any:
        """The emulator's state (with its random generator when ``include_rng``)."""
        return self.ale.cloneState(include_rng=include_rng)

    def restore_state(self, state: Any) -> None:
        """Put the emulator back into a cloned state."""
        self.ale.restoreState(state)
