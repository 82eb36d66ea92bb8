"""Layer 8, the registry: the ``Registry`` of specs and the ``make``/``make_vec`` pipelines."""
