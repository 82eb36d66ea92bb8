from typing import Any

def cartpole_integrate(
    state: Any, force: Any, constants: tuple[float, ...], out: Any, failed: Any, /
) -> None: ...
def mountain_car_continuous_move(
    position: float, velocity: float, force: float, constants: tuple[float, ...], /
) -> tuple[float, float, bool, float] | None: ...
