"""Wrappers that change an environment's behaviour without touching its code."""

from palaestra.wrappers._common import OrderEnforcing, PassiveEnvChecker, TimeLimit
from palaestra.wrappers._rendering import RenderCollection

__all__ = ["OrderEnforcing", "PassiveEnvChecker", "RenderCollection", "TimeLimit"]
