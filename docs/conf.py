"""Sphinx configuration: furo theme, MyST Markdown, API reference from docstrings."""

project = "palaestra"
author = "palaestra developers"
extensions = ["myst_parser", "sphinx.ext.autodoc", "sphinx.ext.napoleon", "sphinx.ext.viewcode"]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
exclude_patterns = ["_build", "render_pictures.py"]
html_theme = "furo"
html_static_path = ["_static"]
html_title = "palaestra"
autodoc_member_order = "bysource"
autodoc_typehints = "description"
napoleon_google_docstring = True
myst_heading_anchors = 3
nitpicky = False
suppress_warnings = ["myst.header"]
