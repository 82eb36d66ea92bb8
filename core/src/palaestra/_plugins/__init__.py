"""The plugin host: discovery, on-demand loading and failure isolation."""
