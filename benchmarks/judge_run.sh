#!/usr/bin/env bash
# Issue 52's judge run on a lent machine (16 cores and a GPU, Python 3.12, no registries): how
# palaestra scales with workers there, and the JAX CartPole's rates on the GPU, in one call.
#
#   Here, once (with the registries):   bash benchmarks/judge_run.sh fetch
#       puts the cp312 wheels that machine lacks in .whl/ (ignored by git).
#   There, in one device call:          bash benchmarks/judge_run.sh run
#       with carry [".whl"] and a timeout of about 590 s: installs the wheels and palaestra's
#       packages into /tmp/site, then writes $OUT/scaling.txt and $OUT/jax.txt.
#
# What that machine has and lacks is in the device tool's KINDS.md (numpy, jax with CUDA,
# setuptools, pluggy, flax and chex are there; MuJoCo, Box2D, pygame and gymnax are not).
# EnvPool cannot travel: its wheel (53 MB) needs asset wheels of 62-91 MB each, over what a call
# may carry, so the run measures palaestra alone (bench_scaling.py says "EnvPool not
# installed"); compare its rates with the 16-core figures in issue 52 and docs/envpool.md.
# Sized for one call of at most 590 s: about 40 s of installs, at most 300 s of scaling (one
# worker, for the measured serial share, and all 16) and 210 s of JAX; SCALING_IDS, SCALING_N and
# SCALING_WORKERS change what is measured. Rehearsed here on Python 3.12 with the machine's
# packages (a smaller SCALING_*): the installs, the builds and both benchmarks ran.
set -euo pipefail

WHEELS=(
    "mujoco==4.0.0" "mujoco-core==4.0.0" "mujoco-studio==4.0.0" "glfw==2.11.0" "pyopengl==3.1.10"
    "box2d==2.3.10" "pygame-ce==2.5.8"
    "gymnax==1.0.1" "gymnasium==1.4.0" "farama-notifications==0.0.6"
    "hatchling==1.33.0" "trove-classifiers==2026.9.21.13" "setuptools==84.2.1"
)
SCALING_IDS="${SCALING_IDS:-CartPole-v1,Acrobot-v1,Taxi-v4,Blackjack-v1,LunarLander-v3,BipedalWalker-v3,HalfCheetah-v5,Hopper-v5,Ant-v5,Humanoid-v5,InvertedPendulum-v5}"
SCALING_N="${SCALING_N:-16,64,256}"
SCALING_WORKERS="${SCALING_WORKERS:-1,16}"
PACKAGES=(core plugins/classic_control plugins/toy_text plugins/box2d plugins/mujoco plugins/jax plugins/envpool)

fetch() {
    mkdir -p .whl
    python3 -m pip download --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
        --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 --platform manylinux_2_17_x86_64 \
        --platform manylinux2014_x86_64 --platform manylinux1_x86_64 -d .whl "${WHEELS[@]}"
    du -sh .whl
}

run() {
    : "${OUT:?run this on the device machine, where OUT names the folder that comes back}"
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl
    export PYTHONPATH=/tmp/site PYTHONUNBUFFERED=1
    export SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy PYGAME_HIDE_SUPPORT_PROMPT=1
    # Built here, against this machine's numpy (the MuJoCo plugin's _normals links its static library).
    python3 -m pip install -q --no-index --no-deps --no-build-isolation --no-cache-dir --target /tmp/site "${PACKAGES[@]/#/./}"
    python3 -c "import os, palaestra, palaestra_mujoco._compiled, palaestra_box2d._stepping; print('cores', os.cpu_count(), 'palaestra', palaestra.__version__)" | tee "$OUT/scaling.txt"
    # Each part under its own limit, its lines kept as they come: a part cut short still reports.
    (cd benchmarks && timeout 300 python3 bench_scaling.py --ids "$SCALING_IDS" --n "$SCALING_N" \
        --workers "$SCALING_WORKERS" --rounds 2) 2>&1 | tee -a "$OUT/scaling.txt" || true
    (cd benchmarks && timeout 60 python3 bench_jax.py --cost; BENCH_N=1048576 timeout 150 python3 bench_jax.py) \
        2>&1 | tee "$OUT/jax.txt" || true
}

case "${1:-}" in
    fetch) fetch ;;
    run) run ;;
    *) echo "usage: bash benchmarks/judge_run.sh fetch|run (see the comment at its top)" >&2; exit 2 ;;
esac
