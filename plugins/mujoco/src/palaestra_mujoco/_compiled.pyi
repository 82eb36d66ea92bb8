from collections.abc import Sequence
from typing import Any

import numpy as np

def random_rows(generators: Sequence[Any], out: np.ndarray, /) -> int: ...
def gather_rows(objects: Sequence[Any], name: str, out: np.ndarray, /) -> int: ...
