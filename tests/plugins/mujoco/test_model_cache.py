"""A bundled model loaded from the cache is the model compiling its MJCF gives, byte for byte."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

mujoco = pytest.importorskip("mujoco")

import palaestra  # noqa: E402
from palaestra_mujoco._model_cache import CACHE_ENV, cached_file, compile_model  # noqa: E402
from palaestra_mujoco.mujoco_env import MODELS_DIR  # noqa: E402

BUNDLED = sorted(p.name for p in MODELS_DIR.glob("*.xml"))


@pytest.fixture
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("PALAESTRA_CACHE_DIR", str(folder))
    monkeypatch.delenv(CACHE_ENV, raising=False)
    return folder


def dump(model) -> bytes:
    buffer = np.empty(mujoco.mj_sizeModel(model), np.uint8)
    mujoco.mj_saveModel(model, None, buffer)
    return buffer.tobytes()


@pytest.mark.parametrize("name", BUNDLED)
def test_a_cached_model_is_the_compiled_model(cache, name):
    path = str(MODELS_DIR / name)
    fresh = dump(mujoco.MjModel.from_xml_path(path))
    written = compile_model(mujoco, path, str(MODELS_DIR))  # compiles, writes the MJB
    stored = cached_file(mujoco, path, str(MODELS_DIR))
    assert stored is not None and stored.startswith(str(cache / "mujoco"))
    loaded = compile_model(mujoco, path, str(MODELS_DIR))  # loads the MJB
    assert dump(written) == fresh
    assert dump(loaded) == fresh


def test_an_env_steps_the_same_from_a_cached_model(cache, monkeypatch):
    def trajectory():
        env = palaestra.make("HalfCheetah-v5")
        obs, _ = env.reset(seed=3)
        env.action_space.seed(3)
        rows = [obs]
        for _ in range(30):
            rows.append(env.step(env.action_space.sample())[0])
        env.close()
        return np.array(rows)

    monkeypatch.setenv(CACHE_ENV, "0")
    compiled = trajectory()
    assert not (cache / "mujoco").exists()
    monkeypatch.delenv(CACHE_ENV)
    trajectory()  # writes the cache
    assert list((cache / "mujoco").glob("half_cheetah-*.mjb"))
    np.testing.assert_array_equal(trajectory(), compiled)


def test_an_edited_model_or_another_mujoco_gets_another_file(cache, tmp_path, monkeypatch):
    models = tmp_path / "models"
    models.mkdir()
    shutil.copy(MODELS_DIR / "hopper.xml", models / "hopper.xml")
    path = str(models / "hopper.xml")
    first = cached_file(mujoco, path, str(models))
    compile_model(mujoco, path, str(models))
    text = (models / "hopper.xml").read_text()
    (models / "hopper.xml").write_text(text.replace('timestep="0.002"', 'timestep="0.004"'))
    assert 'timestep="0.004"' in (models / "hopper.xml").read_text(), "the edit must change the model"
    second = cached_file(mujoco, path, str(models))
    assert second != first
    assert compile_model(mujoco, path, str(models)).opt.timestep == 0.004  # not the stale file
    monkeypatch.setattr(mujoco, "__version__", "0.0.0-other")
    assert cached_file(mujoco, path, str(models)) not in (first, second)


def test_a_damaged_cache_file_is_compiled_over(cache, capfd):
    path = str(MODELS_DIR / "swimmer.xml")
    stored = cached_file(mujoco, path, str(MODELS_DIR))
    (cache / "mujoco").mkdir(parents=True)
    with open(stored, "wb") as f:
        f.write(b"not a model")
    model = compile_model(mujoco, path, str(MODELS_DIR))
    assert dump(model) == dump(mujoco.MjModel.from_xml_path(path))
    assert dump(mujoco.MjModel.from_binary_path(stored)) == dump(model)  # written again


def test_an_unwritable_cache_only_costs_a_compile(cache):
    cache.mkdir()
    (cache / "mujoco").write_text("a file where the folder should be")
    path = str(MODELS_DIR / "reacher.xml")
    model = compile_model(mujoco, path, str(MODELS_DIR))
    assert dump(model) == dump(mujoco.MjModel.from_xml_path(path))
    assert not list(cache.glob("mujoco/*.tmp"))


def test_models_of_yours_and_a_switched_off_cache_are_never_cached(cache, tmp_path, monkeypatch):
    own = tmp_path / "hopper.xml"
    shutil.copy(MODELS_DIR / "hopper.xml", own)
    assert cached_file(mujoco, str(own), str(MODELS_DIR)) is None
    compile_model(mujoco, str(own), str(MODELS_DIR))
    assert not (cache / "mujoco").exists()
    monkeypatch.setenv(CACHE_ENV, "0")
    assert cached_file(mujoco, str(MODELS_DIR / "hopper.xml"), str(MODELS_DIR)) is None


def test_a_first_halfcheetah_step_defines_no_rarely_raised_error(cache):
    import os
    import subprocess
    import sys

    code = (
        "import sys, palaestra\n"
        "env = palaestra.make('HalfCheetah-v5'); env.reset(seed=0); env.step(env.action_space.sample())\n"
        "print(sorted(m for m in sys.modules if m.startswith('palaestra._base.') and m.endswith('_errors')))"
    )
    env = {**os.environ, "PALAESTRA_CACHE_DIR": str(cache)}
    for _ in range(2):  # the first process fills the caches, the second is a usual start
        result = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120
        )
        assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
