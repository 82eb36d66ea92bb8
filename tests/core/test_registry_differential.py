"""Registry and make rules, run side by side with Gymnasium 1.4.0 on the tutorial GridWorld."""

import warnings

import gymnasium
import numpy as np
import pytest

import palaestra
from palaestra import error
from tests.fixtures.gridworld import make_gridworld_class

PalGrid = make_gridworld_class(palaestra)
GymGrid = make_gridworld_class(gymnasium)

IDS = ["Grid-v1", "Grid-v3", "tut/Walk-v0"]

# Grid-v1 is deliberately outdated; both libraries warn about it on every make.
pytestmark = pytest.mark.filterwarnings("ignore:.*is out of date:DeprecationWarning")


@pytest.fixture
def both(isolated):
    """Register the same ids in a sandboxed palaestra host and in Gymnasium."""
    for lib, cls in ((palaestra, PalGrid), (gymnasium, GymGrid)):
        lib.register("Grid-v1", entry_point=cls, max_episode_steps=30, kwargs={"size": 4})
        lib.register("Grid-v3", entry_point=cls, max_episode_steps=50, reward_threshold=0.9)
        lib.register("tut/Walk-v0", entry_point=cls, disable_env_checker=True, order_enforce=False)
    yield
    for env_id in IDS:
        gymnasium.registry.pop(env_id, None)


