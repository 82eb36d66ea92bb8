/*
 * WalkerKernel: a block of BipedalWalkers stepped in one call (see _stepping.c).
 *
 * The specification is bipedal_walker.py's BipedalWalker.step (without rendering) under its
 * TimeLimit: each motor's speed and torque from the action, one world step, the lidar (the
 * compiled cast of _compiled.c, reached through its capsule), then the observation, the
 * shaped reward less the motors' cost, and the flags. Every operation below mirrors one
 * there, in the same order; the torques and costs are float32, as numpy computes them for
 * float32 actions.
 */
#include "_stepping.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#define RAYS 10
#define OBS_SIZE 24

/* The env's constants, in the order _walker_block.KERNEL_RULES hands them over. */
enum {
    R_SCALE, R_FPS, R_VIEW_W, R_VIEW_H, R_MOTORS_TORQUE, R_SPEED_HIP, R_SPEED_KNEE, R_ENERGY_COST, R_FINISH_X,
    R_VELOCITY_ITERATIONS, R_POSITION_ITERATIONS, WALKER_RULES
};

/* _compiled.c's cast_rays: each ray's nearest-hit fraction and stop point from (x, y). */
typedef void (*CastRays)(double x, double y, const double *directions, const float *edges, const float *reach,
                         Py_ssize_t n_edges, const float *polygons, const int *counts, const float *spans,
                         Py_ssize_t n_polygons, double *out);

typedef struct {
    int attached;
    WorldHold world;
    void *hull;
    void *joints[4]; /* far hip, far knee, near hip, near knee */
    Ground ground; /* the lidar's (_lidar.Lidar's), held while the slot is attached */
    double scroll;
    Episode episode;
} WalkerSlot;

typedef struct {
    PyObject_HEAD
    int float32_reward; /* numpy subtracts float32 costs from a Python float in float32 (NEP 50) */
    double rule[WALKER_RULES];
    double directions[2 * RAYS];
    CastRays cast_rays;
    Slots slots;
    Stepping stepping;
} WalkerKernel;

static void
slot_release(void *item)
{
    WalkerSlot *slot = item;
    world_release(&slot->world);
    if (slot->attached) {
        ground_release(&slot->ground);
    }
    slot->attached = 0;
}

static void
walker_dealloc(WalkerKernel *self)
{
    stepping_close(&self->stepping);
    slots_free(&self->slots);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int
walker_init(WalkerKernel *self, PyObject *args, PyObject *kwargs)
{
    static char *names[] = {"num_envs", "rules", "directions", "cast_rays", "float32_reward", NULL};
    Py_ssize_t n;
    PyObject *rules, *directions, *capsule;
    int float32_reward;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "nO!OOp", names, &n, &PyTuple_Type, &rules, &directions,
                                     &capsule, &float32_reward)) {
        return -1;
    }
    if (n < 1 || PyTuple_GET_SIZE(rules) != WALKER_RULES) {
        PyErr_Format(PyExc_ValueError, "WalkerKernel needs num_envs >= 1 and %d rules", WALKER_RULES);
        return -1;
    }
    for (int i = 0; i < WALKER_RULES; i++) {
        self->rule[i] = PyFloat_AsDouble(PyTuple_GET_ITEM(rules, i));
    }
    Py_buffer view;
    if (PyErr_Occurred() || get_buffer(directions, &view, "d", sizeof(double), 2 * RAYS, 0, "directions") < 0) {
        return -1;
    }
    memcpy(self->directions, view.buf, sizeof self->directions);
    PyBuffer_Release(&view);
    CastRays cast_rays = (CastRays)PyCapsule_GetPointer(capsule, "palaestra_box2d._compiled.cast_rays");
    if (cast_rays == NULL) {
        return -1;
    }
    if (!stepping_idle(&self->stepping) || slots_make(&self->slots, n, sizeof(WalkerSlot), slot_release) < 0) {
        return -1;
    }
    stepping_close(&self->stepping);
    stepping_init(&self->stepping);
    self->float32_reward = float32_reward;
    self->cast_rays = cast_rays;
    return 0;
}

