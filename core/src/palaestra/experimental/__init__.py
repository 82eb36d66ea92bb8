"""APIs that may still change: :mod:`palaestra.experimental.functional` (stateless envs)."""
