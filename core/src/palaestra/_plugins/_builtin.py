"""The core's built-in plugin (namespace ``palaestra``): the core's features through the public hooks.

Loaded by the host when a vectorizer or wrapper set is first looked up.
"""

from palaestra._base._markers import hookimpl

DISTRIBUTION = "palaestra"


@hookimpl
def palaestra_register_vectorizers(registrar):  # type: ignore[no-untyped-def]
    """Register the ``sync`` and ``async`` vectorizers under their bare names."""
    registrar.register("sync", "palaestra.vector:SyncVectorEnv", default_namespace=True)
    registrar.register("async", "palaestra.vector:AsyncVectorEnv", default_namespace=True)


@hookimpl
def palaestra_register_wrapper_sets(registrar):  # type: ignore[no-untyped-def]
    """Register the core's wrapper sets under their bare names."""
    registrar.register(
        "atari",
        [
            ("palaestra.wrappers:AtariPreprocessing", {}),
            ("palaestra.wrappers:FrameStackObservation", {"stack_size": 4}),
        ],
        default_namespace=True,
    )
    registrar.register(
        "normalize",
        [
            ("palaestra.wrappers:NormalizeObservation", {}),
            ("palaestra.wrappers:NormalizeReward", {}),
        ],
        default_namespace=True,
    )
