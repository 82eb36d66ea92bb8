"""Specs behave as Gymnasium's dataclasses; the hand-written records as their NamedTuple twins."""

from __future__ import annotations

import dataclasses
import pickle
import sys
from typing import NamedTuple

import numpy as np
import pytest

from palaestra import EnvSpec
from palaestra._base._ids import EnvId
from palaestra._base._wrapper_spec import WrapperSpec
from palaestra._discovery import PluginRecord
from palaestra._env._spec import replaced

WRAPPERS = (WrapperSpec("TimeLimit", "palaestra.wrappers:TimeLimit", {"max_episode_steps": 5}),)
ENV_SPECS = [
    {"id": "CartPole-v1"},
    {"id": "ns/Thing-v3", "entry_point": "pkg.mod:Thing", "max_episode_steps": 7, "kwargs": {"a": 1}},
    {"id": "Bare", "entry_point": print, "reward_threshold": 1.5, "order_enforce": False},
    {"id": "ALE/Pong-v5", "additional_wrappers": WRAPPERS, "apply_api_compatibility": True},
    {
        "id": "Arr-v0",
        "kwargs": {"arr": np.arange(3)},
        "vector_entry_point": "pkg:Vec",
        "nondeterministic": True,
    },
]


def gymnasium_twin(spec: EnvSpec):
    """Gymnasium's spec of the same values (wrappers converted too): the reference."""
    from gymnasium.envs.registration import EnvSpec as GymEnvSpec
    from gymnasium.envs.registration import WrapperSpec as GymWrapperSpec

    values = {
        name: getattr(spec, name) for name in EnvSpec.__match_args__ if name != "apply_api_compatibility"
    }
    values["additional_wrappers"] = tuple(
        GymWrapperSpec(w.name, w.entry_point, w.kwargs) for w in spec.additional_wrappers
    )
    return GymEnvSpec(**values)


def gymnasium_fields():
    from gymnasium.envs.registration import EnvSpec as GymEnvSpec

    return [f.name for f in dataclasses.fields(GymEnvSpec)]


def test_fields_are_gymnasiums_in_its_order_plus_one():
    names = [f.name for f in dataclasses.fields(EnvSpec)]
    assert names == [*gymnasium_fields(), "apply_api_compatibility"]
    assert EnvSpec.__hash__ is None and WrapperSpec.__hash__ is None  # mutable, compared by value
    assert [f.name for f in dataclasses.fields(WrapperSpec)] == ["name", "entry_point", "kwargs"]
    assert dataclasses.is_dataclass(EnvSpec) and dataclasses.is_dataclass(WRAPPERS[0])


@pytest.mark.parametrize("values", ENV_SPECS, ids=lambda v: v["id"])
def test_repr_equality_replace_and_asdict_as_on_gymnasiums_specs(values):
    spec = EnvSpec(**values)
    theirs = gymnasium_twin(spec)
    ours_repr = repr(spec).replace(f", apply_api_compatibility={spec.apply_api_compatibility!r}", "")
    assert ours_repr == repr(theirs).replace("WrapperSpec(", "WrapperSpec(")
    assert spec == EnvSpec(**values) and spec != EnvSpec(**{**values, "id": "Other-v9"})
    changes = {"id": "Changed-v2", "max_episode_steps": 3}
    changed, their_changed = dataclasses.replace(spec, **changes), dataclasses.replace(theirs, **changes)
    assert (changed.name, changed.version, changed.max_episode_steps) == (
        their_changed.name,
        their_changed.version,
        their_changed.max_episode_steps,
    )
    assert replaced(spec, **changes) == changed == spec.__replace__(**changes)
    with pytest.raises(ValueError, match="init=False"):
        dataclasses.replace(spec, name="x")
    with pytest.raises(ValueError, match="init=False"):
        dataclasses.replace(theirs, name="x")
    ours_dict = dataclasses.asdict(spec)
    ours_dict.pop("apply_api_compatibility")
    assert str(ours_dict) == str(dataclasses.asdict(theirs))
    if "arr" not in spec.kwargs:
        assert pickle.loads(pickle.dumps(spec)) == spec


@pytest.mark.skipif(sys.version_info < (3, 13), reason="copy.replace came with Python 3.13")
def test_copy_replace_as_on_gymnasiums_specs():
    import copy

    spec = EnvSpec("CartPole-v1", max_episode_steps=5)
    assert (
        copy.replace(spec, id="CartPole-v0").name == copy.replace(gymnasium_twin(spec), id="CartPole-v0").name
    )
    assert copy.replace(WRAPPERS[0], name="X").name == "X"


def test_default_factories_give_each_spec_its_own():
    a, b = EnvSpec("A-v0"), EnvSpec("B-v0")
    a.kwargs["x"] = 1
    assert b.kwargs == {} and a.additional_wrappers == () and EnvSpec("C-v0", kwargs=None).kwargs is None


class EnvIdTwin(NamedTuple):
    text: str
    namespace: str | None
    name: str
    version: int | None


class PluginRecordTwin(NamedTuple):
    namespace: str
    module: str
    distribution: str
    version: str
    requires: str = ""


@pytest.mark.parametrize(
    ("record", "twin"),
    [
        (EnvId("ns/A-v1", "ns", "A", 1), EnvIdTwin("ns/A-v1", "ns", "A", 1)),
        (EnvId("A", None, "A", None), EnvIdTwin("A", None, "A", None)),
        (PluginRecord("ns", "m._hooks", "dist", "1.0"), PluginRecordTwin("ns", "m._hooks", "dist", "1.0")),
        (PluginRecord("ns", "m", "d", "2", ">=0.1"), PluginRecordTwin("ns", "m", "d", "2", ">=0.1")),
    ],
)
def test_records_behave_as_their_named_tuple_twins(record, twin):
    assert record == twin and tuple(record) == tuple(twin) and hash(record) == hash(twin)
    assert repr(record) == repr(twin).replace("Twin", "")
    assert record._fields == twin._fields
    assert record._asdict() == twin._asdict()
    for field in twin._fields:
        assert getattr(record, field) == getattr(twin, field)
    first = twin._fields[0]
    assert record._replace(**{first: "x"}) == twin._replace(**{first: "x"})
    assert type(record._replace(**{first: "x"})) is type(record)
    with pytest.raises(ValueError, match="unexpected field names"):
        record._replace(bogus=1)
    assert pickle.loads(pickle.dumps(record)) == record
    assert type(pickle.loads(pickle.dumps(record))) is type(record)
    with pytest.raises(AttributeError):
        record.extra = 1  # slots, as a named tuple
