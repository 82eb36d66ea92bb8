"""The make pipeline's steps, each tested on its own."""

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import palaestra
from palaestra._base._ids import ENV_ID_PATTERN
from palaestra._registry import _make as steps
from palaestra.envs.registration import load_env_creator
from palaestra.error import Error, InvalidEnvArguments, ResetNeeded
from palaestra.wrappers import OrderEnforcing, PassiveEnvChecker, RenderCollection, TimeLimit
from tests.fixtures.gridworld import make_gridworld_class

Grid = make_gridworld_class(palaestra)


@pytest.fixture
def grid(isolated):
    palaestra.register("Grid-v0", entry_point=Grid, max_episode_steps=10, kwargs={"size": 4})
    palaestra.register("GridStr-v0", entry_point="tests.fixtures.gridworld:make_gridworld_class")
    return isolated


def test_resolve_spec_accepts_spec_and_id(grid):
    spec = steps.resolve_spec("Grid-v0", grid)
    assert spec.id == "Grid-v0"
    assert steps.resolve_spec(spec, grid) is spec
    assert steps.resolve_spec(spec, None) is spec  # a spec needs no host
    with pytest.raises(TypeError, match="Expected id to be a string or EnvSpec"):
        steps.resolve_spec(42, grid)
    with pytest.raises(TypeError, match="needs a registry to look it up in"):
        steps.resolve_spec("Grid-v0", None)


def test_merge_kwargs_copies_and_overrides(grid):
    spec = palaestra.spec("Grid-v0")
    merged = steps.merge_kwargs(spec, {"size": 6, "render_mode": None})
    assert merged == {"size": 6, "render_mode": None}
    assert spec.kwargs == {"size": 4}


def test_load_env_creator_errors_name_the_entry_point():
    assert (
        load_env_creator("tests.fixtures.gridworld:make_gridworld_class").__name__ == "make_gridworld_class"
    )
    with pytest.raises(ModuleNotFoundError, match="'nope.mod' of entry point 'nope.mod:X'"):
        load_env_creator("nope.mod:X")
    with pytest.raises(AttributeError, match="has no attribute 'Missing'"):
        load_env_creator("tests.fixtures.gridworld:Missing")
    # Gymnasium's words (it unpacks name.split(":")), then the form an entry point takes.
    with pytest.raises(
        Error, match=r"^not enough values to unpack \(expected 2, got 1\)\nEntry point 'no_colon'"
    ):
        load_env_creator("no_colon")
    with pytest.raises(ValueError, match=r"^too many values to unpack \(expected 2\)\nEntry point 'a:b:c'"):
        load_env_creator("a:b:c")
    with pytest.raises(AttributeError, match=r"^'int' object has no attribute 'split'\nEntry point 5"):
        load_env_creator(5)


def test_negotiate_render_mode():
    plan = steps.negotiate_render_mode(Grid, {"render_mode": "rgb_array"})
    assert plan.wrapper is None and plan.kwargs["render_mode"] == "rgb_array"
    plan = steps.negotiate_render_mode(Grid, {"render_mode": "rgb_array_list"})
    assert plan.wrapper == "collection" and plan.kwargs["render_mode"] == "rgb_array"
    with pytest.warns(UserWarning, match="HumanRendering wrapper is being applied"):
        plan = steps.negotiate_render_mode(Grid, {"render_mode": "human"})
    assert plan.wrapper == "human" and plan.kwargs["render_mode"] == "rgb_array"
    with pytest.warns(UserWarning, match="not in the possible render_modes"):
        plan = steps.negotiate_render_mode(Grid, {"render_mode": "ansi"})
    assert plan.wrapper is None


def test_construct_wraps_bad_kwargs_in_a_typed_error(grid):
    spec = palaestra.spec("Grid-v0")
    with pytest.raises(InvalidEnvArguments, match="Grid-v0") as info:
        steps.construct(Grid, spec, {"colour": "red"})
    assert isinstance(info.value, TypeError) and isinstance(info.value.__cause__, TypeError)
    with pytest.raises(
        TypeError, match=r"must inherit from the gymnasium.Env class.* In palaestra, subclass palaestra.Env"
    ):
        steps.construct(lambda: object(), spec, {})


def test_stamp_spec_gives_unwrapped_the_minimal_spec(grid):
    spec = palaestra.spec("Grid-v0")
    env = Grid()
    assert steps.stamp_spec(env, spec, {"size": 4}) == 0
    assert env.spec.max_episode_steps is None
    assert env.spec.order_enforce is False and env.spec.disable_env_checker is True


def test_apply_wrappers_order(grid):
    spec = palaestra.spec("Grid-v0")
    env = steps.apply_wrappers(Grid(), spec, 0, None, None, None)
    assert [type(e) for e in (env, env.env, env.env.env)] == [TimeLimit, OrderEnforcing, PassiveEnvChecker]
    env = steps.apply_wrappers(Grid(render_mode="rgb_array"), spec, 0, -1, True, "collection")
    assert type(env) is RenderCollection and type(env.env) is OrderEnforcing


