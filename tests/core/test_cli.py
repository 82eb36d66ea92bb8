"""The palaestra command line, run as a real console script."""

import os
import subprocess
import sys

import pytest

import palaestra
from palaestra.cli import main

pytestmark = pytest.mark.needs_plugins


def run(*args, env=None):
    return subprocess.run(
        [sys.executable, "-m", "palaestra.cli", *args], capture_output=True, text=True, timeout=120, env=env
    )


def test_list_groups_ids_with_their_distribution():
    result = run("list")
    assert result.returncode == 0
    assert "(default namespace)  [palaestra-classic-control]" in result.stdout
    assert "  CartPole-v1" in result.stdout


def test_info_shows_spec_spaces_and_render_modes():
    result = run("info", "Pendulum-v1")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "id=Pendulum-v1" in out and "max_episode_steps=200" in out
    assert "action_space=Box(-2.0, 2.0, (1,), float32)" in out
    assert "render_modes=['human', 'rgb_array']" in out
    assert "snapshots=yes" in out


def test_info_says_when_an_env_cannot_take_snapshots_and_why(capsys):
    assert main(["info", "LunarLander-v3"]) == 0
    assert "snapshots=no (a Box2D world cannot be copied or restored" in capsys.readouterr().out


def test_info_shows_what_each_dimension_means_with_its_bounds(capsys):
    assert main(["info", "LunarLander-v3"]) == 0
    out = capsys.readouterr().out
    lines = [line.split() for line in out.splitlines()]
    assert ["0", "horizontal", "position", "(0", "at", "the", "pad)", "-2.5", "2.5"] in lines
    assert ["6", "left", "leg", "touches", "the", "ground", "(1.0", "or", "0.0)", "0", "1"] in lines
    assert ["2", "fire", "the", "main", "engine"] in lines
    # Gymnasium writes the legs' lower bounds as -0.0; nothing prints them as "-0".
    assert "-0." not in out and " -0 " not in out


def test_info_leaves_out_meanings_written_for_other_arguments(capsys):
    """Ant-v4's observation leaves out the contact forces Ant-v5's meanings describe: no table."""
    pytest.importorskip("mujoco")
    assert main(["info", "Ant-v4"]) == 0
    out = capsys.readouterr().out
    assert "observation_space=" in out and "\nobservation:\n" not in out


def test_run_reports_returns_and_summary(capsys):
    assert main(["run", "CartPole-v1", "--episodes", "2", "--seed", "1", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert out.count("episode ") == 2
    assert "CartPole-v1: 2 episodes, mean return" in out
    assert main(["run", "CartPole-v1", "--episodes", "1", "--no-progress"]) == 0
    assert "CartPole-v1: 1 episode, mean return" in capsys.readouterr().out


def test_run_is_reproducible_with_a_seed(capsys):
    main(["run", "Acrobot-v1", "--episodes", "1", "--seed", "4", "--max-steps", "30", "--no-progress"])
    first = capsys.readouterr().out.splitlines()[0]
    main(["run", "Acrobot-v1", "--episodes", "1", "--seed", "4", "--max-steps", "30", "--no-progress"])
    assert capsys.readouterr().out.splitlines()[0] == first == "episode 1: return=-30.000 length=30"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["run", "CartPol-v1"], "Did you mean: `CartPole`?"),
        (["run", "Humanoid-v5"], "switched off: PALAESTRA_PLUGINS='classic_control' does not list `mujoco`"),
        (["info", "nope/Thing-v0"], "Namespace nope not found"),
        (["run", "CartPole-v1", "--episodes", "0"], "--episodes must be positive"),
        (["run", "CartPole-v1", "--seed", "-3"], "--seed must be a non-negative integer"),
        (
            ["bench", "CartPole-v1", "--mode", "async"],
            "--mode async picks make_vec's vectorization, so it needs --num-envs N",
        ),
    ],
)
def test_errors_are_one_line_with_nonzero_exit(args, message):
    # Every reference suite is installed here; only one is let load, so the others are switched off.
    result = run(*args, env={**os.environ, "PALAESTRA_PLUGINS": "classic_control"})
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("palaestra: error:")
    assert message in lines[0]


