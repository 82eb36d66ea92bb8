"""Shared test configuration: offscreen rendering and a sandboxed default plugin host."""

import os
import tempfile

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
# Gymnasium's MuJoCo envs (the oracle) import mujoco at import time, before palaestra could
# pick a headless backend for the process; name it for both. palaestra's own choice without
# MUJOCO_GL is tested in fresh subprocesses.
os.environ.setdefault("MUJOCO_GL", "egl")
# Discovery caches its scan in the user's cache folder; tests (and their subprocesses) use
# a folder of their own, so a developer's cache neither helps nor disturbs them.
os.environ.setdefault("PALAESTRA_CACHE_DIR", tempfile.mkdtemp(prefix="palaestra-test-cache-"))