static PyObject *
walker_attach(WalkerKernel *self, PyObject *args)
{
    PyObject *index, *world, *bodies, *ground, *episode;
    double scroll;
    if (!engine_ready()
        || !PyArg_ParseTuple(args, "OO!O!OdO!", &index, &PyTuple_Type, &world, &PyTuple_Type, &bodies, &ground,
                             &scroll, &PyTuple_Type, &episode)) {
        return NULL;
    }
    /* (hull, far hip, far knee, near hip, near knee, far shin, near shin) */
    void *at[7];
    if (PyTuple_GET_SIZE(bodies) != 7) {
        PyErr_SetString(PyExc_TypeError, "the bodies are the hull, four joints and two shins");
        return NULL;
    }
    for (int i = 0; i < 7; i++) {
        at[i] = PyLong_AsVoidPtr(PyTuple_GET_ITEM(bodies, i));
    }
    WalkerSlot *slot = stepping_slot(&self->stepping, &self->slots, index, 0);
    if (slot == NULL || PyErr_Occurred()) {
        return NULL;
    }
    for (int i = 0; i < 5; i++) {
        if (at[i] == NULL) {
            PyErr_SetString(PyExc_ValueError, "no hull or joint at address 0");
            return NULL;
        }
    }
    slot_release(slot);
    if (!PyTuple_Check(ground) || PyTuple_GET_SIZE(ground) != GROUND_ARRAYS) {
        PyErr_SetString(PyExc_TypeError, "the ground is (edges, reach, polygons, counts, spans)");
        return NULL;
    }
    if (episode_take(&slot->episode, episode, at[0], at[5], at[6]) < 0
        || ground_take(&slot->ground, &PyTuple_GET_ITEM(ground, 0)) < 0) {
        return NULL;
    }
    if (world_take(&slot->world, world, &slot->episode.listener) < 0) {
        ground_release(&slot->ground);
        return NULL;
    }
    slot->hull = at[0];
    memcpy(slot->joints, at + 1, sizeof slot->joints);
    slot->scroll = scroll;
    slot->attached = 1;
    Py_RETURN_NONE;
}

/* (the episode's state (episode_state), scroll); the world has the env's own listener again. */
static PyObject *
walker_detach(WalkerKernel *self, PyObject *index)
{
    WalkerSlot *slot = stepping_slot(&self->stepping, &self->slots, index, 1);
    PyObject *episode = slot == NULL ? NULL : episode_state(&slot->episode);
    PyObject *state = episode == NULL ? NULL : Py_BuildValue("(Nd)", episode, slot->scroll);
    if (state != NULL) {
        slot_release(slot);
    }
    return state;
}

/* One sub-env's step: BipedalWalker.step and TimeLimit's count, into its observation row. Each
 * "mirror:" comment names the lines of bipedal_walker.py's BipedalWalker.step that this part
 * compiles, in the same order (tests/plugins/box2d/test_kernels.py holds the two lists equal). */
