"""MuJoCo suite: trajectories identical to Gymnasium 1.4.0's, kwargs, errors, rendering."""

import copy
import gc
import os
import pickle
import warnings

import gymnasium
import numpy as np
import pytest

import palaestra
from palaestra.error import InvalidAction, UnsupportedMode
from palaestra.utils.env_checker import check_env

IDS = [
    "Ant-v5",
    "HalfCheetah-v5",
    "Hopper-v5",
    "Humanoid-v5",
    "HumanoidStandup-v5",
    "InvertedPendulum-v5",
    "InvertedDoublePendulum-v5",
    "Pusher-v5",
    "Reacher-v5",
    "Swimmer-v5",
    "Walker2d-v5",
]

# Every kwarg of Gymnasium's v5 envs is exercised by at least one case.
VARIANTS = {
    "Ant-v5": [
        {"main_body": "torso", "contact_cost_weight": 1e-3, "contact_force_range": (-2.0, 2.0)},
        {"include_cfrc_ext_in_observation": False, "exclude_current_positions_from_observation": False},
        {"healthy_z_range": (0.3, 0.9), "healthy_reward": 2.0, "forward_reward_weight": 2.0},
        {"terminate_when_unhealthy": False, "ctrl_cost_weight": 0.1, "reset_noise_scale": 0.2},
    ],
    "HalfCheetah-v5": [
        {"forward_reward_weight": 2.0, "ctrl_cost_weight": 0.3, "reset_noise_scale": 0.2},
        {"exclude_current_positions_from_observation": False, "frame_skip": 3},
        {"ctrl_cost_weight": np.float32(0.2)},  # a numpy weight: the generic control cost
        {"ctrl_cost_weight": 1},
    ],
    "Hopper-v5": [
        {
            "terminate_when_unhealthy": False,
            "healthy_reward": 2.0,
            "exclude_current_positions_from_observation": False,
        },
        {
            "healthy_state_range": (-5.0, 5.0),
            "healthy_z_range": (0.9, 2.0),
            "healthy_angle_range": (-0.3, 0.3),
        },
        {"forward_reward_weight": 0.5, "ctrl_cost_weight": 0.01, "reset_noise_scale": 0.05, "frame_skip": 2},
    ],
    "Humanoid-v5": [
        {"include_cinert_in_observation": False, "include_cvel_in_observation": False},
        {"include_qfrc_actuator_in_observation": False, "include_cfrc_ext_in_observation": False},
        {"contact_cost_weight": 1e-4, "contact_cost_range": (-np.inf, 1e-3), "healthy_z_range": (1.1, 2.0)},
        {
            "forward_reward_weight": 2.0,
            "ctrl_cost_weight": 0.2,
            "healthy_reward": 1.0,
            "reset_noise_scale": 0.05,
        },
        {"terminate_when_unhealthy": False, "exclude_current_positions_from_observation": False},
    ],
    "HumanoidStandup-v5": [
        {"impact_cost_weight": 1e-3, "impact_cost_range": (-np.inf, 0.5), "ctrl_cost_weight": 0.2},
        {
            "include_cfrc_ext_in_observation": False,
            "include_cvel_in_observation": False,
            "reset_noise_scale": 0.1,
        },
        {"include_cinert_in_observation": False, "include_qfrc_actuator_in_observation": False},
        {"exclude_current_positions_from_observation": False},
    ],
    "InvertedPendulum-v5": [{"reset_noise_scale": 0.1}, {"frame_skip": 1}],
    "InvertedDoublePendulum-v5": [{"healthy_reward": 5.0, "reset_noise_scale": 0.2}],
    "Pusher-v5": [{"reward_near_weight": 1.0, "reward_dist_weight": 2.0, "reward_control_weight": 0.5}],
    "Reacher-v5": [{"reward_dist_weight": 2.0, "reward_control_weight": 0.1}, {"frame_skip": 3}],
    "Swimmer-v5": [
        {"ctrl_cost_weight": 0.01, "forward_reward_weight": 2.0, "reset_noise_scale": 0.3},
        {"exclude_current_positions_from_observation": False},
    ],
    "Walker2d-v5": [
        {"healthy_z_range": (0.9, 1.8), "healthy_angle_range": (-0.5, 0.5), "healthy_reward": 0.5},
        {"terminate_when_unhealthy": False, "exclude_current_positions_from_observation": False},
        {"forward_reward_weight": 2.0, "ctrl_cost_weight": 0.01, "reset_noise_scale": 0.05},
    ],
}
CASES = [(env_id, {}) for env_id in IDS] + [(i, kw) for i, kws in VARIANTS.items() for kw in kws]


