"""Specs from data one does not trust: ``EnvSpec.from_json(..., allow_import=False)``."""

import json

import pytest

import palaestra
from palaestra import EnvSpec, WrapperSpec


def spec_json(**fields):
    return EnvSpec(id="Trap-v0", **fields).to_json()


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("entry_point", "os:system"),
        ("vector_entry_point", "subprocess:Popen"),
        ("entry_point", "palaestra.utils.play:play"),
    ],
)
def test_an_entry_point_outside_installed_plugins_is_refused_by_name(field, value):
    text = spec_json(**{field: value})
    with pytest.raises(ValueError, match=f"the {field} '{value}' is outside the installed palaestra plugins"):
        EnvSpec.from_json(text, allow_import=False)
    assert getattr(EnvSpec.from_json(text), field) == value  # Gymnasium's default: trusted


def test_a_wrapper_outside_palaestra_and_the_plugins_is_refused():
    good = WrapperSpec("TimeLimit", "palaestra.wrappers:TimeLimit", {"max_episode_steps": 3})
    bad = WrapperSpec("Evil", "os:system", {})
    data = json.loads(spec_json(entry_point="palaestra_classic_control.cartpole:CartPoleEnv"))
    data["additional_wrappers"] = [vars(good)]
    assert EnvSpec.from_json(json.dumps(data), allow_import=False).additional_wrappers == (good,)
    data["additional_wrappers"] = [vars(good), vars(bad)]
    with pytest.raises(ValueError, match="the wrapper 'Evil' 'os:system' is outside"):
        EnvSpec.from_json(json.dumps(data), allow_import=False)


@pytest.mark.needs_plugins
def test_a_registered_suites_spec_round_trips_without_imports_allowed():
    spec = EnvSpec.from_json(palaestra.spec("CartPole-v1").to_json(), allow_import=False)
    assert spec == palaestra.spec("CartPole-v1")
    env = palaestra.make(spec)
    assert env.reset(seed=0)[0].shape == (4,)