def test_check_lists_warnings_once_and_passes():
    result = run("check", "CartPole-v1", "Pendulum-v1")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "CartPole-v1: advice: A Box observation space minimum value is -infinity. This is probably too low.",
        "CartPole-v1: advice: A Box observation space maximum value is infinity. This is probably too high.",
        "CartPole-v1: passed check_env (0 warnings, 2 advice on Box bounds that Gymnasium's checker gives too)",
        "Pendulum-v1: advice: For Box action spaces, we recommend using a symmetric and normalized space "
        "(range=[-1, 1] or [0, 1]). See https://stable-baselines3.readthedocs.io/en/master/guide/rl_tips.html "
        "for more information.",
        "Pendulum-v1: passed check_env (0 warnings, 1 advice on Box bounds that Gymnasium's checker gives too)",
    ]


def test_check_a_whole_plugin(capsys):
    assert main(["check", "--plugin", "toy_text", "--skip-render"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"{env_id}: passed check_env (0 warnings)"
        for env_id in (
            "Blackjack-v1",
            "CliffWalking-v1",
            "CliffWalkingSlippery-v1",
            "FrozenLake-v1",
            "FrozenLake8x8-v1",
            "Taxi-v4",
        )
    ]


def test_check_fails_with_the_violation(capsys):
    import numpy as np

    from palaestra import Env, spaces

    class Truncating(Env):
        def __init__(self):
            self.observation_space = spaces.Box(-1, 1, (2,), np.float32)
            self.action_space = spaces.Discrete(2)

        def reset(self, *, seed=None, options=None):
            super().reset(seed=seed)
            return np.zeros(2, np.float32), {}

        def step(self, action):
            return np.zeros(2, np.float32), 0.0, False, True, {}

    class Exploding(Truncating):
        def reset(self, *, seed=None, options=None):
            raise RuntimeError("boom")

    palaestra.register("CliTruncating-v0", entry_point=Truncating)
    palaestra.register("CliExploding-v0", entry_point=Exploding)
    try:
        assert main(["check", "CliTruncating-v0", "CliExploding-v0", "CartPole-v1", "--skip-render"]) == 1
    finally:
        del palaestra.registry["CliTruncating-v0"]
        del palaestra.registry["CliExploding-v0"]
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert lines[0].startswith("CliTruncating-v0: FAILED check_env: Environment truncates after 1 step")
    assert lines[1] == "CliExploding-v0: FAILED check_env: RuntimeError: boom"
    assert "CartPole-v1: passed check_env" in captured.out  # the others are still checked
    assert (
        captured.err == "palaestra: error: 2 of 3 envs failed check_env: CliTruncating-v0, CliExploding-v0\n"
    )


def test_bench_reports_rates(capsys):
    assert main(["bench", "CartPole-v1", "--seconds", "0.2"]) == 0
    assert main(["bench", "CartPole-v1", "--seconds", "0.2", "--num-envs", "3", "--mode", "sync"]) == 0
    single, vector = capsys.readouterr().out.splitlines()
    rate = float(single.split(": ")[1].split(" ")[0].replace(",", ""))
    assert rate > 1000 and single.endswith("steps/s through make()")
    assert vector.startswith("CartPole-v1: ") and vector.endswith("sub-env steps/s, 3 envs in SyncVectorEnv")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["check"], "Give env ids to check, or --plugin NAME"),
        (["check", "--plugin", "nope"], "No installed plugin is called 'nope'"),
        (["bench", "CartPole-v1", "--seconds", "0"], "--seconds must be positive, got 0.0"),
        (["bench", "CartPole-v1", "--num-envs", "0"], "--num-envs must be positive, got 0"),
        (["play", "CartPole-v1"], "CartPole-v1 has no keyboard mapping of its own; give one with --key"),
        (["play", "CartPole-v1", "--key", "a"], "--key expects KEYS=ACTION"),
        (["play", "CartPole-v1", "--key", "a=left"], "the action 'left' is not a number or JSON list"),
        (["play", "CartPole-v1", "--key", "a=0", "--noop", "x"], "--noop: the action 'x' is not a number"),
    ],
)
def test_bench_and_play_errors(args, message, capsys, monkeypatch):
    # The tests draw offscreen (SDL's dummy driver), which `play` refuses: let it through here.
    monkeypatch.setattr("palaestra.cli._commands._require_display", lambda: None)
    assert main(args) == 1
    assert message in capsys.readouterr().err


