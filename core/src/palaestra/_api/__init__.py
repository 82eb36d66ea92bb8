"""Layer 10, the API.

The module-level functions (``make``, ``register``, ``spec``, ...) over the default plugin host.
"""