static void
step_one(WalkerKernel *self, WalkerSlot *s, const float *action, float *obs, double *reward_out,
         char *terminated_out, char *truncated_out)
{
    const double *r = self->rule;
    const double fps = r[R_FPS], view_w = r[R_VIEW_W], view_h = r[R_VIEW_H];
    const double speeds[4] = {r[R_SPEED_HIP], r[R_SPEED_KNEE], r[R_SPEED_HIP], r[R_SPEED_KNEE]};
    float fraction[4];
    /* mirror: motors */
    for (int k = 0; k < 4; k++) {
        float magnitude = fabsf(action[k]);
        fraction[k] = magnitude < 1.0f ? magnitude : 1.0f;
        float torque = (float)r[R_MOTORS_TORQUE] * fraction[k];
        float sign = action[k] > 0.0f ? 1.0f : (action[k] < 0.0f ? -1.0f : 0.0f); /* np.sign: +0.0 for -0.0 */
        engine.call.set_motor_speed(s->joints[k], (float)(speeds[k] * (double)sign));
        engine.call.set_max_motor_torque(s->joints[k], torque);
    }

    /* mirror: world step */
    engine.call.world_step(s->world.world, (float)(1.0 / fps), (int)r[R_VELOCITY_ITERATIONS],
                           (int)r[R_POSITION_ITERATIONS]);

    void *hull = s->hull;
    const float *p = body_float(hull, BODY_POSITION), *v = body_float(hull, BODY_VELOCITY);
    double x0 = (double)p[0];
    double rays[3 * RAYS];
    const Py_buffer *g = s->ground.view;
    /* mirror: lidar */
    self->cast_rays(x0, (double)p[1], self->directions, g[G_EDGES].buf, g[G_REACH].buf, s->ground.n_edges,
                    g[G_POLYGONS].buf, g[G_COUNTS].buf, g[G_SPANS].buf, s->ground.n_polygons, rays);
    /* mirror: observation */
    double angle = (double)*body_float(hull, BODY_ANGLE);
    double state[OBS_SIZE] = {
        angle,
        2.0 * (double)*body_float(hull, BODY_SPIN) / fps,
        0.3 * (double)v[0] * view_w / fps,
        0.3 * (double)v[1] * view_h / fps,
    };
    for (int leg = 0; leg < 2; leg++) {
        void *hip = s->joints[2 * leg], *knee = s->joints[2 * leg + 1];
        double *row = state + 4 + 5 * leg;
        row[0] = (double)engine.call.joint_angle(hip);
        row[1] = (double)engine.call.joint_speed(hip) / r[R_SPEED_HIP];
        row[2] = (double)engine.call.joint_angle(knee) + 1.0;
        row[3] = (double)engine.call.joint_speed(knee) / r[R_SPEED_KNEE];
        row[4] = s->episode.listener.contact[leg] ? 1.0 : 0.0;
    }
    for (int k = 0; k < RAYS; k++) {
        state[14 + k] = rays[3 * k];
    }
    s->scroll = (double)p[0] - view_w / 5;
    /* mirror: shaping */
    double shaping = 130 * x0 / r[R_SCALE];
    shaping -= 5.0 * fabs(angle);
    /* mirror: reward */
    double base = episode_shaping(&s->episode, shaping);
    double reward;
    float unit_cost = (float)r[R_ENERGY_COST];
    if (self->float32_reward) {
        float cost_left = (float)base;
        for (int k = 0; k < 4; k++) {
            cost_left = cost_left - unit_cost * fraction[k];
        }
        reward = (double)cost_left;
    } else {
        reward = base;
        for (int k = 0; k < 4; k++) {
            reward -= (double)(unit_cost * fraction[k]);
        }
    }
    /* mirror: termination */
    char terminated = 0;
    if (s->episode.listener.game_over || x0 < 0) {
        reward = -100;
        terminated = 1;
    }
    if (x0 > r[R_FINISH_X]) {
        terminated = 1;
    }
    for (int k = 0; k < OBS_SIZE; k++) {
        obs[k] = (float)state[k];
    }
    *reward_out = reward;
    *terminated_out = terminated;
    *truncated_out = episode_count(&s->episode);
}

/* Sub-env j's step, when active (a task of the crew: no Python here). */
static void
walker_task(void *context, Py_ssize_t j)
{
    WalkerKernel *self = context;
    const StepBuffers *b = &self->stepping.buffers;
    if (((const char *)b->active.buf)[j]) {
        step_one(self, (WalkerSlot *)self->slots.items + j, (const float *)b->actions.buf + 4 * j,
                 (float *)b->obs.buf + OBS_SIZE * j, (double *)b->rewards.buf + j, (char *)b->terminated.buf + j,
                 (char *)b->truncated.buf + j);
    }
}