def make_pair(env_id, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return palaestra.make(env_id, **kwargs), gymnasium.make(env_id, **kwargs)


def same_values(a, b):
    """Equal to the last bit: scalars, arrays and dicts of them (info values)."""
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same_values(a[k], b[k]) for k in a)
    return np.array_equal(a, b)


def assert_same_step(a, b, where):
    assert np.array_equal(a[0], b[0]), f"{where}: obs differ by {np.abs(a[0] - b[0]).max()}"
    assert a[1] == b[1] and type(a[1]) is type(b[1]), f"{where}: reward {a[1]!r} vs {b[1]!r}"
    assert a[2:4] == b[2:4], f"{where}: flags {a[2:4]} vs {b[2:4]}"
    assert same_values(a[4], b[4]), f"{where}: info {a[4]} vs {b[4]}"


def play_both(ours, ref, seed, steps, actions):
    """Reset both with ``seed`` and play ``actions`` in turn, resetting on episode end."""
    a, b = ours.reset(seed=seed), ref.reset(seed=seed)
    assert np.array_equal(a[0], b[0]) and same_values(a[1], b[1]), f"reset(seed={seed})"
    for t in range(steps):
        action = actions[t % len(actions)]
        step_a, step_b = ours.step(action), ref.step(action)
        assert_same_step(step_a, step_b, f"seed {seed} step {t}")
        if step_a[2] or step_a[3]:
            a, b = ours.reset(), ref.reset()
            assert np.array_equal(a[0], b[0]) and same_values(a[1], b[1]), f"reset after step {t}"


def random_actions(space, count, seed, spread=1.0):
    rng = np.random.default_rng(seed)
    return [(rng.uniform(space.low, space.high) * spread).astype(np.float32) for _ in range(count)]


@pytest.mark.parametrize(("env_id", "kwargs"), CASES, ids=[f"{i}-{sorted(k)}" for i, k in CASES])
def test_trajectories_match_gymnasium(env_id, kwargs):
    ours, ref = make_pair(env_id, **kwargs)
    actions = random_actions(ours.action_space, 97, seed=len(kwargs))
    for seed in (0, 7):
        play_both(ours, ref, seed, 250, actions)


@pytest.mark.parametrize("env_id", ["HalfCheetah-v5", "Ant-v5", "Reacher-v5", "Pusher-v5", "Humanoid-v5"])
def test_unusual_actions_match_gymnasium(env_id):
    """Out-of-range actions are clamped by MuJoCo but priced unclamped; other dtypes too."""
    ours, ref = make_pair(env_id)
    space = ours.action_space
    actions = [
        *random_actions(space, 20, seed=1, spread=3.0),
        *(a.astype(np.float64) for a in random_actions(space, 20, seed=2)),
        np.ones(space.shape, dtype=np.int64),
        list(np.linspace(-1, 1, space.shape[0])),
    ]
    play_both(ours, ref, 3, len(actions), actions)


@pytest.mark.parametrize("env_id", IDS)
def test_same_state_same_motion_for_fifty_steps(env_id):
    """Both envs set to one random state and driven alike agree exactly for 50 steps.

    This is the issue's agreement measure: the models compile to the same physics, so the
    agreement is exact (relative difference 0), not merely within 1e-6.
    """
    ours, ref = make_pair(env_id)
    ours.reset(seed=0)
    ref.reset(seed=0)
    rng = np.random.default_rng(11)
    model = ours.unwrapped.model
    qpos = ours.unwrapped.init_qpos + rng.uniform(-0.05, 0.05, model.nq)
    qvel = rng.normal(0.0, 0.2, model.nv)
    ours.unwrapped.set_state(qpos, qvel)
    ref.unwrapped.set_state(qpos.copy(), qvel.copy())
    for t, action in enumerate(random_actions(ours.action_space, 50, seed=12)):
        assert_same_step(ours.step(action), ref.step(action), f"step {t}")


