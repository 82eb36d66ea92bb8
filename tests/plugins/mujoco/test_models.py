"""Our MJCF models compile to the same physics as Gymnasium 1.4.0's, to the last bit.

Every field that enters the dynamics is compared: options, the kinematic tree, masses and
inertias, joints and their limits, geoms and their contact parameters, actuators and
tendons. The visual side (colours, textures, lights) is our own and is not compared.
"""

from pathlib import Path

import gymnasium.envs.mujoco
import mujoco
import numpy as np
import pytest

from palaestra_mujoco.mujoco_env import MODELS_DIR, load_model

REFERENCE_DIR = Path(gymnasium.envs.mujoco.__file__).parent / "assets"

# our file -> Gymnasium's file it reproduces
MODELS = {
    "ant.xml": "ant.xml",
    "half_cheetah.xml": "half_cheetah.xml",
    "hopper.xml": "hopper.xml",
    "humanoid.xml": "humanoid.xml",
    "humanoidstandup.xml": "humanoidstandup.xml",
    "inverted_pendulum.xml": "inverted_pendulum.xml",
    "inverted_double_pendulum.xml": "inverted_double_pendulum.xml",
    "pusher_v5.xml": "pusher_v5.xml",
    "reacher.xml": "reacher.xml",
    "swimmer.xml": "swimmer.xml",
    "walker2d_v5.xml": "walker2d_v5.xml",
}

OPTION_FIELDS = (
    "timestep",
    "gravity",
    "integrator",
    "solver",
    "iterations",
    "ls_iterations",
    "tolerance",
    "viscosity",
    "density",
    "wind",
    "cone",
    "impratio",
    "disableflags",
    "enableflags",
)
SIZE_FIELDS = ("nq", "nv", "nu", "na", "nbody", "njnt", "ngeom", "ntendon", "nsite", "neq")
MODEL_FIELDS = (
    "body_parentid",
    "body_pos",
    "body_quat",
    "body_ipos",
    "body_iquat",
    "body_mass",
    "body_inertia",
    "body_jntnum",
    "body_geomnum",
    "body_subtreemass",
    "body_invweight0",
    "dof_M0",
    "dof_invweight0",
    "actuator_acc0",
    "jnt_type",
    "jnt_bodyid",
    "jnt_pos",
    "jnt_axis",
    "jnt_limited",
    "jnt_range",
    "jnt_stiffness",
    "jnt_margin",
    "jnt_solref",
    "jnt_solimp",
    "qpos0",
    "qpos_spring",
    "dof_armature",
    "dof_damping",
    "dof_frictionloss",
    "geom_type",
    "geom_bodyid",
    "geom_pos",
    "geom_quat",
    "geom_friction",
    "geom_solref",
    "geom_solimp",
    "geom_solmix",
    "geom_margin",
    "geom_gap",
    "geom_condim",
    "geom_contype",
    "geom_conaffinity",
    "geom_priority",
    "site_bodyid",
    "site_pos",
    "actuator_trntype",
    "actuator_trnid",
    "actuator_dyntype",
    "actuator_gaintype",
    "actuator_biastype",
    "actuator_gainprm",
    "actuator_biasprm",
    "actuator_gear",
    "actuator_ctrllimited",
    "actuator_ctrlrange",
    "tendon_adr",
    "tendon_num",
    "tendon_stiffness",
    "tendon_damping",
    "tendon_limited",
    "wrap_type",
    "wrap_objid",
    "wrap_prm",
)


def load(path):
    return load_model(str(path))[0]


# How many of a geom's three size numbers its type uses (the rest are ignored by MuJoCo).
_GEOM = mujoco.mjtGeom
_SIZES_USED = {int(_GEOM.mjGEOM_SPHERE): 1, int(_GEOM.mjGEOM_CAPSULE): 2, int(_GEOM.mjGEOM_CYLINDER): 2}


def used_sizes(model):
    sizes = model.geom_size.copy()
    for i, geom_type in enumerate(model.geom_type):
        sizes[i, _SIZES_USED.get(int(geom_type), 3) :] = 0.0
    return sizes


def names(model, kind, count):
    return [mujoco.mj_id2name(model, kind, i) for i in range(count)]


@pytest.mark.parametrize("ours", sorted(MODELS))
def test_model_physics_matches_reference(ours):
    mine, ref = load(MODELS_DIR / ours), load(REFERENCE_DIR / MODELS[ours])
    for field in SIZE_FIELDS:
        assert getattr(mine, field) == getattr(ref, field), field
    for field in OPTION_FIELDS:
        np.testing.assert_array_equal(getattr(mine.opt, field), getattr(ref.opt, field), err_msg=field)
    for field in MODEL_FIELDS:
        np.testing.assert_array_equal(getattr(mine, field), getattr(ref, field), err_msg=field)
    np.testing.assert_array_equal(used_sizes(mine), used_sizes(ref), err_msg="geom_size")


@pytest.mark.parametrize("ours", sorted(MODELS))
def test_model_keeps_reference_names(ours):
    """Bodies, joints and actuators keep their names, so code that looks them up still works."""
    mine, ref = load(MODELS_DIR / ours), load(REFERENCE_DIR / MODELS[ours])
    obj = mujoco.mjtObj
    for kind, count in ((obj.mjOBJ_BODY, "nbody"), (obj.mjOBJ_JOINT, "njnt"), (obj.mjOBJ_ACTUATOR, "nu")):
        ours, theirs = names(mine, kind, getattr(mine, count)), names(ref, kind, getattr(ref, count))
        # Where Gymnasium leaves an element unnamed, ours may name it.
        assert [o if t is not None else None for o, t in zip(ours, theirs, strict=True)] == theirs


# v4's models: ours with v4's differences (palaestra_mujoco.v4) against Gymnasium's v4 files.
V4_MODELS = {
    "walker2d.xml": ("walker2d_v5.xml", "WALKER2D_V4_MODEL_EDITS"),
    "pusher.xml": ("pusher_v5.xml", "PUSHER_V4_MODEL_EDITS"),
}


@pytest.mark.parametrize("reference", sorted(V4_MODELS))
def test_v4_model_variants_match_gymnasiums_v4_models(reference):
    from palaestra_mujoco import v4

    base, edits = V4_MODELS[reference]
    mine = load_model(v4._model_variant(base, *getattr(v4, edits)))[0]
    ref = load(REFERENCE_DIR / reference)
    for field in SIZE_FIELDS:
        assert getattr(mine, field) == getattr(ref, field), field
    for field in MODEL_FIELDS:
        np.testing.assert_array_equal(getattr(mine, field), getattr(ref, field), err_msg=field)
    np.testing.assert_array_equal(used_sizes(mine), used_sizes(ref), err_msg="geom_size")
