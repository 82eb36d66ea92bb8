"""Sphinx extension: per-dimension tables of an env's observation and action, and the Atari games.

``env-spaces`` makes the env at build time and writes two tables: each observation
dimension (or range of dimensions) with its meaning and its bounds as the space states them,
and each action (a Box's dimensions, or a Discrete's values). The meanings are written below,
once per env; the bounds come from the env itself, and the build fails when the meanings do
not cover the space exactly:

    ```{env-spaces} CartPole-v1
    ```

``atari-games`` lists every ``ALE/<Game>-v5`` id with its minimal action set.
"""

from __future__ import annotations

import os
import warnings
from typing import Any

import numpy as np
from docutils import nodes
from docutils.parsers.rst import Directive

os.environ.setdefault("MUJOCO_GL", "egl")

# A meaning per dimension; ``(count, text)`` covers ``count`` dimensions at once.
Rows = list[Any]

_HALF_CHEETAH_JOINTS = ["bthigh", "bshin", "bfoot", "fthigh", "fshin", "ffoot"]
_WALKER_JOINTS = ["thigh", "leg", "foot", "thigh_left", "leg_left", "foot_left"]
_HUMANOID_ACTIONS = [
    "abdomen_y", "abdomen_z", "abdomen_x", "right_hip_x", "right_hip_z", "right_hip_y", "right_knee",
    "left_hip_x", "left_hip_z", "left_hip_y", "left_knee", "right_shoulder1", "right_shoulder2",
    "right_elbow", "left_shoulder1", "left_shoulder2", "left_elbow",
]  # fmt: skip
_HUMANOID_OBSERVATION: Rows = [
    (22, "joint positions, qpos[2:]: the torso's height, its orientation quaternion and the 17 joint angles"),
    (23, "joint velocities, qvel: the torso's linear and angular velocity and the 17 joint velocities"),
    (130, "inertia of the 13 bodies past the world, cinert[1:] (10 numbers each)"),
    (78, "velocities of those bodies, cvel[1:] (6 each: angular, then linear)"),
    (17, "actuator forces on the 17 joints, qfrc_actuator[6:]"),
    (78, "external contact forces on those bodies, cfrc_ext[1:] (6 each)"),
]
_PUSHER_JOINTS = [
    "r_shoulder_pan", "r_shoulder_lift", "r_upper_arm_roll", "r_elbow_flex", "r_forearm_roll",
    "r_wrist_flex", "r_wrist_roll",
]  # fmt: skip
_BIPEDAL = [
    "hull angle", "hull angular velocity", "horizontal velocity", "vertical velocity",
    "hip 1 angle", "hip 1 speed", "knee 1 angle", "knee 1 speed", "leg 1 touches the ground (1.0 or 0.0)",
    "hip 2 angle", "hip 2 speed", "knee 2 angle", "knee 2 speed", "leg 2 touches the ground (1.0 or 0.0)",
    (10, "lidar: the fraction of each of 10 rays' range before it hits the ground, front and below"),
]  # fmt: skip
_LANDER = [
    "horizontal position (0 at the pad)", "vertical position (0 at the pad's height)",
    "horizontal velocity", "vertical velocity", "angle", "angular velocity",
    "left leg touches the ground (1.0 or 0.0)", "right leg touches the ground (1.0 or 0.0)",
]  # fmt: skip