@pytest.mark.parametrize("env_id", IDS)
def test_specs_spaces_and_metadata_match(env_id):
    ours, ref = palaestra.spec(env_id), gymnasium.spec(env_id)
    for field in ("max_episode_steps", "reward_threshold", "nondeterministic", "order_enforce"):
        assert getattr(ours, field) == getattr(ref, field), field
    a, b = make_pair(env_id)
    assert repr(a.observation_space) == repr(b.observation_space)
    assert repr(a.action_space) == repr(b.action_space)
    assert a.metadata == b.metadata
    assert a.unwrapped.dt == b.unwrapped.dt
    assert getattr(a.unwrapped, "observation_structure", None) == getattr(
        b.unwrapped, "observation_structure", None
    )


@pytest.mark.filterwarnings("ignore:.*WARN. A Box observation space m:UserWarning")  # as in Gymnasium
@pytest.mark.filterwarnings("ignore:.*symmetric and normalized space:UserWarning")
@pytest.mark.parametrize("env_id", IDS)
def test_check_env_passes_and_seeded_rollouts_repeat(env_id):
    env = palaestra.make(env_id, render_mode="rgb_array", width=64, height=48)
    check_env(env.unwrapped)

    def rollout():
        obs, _ = env.reset(seed=42)
        env.action_space.seed(42)
        trace = [obs]
        for _ in range(30):
            obs, reward, terminated, truncated, _ = env.step(env.action_space.sample())
            trace += [obs, np.float64(reward)]
            if terminated or truncated:
                trace.append(env.reset()[0])
        return trace

    first, second = rollout(), rollout()
    assert all(np.array_equal(x, y) for x, y in zip(first, second, strict=True))
    env.close()


def test_kwargs_take_effect():
    cheetah = palaestra.make("HalfCheetah-v5", exclude_current_positions_from_observation=False)
    assert cheetah.observation_space.shape == (18,)
    assert palaestra.make("Ant-v5", include_cfrc_ext_in_observation=False).observation_space.shape == (27,)
    assert palaestra.make("Humanoid-v5", include_cinert_in_observation=False).observation_space.shape == (
        218,
    )
    assert palaestra.make("Swimmer-v5", frame_skip=2).unwrapped.dt == pytest.approx(0.02)
    assert palaestra.make("Swimmer-v5", frame_skip=2).metadata["render_fps"] == 50

    def first_reward(**kwargs):
        env = palaestra.make("HalfCheetah-v5", **kwargs)
        env.reset(seed=0)
        return env.step(np.full(6, 0.5, dtype=np.float32))[4]

    assert first_reward(ctrl_cost_weight=1.0)["reward_ctrl"] == pytest.approx(-1.5)
    assert first_reward(ctrl_cost_weight=0.0)["reward_ctrl"] == 0.0
    base, doubled = first_reward(), first_reward(forward_reward_weight=2.0)
    assert doubled["reward_forward"] == 2 * base["reward_forward"]

    hopper = palaestra.make("Hopper-v5", healthy_z_range=(5.0, 6.0))  # unreachable: unhealthy at once
    hopper.reset(seed=0)
    assert hopper.step(np.zeros(3, dtype=np.float32))[2] is True
    patient = palaestra.make("Hopper-v5", healthy_z_range=(5.0, 6.0), terminate_when_unhealthy=False)
    patient.reset(seed=0)
    step = patient.step(np.zeros(3, dtype=np.float32))
    assert step[2] is False and step[4]["reward_survive"] == 0.0


def test_humanoid_standup_honours_its_height_weight():
    """Gymnasium ignores uph_cost_weight; here it scales the height term."""
    rewards = []
    for weight in (1, 3):
        env = palaestra.make("HumanoidStandup-v5", uph_cost_weight=weight)
        env.reset(seed=0)
        rewards.append(env.step(np.zeros(17, dtype=np.float32))[4]["reward_linup"])
    assert rewards[1] == pytest.approx(3 * rewards[0])


