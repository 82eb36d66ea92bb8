"""Layer 9, the plugin host: loading plugins on demand, their registrars, failure isolation."""
