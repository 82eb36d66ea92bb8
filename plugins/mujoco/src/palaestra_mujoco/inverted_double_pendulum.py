"""InvertedDoublePendulum-v5: keep two chained poles upright on a cart."""

from __future__ import annotations

from typing import Any

import numpy as np

from palaestra_mujoco._locomotion import SuiteEnv
from palaestra_mujoco._native import compiled
from palaestra_mujoco._powers import squares
from palaestra_mujoco.mujoco_env import _PLAIN_NUMBERS, constructor_arguments

__all__ = ["SCORE_COLUMNS", "InvertedDoublePendulumEnv"]

#: The info of a step, key by key, in the order :meth:`InvertedDoublePendulumEnv._scored`
#: writes them (the C end of a batch step fills the columns in this order).
SCORE_COLUMNS = ("reward_survive", "distance_penalty", "velocity_penalty")

# Integers up to this size are exact as floats: a larger healthy reward is scored row by row.
_EXACT_INTEGERS = 2**53


# The rail and both poles in view.
DEFAULT_CAMERA_CONFIG: dict[str, Any] | None = None  # the whole model, from its middle


class InvertedDoublePendulumEnv(SuiteEnv):
    """Balance both poles; the episode ends when the tip drops to 1 m or lower.

    Observation (float64, 9): cart position, sine and cosine of both pole angles,
    velocities clipped to ``[-10, 10]``, and the constraint force on the cart clipped to
    ``[-10, 10]``. Action: the force on the cart in ``[-1, 1]``. Reward:
    ``healthy_reward`` while up, minus ``0.01 x**2 + (y - 2)**2`` for the tip position and
    ``0.001 w1**2 + 0.005 w2**2`` for the pole angular velocities.

    Args:
        xml_file, frame_skip, default_camera_config: Model and rendering.
        healthy_reward: Reward per step while the tip is above 1 m.
        reset_noise_scale: Start-state noise (uniform on positions, normal on velocities).
        **kwargs: Rendering options of :class:`MujocoEnv`.
    """

    #: What each dimension of the default observation and each action mean (``palaestra info``, the docs).
    dimension_meanings = (
        ["cart position", "sin of the first pole's angle", "sin of the second pole's angle (relative)",
         "cos of the first pole's angle", "cos of the second pole's angle", "cart velocity",
         "first pole's angular velocity", "second pole's angular velocity", "constraint force on the cart"],
        ["force on the cart"],
    )  # fmt: skip

    velocity_noise = "normal"
    velocity_bound = 10.0  # and the constraint force
    scores_batches = True  # MujocoVectorEnv steps a batch of them with array operations
    resets_batches = True  # ... and starts their episodes in the batch's rows
    ends_in_c = True  # ... and ends their steps in one C loop (SuiteEnv.end_batch)
    observes_derived = True  # the constraint force on the cart
    batch_outputs = ("site_xpos", "qfrc_constraint")

    def __init__(
        self,
        xml_file: str = "inverted_double_pendulum.xml",
        frame_skip: int = 5,
        default_camera_config: dict[str, Any] | None = DEFAULT_CAMERA_CONFIG,
        healthy_reward: float = 10.0,
        reset_noise_scale: float = 0.1,
        **kwargs: Any,
    ) -> None:
        super().__init__(constructor_arguments(locals()), kwargs)
        self._box(9)
        self._tip = self.data.site_xpos[0]
        self._angles = self._qpos[1:]
        self._pole_rates = self._qvel[1:3]
        self._constraint = self.data.qfrc_constraint

    def _get_obs(self) -> np.ndarray:
        angles = self._angles
        observation = np.concatenate(
            (self._qpos[:1], np.sin(angles), np.cos(angles), self._qvel, self._constraint[:1])
        )
        # Clip velocities and the constraint force to [-10, 10] in place (np.clip's result,
        # NaN included, at a fraction of its call cost).
        tail = observation[5:]
        np.maximum(tail, -self.velocity_bound, out=tail)
        np.minimum(tail, self.velocity_bound, out=tail)
        return observation

    def begin_step(self, action: np.ndarray) -> None:
        """Set the force on the cart."""
        action = self._checked_action(action)
        self._require_finite(action)
        self._ctrl[:] = action

    def end_step(self, begun: None) -> tuple[np.ndarray, np.float64, bool, bool, dict[str, Any]]:
        """Score the tip's height and the poles' spin."""
        x, _, y = self._tip.tolist()
        observation = self._get_obs()
        reward, terminated, info = self._scored(x, y, *self._pole_rates.tolist())
        if self.render_mode == "human":
            self.render()
        return observation, np.float64(reward), terminated, False, info

    def begin_batch(self, sim: Any, actions: np.ndarray) -> None:
        """Nothing to note: the reward depends only on the state after the step."""

    def plain_end_batch(
        self, begun: None, sim: Any, observations: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]]:
        """:meth:`end_step` of every simulation: the observations and scores as arrays (:meth:`end_batch`).

        Mirrored by ``pendulum_ends`` in ``_compiled.c`` (:meth:`compiled_end_batch`).
        """
        self.observe_rows(sim, slice(None), observations)
        tips, rates = sim.outputs["site_xpos"][:, 0], sim.qvel[:, 1:3]
        rewards, terminated, info = self._scored_rows(tips[:, 0], tips[:, 2], rates[:, 0], rates[:, 1])
        return rewards, terminated, info

    def compiled_end_batch(
        self, begun: None, sim: Any, observations: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]] | None:
        """:meth:`plain_end_batch` in one C loop; ``None``, nothing written, where it leaves the batch to numpy.

        The sines and cosines are numpy's, as :meth:`observe_rows` takes them (numpy's loops
        need not round as C's ``sin`` does).
        """
        angles = np.ascontiguousarray(sim.qpos[:, 1:])
        n = len(angles)
        rewards, terminated, columns = (
            np.empty(n),
            np.empty(n, dtype=np.bool_),
            [np.empty(n) for _ in SCORE_COLUMNS],
        )
        outputs = sim.outputs
        buffers = (sim.qpos, sim.qvel, outputs["qfrc_constraint"], outputs["site_xpos"][:, 0], np.sin(angles),
                   np.cos(angles), observations, rewards, terminated, *columns)  # fmt: skip
        if not compiled.pendulum_ends(buffers, self._healthy_reward, self.velocity_bound):
            return None
        return rewards, terminated, dict(zip(SCORE_COLUMNS, columns, strict=True))

    def _scored_rows(
        self, x: np.ndarray, y: np.ndarray, w1: np.ndarray, w2: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]]:
        """:meth:`_scored` of each row, the same numbers as arrays.

        The squares are Python's ``**`` of each number (:func:`~palaestra_mujoco._powers.squares`);
        the rest is one IEEE operation at a time, as in :meth:`_scored`.
        """
        alive_reward = self._healthy_reward
        if alive_reward.__class__ not in _PLAIN_NUMBERS or abs(alive_reward) > _EXACT_INTEGERS:
            return self._plain_scored_rows(x, y, w1, w2)
        terminated = y <= 1
        distance_penalty = 0.01 * squares(x) + squares(y - 2)
        velocity_penalty = 1e-3 * squares(w1) + 5e-3 * squares(w2)
        alive = np.where(terminated, alive_reward * False, alive_reward * True)
        info = {
            "reward_survive": alive,
            "distance_penalty": -distance_penalty,
            "velocity_penalty": -velocity_penalty,
        }
        return alive - distance_penalty - velocity_penalty, terminated, info

    def _plain_scored_rows(
        self, x: np.ndarray, y: np.ndarray, w1: np.ndarray, w2: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]]:
        """:meth:`_scored` row by row: the specification of :meth:`_scored_rows`."""
        scores = [
            self._scored(*row) for row in zip(x.tolist(), y.tolist(), w1.tolist(), w2.tolist(), strict=True)
        ]
        rewards, terminated, infos = zip(*scores, strict=True)
        columns = {key: np.array([info[key] for info in infos]) for key in infos[0]}
        return np.array(rewards, dtype=np.float64), np.array(terminated, dtype=np.bool_), columns

    def observe_rows(self, sim: Any, rows: Any, observations: np.ndarray) -> None:
        """:meth:`_get_obs` of simulations ``rows`` (indices, or ``slice(None)`` for all)."""
        qpos, qvel, constraint = sim.qpos[rows], sim.qvel[rows], sim.outputs["qfrc_constraint"][rows]
        angles = np.ascontiguousarray(qpos[:, 1:])  # contiguous: the same sin/cos loop as one env's
        observations[:, 0] = qpos[:, 0]
        observations[:, 1:3] = np.sin(angles)
        observations[:, 3:5] = np.cos(angles)
        observations[:, 5:8] = qvel
        observations[:, 8] = constraint[:, 0]
        tail = observations[:, 5:]
        np.maximum(tail, -self.velocity_bound, out=tail)
        np.minimum(tail, self.velocity_bound, out=tail)

    def _observed_in_c(self, sim: Any, rows: np.ndarray, observations: np.ndarray) -> bool:
        """Rows ``rows`` of ``observations`` as :meth:`observe_rows` gives them, in one C loop: whether done.

        The sines and cosines are numpy's, taken as :meth:`observe_rows` takes them.
        """
        if compiled is None or type(self).observe_rows is not InvertedDoublePendulumEnv.observe_rows:
            return False
        angles = np.ascontiguousarray(sim.qpos[rows, 1:])
        batch = (sim.qpos, sim.qvel, sim.outputs["qfrc_constraint"], observations)
        observed: bool = compiled.pendulum_observe_rows(
            batch, (np.sin(angles), np.cos(angles)), rows.tolist(), self.velocity_bound
        )
        return observed

    def _scored(self, x: float, y: float, w1: float, w2: float) -> tuple[float, bool, dict[str, Any]]:
        """Reward, termination and info from the tip position ``(x, y)`` and the pole rates.

        The info's keys are :data:`SCORE_COLUMNS`, in that order (a test holds the two equal).
        """
        terminated = y <= 1
        distance_penalty = 0.01 * x**2 + (y - 2) ** 2
        velocity_penalty = 1e-3 * w1**2 + 5e-3 * w2**2
        alive = self._healthy_reward * (not terminated)
        info = {
            "reward_survive": alive,
            "distance_penalty": -distance_penalty,
            "velocity_penalty": -velocity_penalty,
        }
        return alive - distance_penalty - velocity_penalty, terminated, info