def test_play_passes_the_key_mapping_and_quits_on_escape(monkeypatch):
    import pygame

    from palaestra._tools import _play as play_module  # the implementation the CLI calls

    real_play, calls = play_module.play, []

    def recording_play(env, **kwargs):
        calls.append(kwargs)
        return real_play(env, **kwargs)

    monkeypatch.setattr(play_module, "play", recording_play)
    monkeypatch.setattr("palaestra.cli._commands._require_display", lambda: None)  # offscreen here
    pygame.display.init()
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE))
    assert main(["play", "CartPole-v1", "--key", "a=0", "--key", "d=1", "--seed", "3", "--fps", "500"]) == 0
    assert calls == [{"keys_to_action": {"a": 0, "d": 1}, "seed": 3, "fps": 500, "zoom": None, "noop": 0}]


@pytest.mark.parametrize(
    ("environ", "message"),
    [
        ({"SDL_VIDEODRIVER": "dummy", "DISPLAY": ":0"}, "SDL_VIDEODRIVER='dummy' draws offscreen; unset it"),
        ({}, "needs a display, and none is available (DISPLAY and WAYLAND_DISPLAY are unset)"),
    ],
    ids=["offscreen-driver", "no-display"],
)
def test_play_without_a_visible_window_fails_at_once_saying_why(environ, message):
    env = {k: v for k, v in os.environ.items() if k not in ("SDL_VIDEODRIVER", "DISPLAY", "WAYLAND_DISPLAY")}
    result = run("play", "CartPole-v1", "--key", "a=0", env={**env, **environ})
    assert result.returncode == 1 and message in result.stderr
    assert result.stdout == ""


def test_the_play_window_is_titled_with_the_env_id():
    import pygame

    from palaestra.utils.play import PlayableGame

    env = palaestra.make("MountainCar-v0", render_mode="rgb_array")
    env.reset(seed=0)
    PlayableGame(env, {(97,): 0})
    assert pygame.display.get_caption()[0] == "MountainCar-v0"
    pygame.display.quit()


def test_version_lists_the_core_and_every_plugin():
    result = run("--version")
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert lines[0] == f"palaestra {palaestra.__version__}"
    assert any(
        line.split() == ["classic_control", "palaestra-classic-control", "0.1.0"] for line in lines[1:]
    )
    assert run().returncode == 2 and "a command is required" in run().stderr


def test_run_prints_each_episode_as_it_ends_and_no_bar_off_a_terminal():
    result = run("run", "CartPole-v1", "--episodes", "2", "--seed", "0")
    assert result.returncode == 0
    assert result.stderr == ""  # the progress line is drawn only on a terminal
    lines = result.stdout.splitlines()
    assert [line.split(":")[0] for line in lines[:2]] == ["episode 1", "episode 2"]
    assert lines[2].startswith("CartPole-v1: 2 episodes")


def test_run_draws_progress_per_step_on_a_terminal():
    import pty

    primary, secondary = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "palaestra.cli", "run", "CartPole-v1", "--episodes", "2", "--seed", "0"],
        stdout=subprocess.PIPE,
        stderr=secondary,
    )
    out, _ = process.communicate(timeout=120)
    os.close(secondary)
    drawn = os.read(primary, 65536).decode()
    os.close(primary)
    assert process.returncode == 0 and "episode 1: return=" in out.decode()
    assert "episode 1/2, step" in drawn and "\x1b[K" in drawn


