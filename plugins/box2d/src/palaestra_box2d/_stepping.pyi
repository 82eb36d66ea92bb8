from collections.abc import Callable
from typing import Any

def configure(functions: tuple[int, ...], layout: tuple[int, ...], /) -> None: ...
def apply_impulse(body: int, ix: float, iy: float, px: float, py: float, /) -> None: ...

# Both kernels: attach(j, ...) takes sub-env j over, detach(j) hands it back with its state,
# step(actions, active, obs, rewards, terminated, truncated) steps the active sub-envs.
_Attach = Callable[..., None]
_Detach = Callable[[int], tuple[Any, ...]]
_Step = Callable[[Any, Any, Any, Any, Any, Any], bool]

class LanderKernel:
    def __init__(
        self, num_envs: int, rules: tuple[float, ...], throttles: tuple[float, ...], continuous: bool
    ) -> None: ...
    attach: _Attach
    detach: _Detach
    step: _Step

class WalkerKernel:
    def __init__(
        self, num_envs: int, rules: tuple[float, ...], directions: Any, cast_rays: Any, float32_reward: bool
    ) -> None: ...
    attach: _Attach
    detach: _Detach
    step: _Step