def outcome(fn):
    """(result, exception type name, warning categories, exception message) of calling ``fn``."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = fn()
            kind = message = None
        except Exception as e:
            result, kind, message = None, type(e).__name__, str(e).strip('"')  # KeyErrors quote
    return result, kind, sorted({w.category.__name__ for w in caught}), message


def wrapper_chain(env):
    names = []
    while hasattr(env, "env"):
        names.append(type(env).__name__)
        env = env.env
    return [*names, type(env).__name__]


@pytest.mark.parametrize(
    "env_id",
    [
        "Grid-v1",
        "Grid-v3",
        "Grid",
        "Grid-v2",
        "Grid-v0",
        "Grid-v9",
        "Gird-v3",
        "tut/Walk-v0",
        "tut/Walk",
        "tutt/Walk-v0",
        "tut/Walk-v1",
        "Malformed id!",
    ],
)
def test_resolution_matches_gymnasium(both, env_id):
    ours, our_error, our_warnings, our_message = outcome(lambda: palaestra.make(env_id))
    ref, ref_error, ref_warnings, ref_message = outcome(lambda: gymnasium.make(env_id))
    error_map = {None: None, "MissingSuiteError": "NameNotFound", "UnregisteredEnv": "Error"}
    assert error_map.get(our_error, our_error) == ref_error
    assert our_warnings == ref_warnings
    if ref_message is not None:  # Gymnasium's words first, palaestra's advice after them
        assert our_message.startswith(ref_message.rstrip(".")), (our_message, ref_message)
    if ours is not None:
        assert ours.spec.id == ref.spec.id
        assert wrapper_chain(ours) == wrapper_chain(ref)


def test_errors_subclass_gymnasium_names_and_builtin_bases(both):
    with pytest.raises(error.VersionNotFound) as info:
        palaestra.make("Grid-v9")
    assert isinstance(info.value, KeyError) and isinstance(info.value, error.UnregisteredEnv)
    assert "It provides versioned environments: [ `v1`, `v3` ]" in str(info.value)
    with pytest.raises(error.DeprecatedEnv, match="Please use `Grid-v3` instead"):
        palaestra.make("Grid-v2")
    with pytest.raises(error.NameNotFound, match="Did you mean: `Grid`"):
        palaestra.make("Gird-v3")
    with pytest.raises(error.NamespaceNotFound, match="Did you mean: `tut`"):
        palaestra.make("tutt/Walk-v0")


@pytest.mark.parametrize(
    ("kwargs"),
    [
        {},
        {"max_episode_steps": 7},
        {"max_episode_steps": -1},
        {"disable_env_checker": True},
        {"size": 9},
        {"render_mode": "rgb_array"},
        {"render_mode": "rgb_array_list"},
    ],
)
def test_make_options_give_the_same_stack_and_specs(both, kwargs):
    ours = palaestra.make("Grid-v3", **kwargs)
    ref = gymnasium.make("Grid-v3", **kwargs)
    assert wrapper_chain(ours) == wrapper_chain(ref)
    for attr in (
        "id",
        "max_episode_steps",
        "order_enforce",
        "disable_env_checker",
        "kwargs",
        "reward_threshold",
    ):
        assert getattr(ours.spec, attr) == getattr(ref.spec, attr), attr
        assert getattr(ours.unwrapped.spec, attr) == getattr(ref.unwrapped.spec, attr), attr
    assert [w.name for w in ours.spec.additional_wrappers] == [w.name for w in ref.spec.additional_wrappers]
    assert ours.render_mode == ref.render_mode


def test_rollout_through_make_matches(both):
    ours = palaestra.make("Grid-v1")
    ref = gymnasium.make("Grid-v1")
    o1, i1 = ours.reset(seed=11)
    o2, i2 = ref.reset(seed=11)
    assert all(np.array_equal(o1[k], o2[k]) for k in o1) and i1 == i2
    for t in range(40):
        a = t % 4
        r1, r2 = ours.step(a), ref.step(a)
        assert all(np.array_equal(r1[0][k], r2[0][k]) for k in r1[0])
        assert r1[1:] == r2[1:]
        if r1[2] or r1[3]:
            break
    assert r1[3] or r1[2]


def test_unsupported_render_mode_warns_like_gymnasium(both):
    _, _, ours, _ = outcome(lambda: palaestra.make("Grid-v3", render_mode="ansi"))
    _, _, ref, _ = outcome(lambda: gymnasium.make("Grid-v3", render_mode="ansi"))
    assert ours == ref == ["UserWarning"]


def test_registering_versioned_and_unversioned_mix_fails_like_gymnasium(both):
    with pytest.raises(error.RegistrationError):
        palaestra.register("Grid", entry_point=PalGrid)
    with pytest.raises(gymnasium.error.RegistrationError):
        gymnasium.register("Grid", entry_point=GymGrid)


def test_spec_json_round_trip_and_pprint_match(both):
    for lib in (palaestra, gymnasium):
        lib.register(
            "Str-v0",
            entry_point="tests.fixtures.gridworld:make_gridworld_class",
            max_episode_steps=3,
            kwargs={"lib": None},
        )
    try:
        ours, ref = palaestra.spec("Str-v0"), gymnasium.spec("Str-v0")
        assert ours.to_json() == ref.to_json()
        assert palaestra.EnvSpec.from_json(ours.to_json()) == ours
        for flags in ({}, {"print_all": True}, {"include_entry_points": True}):
            assert ours.pprint(disable_print=True, **flags) == ref.pprint(disable_print=True, **flags)
        with pytest.raises(ValueError, match="Callable found"):
            palaestra.spec("Grid-v1").to_json()
    finally:
        gymnasium.registry.pop("Str-v0", None)


def test_make_from_env_spec_and_module_prefix(both):
    env = palaestra.make(palaestra.spec("Grid-v1"))
    assert env.spec.max_episode_steps == 30
    rebuilt = palaestra.make(env.spec)
    assert wrapper_chain(rebuilt) == wrapper_chain(env)
    with pytest.raises(ModuleNotFoundError, match="no_such_module"):
        palaestra.make("no_such_module:Grid-v1")
    assert palaestra.make("tests.fixtures.gridworld:Grid-v1").spec.id == "Grid-v1"


def test_namespace_context_manager(isolated):
    from palaestra.envs.registration import namespace

    with namespace("ctx"):
        palaestra.register("Inner-v0", entry_point=PalGrid)
    palaestra.register("Outer-v0", entry_point=PalGrid)
    assert palaestra.spec("ctx/Inner-v0").namespace == "ctx"
    assert palaestra.spec("Outer-v0").namespace is None
    with pytest.raises(RuntimeError), namespace("boom"):
        raise RuntimeError
    palaestra.register("After-v0", entry_point=PalGrid)
    assert palaestra.spec("After-v0").namespace is None  # restored despite the exception


def test_pprint_registry_matches_for_namespaced_ids(both):
    ours = palaestra.pprint_registry({k: palaestra.spec(k) for k in ["tut/Walk-v0"]}, disable_print=True)
    ref = gymnasium.pprint_registry({"tut/Walk-v0": gymnasium.spec("tut/Walk-v0")}, disable_print=True)
    assert ours == ref


@pytest.mark.needs_plugins
def test_pprint_registry_groups_by_suite_in_gymnasiums_order():
    text = palaestra.pprint_registry(disable_print=True)
    headers = [line.strip("= ") for line in text.splitlines() if line.startswith("=====")]
    suites = [h for h in headers if h in ("classic_control", "box2d", "toy_text", "mujoco")]
    assert suites == ["classic_control", "box2d", "toy_text", "mujoco"]
    mujoco_block = text.split("===== mujoco =====")[1].split("=====")[0]
    assert "HalfCheetah-v4" in mujoco_block and "Ant-v3" in mujoco_block


@pytest.mark.parametrize(
    "env_id", ["ns/sub/Env-v1", "Env-v1.5", "", "a b", "ns/Env", "Env-v01", "gymnasium/ALE/Pong-v5"]
)
def test_parse_env_id_matches_gymnasium(env_id):
    ours = outcome(lambda: palaestra.envs.registration.parse_env_id(env_id))
    ref = outcome(lambda: gymnasium.envs.registration.parse_env_id(env_id))
    if env_id.startswith("gymnasium/"):  # the bridge's ids nest Gymnasium's namespace (docs/migrating.md)
        assert ours[0] == ("gymnasium/ALE", "Pong", 5) and ref[1] == "Error"
        return
    assert (ours[0], ours[1], ours[3]) == (ref[0], ref[1], ref[3])


def _example_specs(lib, entry_points):
    return {
        env_id: lib.envs.registration.EnvSpec(env_id, entry_point) for env_id, entry_point in entry_points
    }


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"num_cols": 2},
        {"num_cols": 5},
        {"exclude_namespaces": ["Test"]},
        {"exclude_namespaces": ["classic_control"]},
    ],
)
def test_pprint_registry_layout_matches_gymnasium(options):
    module = "classic_control.cartpole:CartPoleEnv"
    entry_points = [
        ("CartPole-v0", f"gymnasium.envs.{module}"),
        ("Test/CartPole-v1", f"gymnasium.envs.{module}"),
        ("CartPole-v2", "gymnasium.cartpole:CartPoleEnv"),
        ("CartPole-v3", lambda: None),
        ("CartPole-v4", "cartpole"),
        ("LongerNamespace/CartPoleWithALongName-v5", f"gymnasium.envs.{module}"),
        ("CartPole-v6", f"gymnasium.envs.{module}"),
    ]
    ours = palaestra.pprint_registry(_example_specs(palaestra, entry_points), disable_print=True, **options)
    ref = gymnasium.pprint_registry(_example_specs(gymnasium, entry_points), disable_print=True, **options)
    assert ours == ref