#: id -> (observation rows, action rows; for a Discrete action, its values' meanings).
MEANINGS: dict[str, tuple[Rows, Rows]] = {
    "CartPole-v1": (
        ["cart position (m)", "cart velocity (m/s)", "pole angle (rad, 0 is upright)", "pole angular velocity (rad/s)"],
        ["push the cart left", "push the cart right"],
    ),
    "MountainCar-v0": (
        ["car position along the valley", "car velocity"],
        ["accelerate left", "do not accelerate", "accelerate right"],
    ),
    "MountainCarContinuous-v0": (
        ["car position along the valley", "car velocity"],
        ["engine force (scaled by the power, 0.0015; clipped to the bounds)"],
    ),
    "Pendulum-v1": (
        ["cos θ of the pendulum's angle (θ = 0 upright)", "sin θ", "angular velocity θ'"],
        ["torque applied at the free end's pivot (N·m)"],
    ),
    "Acrobot-v1": (
        ["cos θ1 (first link, θ1 = 0 hanging down)", "sin θ1", "cos θ2 (second link, relative to the first)",
         "sin θ2", "angular velocity θ1'", "angular velocity θ2'"],
        ["torque -1 on the joint between the links", "torque 0", "torque +1"],
    ),
    "LunarLander-v3": (_LANDER, ["do nothing", "fire the left orientation engine", "fire the main engine",
                                 "fire the right orientation engine"]),
    "LunarLanderContinuous-v3": (
        _LANDER,
        ["main engine: off below 0, throttle from 50% to 100% over [0, 1]",
         "side engines: left below -0.5, right above 0.5, throttle from 50% to 100% beyond"],
    ),
    "BipedalWalker-v3": (_BIPEDAL, ["hip 1 torque (motor speed)", "knee 1 torque", "hip 2 torque", "knee 2 torque"]),
    "BipedalWalkerHardcore-v3": (_BIPEDAL, ["hip 1 torque (motor speed)", "knee 1 torque", "hip 2 torque", "knee 2 torque"]),
    "CarRacing-v3": (
        [(96 * 96 * 3, "the top-down view's pixels, 96x96 RGB, the car centred and turned with it")],
        ["steering (-1 full left, +1 full right)", "gas", "brake"],
    ),
    "FrozenLake-v1": (
        ["the agent's cell, row * 4 + column (row * 8 + column on the 8x8 map)"],
        ["move left", "move down", "move right", "move up"],
    ),
    "CliffWalking-v1": (["the agent's cell, row * 12 + column"], ["move up", "move right", "move down", "move left"]),
    "Taxi-v4": (
        ["((taxi row * 5 + taxi column) * 5 + passenger location) * 4 + destination; the passenger's "
         "location is 0-3 (R, G, Y, B) or 4 (in the taxi), the destination 0-3"],
        ["move south", "move north", "move east", "move west", "pick the passenger up", "drop the passenger off"],
    ),
    "Blackjack-v1": (
        ["the player's current sum", "the dealer's showing card (1 is an ace)", "whether the player holds a usable ace"],
        ["stick (stop drawing)", "hit (draw a card)"],
    ),
    "HalfCheetah-v5": (
        ["rootz: height of the front tip", "rooty: angle of the torso",
         *(f"{joint} angle" for joint in _HALF_CHEETAH_JOINTS),
         "rootx velocity", "rootz velocity", "rooty angular velocity",
         *(f"{joint} angular velocity" for joint in _HALF_CHEETAH_JOINTS)],
        [f"{joint} torque" for joint in _HALF_CHEETAH_JOINTS],
    ),
    "Hopper-v5": (
        ["rootz: height of the torso", "rooty: angle of the torso", "thigh angle", "leg angle", "foot angle",
         "rootx velocity", "rootz velocity", "rooty angular velocity",
         "thigh angular velocity", "leg angular velocity", "foot angular velocity"],
        ["thigh torque", "leg torque", "foot torque"],
    ),
    "Walker2d-v5": (
        ["rootz: height of the torso", "rooty: angle of the torso", *(f"{j} angle" for j in _WALKER_JOINTS),
         "rootx velocity", "rootz velocity", "rooty angular velocity",
         *(f"{j} angular velocity" for j in _WALKER_JOINTS)],
        [f"{joint} torque" for joint in _WALKER_JOINTS],
    ),
    "Swimmer-v5": (
        ["angle of the front tip", "angle of the first rotor", "angle of the second rotor",
         "velocity of the tip along x", "velocity of the tip along y", "angular velocity of the front tip",
         "angular velocity of the first rotor", "angular velocity of the second rotor"],
        ["torque of the first rotor", "torque of the second rotor"],
    ),
    "Ant-v5": (
        ["z of the torso (its height)", (4, "orientation of the torso, a quaternion (w, x, y, z)"),
         (8, "joint angles: hip_1, ankle_1, hip_2, ankle_2, hip_3, ankle_3, hip_4, ankle_4"),
         (3, "velocity of the torso (x, y, z)"), (3, "angular velocity of the torso (x, y, z)"),
         (8, "joint angular velocities, in the order of the angles"),
         (78, "external contact forces on the 13 bodies past the world, cfrc_ext[1:] (6 each)")],
        ["hip_4 torque", "ankle_4 torque", "hip_1 torque", "ankle_1 torque",
         "hip_2 torque", "ankle_2 torque", "hip_3 torque", "ankle_3 torque"],
    ),
    "Humanoid-v5": (_HUMANOID_OBSERVATION, [f"{joint} torque" for joint in _HUMANOID_ACTIONS]),
    "HumanoidStandup-v5": (_HUMANOID_OBSERVATION, [f"{joint} torque" for joint in _HUMANOID_ACTIONS]),
    "InvertedPendulum-v5": (
        ["cart position", "pole angle", "cart velocity", "pole angular velocity"],
        ["force on the cart"],
    ),
    "InvertedDoublePendulum-v5": (
        ["cart position", "sin of the first pole's angle", "sin of the second pole's angle (relative)",
         "cos of the first pole's angle", "cos of the second pole's angle", "cart velocity",
         "first pole's angular velocity", "second pole's angular velocity", "constraint force on the cart"],
        ["force on the cart"],
    ),
    "Reacher-v5": (
        ["cos of the first joint's angle", "cos of the second joint's angle", "sin of the first joint's angle",
         "sin of the second joint's angle", "target x", "target y", "first joint's angular velocity",
         "second joint's angular velocity", "fingertip x - target x", "fingertip y - target y"],
        ["first joint's torque", "second joint's torque"],
    ),
    "Pusher-v5": (
        [*(f"{joint} angle" for joint in _PUSHER_JOINTS), *(f"{joint} angular velocity" for joint in _PUSHER_JOINTS),
         (3, "fingertip position (x, y, z)"), (3, "object position (x, y, z)"), (3, "goal position (x, y, z)")],
        [f"{joint} torque" for joint in _PUSHER_JOINTS],
    ),
}  # fmt: skip


