"""Classes written out by hand behave as their generated twins (the specification).

EnvSpec and WrapperSpec as @dataclass classes; EnvId and PluginRecord as NamedTuples.
"""

from __future__ import annotations

import dataclasses
import inspect
import pickle
import subprocess
import sys
from typing import NamedTuple

import numpy as np
import pytest

from palaestra import EnvSpec
from palaestra._base import _spec_dataclasses as twins
from palaestra._base._ids import EnvId
from palaestra._base._wrapper_spec import WrapperSpec
from palaestra._discovery import PluginRecord
from palaestra._env._spec import _FIELD_NAMES, replaced

WRAPPERS = (WrapperSpec("TimeLimit", "palaestra.wrappers:TimeLimit", {"max_episode_steps": 5}),)
ENV_SPECS = [
    {"id": "CartPole-v1"},
    {"id": "ns/Thing-v3", "entry_point": "pkg.mod:Thing", "max_episode_steps": 7, "kwargs": {"a": 1}},
    {"id": "Bare", "entry_point": print, "reward_threshold": 1.5, "order_enforce": False},
    {"id": "gymnasium/ALE/Pong-v5", "additional_wrappers": WRAPPERS, "apply_api_compatibility": True},
    {
        "id": "Arr-v0",
        "kwargs": {"arr": np.arange(3)},
        "vector_entry_point": "pkg:Vec",
        "nondeterministic": True,
    },
]


def twin_of(spec: EnvSpec) -> twins.EnvSpec:
    """The twin dataclass holding the same values (its wrappers converted too)."""
    values = {name: getattr(spec, name) for name in EnvSpec.__match_args__}
    values["additional_wrappers"] = tuple(
        twins.WrapperSpec(w.name, w.entry_point, w.kwargs) for w in spec.additional_wrappers
    )
    twin = twins.EnvSpec(**values)
    twin.namespace, twin.name, twin.version = spec.namespace, spec.name, spec.version
    return twin


def parameters(cls) -> str:
    return str(inspect.signature(cls).replace(return_annotation=inspect.Signature.empty))


def test_signatures_match_the_twins():
    assert parameters(EnvSpec) == parameters(twins.EnvSpec)
    assert parameters(WrapperSpec) == parameters(twins.WrapperSpec)
    assert EnvSpec.__match_args__ == twins.EnvSpec.__match_args__
    assert WrapperSpec.__match_args__ == twins.WrapperSpec.__match_args__
    assert EnvSpec.__hash__ is None and twins.EnvSpec.__hash__ is None
    assert WrapperSpec.__hash__ is None and twins.WrapperSpec.__hash__ is None


def test_field_names_and_defaults_match_the_twins():
    fields = dataclasses.fields(EnvSpec)
    assert [f.name for f in fields] == [f.name for f in dataclasses.fields(twins.EnvSpec)]
    assert tuple(f.name for f in fields) == _FIELD_NAMES
    for f in fields:
        if f.default is not dataclasses.MISSING:
            assert getattr(EnvSpec, f.name) == f.default, f.name
        else:
            assert not hasattr(EnvSpec, f.name), f.name  # as on a dataclass: no class attribute
    assert [f.name for f in dataclasses.fields(WrapperSpec)] == ["name", "entry_point", "kwargs"]
    assert dataclasses.is_dataclass(EnvSpec) and dataclasses.is_dataclass(EnvSpec("A-v0"))
    assert dataclasses.is_dataclass(WRAPPERS[0])


@pytest.mark.parametrize("values", ENV_SPECS, ids=lambda v: v["id"])
def test_repr_and_equality_match_the_twins(values):
    spec = EnvSpec(**values)
    twin = twin_of(spec)
    assert repr(spec) == repr(twin)
    again = EnvSpec(**values)
    assert (spec == again) is (twin == twin_of(again))
    assert spec != EnvSpec(**{**values, "id": "Other-v9"})
    assert spec.__eq__(twin) is NotImplemented  # other classes are not equal, as for a dataclass
    assert repr(WRAPPERS[0]) == repr(twins.WrapperSpec(*dataclasses.astuple(WRAPPERS[0])))


@pytest.mark.parametrize("values", ENV_SPECS, ids=lambda v: v["id"])
def test_replace_asdict_and_pickle_work_as_on_a_dataclass(values):
    spec = EnvSpec(**values)
    changed = dataclasses.replace(spec, id="Changed-v2", max_episode_steps=3)
    assert (changed.id, changed.name, changed.version, changed.max_episode_steps) == (
        "Changed-v2",
        "Changed",
        2,
        3,
    )
    assert replaced(spec, id="Changed-v2", max_episode_steps=3) == changed
    with pytest.raises(ValueError, match="init=False"):
        dataclasses.replace(spec, name="x")
    with pytest.raises(TypeError, match="no init field 'name'"):
        replaced(spec, name="x")
    as_dict = dataclasses.asdict(spec)
    assert list(as_dict) == [f.name for f in dataclasses.fields(twins.EnvSpec)]
    assert str(as_dict) == str(dataclasses.asdict(twin_of(spec)))
    if "arr" not in spec.kwargs:
        assert pickle.loads(pickle.dumps(spec)) == spec


def test_default_factories_give_each_spec_its_own():
    a, b = EnvSpec("A-v0"), EnvSpec("B-v0")
    a.kwargs["x"] = 1
    assert b.kwargs == {} and a.additional_wrappers == () and EnvSpec("C-v0", kwargs=None).kwargs is None


def test_making_a_spec_imports_no_dataclasses():
    code = (
        "import sys\n"
        "from palaestra import EnvSpec\n"
        "EnvSpec('A-v0') == EnvSpec('A-v0'); repr(EnvSpec('A-v0'))\n"
        "print('dataclasses' in sys.modules)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.stdout.strip() == "False", result.stderr


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
