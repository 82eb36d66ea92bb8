"""Sphinx extension: animated pictures of every env, rendered by the envs at build time.

On ``builder-inited`` each env in :data:`SCENES` plays a short episode from a fixed seed
and its frames become ``_static/gallery/<Name>-full.gif`` (the env's own frame size, for its
page) and ``_static/gallery/<Name>.gif`` (a thumbnail, for the grids). A GIF is rebuilt only when the
sources of the suite that draws it (or the scene) changed: the key is a hash of those
sources, kept next to the GIF. The ``env-gallery`` directive draws a grid of thumbnails,
each linking to its env page:

    ```{env-gallery}
    cartpole CartPole
    mountain_car MountainCar
    ```
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

from docutils import nodes
from docutils.parsers.rst import Directive

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
os.environ.setdefault("MUJOCO_GL", "egl")

ROOT = Path(__file__).resolve().parents[2]
OUT = Path(__file__).resolve().parents[1] / "_static" / "gallery"

# id -> (suite folder under plugins/, frames, steps between frames, reset kwargs)
SCENES: dict[str, tuple[str, int, int, dict[str, Any]]] = {
    "CartPole-v1": ("classic_control", 40, 1, {}),
    "MountainCar-v0": ("classic_control", 50, 3, {}),
    "MountainCarContinuous-v0": ("classic_control", 50, 3, {}),
    "Pendulum-v1": ("classic_control", 40, 1, {}),
    "Acrobot-v1": ("classic_control", 40, 1, {}),
    "Blackjack-v1": ("toy_text", 8, 1, {}),
    "Taxi-v4": ("toy_text", 16, 1, {}),
    "CliffWalking-v1": ("toy_text", 16, 1, {}),
    "FrozenLake-v1": ("toy_text", 16, 1, {}),
    "FrozenLake8x8-v1": ("toy_text", 24, 1, {}),
    "LunarLander-v3": ("box2d", 40, 3, {}),
    "BipedalWalker-v3": ("box2d", 40, 3, {}),
    "BipedalWalkerHardcore-v3": ("box2d", 40, 3, {}),
    "CarRacing-v3": ("box2d", 40, 3, {}),
    "Ant-v5": ("mujoco", 30, 2, {}),
    "HalfCheetah-v5": ("mujoco", 30, 2, {}),
    "Hopper-v5": ("mujoco", 30, 1, {}),
    "Humanoid-v5": ("mujoco", 30, 1, {}),
    "HumanoidStandup-v5": ("mujoco", 30, 2, {}),
    "InvertedPendulum-v5": ("mujoco", 30, 1, {}),
    "InvertedDoublePendulum-v5": ("mujoco", 30, 1, {}),
    "Pusher-v5": ("mujoco", 30, 2, {}),
    "Reacher-v5": ("mujoco", 30, 1, {}),
    "Swimmer-v5": ("mujoco", 30, 4, {}),
    "Walker2d-v5": ("mujoco", 30, 1, {}),
    "ALE/Pong-v5": ("atari", 40, 2, {}),
    "ALE/Breakout-v5": ("atari", 40, 2, {}),
    "ALE/SpaceInvaders-v5": ("atari", 40, 2, {}),
    "ALE/MsPacman-v5": ("atari", 40, 2, {}),
    "phys2d/CartPole-v1": ("jax", 40, 1, {}),
    "phys2d/Pendulum-v0": ("jax", 40, 1, {}),
    "tabular/CliffWalking-v0": ("jax", 16, 1, {}),
    "tabular/Blackjack-v0": ("jax", 8, 1, {}),
}
THUMB_WIDTH = 240  # the gallery grids' pictures; env pages show the env's own frame size
FULL_SUFFIX = "-full"


def picture_name(env_id: str) -> str:
    """``"CartPole-v1"`` -> ``"CartPole"``, ``"ALE/Pong-v5"`` -> ``"ALE-Pong"``."""
    return env_id.split("-v")[0].replace("/", "-")


def _sources_key(suite: str, env_id: str, scene: tuple[Any, ...]) -> str:
    digest = hashlib.sha256(repr((env_id, scene[1:], THUMB_WIDTH, FULL_SUFFIX)).encode())
    folders = [ROOT / "plugins" / suite / "src", ROOT / "core" / "src" / "palaestra" / "utils"]
    for folder in folders:
        for path in sorted(folder.rglob("*.py")):
            digest.update(path.read_bytes())
    return digest.hexdigest()


def _episode_frames(env_id: str, count: int, stride: int, reset_kwargs: dict[str, Any]) -> list[Any]:
    import numpy as np

    import palaestra

    env = palaestra.make(env_id, render_mode="rgb_array")  # the env's own frame size
    env.reset(seed=1, **reset_kwargs)
    env.action_space.seed(1)
    frames = [np.asarray(env.render())]
    while len(frames) < count:
        for _ in range(stride):
            _, _, terminated, truncated, _ = env.step(env.action_space.sample())
            if terminated or truncated:
                env.reset()
        frames.append(np.asarray(env.render()))
    env.close()
    return frames


def render_gallery(out: Path = OUT, only: list[str] | None = None) -> list[str]:
    """Write the GIFs whose sources changed; return the ids rendered."""
    from PIL import Image

    out.mkdir(parents=True, exist_ok=True)
    rendered = []
    for env_id, scene in SCENES.items():
        if only and env_id not in only:
            continue
        suite, count, stride, reset_kwargs = scene
        name = picture_name(env_id)
        thumb, full, stamp = out / f"{name}.gif", out / f"{name}{FULL_SUFFIX}.gif", out / f"{name}.key"
        key = _sources_key(suite, env_id, scene)
        if thumb.exists() and full.exists() and stamp.exists() and stamp.read_text() == key:
            continue
        print(f"gallery: rendering {env_id} ({len(rendered) + 1} of at most {len(SCENES)})", flush=True)
        frames = [Image.fromarray(frame) for frame in _episode_frames(env_id, count, stride, reset_kwargs)]
        _save_gif(full, frames)
        height = round(frames[0].height * THUMB_WIDTH / frames[0].width)
        _save_gif(thumb, [frame.resize((THUMB_WIDTH, height), Image.Resampling.LANCZOS) for frame in frames])
        stamp.write_text(key)
        rendered.append(env_id)
    return rendered


def _save_gif(target: Path, images: list[Any], fps: int = 12) -> None:
    images[0].save(
        target, save_all=True, append_images=images[1:], duration=1000 // fps, loop=0, optimize=True
    )


class EnvGallery(Directive):
    """A grid of thumbnails; each content line is ``<page> <picture name> [title]``."""

    has_content = True

    def run(self) -> list[nodes.Node]:
        """The grid as one raw HTML block (pages are relative to the page holding the grid)."""
        docname = self.state.document.settings.env.docname
        static = "../" * docname.count("/") + "_static/gallery"
        cells = []
        for line in self.content:
            if not line.strip():
                continue
            page, name, *title = line.split()
            label = " ".join(title) or name
            cells.append(
                f'<a class="gallery-item" href="{page}.html">'
                f'<img src="{static}/{name}.gif" alt="{label}" loading="lazy">'
                f"<span>{label}</span></a>"
            )
        html = '<div class="env-gallery">' + "".join(cells) + "</div>"
        return [nodes.raw("", html, format="html")]


def _on_builder_inited(app: Any) -> None:
    if os.environ.get("PALAESTRA_DOCS_SKIP_GALLERY"):
        return
    rendered = render_gallery()
    if rendered:
        print(f"gallery: rendered {len(rendered)} env animations")


def setup(app: Any) -> dict[str, Any]:
    """Register the directive and the build-time rendering."""
    app.add_directive("env-gallery", EnvGallery)
    app.connect("builder-inited", _on_builder_inited)
    return {"parallel_read_safe": True, "version": "1"}