def _bound(values: np.ndarray) -> str:
    low, high = float(np.min(values)), float(np.max(values))
    text = [f"{v:g}" if np.isfinite(v) else ("-inf" if v < 0 else "inf") for v in (low, high)]
    return text[0] if low == high else f"{text[0]} to {text[1]}"


def _box_rows(space: Any, rows: Rows, what: str, env_id: str) -> list[list[str]]:
    low, high = space.low.reshape(-1), space.high.reshape(-1)
    out, start = [], 0
    for row in rows:
        count, text = row if isinstance(row, tuple) else (1, row)
        stop = start + count
        index = str(start) if count == 1 else f"{start}-{stop - 1}"
        out.append([index, text, _bound(low[start:stop]), _bound(high[start:stop])])
        start = stop
    if start != low.size:
        raise ValueError(
            f"env-spaces: {env_id}'s {what} has {low.size} dimensions; the meanings cover {start}"
        )
    return out


def _space_rows(space: Any, rows: Rows, what: str, env_id: str) -> tuple[list[str], list[list[str]]]:
    from palaestra.spaces import Box, Discrete, Tuple

    if isinstance(space, Box):
        return ["Index", "Meaning", "Min", "Max"], _box_rows(space, rows, what, env_id)
    if isinstance(space, Discrete) and what == "action":
        if len(rows) != int(space.n):
            raise ValueError(f"env-spaces: {env_id}'s action has {space.n} values; {len(rows)} meanings")
        return ["Value", "Meaning"], [[str(int(space.start) + i), text] for i, text in enumerate(rows)]
    parts = list(space.spaces) if isinstance(space, Tuple) else [space]
    if len(parts) != len(rows):
        raise ValueError(f"env-spaces: {env_id}'s {what} has {len(parts)} parts; {len(rows)} meanings")
    return ["Index", "Meaning", "Min", "Max"], [
        [str(i), text, str(int(part.start)), str(int(part.start) + int(part.n) - 1)]
        for i, (part, text) in enumerate(zip(parts, rows, strict=True))
    ]


def _table(header: list[str], rows: list[list[str]]) -> nodes.table:
    table = nodes.table()
    group = nodes.tgroup(cols=len(header))
    table += group
    for _ in header:
        group += nodes.colspec(colwidth=1)
    head, body = nodes.thead(), nodes.tbody()
    for cells, parent in [(header, head), *((row, body) for row in rows)]:
        line = nodes.row()
        for cell in cells:
            entry = nodes.entry()
            entry += nodes.paragraph(text=cell)
            line += entry
        parent += line
    group += head
    group += body
    return table


class EnvSpaces(Directive):
    """Tables of one env's observation and action, a row per dimension (or range of them)."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        """The two tables, each under a short heading line."""
        import palaestra

        env_id = self.arguments[0]
        observation_rows, action_rows = MEANINGS[env_id]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            env = palaestra.make(env_id)
        try:
            out: list[nodes.Node] = []
            for what, space, rows in (
                ("observation", env.observation_space, observation_rows),
                ("action", env.action_space, action_rows),
            ):
                out.append(nodes.paragraph(text=f"{env_id} {what}: {space}"))
                out.append(_table(*_space_rows(space, rows, what, env_id)))
            return out
        finally:
            env.close()


class AtariGames(Directive):
    """Every ALE/<Game>-v5 id with the meanings of its minimal action set."""

    def run(self) -> list[nodes.Node]:
        """One table row per game."""
        import palaestra
        from palaestra_atari._games import V5_GAMES, pascal_name

        rows = []
        for game in V5_GAMES:
            env_id = f"ALE/{pascal_name(game)}-v5"
            env = palaestra.make(env_id)
            try:
                meanings = env.unwrapped.get_action_meanings()
            finally:
                env.close()
            rows.append([env_id, str(len(meanings)), ", ".join(f"{i} {m}" for i, m in enumerate(meanings))])
        return [_table(["Id", "Actions", "Minimal action set (value and meaning)"], rows)]


def setup(app: Any) -> dict[str, Any]:
    """Register the two directives."""
    app.add_directive("env-spaces", EnvSpaces)
    app.add_directive("atari-games", AtariGames)
    return {"parallel_read_safe": True, "version": "1"}