def test_bad_actions_and_arguments_are_named():
    env = palaestra.make("HalfCheetah-v5")
    env.reset(seed=0)
    with pytest.raises(
        InvalidAction,
        match=r"^Action dimension mismatch. Expected \(6,\), found \(5,\). HalfCheetahEnv.step: action .* "
        r"not in the action space Box.*expected real numbers .* of shape \(6,\)",
    ):
        env.step(np.zeros(5, dtype=np.float32))
    with pytest.raises(InvalidAction, match="not in the action space"):
        env.step(np.array(["a"] * 6))
    with pytest.raises(InvalidAction, match="not in the action space"):
        env.step("forward")
    with pytest.raises(ValueError, match=r"^Action dimension mismatch. Expected \(6,\), found \(2,\)$"):
        env.unwrapped.do_simulation(np.zeros(2), 1)
    with pytest.raises(ValueError, match=r"set_state: qpos must have shape \(9,\) and qvel \(9,\)"):
        env.unwrapped.set_state(np.zeros(3), np.zeros(9))
    with pytest.raises(TypeError, match=r"unexpected keyword argument 'gravity'"):
        palaestra.make("Hopper-v5", gravity=1.0)
    with pytest.raises(FileNotFoundError, match=r"'nope.xml' not found .* bundled models: \['ant.xml'"):
        palaestra.make("Hopper-v5", xml_file="nope.xml")
    with pytest.raises(ValueError, match="frame_skip must be a positive integer, got 0"):
        palaestra.make("Hopper-v5", frame_skip=0)
    with (
        pytest.warns(UserWarning, match="not in the possible render_modes"),
        pytest.raises(UnsupportedMode, match="render_mode 'ansi' is not one of"),
    ):
        palaestra.make("Hopper-v5", render_mode="ansi")
    with pytest.raises(ValueError, match=r"no body 'tail' in the model; its bodies: \['world', 'torso'"):
        palaestra.make("Ant-v5", main_body="tail")
    with pytest.raises(
        ValueError, match=r"camera_name 'side' is not a camera of this model; its cameras: \['track'\]"
    ):
        palaestra.make("HalfCheetah-v5", render_mode="rgb_array", camera_name="side")
    with pytest.raises(ValueError, match="camera_id 4 is out of range"):
        palaestra.make("HalfCheetah-v5", render_mode="rgb_array", camera_id=4)
    with pytest.raises(ValueError, match="Give camera_id or camera_name, not both"):
        palaestra.make("HalfCheetah-v5", render_mode="rgb_array", camera_id=0, camera_name="track")


def test_models_load_from_your_files_and_text(tmp_path):
    from palaestra_mujoco.mujoco_env import MODELS_DIR

    text = (MODELS_DIR / "inverted_pendulum.xml").read_text()
    longer_pole = text.replace('fromto="0 0 0 0.001 0 0.6"', 'fromto="0 0 0 0.001 0 0.9"')
    assert longer_pole != text
    path = tmp_path / "pendulum.xml"
    path.write_text(longer_pole)
    for source in (str(path), longer_pole):
        env = palaestra.make("InvertedPendulum-v5", xml_file=source)
        assert env.unwrapped.model.geom_size[2][1] == pytest.approx(0.45)  # half of the 0.9 m pole
        assert env.reset(seed=0)[0].shape == (4,)
    assert palaestra.make("InvertedPendulum-v5", xml_file=longer_pole).unwrapped.fullpath is None


def test_collision_detection_is_skipped_only_where_no_two_geoms_can_touch():
    """Four models cannot collide (bit-identical without the stage); a model edited to collide does."""
    import mujoco

    from palaestra_mujoco.mujoco_env import MODELS_DIR

    skipping = set()
    for env_id in IDS:
        flags = palaestra.make(env_id).unwrapped.model.opt.disableflags
        if flags & mujoco.mjtDisableBit.mjDSBL_CONTACT:
            skipping.add(env_id)
    assert skipping == {"InvertedPendulum-v5", "InvertedDoublePendulum-v5", "Reacher-v5", "Swimmer-v5"}
    text = (MODELS_DIR / "inverted_pendulum.xml").read_text()
    touching_rail = text.replace(
        '<geom name="rail" class="pendulum"', '<geom name="rail" class="pendulum" contype="1"'
    )
    assert touching_rail != text
    env = palaestra.make("InvertedPendulum-v5", xml_file=touching_rail).unwrapped
    assert not env.model.opt.disableflags & mujoco.mjtDisableBit.mjDSBL_CONTACT
    env.reset(seed=0)
    env.step(np.zeros(1, dtype=np.float32))
    assert env.data.ncon > 0  # the cart around the rail


