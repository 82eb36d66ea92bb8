"""How many CPU cores this process may use: the default degree of parallelism of the vectorizers.

``os.cpu_count()`` counts the machine's cores, also under ``taskset -c 0,1`` or in a container
limited to two CPUs; sizing workers by it starts 16 workers on 2 usable cores. This counts the
cores the process's affinity allows (``os.process_cpu_count()`` where Python has it, else
``os.sched_getaffinity``), capped by a cgroup CPU quota where one is set (a container's
``--cpus``), rounded up.
"""

from __future__ import annotations

import math
import numbers
import os
from pathlib import Path
from typing import Any

from palaestra.error import InvalidEnvArgumentValue

__all__ = ["cgroup_cpu_quota", "check_num_workers", "usable_cores"]

CGROUP_ROOT = Path("/sys/fs/cgroup")


def usable_cores() -> int:
    """The cores this process may run on: its affinity, capped by a cgroup CPU quota (at least 1)."""
    counter = getattr(os, "process_cpu_count", None)  # Python 3.13+: the affinity's count
    if counter is not None:
        count = counter()
    elif hasattr(os, "sched_getaffinity"):
        count = len(os.sched_getaffinity(0))
    else:  # macOS, Windows before 3.13: the machine's count is all there is
        count = os.cpu_count()
    count = count or 1
    quota = cgroup_cpu_quota()
    if quota is not None:
        count = min(count, math.ceil(quota))
    return max(1, count)


def cgroup_cpu_quota(root: Path = CGROUP_ROOT) -> float | None:
    """The CPUs a cgroup quota allows this process (``2.5`` for ``--cpus=2.5``), or None for none.

    Reads cgroup v2's ``cpu.max`` (``"<quota> <period>"`` or ``"max <period>"``), else cgroup
    v1's ``cpu.cfs_quota_us`` / ``cpu.cfs_period_us`` (quota -1: none). A file that cannot be
    read or parsed counts as no quota.
    """
    try:
        fields = (root / "cpu.max").read_text().split()
    except OSError:
        fields = []
    if len(fields) == 2:
        return _ratio(fields[0], fields[1]) if fields[0] != "max" else None
    try:
        quota = (root / "cpu" / "cpu.cfs_quota_us").read_text().strip()
        period = (root / "cpu" / "cpu.cfs_period_us").read_text().strip()
    except OSError:
        return None
    return _ratio(quota, period)


def _ratio(quota: str, period: str) -> float | None:
    try:
        q, p = int(quota), int(period)
    except ValueError:
        return None
    return q / p if q > 0 and p > 0 else None


def check_num_workers(value: Any, owner: str) -> int | None:
    """``num_workers`` as a positive int, or ``None`` (the default: :func:`usable_cores`).

    Raises:
        InvalidEnvArgumentValue: Not a positive integer (naming ``owner``, the vector env).
    """
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
        raise InvalidEnvArgumentValue(
            f"{owner}: num_workers must be a positive integer (how many threads or processes step the "
            f"sub-envs) or None (the {usable_cores()} cores this process may use), got {value!r}"
        )
    return int(value)
