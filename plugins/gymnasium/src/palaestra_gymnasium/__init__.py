"""The bridge between palaestra and Gymnasium, both ways.

- :func:`to_gymnasium` / :func:`from_gymnasium` convert envs (wrappers included), vector
  envs, spaces and specs; nothing is copied per step. A space of a type only one library
  has (MiniGrid's ``MissionSpace``) crosses as it is, in a :class:`GymnasiumSpace` or
  :class:`PalaestraSpace`.
- Importing this package registers every palaestra id with Gymnasium as
  ``palaestra/<id>``, so ``gymnasium.make("palaestra_gymnasium:palaestra/CartPole-v1")`` (and
  anything that takes a Gymnasium id string) builds palaestra's env.
- ``palaestra.make("gymnasium/<Gymnasium id>")`` builds any env registered with Gymnasium
  (``"ale_py:gymnasium/ALE/Pong-v5"`` imports ``ale_py`` first); the plugin behind it loads
  only when such an id is asked for.
- :mod:`palaestra_gymnasium.sb3` trains Stable-Baselines3 on palaestra's vector envs.
"""

from palaestra_gymnasium._convert import from_gymnasium as from_gymnasium
from palaestra_gymnasium._convert import to_gymnasium as to_gymnasium
from palaestra_gymnasium._envs import FromGymnasiumEnv as FromGymnasiumEnv
from palaestra_gymnasium._envs import ToGymnasiumEnv as ToGymnasiumEnv
from palaestra_gymnasium._foreign import GymnasiumSpace as GymnasiumSpace
from palaestra_gymnasium._foreign import PalaestraSpace as PalaestraSpace
from palaestra_gymnasium._registries import register_in_gymnasium as register_in_gymnasium
from palaestra_gymnasium._spaces import from_gymnasium_space as from_gymnasium_space
from palaestra_gymnasium._spaces import to_gymnasium_space as to_gymnasium_space
from palaestra_gymnasium._specs import GYMNASIUM_NAMESPACE as GYMNASIUM_NAMESPACE
from palaestra_gymnasium._specs import PALAESTRA_NAMESPACE as PALAESTRA_NAMESPACE
from palaestra_gymnasium._specs import from_gymnasium_spec as from_gymnasium_spec
from palaestra_gymnasium._specs import gymnasium_id as gymnasium_id
from palaestra_gymnasium._specs import palaestra_id as palaestra_id
from palaestra_gymnasium._specs import to_gymnasium_spec as to_gymnasium_spec
from palaestra_gymnasium._vector import FromGymnasiumVectorEnv as FromGymnasiumVectorEnv
from palaestra_gymnasium._vector import ToGymnasiumVectorEnv as ToGymnasiumVectorEnv

__all__ = [
    "GYMNASIUM_NAMESPACE",
    "PALAESTRA_NAMESPACE",
    "FromGymnasiumEnv",
    "FromGymnasiumVectorEnv",
    "GymnasiumSpace",
    "PalaestraSpace",
    "ToGymnasiumEnv",
    "ToGymnasiumVectorEnv",
    "from_gymnasium",
    "from_gymnasium_space",
    "from_gymnasium_spec",
    "gymnasium_id",
    "palaestra_id",
    "register_in_gymnasium",
    "to_gymnasium",
    "to_gymnasium_space",
    "to_gymnasium_spec",
]

# Importing the bridge is how Gymnasium code (and Gymnasium's "module:id" form) asks for it.
register_in_gymnasium()
