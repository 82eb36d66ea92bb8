"""The infos of a MuJoCo batch, batched as ``SyncVectorEnv`` batches them (``add_info`` sub-env by sub-env).

Array steps leave a step's info as columns (one array per key); resets leave each started
sub-env's info as a dict. These functions give what ``add_info`` of each reported sub-env in
turn would, computed a column at a time where the values allow.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from palaestra.plugin import add_info

__all__ = ["batched_infos", "merged_infos"]

_PLAIN_SCALARS = (int, float, bool)
_FLOATS = (float, np.float64)
_FLOAT64 = np.dtype(np.float64)


def batched_infos(
    infos: list[dict[str, Any]], reported: np.ndarray, chosen: list[int], num_envs: int
) -> dict[str, Any]:
    """``add_info`` of each info in turn, computed a column at a time.

    Column by column gives the same dict: keys in the order they first appear sub-env by
    sub-env (each followed by its ``_key`` mask), each column's dtype from its first value
    as ``add_info`` decides it, the other values cast into it as ``add_info`` casts them.
    Nested dicts and other objects take ``add_info`` itself.
    """
    keys = infos[0].keys()
    if all(info.keys() == keys for info in infos):
        order, shared = list(keys), True
    else:  # some sub-envs report other keys (a reset's info among steps' infos)
        order, shared = list(dict.fromkeys(key for info in infos for key in info)), False
    everyone = len(chosen) == num_envs
    batched: dict[str, Any] = {}
    for key in order:
        if shared:
            holders, values, mask = chosen, [info[key] for info in infos], reported.copy()
        else:
            pairs = [(i, info[key]) for i, info in zip(chosen, infos, strict=True) if key in info]
            holders, values = [i for i, _ in pairs], [v for _, v in pairs]
            mask = np.zeros(num_envs, dtype=np.bool_)
            mask[holders] = True
        first = values[0]
        if type(first) in _PLAIN_SCALARS or isinstance(first, np.number):
            if shared and everyone:
                column = np.array(values, dtype=type(first))
            else:
                column = np.zeros(num_envs, dtype=type(first))
                column[holders] = values
        elif isinstance(first, np.ndarray):
            column = np.zeros((num_envs, *first.shape), dtype=first.dtype)
            column[holders] = values
        else:  # nested dicts, objects: the general path
            general: dict[str, Any] = {}
            for i, info in zip(chosen, infos, strict=True):
                add_info(general, info, i, num_envs)
            return general
        batched[key], batched[f"_{key}"] = column, mask
    return batched


def merged_infos(
    columns: dict[str, np.ndarray],
    from_step: np.ndarray,
    resets: list[tuple[int, dict[str, Any]]],
    num_envs: int,
) -> dict[str, Any]:
    """``add_info`` of each reported sub-env in turn: step infos as columns, reset infos as dicts.

    ``from_step`` marks the sub-envs whose info is their row of ``columns``; ``resets`` holds
    the others' infos. Keys come in the order they first appear sub-env by sub-env, each
    column's dtype from its first holder's value, as ``add_info`` decides them.
    """
    batched: dict[str, Any] = {}
    # The common step: the columns are the info (new arrays). count_nonzero: .all() costs more.
    if not resets and np.count_nonzero(from_step) == len(from_step):
        for key, column in columns.items():
            batched[key], batched[f"_{key}"] = column, from_step.copy()
        return batched
    reporting = [(i, info) for i, info in resets if info]
    if not columns and not reporting:  # an env whose steps and starts report nothing
        return batched
    if _lead_columns(reporting, columns):  # every MuJoCo env's starts
        return _merged_by_column(columns, from_step, reporting)
    first_step = int(np.argmax(from_step))
    sources = sorted([(first_step, columns), *resets], key=lambda pair: pair[0])
    order = dict.fromkeys(key for _, source in sources for key in source)
    for key in order:
        holders = [(i, info[key]) for i, info in resets if key in info]
        stepped = columns.get(key)
        if stepped is not None and (not holders or first_step < holders[0][0]):
            dtype, shape = stepped.dtype, stepped.shape[1:]
        elif type(holders[0][1]) in _PLAIN_SCALARS or isinstance(holders[0][1], np.number):
            dtype, shape = np.dtype(type(holders[0][1])), ()
        elif isinstance(holders[0][1], np.ndarray):
            dtype, shape = holders[0][1].dtype, holders[0][1].shape
        else:  # an object in a reset's info: add_info's general path
            return _general_infos(columns, from_step, resets, num_envs)
        scalar = shape == ()  # then a plain number fits without asking numpy its shape
        if (stepped is not None and stepped.shape[1:] != shape) or any(
            not (scalar and v.__class__ in _PLAIN_SCALARS) and np.shape(v) != shape for _, v in holders
        ):
            return _general_infos(columns, from_step, resets, num_envs)  # rows of other shapes
        column = np.zeros((num_envs, *shape), dtype=dtype)
        if stepped is not None:
            rows = from_step.reshape(-1, *(1,) * len(shape))
            np.copyto(column, stepped, casting="unsafe", where=rows)  # as add_info's item assignment
            mask = from_step.copy()
        else:
            mask = np.zeros(num_envs, dtype=np.bool_)
        for i, value in holders:
            column[i] = value
            mask[i] = True
        batched[key], batched[f"_{key}"] = column, mask
    return batched


def _lead_columns(reporting: list[tuple[int, dict[str, Any]]], columns: dict[str, np.ndarray]) -> bool:
    """Whether starts' infos merge a column at a time (:func:`_merged_by_column`).

    Each info's keys must be the columns' first ones in their order (then the merged order
    is the columns'), each value one that fits its column (:func:`_fits_column`).
    """
    if not reporting:  # the starts of envs whose reset info is empty
        return True
    keys = tuple(columns)
    for _, info in reporting:
        if tuple(info) != keys[: len(info)]:
            return False
        for key, value in info.items():
            if not _fits_column(value, columns[key]):
                return False
    return True


def _fits_column(value: Any, column: np.ndarray) -> bool:
    """Whether a start's value goes into its row of ``column`` as ``add_info`` puts it there.

    A float into a float64 column of numbers, an array into a column of rows of its dtype and
    shape: then the column's dtype is the one ``add_info`` picks, whichever row holds the key
    first.
    """
    if value.__class__ in _FLOATS:
        return column.dtype == _FLOAT64 and column.ndim == 1
    return value.__class__ is np.ndarray and value.dtype == column.dtype and value.shape == column.shape[1:]


def _merged_by_column(
    columns: dict[str, np.ndarray], from_step: np.ndarray, reporting: list[tuple[int, dict[str, Any]]]
) -> dict[str, Any]:
    """:func:`merged_infos` where every start's info passes :func:`_lead_columns`.

    Each column as the step left it, the rows not from the step zeroed, then each start's
    values in its row (``reporting``: the starts whose info has keys).
    """
    others = ~from_step
    merged = [(column.copy(), from_step.copy()) for column in columns.values()]  # they may be asked for again
    for column, _ in merged:
        column[others] = 0
    for i, info in reporting:
        for (column, mask), value in zip(merged, info.values(), strict=False):  # its keys lead the columns'
            column[i], mask[i] = value, True
    batched: dict[str, Any] = {}
    for key, (column, mask) in zip(columns, merged, strict=True):
        batched[key], batched[f"_{key}"] = column, mask
    return batched


def _general_infos(
    columns: dict[str, np.ndarray],
    from_step: np.ndarray,
    resets: list[tuple[int, dict[str, Any]]],
    num_envs: int,
) -> dict[str, Any]:
    """:func:`merged_infos` by ``add_info`` itself, each step row made a dict again."""
    infos = dict(resets)
    for i in from_step.nonzero()[0].tolist():
        infos[i] = {key: column[i] for key, column in columns.items()}
    batched: dict[str, Any] = {}
    for i in sorted(infos):
        add_info(batched, infos[i], i, num_envs)
    return batched
