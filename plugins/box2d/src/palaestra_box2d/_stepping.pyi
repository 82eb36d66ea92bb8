from typing import Any

def configure(world_step: int, set_contact_listener: int, layout: tuple[int, ...], /) -> None: ...
def apply_impulse(body: int, ix: float, iy: float, px: float, py: float, /) -> None: ...

class LanderKernel:
    def __init__(
        self, num_envs: int, rules: tuple[float, ...], throttles: tuple[float, ...], continuous: bool
    ) -> None: ...
    def attach(
        self,
        j: int,
        world: tuple[Any, int, int],
        bodies: tuple[int, int, int],
        bit_generator: Any,
        helipad_y: float,
        prev_shaping: float | None,
        game_over: bool,
        left_contact: bool,
        right_contact: bool,
        time_limit: tuple[int, int],
        /,
    ) -> None: ...
    def detach(self, j: int, /) -> tuple[float | None, bool, bool, bool, int]: ...
    def step(
        self, actions: Any, active: Any, obs: Any, rewards: Any, terminated: Any, truncated: Any, /
    ) -> bool: ...
