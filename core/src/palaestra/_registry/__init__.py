"""Environment specs, the registry, and ``make``."""
