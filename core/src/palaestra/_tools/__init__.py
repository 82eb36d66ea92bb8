"""Layer 7, tools over envs: ``check_env``, env matching, ``play``, performance measurements."""
