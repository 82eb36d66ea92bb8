"""Layer 2, what is installed.

Entry points and declared ids read from installed metadata (with a cache), compatibility,
provenance and ownership. Imports no plugin.
"""