def test_bench_async_reports_its_rate_and_a_note_only_when_sync_was_faster(capsys):
    from palaestra.cli._commands import async_note

    assert main(["bench", "CartPole-v1", "--seconds", "0.3", "--num-envs", "4", "--mode", "async"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].endswith("sub-env steps/s, 4 envs in AsyncVectorEnv")
    assert lines[1:] in ([], [lines[-1]]) and all(line.startswith("note: sync runs") for line in lines[1:])
    # Which one wins depends on the machine's load; the note's wording does not.
    note = async_note("CartPole-v1", 400_000.0, 100_000.0)
    assert note.startswith("note: sync runs 400,000 sub-env steps/s here, 4.0x async: one CartPole-v1 step")
    assert "takes about 2 us" in note and "Async pays off for envs that take longer" in note
    assert async_note("CartPole-v1", 1.0, 2.0) is None


def test_check_without_pygame_skips_the_render_checks_with_a_note(tmp_path):
    # A module named pygame that fails to import stands for pygame missing.
    (tmp_path / "pygame.py").write_text("raise ImportError('No module named pygame')\n")
    env = {**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    result = run("check", "CartPole-v1", env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "CartPole-v1: warning: render checks skipped: " in result.stdout
    assert "pip install" in result.stdout and "(or pass --skip-render)" in result.stdout
    assert "CartPole-v1: passed check_env" in result.stdout


def test_play_keys_become_arrays_of_the_action_dtype():
    import numpy as np

    from palaestra.cli._commands import parse_keys
    from palaestra.spaces import Box

    keys = parse_keys(["a=[-1.0]", "wd=[0.5]"], Box(-1, 1, (1,), np.float32))
    assert list(keys) == ["a", "wd"]
    assert keys["wd"].dtype == np.float32 and keys["wd"].tolist() == [0.5]
    assert parse_keys([], Box(-1, 1, (1,))) is None


@pytest.mark.filterwarnings("ignore:.*is out of date:DeprecationWarning")
def test_check_skips_an_id_that_cannot_be_made_here_and_says_why(capsys):
    assert main(["check", "Ant-v3", "InvertedPendulum-v4", "--skip-render"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("Ant-v3: skipped, cannot be made here: Ant-v3 ran on the retired mujoco-py")
    assert lines[-1].startswith("InvertedPendulum-v4: passed check_env")


@pytest.mark.parametrize("command", ["list", "info", "run", "check", "bench", "play"])
def test_every_subcommand_help_says_what_it_does_and_what_an_id_is(command):
    from palaestra.cli._main import build_parser

    sub = next(a for a in build_parser()._actions if a.dest == "command").choices[command]
    assert sub.description and sub.description[0].isupper() and sub.description.endswith(".")
    ids = [a for a in sub._actions if a.dest in ("id", "ids")]
    assert all("e.g. CartPole-v1" in a.help for a in ids)
    assert command == "list" or ids


def test_a_misspelt_entry_point_is_one_line_with_a_suggestion(capsys):
    palaestra.register("CliTypo-v0", entry_point="tests.fixtures.vector_envs:InfoEnvv")
    try:
        assert main(["info", "CliTypo-v0"]) == 1
    finally:
        del palaestra.registry["CliTypo-v0"]
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [
        "palaestra: error: module 'tests.fixtures.vector_envs' has no attribute 'InfoEnvv'. Module "
        "'tests.fixtures.vector_envs' has no attribute 'InfoEnvv' (entry point "
        "'tests.fixtures.vector_envs:InfoEnvv'). Did you mean tests.fixtures.vector_envs:InfoEnv?"
    ]


def test_a_vectorizer_name_given_as_an_env_id_is_named_as_such(capsys):
    assert main(["info", "ray/actors"]) == 1
    err = capsys.readouterr().err
    assert "'ray/actors' is a vectorizer, not an environment id" in err
    assert "palaestra bench CartPole-v1 --num-envs 4 --mode ray/actors" in err


def test_an_id_of_a_plugin_namespace_is_suggested_for_a_bare_name():
    result = run("run", "Pong-v5")
    assert result.returncode == 1
    assert "Did you mean: `ALE/Pong-v5`? (ids of plugins carry their namespace)" in result.stderr


def test_list_filters_by_pattern_and_sums_up_long_groups():
    listing = run("list")
    assert listing.returncode == 0
    lines = listing.stdout.splitlines()
    assert lines.index("  CartPole-v1") < 20  # not below hundreds of legacy Atari ids
    summary = [line for line in lines if "[palaestra-atari]" in line and " ids, e.g. " in line]
    assert summary and "palaestra list --all shows them" in summary[0]
    assert "  PongNoFrameskip-v4" not in lines and "  PongNoFrameskip-v4" in run("list", "--all").stdout
    found = run("list", "pong").stdout.splitlines()
    assert "  ALE/Pong-v5" in found and "  Pong-v4" in found and "  CartPole-v1" not in found
    assert run("list", "ALE/Br*").stdout.splitlines() == ["ALE  [palaestra-atari]", "  ALE/Breakout-v5"]
    assert run("list", "zzzz").stdout.strip() == "No environment id matches zzzz."


@pytest.mark.parametrize("command", [["list"], ["list", "--all"], ["info", "CartPole-v1"]])
def test_output_cut_short_by_a_closed_pipe_ends_quietly(command):
    process = subprocess.Popen(
        [sys.executable, "-m", "palaestra.cli", *command], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    with process:
        process.stdout.readline()
        process.stdout.close()  # as `| head -1` does
        stderr = process.stderr.read().decode()
        process.wait(timeout=120)
    assert "Traceback" not in stderr and "BrokenPipeError" not in stderr