def test_declared_total_mass_scales_the_model():
    from palaestra_mujoco.mujoco_env import load_model

    cheetah, _ = load_model("half_cheetah.xml")
    assert cheetah.body_mass.sum() == pytest.approx(14.0, rel=1e-12)
    plain = """<mujoco><worldbody><body><freejoint/><geom size="0.1"/></body></worldbody></mujoco>"""
    model, _ = load_model(plain)
    assert model.body_mass.sum() == pytest.approx(1000 * 4 / 3 * np.pi * 0.1**3)


@pytest.mark.parametrize("env_id", IDS)
def test_frames_show_the_robot_moving(env_id):
    env = palaestra.make(env_id, render_mode="rgb_array", width=160, height=120)
    env.reset(seed=0)
    first = env.render()
    assert first.shape == (120, 160, 3) and first.dtype == np.uint8
    assert len(np.unique(first.reshape(-1, 3), axis=0)) > 20, "a blank or flat picture"
    actions = random_actions(env.action_space, 30, seed=5)
    for action in actions:
        if env.step(action)[2]:
            break
    later = env.render()
    assert np.any(first != later, axis=2).sum() > 100, "the picture did not change as the robot moved"
    env.close()


def test_depth_and_rgbd_frames_and_fixed_cameras():
    env = palaestra.make("Walker2d-v5", render_mode="depth_array", width=96, height=64)
    env.reset(seed=0)
    depth = env.render()
    assert depth.shape == (64, 96) and depth.dtype == np.float32
    assert 0.5 < depth.min() < depth.max()  # metres from the camera
    env.close()
    rgbd = palaestra.make("Walker2d-v5", render_mode="rgbd_tuple", width=96, height=64)
    rgbd.reset(seed=0)
    rgb, depth = rgbd.render()
    assert rgb.shape == (64, 96, 3) and depth.shape == (64, 96)
    rgbd.close()
    tracked = palaestra.make("Walker2d-v5", render_mode="rgb_array", camera_name="track", width=96, height=64)
    tracked.reset(seed=0)
    free = palaestra.make("Walker2d-v5", render_mode="rgb_array", width=96, height=64)
    free.reset(seed=0)
    assert not np.array_equal(tracked.render(), free.render())


def test_render_without_a_mode_warns_and_human_without_display_is_explained(monkeypatch):
    env = palaestra.make("Reacher-v5")
    env.reset(seed=0)
    with pytest.warns(UserWarning, match="without specifying any render mode"):
        assert env.render() is None
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    human = palaestra.make("Reacher-v5", render_mode="human")
    with pytest.raises(UnsupportedMode, match='render_mode="human" needs a display'):
        human.reset(seed=0)


@pytest.mark.parametrize("env_id", ["HalfCheetah-v5", "Ant-v5"])
def test_pickle_and_deepcopy_rebuild_from_constructor_arguments(env_id):
    env = palaestra.make(env_id, ctrl_cost_weight=0.25, disable_env_checker=True).unwrapped
    env.reset(seed=5)
    for clone in (pickle.loads(pickle.dumps(env)), copy.deepcopy(env)):
        assert type(clone) is type(env)
        assert clone._ctrl_cost_weight == 0.25
        assert np.array_equal(clone.reset(seed=5)[0], env.reset(seed=5)[0])


