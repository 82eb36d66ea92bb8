"""The fault matrix (docs/vector.md): every vectorizer, every autoreset mode, hostile actions, against sync.

Each cell drives full-batch ``step`` and ``send``/``recv`` with a share of invalid actions and
compares every result and error with SyncVectorEnv's (the specification; a natively batched
env with a twin of itself, as it refuses a batch with an invalid action whole): no
divergence, no result lost or handed out twice, no hang. The docs' figures are the same
drives at 2,000 steps (``python -m tests.fixtures.fault_matrix``).
"""

import pytest

from tests.fixtures import fault_matrix
from tests.fixtures.vector_envs import SUB_ENV_ERRORS_LOGGED

pytestmark = [pytest.mark.needs_plugins, SUB_ENV_ERRORS_LOGGED]

KINDS = {kind.name: kind for kind in fault_matrix.kinds()}


@pytest.mark.parametrize("mode", fault_matrix.MODES, ids=lambda m: m.value)
@pytest.mark.parametrize("name", KINDS)
def test_no_vectorizer_lies_hangs_or_loses_a_result_under_hostile_actions(name, mode):
    figures = fault_matrix.run(KINDS[name], mode, steps=150, seed=1, limit=120)
    assert figures.hostile > 10 and figures.raised > 10, figures  # the drive did meet faults
    assert figures.clean, figures
