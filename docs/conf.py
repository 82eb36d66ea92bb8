"""Sphinx configuration: furo theme, MyST Markdown, API reference from docstrings, env gallery."""

import logging
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent / "_ext"))

# Importing Ray for the API reference turns on INFO logging, and then the renderers' imports
# narrate (PyOpenGL without its accelerator, JAX without a TPU): keep the build log to warnings.
for _chatty in ("OpenGL", "jax"):
    logging.getLogger(_chatty).setLevel(logging.WARNING)

project = "palaestra"
author = "palaestra developers"
copyright = "2026, the palaestra developers"
extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
    "gallery",  # _ext/gallery.py: env animations rendered at build time, thumbnail grids
    "dimensions",  # _ext/dimensions.py: per-dimension tables of each env's spaces, the Atari games
]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
exclude_patterns = ["_build", "_ext"]
html_theme = "furo"
html_static_path = ["_static"]
html_css_files = ["custom.css"]
html_title = "palaestra"
autodoc_member_order = "bysource"
autodoc_typehints = "description"
napoleon_google_docstring = True
myst_heading_anchors = 3
nitpicky = False
suppress_warnings = ["myst.header"]
# `sphinx -b linkcheck` runs offline in CI: it checks the local links, not the web's.
linkcheck_ignore = [r"https?://.*"]
# Source pages for palaestra's own modules only (not for numpy objects it re-exports).
viewcode_follow_imported_members = False
# Stable-Baselines3 (and torch) install outside the docs environment: document the SB3
# adapter against stand-ins for its base classes.
autodoc_mock_imports = ["stable_baselines3", "torch"]
