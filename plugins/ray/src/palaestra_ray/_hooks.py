"""Registration hook (import-cheap: Ray is imported only when a RayVectorEnv is built)."""

from palaestra import hookimpl


@hookimpl
def palaestra_register_vectorizers(registrar):  # type: ignore[no-untyped-def]
    """Register ``"ray/actors"``: sub-envs in Ray actors, several per actor."""
    registrar.register("actors", "palaestra_ray:RayVectorEnv")
