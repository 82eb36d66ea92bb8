"""A progress line for the Stable-Baselines3 examples, so a long run shows it is alive.

SB3's own ``verbose=1`` prints a table per rollout; this prints one line per tenth of the
run: steps done, steps per second, the time left and the mean return of recent episodes.
"""

import time

import numpy as np
from stable_baselines3.common.callbacks import BaseCallback


class Progress(BaseCallback):
    """Print ``label``'s progress every tenth of ``total`` steps."""

    def __init__(self, label: str, total: int) -> None:
        super().__init__()
        self.label, self.total = label, total
        self.next_report = max(total // 10, 1)
        self.start = 0.0

    def _on_training_start(self) -> None:
        self.start = time.perf_counter()
        print(f"[{self.label}] training for {self.total:,} steps ...", flush=True)

    def _on_step(self) -> bool:
        if self.num_timesteps >= self.next_report:
            self.next_report += max(self.total // 10, 1)
            elapsed = time.perf_counter() - self.start
            rate = self.num_timesteps / max(elapsed, 1e-9)
            left = max(self.total - self.num_timesteps, 0) / max(rate, 1e-9)
            returns = [info["r"] for info in self.model.ep_info_buffer or []]
            recent = f", mean return {np.mean(returns):.1f}" if returns else ""
            print(
                f"[{self.label}] {self.num_timesteps:,}/{self.total:,} steps, {rate:,.0f} steps/s, "
                f"about {left:.0f} s left{recent}",
                flush=True,
            )
        return True