@pytest.mark.parametrize("mode", ["sync", "async", "vector_entry_point"])
def test_vectorised_mujoco_envs_match_gymnasium(mode):
    """make_vec over a MuJoCo env (async: real worker processes; the batched env) gives Gymnasium's numbers."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = palaestra.make_vec("Hopper-v5", 3, vectorization_mode=mode)
        ref = gymnasium.make_vec("Hopper-v5", 3, vectorization_mode="sync")
    try:
        a, b = ours.reset(seed=4), ref.reset(seed=4)
        assert np.array_equal(a[0], b[0])
        rng = np.random.default_rng(4)
        for t in range(120):  # long enough for episodes to end and autoreset
            actions = rng.uniform(-1, 1, (3, 3)).astype(np.float32)
            x, y = ours.step(actions), ref.step(actions)
            for part, (mine, theirs) in enumerate(zip(x[:4], y[:4], strict=True)):
                assert np.array_equal(mine, theirs), f"step {t}, part {part}"
            assert same_values(x[4]["x_position"], y[4]["x_position"]), f"step {t} info"
    finally:
        ours.close()
        ref.close()


def rss_kib():
    with open(f"/proc/{os.getpid()}/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024


def test_memory_stays_flat_over_resets_and_renderers():
    env = palaestra.make("Hopper-v5")
    env.reset(seed=0)
    for _ in range(200):
        env.reset()
    before = rss_kib()
    for _ in range(2000):
        env.reset()
    assert rss_kib() - before < 4096, "RSS grew over 2000 resets"

    def render_once(close):
        renderer = palaestra.make("Reacher-v5", render_mode="rgb_array", width=64, height=64)
        renderer.reset(seed=0)
        assert renderer.render().shape == (64, 64, 3)
        if close:
            renderer.close()

    for _ in range(12):  # warm up: EGL, MuJoCo's and the allocator's pools settle first
        render_once(close=True)
    gc.collect()
    before = rss_kib()
    for i in range(40):
        render_once(close=i % 2 == 0)  # closed or just dropped: the OpenGL context is freed
    gc.collect()
    assert rss_kib() - before < 16384, "RSS grew over 40 rendering envs"


MISSHAPEN = {
    "too few": lambda a: a[1:],
    "too many": lambda a: np.append(a, 0),
    "a scalar": lambda a: 0.1,
    "an extra leading axis": lambda a: np.expand_dims(a, 0),
    "an extra trailing axis": lambda a: np.expand_dims(a, 1),
}


@pytest.mark.parametrize("env_id", IDS)
def test_misshapen_actions_begin_with_gymnasiums_words(env_id):
    ours, ref = make_pair(env_id)
    ours.reset(seed=0)
    ref.reset(seed=0)
    for name, misshape in MISSHAPEN.items():
        action = misshape(ref.action_space.sample())
        with pytest.raises(ValueError, match="^Action dimension mismatch") as theirs:
            ref.step(action)
        with pytest.raises(InvalidAction) as mine:
            ours.step(action)
        assert str(mine.value).startswith(f"{theirs.value}. {type(ours.unwrapped).__name__}.step"), name


@pytest.mark.parametrize("env_id", IDS)
@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_non_finite_actions_are_refused_before_simulating(env_id, bad):
    env = palaestra.make(env_id)
    env.reset(seed=0)
    before = env.unwrapped.state_vector()
    action = np.zeros(env.action_space.shape, dtype=np.float32)
    action[-1] = bad
    with pytest.raises(InvalidAction, match=r"(?s)step: action .* is not in the action space Box"):
        env.step(action)
    assert np.array_equal(env.unwrapped.state_vector(), before), "the physics ran"
    assert env.step(np.zeros_like(action))[0].shape == env.observation_space.shape  # still usable


def test_gather_plan_reads_the_live_state_as_one_new_array():
    from palaestra_mujoco.mujoco_env import gather_plan

    env = palaestra.make("Pusher-v5").unwrapped
    env.reset(seed=3)
    data = env.data
    parts = (data.qvel[:7], data.qpos[:7], data.xpos[5])  # any order, any distance apart
    view, indices = gather_plan(*parts)
    first = view[indices]
    assert np.array_equal(first, np.concatenate(parts))
    env.step(env.action_space.sample())
    second = view[indices]
    assert np.array_equal(second, np.concatenate(parts)) and not np.array_equal(first, second)
    assert second.flags.owndata and second.flags.writeable and not view.flags.writeable
    with pytest.raises(ValueError, match="contiguous float64"):
        gather_plan(data.qpos, data.xpos[:, 0])
    with pytest.raises(ValueError, match="contiguous float64"):
        gather_plan(data.qpos.astype(np.float32))
