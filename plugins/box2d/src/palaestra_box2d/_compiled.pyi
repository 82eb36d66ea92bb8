from typing import Any

def walker_lidar(
    x: float,
    y: float,
    directions: Any,
    edges: Any,
    reach: Any,
    polygons: Any,
    counts: Any,
    spans: Any,
    out: Any,
    /,
) -> None: ...

cast_rays: Any  # a capsule: cast_rays for C callers
