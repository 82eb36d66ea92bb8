"""The games and their ids: the facts the registrations, the declarations and the docs share.

ale-py 0.12 ships the ROMs; these lists are its games (a test ties them to ``ale_py.roms``),
written here so that registering the suite needs no import of ale-py.
"""

from __future__ import annotations

from palaestra.plugin import get_env_id

__all__ = [
    "ALL_GAMES",
    "LEGACY_GAMES",
    "MULTIPLAYER_ONLY",
    "V5_GAMES",
    "legacy_ids",
    "pascal_name",
    "v5_ids",
]

#: Every ROM ale-py bundles, in its order (snake_case, as ``AtariEnv(game=...)`` takes them).
ALL_GAMES = (
    "adventure", "air_raid", "alien", "amidar", "assault", "asterix", "asteroids", "atlantis2",
    "atlantis", "backgammon", "bank_heist", "basic_math", "battle_zone", "beam_rider", "berzerk",
    "blackjack", "bowling", "boxing", "breakout", "carnival", "casino", "centipede",
    "chopper_command", "combat", "crazy_climber", "crossbow", "darkchambers", "defender",
    "demon_attack", "donkey_kong", "double_dunk", "earthworld", "elevator_action", "enduro",
    "entombed", "et", "fishing_derby", "flag_capture", "freeway", "frogger", "frostbite", "galaxian",
    "gopher", "gravitar", "hangman", "haunted_house", "hero", "human_cannonball", "ice_hockey",
    "jamesbond", "journey_escape", "joust", "kaboom", "kangaroo", "keystone_kapers", "king_kong",
    "klax", "koolaid", "krull", "kung_fu_master", "laser_gates", "lost_luggage", "mario_bros",
    "maze_craze", "miniature_golf", "montezuma_revenge", "mr_do", "ms_pacman", "name_this_game",
    "othello", "pacman", "phoenix", "pitfall2", "pitfall", "pong", "pooyan", "private_eye", "qbert",
    "riverraid", "road_runner", "robotank", "seaquest", "sir_lancelot", "skiing", "solaris",
    "space_invaders", "space_war", "star_gunner", "superman", "surround", "tennis", "tetris",
    "tic_tac_toe_3d", "time_pilot", "trondead", "turmoil", "tutankham", "up_n_down", "venture",
    "video_checkers", "video_chess", "video_cube", "video_pinball", "warlords", "wizard_of_wor",
    "word_zapper", "yars_revenge", "zaxxon",
)  # fmt: skip

#: ROMs without a single-player game: no v5 id (they have a multi-player mode only).
MULTIPLAYER_ONLY = frozenset({"combat", "joust", "maze_craze", "warlords"})

V5_GAMES = tuple(game for game in ALL_GAMES if game not in MULTIPLAYER_ONLY)

#: The 62 games of the original benchmark, which also have the v0/v4 ids.
LEGACY_GAMES = (
    "adventure", "air_raid", "alien", "amidar", "assault", "asterix", "asteroids", "atlantis",
    "bank_heist", "battle_zone", "beam_rider", "berzerk", "bowling", "boxing", "breakout", "carnival",
    "centipede", "chopper_command", "crazy_climber", "defender", "demon_attack", "double_dunk",
    "elevator_action", "enduro", "fishing_derby", "freeway", "frostbite", "gopher", "gravitar", "hero",
    "ice_hockey", "jamesbond", "journey_escape", "kangaroo", "krull", "kung_fu_master",
    "montezuma_revenge", "ms_pacman", "name_this_game", "phoenix", "pitfall", "pong", "pooyan",
    "private_eye", "qbert", "riverraid", "road_runner", "robotank", "seaquest", "skiing", "solaris",
    "space_invaders", "star_gunner", "tennis", "time_pilot", "tutankham", "up_n_down", "venture",
    "video_pinball", "wizard_of_wor", "yars_revenge", "zaxxon",
)  # fmt: skip

#: An episode's frame budget: 108,000 frames, 30 minutes of play at 60 frames a second.
MAX_FRAMES = 108_000


def pascal_name(game: str) -> str:
    """``"ms_pacman"`` -> ``"MsPacman"`` (the name in the ids)."""
    return game.title().replace("_", "")


def v5_ids() -> dict[str, dict[str, object]]:
    """``"ALE/<Game>-v5"`` -> its kwargs: sticky actions (0.25), 4 frames a step."""
    return {
        get_env_id("ALE", pascal_name(game), 5): {
            "game": game,
            "repeat_action_probability": 0.25,
            "full_action_space": False,
            "frameskip": 4,
            "max_num_frames_per_episode": MAX_FRAMES,
        }
        for game in V5_GAMES
    }


def legacy_ids() -> dict[str, dict[str, object]]:
    """The v0/v4 ids: ``<Game>`` (2-4 frames a step, drawn) and ``<Game>NoFrameskip`` (1 frame).

    v0 repeats the last action with probability 0.25, v4 never.
    """
    ids: dict[str, dict[str, object]] = {}
    for game in LEGACY_GAMES:
        for suffix, frameskip in (("", (2, 5)), ("NoFrameskip", 1)):
            for version, sticky in ((0, 0.25), (4, 0.0)):
                ids[get_env_id(None, f"{pascal_name(game)}{suffix}", version)] = {
                    "game": game,
                    "repeat_action_probability": sticky,
                    "full_action_space": False,
                    "frameskip": frameskip,
                    "max_num_frames_per_episode": MAX_FRAMES,
                }
    return ids
