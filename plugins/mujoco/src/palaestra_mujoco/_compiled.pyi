from collections.abc import Sequence
from typing import Any

import numpy as np

def random_rows(generators: Sequence[Any], out: np.ndarray, /) -> int: ...
def gather_rows(objects: Sequence[Any], name: str, out: np.ndarray, /) -> int: ...
def squares(values: np.ndarray, out: np.ndarray, /) -> int: ...
def held_starts(
    held: tuple[Any, ...],
    timing: tuple[list[Any], np.ndarray],
    rows: list[int],
    first: int,
    qpos: np.ndarray,
    qvel: np.ndarray,
    standard_normal: Any,
    /,
) -> int: ...
def uniform_starts(
    envs: Sequence[Any], generators: Sequence[Any], qpos: np.ndarray, qvel: np.ndarray, rows: list[int], /
) -> int: ...
def upright_ends(
    buffers: tuple[np.ndarray, ...], rules: tuple[Any, ...], skipped: int, terminate: Any, /
) -> bool: ...
def forward_ends(
    buffers: tuple[np.ndarray, ...], forward_weight: Any, velocity_bound: Any, skipped: int, /
) -> bool: ...
def balanced_ends(buffers: tuple[np.ndarray, ...], balance_limit: Any, /) -> bool: ...
def square_sums(values: np.ndarray, out: np.ndarray, /) -> bool: ...
def zero_rows(arrays: list[np.ndarray], rows: list[int], /) -> bool: ...
def observe_rows(
    qpos: np.ndarray,
    qvel: np.ndarray,
    observations: np.ndarray,
    rows: list[int],
    skipped: int,
    velocity_bound: Any,
    /,
) -> bool: ...
def pendulum_ends(buffers: tuple[np.ndarray, ...], healthy_reward: Any, velocity_bound: Any, /) -> bool: ...
def normal_starts(
    envs: Sequence[Any],
    generators: Sequence[Any],
    qpos: np.ndarray,
    qvel: np.ndarray,
    rows: list[int],
    standard_normal: Any,
    /,
) -> int: ...
def tally_step(
    buffers: tuple[np.ndarray, ...], limit: int | None, resetting: np.ndarray | None, /
) -> int | None: ...
def copy_pairs(pairs: tuple[tuple[np.ndarray, np.ndarray], ...], /) -> bool: ...
def walk_ends(
    buffers: tuple[np.ndarray, ...],
    rules: tuple[Any, ...],
    extras: tuple[np.ndarray, ...],
    skipped: int,
    open_range: bool,
    finite_state: bool,
    terminate: Any,
    forces_observed: bool,
    /,
) -> bool: ...
def all_finite(array: np.ndarray, /) -> bool | None: ...
def weighted_sums(weights: np.ndarray, rows: np.ndarray, out: np.ndarray, /) -> bool: ...
def pendulum_observe_rows(
    batch: tuple[np.ndarray, ...],
    angles: tuple[np.ndarray, np.ndarray],
    rows: list[int],
    velocity_bound: Any,
    /,
) -> bool: ...
