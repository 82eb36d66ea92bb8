"""``check_env`` on every reference env gives exactly Gymnasium's findings on its twin.

No error, and the same warnings word for word (Gymnasium's advice on infinite bounds and
unnormalised action ranges, nothing more), so a suite that runs the checker with a
Gymnasium-written ignore list stays green.
"""

import pytest

import palaestra
from tests.fixtures.checker import reference_env_check

SUITES = ("palaestra_classic_control", "palaestra_toy_text", "palaestra_box2d", "palaestra_mujoco")


def _reference_ids():
    ids = []
    for env_id in palaestra.registry:
        entry_point = str(palaestra.spec(env_id).entry_point)
        if entry_point.startswith(SUITES) and not entry_point.endswith(":retired"):
            ids.append(env_id)
    return sorted(ids)


@pytest.mark.parametrize("env_id", _reference_ids())
def test_check_env_finds_what_gymnasium_finds(env_id):
    if env_id == "Pusher-v4":
        pytest.skip("Gymnasium's Pusher-v4 refuses MuJoCo >= 3 (palaestra runs it; see docs/envs/mujoco.md)")
    ours, theirs = reference_env_check(env_id)
    assert theirs[0] is None, theirs[0]
    assert ours[0] is None, ours[0]
    assert ours[1] == theirs[1]
