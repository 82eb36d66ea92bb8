"""Layer 4, the single env.

``Env`` and ``Wrapper``, ``EnvSpec`` (pure data) and the trust check of specs read from
data, snapshots, the passive checks, the step-API conversions, and the helpers suites draw
and check with.
"""
