#!/usr/bin/env bash
# Issue 52's judge run on a lent machine (16 cores and a GPU, Python 3.12, no registries):
# palaestra against EnvPool 1.2.5 with all the cores, and the JAX CartPole's rates on the GPU,
# in one call.
#
#   Here, once (with the registries):   bash benchmarks/judge_run.sh fetch
#       puts the cp312 wheels that machine lacks in .whl/ (ignored by git), and a cut-down
#       EnvPool (.whl/envpool-kit.tar.xz).
#   There, in one device call:          bash benchmarks/judge_run.sh run
#       with carry [".whl"] and a timeout of about 590 s: installs the wheels, the kit and
#       palaestra's packages into /tmp/site, then writes $OUT/scaling.txt and $OUT/jax.txt.
#
# What that machine has and lacks is in the device tool's KINDS.md (numpy, jax with CUDA,
# setuptools, pluggy, flax, chex and absl-py are there; MuJoCo, Box2D, pygame, gymnax and
# EnvPool are not). EnvPool's own wheels (53 MB, and asset wheels of 62-91 MB each) are more
# than a call may carry (64 MiB), so fetch cuts them down to what the shared ids load: the
# package's Python, the compiled families classic control, toy text, Box2D and Gym MuJoCo, and
# the Gym MuJoCo models (about 10 MB packed); its entry module registers only those four.
# Sized for one call of at most 590 s: about 40 s of installs, at most 330 s of scaling (palaestra
# and EnvPool side by side, every core: the judge's comparison) and 210 s of JAX. SCALING_IDS,
# SCALING_N and SCALING_WORKERS (default: the cores) change what is measured; add 1 to the
# workers (SCALING_WORKERS=1,16) for the measured serial shares, at about twice the time.
# Rehearsed here on Python 3.12 with the machine's packages (a smaller SCALING_*): the installs,
# the builds, EnvPool's envs and both benchmarks ran.
set -euo pipefail

WHEELS=(
    "mujoco==4.0.0" "mujoco-core==4.0.0" "mujoco-studio==4.0.0" "glfw==2.11.0" "pyopengl==3.1.10"
    "box2d==2.3.10" "pygame-ce==2.5.8"
    "gymnax==1.0.1" "gymnasium==1.4.0" "farama-notifications==0.0.6"
    "hatchling==1.33.0" "trove-classifiers==2026.9.21.13" "setuptools==84.2.1"
    "dm-env==1.6" "dm-tree==0.1.10" "optree==0.20.0"
)
# EnvPool, cut down to the families the shared ids use (see the top).
ENVPOOL=("envpool==1.2.5" "envpool-assets==0.3.0")
ENVPOOL_LIBRARIES=(classic_control/classic_control_envpool.so toy_text/toy_text_envpool.so
    box2d/box2d_envpool.so mujoco/mujoco_gym_envpool.so)
# The closest calls first: a run cut short by its limit still has them.
SCALING_IDS="${SCALING_IDS:-InvertedPendulum-v5,Hopper-v5,Humanoid-v5,Ant-v5,HalfCheetah-v5,LunarLander-v3,BipedalWalker-v3,LunarLanderContinuous-v3,Taxi-v4,Blackjack-v1,Acrobot-v1,CartPole-v1}"
SCALING_N="${SCALING_N:-16,64,256}"
SCALING_WORKERS="${SCALING_WORKERS:-$(nproc)}"
PACKAGES=(core plugins/classic_control plugins/toy_text plugins/box2d plugins/mujoco plugins/jax plugins/envpool)

download() {
    python3 -m pip download --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
        --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 --platform manylinux_2_24_x86_64 \
        --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 --platform manylinux1_x86_64 "$@"
}

fetch() {
    mkdir -p .whl
    download -d .whl "${WHEELS[@]}"
    local work
    work=$(mktemp -d)
    download -d "$work" "${ENVPOOL[@]}"
    mkdir -p "$work/site/envpool_assets/mujoco" "$work/wheel" "$work/assets"
    python3 -m zipfile -e "$work"/envpool-1.2.5-*.whl "$work/wheel"
    python3 -m zipfile -e "$work"/envpool_assets-0.3.0-*.whl "$work/assets"
    # The package with only the compiled families that the shared ids load.
    local keep=()
    for library in "${ENVPOOL_LIBRARIES[@]}"; do keep+=(! -path "*/envpool/$library"); done
    find "$work/wheel/envpool" -name '*_envpool.so' "${keep[@]}" -delete
    cp -r "$work/wheel/." "$work/site/"
    # Its entry module imports every family (each package loads its library): only these four.
    {
        echo '"""EnvPool'"'"'s registrations, only the families that benchmarks/judge_run.sh keeps."""'
        for family in classic_control toy_text box2d mujoco.gym; do
            echo "import envpool.$family.registration  # noqa: F401"
        done
    } > "$work/site/envpool/entry.py"
    cp "$work/assets/envpool_assets/__init__.py" "$work/site/envpool_assets/"
    cp -r "$work/assets/envpool_assets/mujoco/assets_gym" "$work/site/envpool_assets/mujoco/"
    cp -r "$work"/assets/envpool_assets-0.3.0.dist-info "$work/site/"
    tar -C "$work/site" -cJf .whl/envpool-kit.tar.xz .
    rm -rf "$work"
    du -sh .whl .whl/envpool-kit.tar.xz
}

run() {
    : "${OUT:?run this on the device machine, where OUT names the folder that comes back}"
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl
    tar -C /tmp/site -xJf .whl/envpool-kit.tar.xz
    export PYTHONPATH=/tmp/site PYTHONUNBUFFERED=1
    export SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy PYGAME_HIDE_SUPPORT_PROMPT=1
    # Built here, against this machine's numpy (the MuJoCo plugin's _normals links its static library).
    python3 -m pip install -q --no-index --no-deps --no-build-isolation --no-cache-dir --target /tmp/site "${PACKAGES[@]/#/./}"
    python3 -c "import os, envpool, palaestra, palaestra_mujoco._compiled, palaestra_box2d._stepping; print('cores', os.cpu_count(), 'palaestra', palaestra.__version__, 'envpool', envpool.__version__)" | tee "$OUT/scaling.txt"
    # Each part under its own limit, its lines kept as they come: a part cut short still reports.
    (cd benchmarks && timeout 330 python3 bench_scaling.py --ids "$SCALING_IDS" --n "$SCALING_N" \
        --workers "$SCALING_WORKERS" --rounds 3) 2>&1 | tee -a "$OUT/scaling.txt" || true
    (cd benchmarks && timeout 60 python3 bench_jax.py --cost; BENCH_N=1048576 timeout 150 python3 bench_jax.py) \
        2>&1 | tee "$OUT/jax.txt" || true
}

case "${1:-}" in
    fetch) fetch ;;
    run) run ;;
    *) echo "usage: bash benchmarks/judge_run.sh fetch|run (see the comment at its top)" >&2; exit 2 ;;
esac
