"""AutoresetMode, a leaf every vector module may import (the vector env and its helpers)."""

from __future__ import annotations

from enum import Enum

__all__ = ["AutoresetMode"]


class AutoresetMode(Enum):
    """When a sub-environment whose episode ended is reset.

    ``NEXT_STEP`` (default): the step after the end ignores that env's action, resets it,
    and returns reward 0, both flags False and the reset info. ``SAME_STEP``: the env is
    reset in the step that ended it; the final observation and info are in
    ``info["final_obs"]``/``info["final_info"]``. ``DISABLED``: never reset automatically;
    call ``reset(options={"reset_mask": mask})``.
    """

    NEXT_STEP = "NextStep"
    SAME_STEP = "SameStep"
    DISABLED = "Disabled"
