import numpy as np

def weighted_square_sum(
    weight: float, values: np.ndarray, ctrl: np.ndarray | None, in_float64: bool = False, /
) -> float | None: ...
