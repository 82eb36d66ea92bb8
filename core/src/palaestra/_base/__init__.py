"""Layer 1, the leaves.

Ids, wrapper specs, entry-point loading, seeding, lazy exports, hook markers, pickling and
video helpers. Nothing here imports palaestra beyond ``error`` and ``logger``.
"""