def test_human_fallback_to_an_array_only_env_adds_human_rendering(grid):
    with pytest.warns(UserWarning, match="HumanRendering"):
        env = palaestra.make("Grid-v0", render_mode="human")
    assert type(env).__name__ == "HumanRendering"
    env.close()


def test_order_enforcing_and_time_limit(grid):
    env = palaestra.make("Grid-v0", max_episode_steps=3)
    with pytest.raises(ResetNeeded, match="before calling env.reset"):
        env.step(0)
    with pytest.raises(ResetNeeded, match="render"):
        env.render()
    env.reset(seed=0)
    results = [env.step(2) for _ in range(3)]
    assert results[-1][3] is True or results[-1][2] is True
    with pytest.raises(ValueError, match="positive"):
        TimeLimit(Grid(), 0)
    with pytest.raises(TypeError, match="integer"):
        TimeLimit(Grid(), 2.0)


def test_render_collection_through_make(grid):
    env = palaestra.make("Grid-v0", render_mode="rgb_array_list")
    env.reset(seed=0)
    env.step(0)
    frames = env.render()
    assert len(frames) == 2 and frames[0].shape == (32, 32, 3)
    assert env.render() == []
    assert env.render_mode == "rgb_array_list"


def test_spec_wrappers_are_rebuilt_by_make(grid):
    env = palaestra.wrappers.TimeLimit(palaestra.make("Grid-v0"), 4)
    spec = env.spec
    assert spec.max_episode_steps == 4
    rebuilt = palaestra.make(spec)
    obs, _ = rebuilt.reset(seed=1)
    assert set(obs) == {"agent", "target"}


def test_env_spec_make_method(grid):
    env = palaestra.spec("Grid-v0").make(size=3)
    assert env.unwrapped.size == 3
    assert np.array_equal(
        env.reset(seed=2)[0]["agent"], palaestra.make("Grid-v0", size=3).reset(seed=2)[0]["agent"]
    )


def test_a_lookup_parses_its_id_once(monkeypatch):
    """find_spec parses the id into an EnvId that loading and resolving take as it is."""
    from palaestra._base import _ids

    palaestra.make("CartPole-v1").close()  # its plugin loaded: only the lookup is counted
    calls = []

    real = _ids.split_env_id

    def counting(text):
        calls.append(text)
        return real(text)

    monkeypatch.setattr(_ids, "split_env_id", counting)
    registry = palaestra.registry
    assert registry.find_spec("CartPole-v1").id == "CartPole-v1"
    assert calls == ["CartPole-v1"]
    calls.clear()
    with pytest.raises(palaestra.error.NamespaceNotFound):
        registry.find_spec("nosuchplugin/Thing-v0")  # loading and resolving asked
    assert calls.count("nosuchplugin/Thing-v0") == 1  # (the error's suggestions parse other ids)


def test_envid_carries_the_text_and_parts():
    from palaestra._base._ids import EnvId

    assert EnvId.parse("gymnasium/ALE/Pong-v5") == ("gymnasium/ALE/Pong-v5", "gymnasium/ALE", "Pong", 5)
    assert EnvId.parse("CartPole") == ("CartPole", None, "CartPole", None)
    assert EnvId.parse_or_none("a/b/C-v0") is None  # nested outside the bridge: malformed
    with pytest.raises(palaestra.error.Error, match="Malformed environment ID: a/b/C-v0"):
        EnvId.parse("a/b/C-v0")


ID_ALPHABET = "aZ09_:.-/v" + "é٣²\n "  # word characters of several kinds, the marks, and strangers


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=ID_ALPHABET, max_size=12) | st.from_regex(ENV_ID_PATTERN, fullmatch=True))
def test_id_splitting_follows_gymnasiums_pattern(text):
    from palaestra._base._ids import split_env_id

    match = re.fullmatch(ENV_ID_PATTERN, text)
    expected = None
    if match is not None:
        version = match.group("version")
        expected = (match.group("namespace"), match.group("name"), None if version is None else int(version))
    assert split_env_id(text) == expected


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        ("CartPole-v1", (None, "CartPole", 1)),
        ("A-v1-v2", (None, "A-v1", 2)),
        ("-v3", (None, "-v3", None)),
        ("Foo-v", (None, "Foo-v", None)),
        ("ns/sub/X-v0", ("ns/sub", "X", 0)),
        ("/X-v0", None),
        ("ns//X", None),
        ("X-v1\n", None),
        ("a b", None),
        ("", None),
    ],
)
def test_id_splitting_edge_cases(text, parts):
    from palaestra._base._ids import split_env_id

    assert split_env_id(text) == parts