/* begin(actions, active, obs, rewards, terminated, truncated) -> bool: as LanderKernel.begin;
 * an action with a NaN or an infinity is not one. */
static PyObject *
walker_begin(WalkerKernel *self, PyObject *const *args, Py_ssize_t nargs)
{
    StepBuffers *b = &self->stepping.buffers;
    if (!stepping_idle(&self->stepping) || step_buffers(b, args, nargs, self->slots.n, "f", 4, OBS_SIZE) < 0) {
        return NULL;
    }
    const char *on = b->active.buf;
    const float *actions = b->actions.buf;
    int steppable = 1;
    for (Py_ssize_t j = 0; j < self->slots.n && steppable; j++) {
        if (on[j]) {
            const float *a = actions + 4 * j;
            steppable = ((WalkerSlot *)self->slots.items)[j].attached && isfinite(a[0]) && isfinite(a[1]) && isfinite(a[2])
                        && isfinite(a[3]);
        }
    }
    if (!steppable) {
        release_step_buffers(b);
        Py_RETURN_FALSE;
    }
    stepping_start(&self->stepping, self->slots.n, walker_task, self);
    Py_RETURN_TRUE;
}

static PyObject *
walker_finish(WalkerKernel *self, PyObject *unused)
{
    (void)unused;
    return stepping_finish(&self->stepping);
}

/* step(...) -> bool: begin(...) and, when it began, finish(). */
static PyObject *
walker_step(WalkerKernel *self, PyObject *const *args, Py_ssize_t nargs)
{
    return stepping_complete(&self->stepping, walker_begin(self, args, nargs));
}

static PyObject *
walker_set_threads(WalkerKernel *self, PyObject *threads)
{
    return stepping_set_threads(&self->stepping, threads);
}

static PyMethodDef walker_methods[] = {
    {"attach", (PyCFunction)walker_attach, METH_VARARGS,
     "attach(j, (world, world_address, listener_address), (hull, far hip, far knee, near hip, near knee, far shin, "
     "near shin addresses), (edges, reach, polygons, counts, spans), scroll, (prev_shaping, game_over, "
     "far_contact, near_contact, elapsed_steps, step_limit or -1)): take over sub-env j's stepping."},
    {"detach", (PyCFunction)walker_detach, METH_O,
     "detach(j) -> ((prev_shaping, game_over, far_contact, near_contact, elapsed_steps), scroll): hand sub-env j "
     "back."},
    {"step", (PyCFunction)(void (*)(void))walker_step, METH_FASTCALL,
     "step(actions, active, obs, rewards, terminated, truncated) -> bool: step the active sub-envs."},
    {"begin", (PyCFunction)(void (*)(void))walker_begin, METH_FASTCALL,
     "begin(actions, active, obs, rewards, terminated, truncated) -> bool: start stepping the active sub-envs on "
     "the helpers; finish() completes it."},
    {"finish", (PyCFunction)walker_finish, METH_NOARGS, "finish(): complete the step begin() started."},
    {"set_threads", (PyCFunction)walker_set_threads, METH_O,
     "set_threads(k): step the sub-envs on k threads (the caller's and k - 1 helpers), without the GIL."},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef walker_members[] = {
    {"threads", T_INT, offsetof(WalkerKernel, stepping.crew.threads), READONLY,
     "The threads a step runs on (set_threads)."},
    {NULL, 0, 0, 0, NULL},
};

PyTypeObject WalkerKernelType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "palaestra_box2d._stepping.WalkerKernel",
    .tp_basicsize = sizeof(WalkerKernel),
    .tp_dealloc = (destructor)walker_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "WalkerKernel(num_envs, rules, directions, cast_rays, float32_reward): steps a block of BipedalWalkers.",
    .tp_methods = walker_methods,
    .tp_members = walker_members,
    .tp_init = (initproc)walker_init,
    .tp_new = PyType_GenericNew,
};
