"""Registration hooks (import-cheap: no numpy, no pygame)."""

from palaestra import hookimpl

_PKG = "palaestra_classic_control"


@hookimpl
def palaestra_register_envs(registrar):  # type: ignore[no-untyped-def]
    """Register the classic-control suite in the default namespace, as Gymnasium does."""
    common = {"default_namespace": True}
    registrar.register(
        "CartPole-v0",
        f"{_PKG}.cartpole:CartPoleEnv",
        max_episode_steps=200,
        reward_threshold=195.0,
        **common,
    )
    registrar.register(
        "CartPole-v1",
        f"{_PKG}.cartpole:CartPoleEnv",
        max_episode_steps=500,
        reward_threshold=475.0,
        **common,
    )
    registrar.register(
        "MountainCar-v0",
        f"{_PKG}.mountain_car:MountainCarEnv",
        max_episode_steps=200,
        reward_threshold=-110.0,
        **common,
    )
    registrar.register(
        "MountainCarContinuous-v0",
        f"{_PKG}.continuous_mountain_car:Continuous_MountainCarEnv",
        max_episode_steps=999,
        reward_threshold=90.0,
        **common,
    )
    registrar.register(
        "Pendulum-v1",
        f"{_PKG}.pendulum:PendulumEnv",
        max_episode_steps=200,
        **common,
    )
    registrar.register(
        "Acrobot-v1",
        f"{_PKG}.acrobot:AcrobotEnv",
        reward_threshold=-100.0,
        max_episode_steps=500,
        **common,
    )
