/*
 * LanderKernel: a block of LunarLanders stepped in one call (see _stepping.c).
 *
 * The specification is lunar_lander.py's LunarLander.step (without wind or rendering)
 * under its TimeLimit: the engines' impulses from the action and two uniform draws from
 * the env's own generator, one world step, then the observation, the shaped reward and the
 * flags. Every operation below mirrors one there, in the same order.
 */
#include "_stepping.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

/* The env's constants, in the order _lander_block.KERNEL_RULES hands them over. */
enum {
    R_SCALE, R_FPS, R_MAIN_POWER, R_SIDE_POWER, R_MAIN_Y, R_SIDE_AWAY, R_SIDE_HEIGHT, R_SIDE_X,
    R_LEG_DOWN, R_HALF_W, R_HALF_H, R_VELOCITY_ITERATIONS, R_POSITION_ITERATIONS, LANDER_RULES
};

typedef struct {
    int attached;
    WorldHold world;
    void *lander;
    BitGen *rng;
    PyObject *rng_owner; /* the capsule: keeps the bit generator alive */
    double helipad_y;
    Episode episode;
} LanderSlot;

typedef struct {
    PyObject_HEAD
    int continuous;
    double rule[LANDER_RULES];
    double throttle[4][3]; /* the discrete actions' (main power, side power, direction) */
    Slots slots;
    Stepping stepping;
} LanderKernel;

static void
slot_release(void *item)
{
    LanderSlot *slot = item;
    world_release(&slot->world);
    Py_CLEAR(slot->rng_owner);
    slot->attached = 0;
}

static void
lander_dealloc(LanderKernel *self)
{
    stepping_close(&self->stepping);
    slots_free(&self->slots);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int
lander_init(LanderKernel *self, PyObject *args, PyObject *kwargs)
{
    static char *names[] = {"num_envs", "rules", "throttles", "continuous", NULL};
    Py_ssize_t n;
    PyObject *rules, *throttles;
    int continuous;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "nO!O!p", names, &n, &PyTuple_Type, &rules, &PyTuple_Type,
                                     &throttles, &continuous)) {
        return -1;
    }
    if (n < 1 || PyTuple_GET_SIZE(rules) != LANDER_RULES || PyTuple_GET_SIZE(throttles) != 12) {
        PyErr_Format(PyExc_ValueError, "LanderKernel needs num_envs >= 1, %d rules and 12 throttle values",
                     LANDER_RULES);
        return -1;
    }
    for (int i = 0; i < LANDER_RULES; i++) {
        self->rule[i] = PyFloat_AsDouble(PyTuple_GET_ITEM(rules, i));
    }
    for (int i = 0; i < 12; i++) {
        self->throttle[i / 3][i % 3] = PyFloat_AsDouble(PyTuple_GET_ITEM(throttles, i));
    }
    if (PyErr_Occurred()) {
        return -1;
    }
    if (!stepping_idle(&self->stepping) || slots_make(&self->slots, n, sizeof(LanderSlot), slot_release) < 0) {
        return -1;
    }
    stepping_close(&self->stepping);
    stepping_init(&self->stepping);
    self->continuous = continuous;
    return 0;
}

static PyObject *
lander_attach(LanderKernel *self, PyObject *args)
{
    PyObject *index, *world, *capsule, *episode;
    PyObject *lander, *left, *right;
    double helipad_y;
    if (!engine_ready()
        || !PyArg_ParseTuple(args, "OO!(OOO)OdO!", &index, &PyTuple_Type, &world, &lander, &left, &right, &capsule,
                             &helipad_y, &PyTuple_Type, &episode)) {
        return NULL;
    }
    LanderSlot *slot = stepping_slot(&self->stepping, &self->slots, index, 0);
    BitGen *rng = slot == NULL ? NULL : PyCapsule_GetPointer(capsule, "BitGenerator");
    void *bodies[3] = {PyLong_AsVoidPtr(lander), PyLong_AsVoidPtr(left), PyLong_AsVoidPtr(right)};
    if (rng == NULL || PyErr_Occurred()) {
        return NULL;
    }
    if (bodies[0] == NULL) {
        PyErr_SetString(PyExc_ValueError, "no lander at address 0");
        return NULL;
    }
    slot_release(slot);
    if (episode_take(&slot->episode, episode, bodies[0], bodies[1], bodies[2]) < 0
        || world_take(&slot->world, world, &slot->episode.listener) < 0) {
        return NULL;
    }
    Py_INCREF(capsule);
    slot->rng_owner = capsule;
    slot->rng = rng;
    slot->lander = bodies[0];
    slot->helipad_y = helipad_y;
    slot->attached = 1;
    Py_RETURN_NONE;
}

/* The episode's state (episode_state); the world has the env's own listener again. */
static PyObject *
lander_detach(LanderKernel *self, PyObject *index)
{
    LanderSlot *slot = stepping_slot(&self->stepping, &self->slots, index, 1);
    PyObject *state = slot == NULL ? NULL : episode_state(&slot->episode);
    if (state != NULL) {
        slot_release(slot);
    }
    return state;
}

/* Python's min(max(v, lo), hi) for floats that are not NaN (max keeps the first of equals). */
static inline double
py_clip(double v, double lo, double hi)
{
    double m = lo > v ? lo : v;
    return hi < m ? hi : m;
}

/* The (main power, side power, direction) of a continuous action, as _throttles computes
 * it; 0 when the action is not finite (the caller then takes the plain path, which names it). */
static int
continuous_power(const float *action, double power[3])
{
    double main = (double)action[0], lateral = (double)action[1];
    if (!isfinite(main) || !isfinite(lateral)) {
        return 0;
    }
    main = py_clip(main, -1.0, 1.0);
    lateral = py_clip(lateral, -1.0, 1.0);
    power[0] = main > 0.0 ? (py_clip(main, 0.0, 1.0) + 1.0) * 0.5 : 0.0;
    if (fabs(lateral) > 0.5) {
        power[1] = py_clip(fabs(lateral), 0.5, 1.0);
        power[2] = lateral > 0 ? 1.0 : -1.0;
    } else {
        power[1] = power[2] = 0.0;
    }
    return 1;
}

/* One sub-env's step: LunarLander.step and TimeLimit's count, into its observation row. Each
 * "mirror:" comment names the lines of lunar_lander.py's LunarLander.step that this part
 * compiles, in the same order (tests/plugins/box2d/test_kernels.py holds the two lists equal);
 * the throttles are chosen by lander_step before this is called. */
static void
step_one(LanderKernel *self, LanderSlot *s, const double power[3], float *obs, double *reward_out,
         char *terminated_out, char *truncated_out)
{
    const double *r = self->rule;
    const double scale = r[R_SCALE], fps = r[R_FPS];
    void *lander = s->lander;
    double m_power = power[0], s_power = power[1], direction = power[2];
    /* mirror: axes */
    double angle = (double)*body_float(lander, BODY_ANGLE);
    double tip_x = sin(angle), tip_y = cos(angle);
    double side_x = -tip_y, side_y = tip_x;
    /* mirror: dispersion */
    double u0 = s->rng->next_double(s->rng->state);
    double u1 = s->rng->next_double(s->rng->state);
    double d0 = (-1.0 + 2.0 * u0) / scale;
    double d1 = (-1.0 + 2.0 * u1) / scale;
    if (m_power != 0.0) { /* mirror: main engine */
        double reach = r[R_MAIN_Y] / scale + 2 * d0;
        double ox = tip_x * reach + side_x * d1;
        double oy = -tip_y * reach - side_y * d1;
        float *p = body_float(lander, BODY_POSITION);
        double at_x = (double)p[0] + ox, at_y = (double)p[1] + oy;
        double power_main = r[R_MAIN_POWER];
        apply_linear_impulse(lander, (float)(-ox * power_main * m_power), (float)(-oy * power_main * m_power),
                             (float)at_x, (float)at_y);
    }
    if (s_power != 0.0) { /* mirror: side engines */
        double lever = 3 * d1 + direction * r[R_SIDE_AWAY] / scale;
        double ox = tip_x * d0 + side_x * lever;
        double oy = -tip_y * d0 - side_y * lever;
        float *p = body_float(lander, BODY_POSITION);
        double at_x = (double)p[0] + ox - tip_x * r[R_SIDE_X] / scale;
        double at_y = (double)p[1] + oy + tip_y * r[R_SIDE_HEIGHT] / scale;
        double power_side = r[R_SIDE_POWER];
        apply_linear_impulse(lander, (float)(-ox * power_side * s_power), (float)(-oy * power_side * s_power),
                             (float)at_x, (float)at_y);
    }

    /* mirror: world step */
    engine.call.world_step(s->world.world, (float)(1.0 / fps), (int)r[R_VELOCITY_ITERATIONS],
                           (int)r[R_POSITION_ITERATIONS]);

    /* mirror: observation */
    const float *p = body_float(lander, BODY_POSITION), *v = body_float(lander, BODY_VELOCITY);
    double half_w = r[R_HALF_W], half_h = r[R_HALF_H];
    double x = ((double)p[0] - half_w) / half_w;
    double y = ((double)p[1] - (s->helipad_y + r[R_LEG_DOWN] / scale)) / half_h;
    double vx = (double)v[0] * half_w / fps;
    double vy = (double)v[1] * half_h / fps;
    angle = (double)*body_float(lander, BODY_ANGLE);
    double spin = 20.0 * (double)*body_float(lander, BODY_SPIN) / fps;
    const Listener *contacts = &s->episode.listener;
    double left = contacts->contact[0] ? 1.0 : 0.0, right = contacts->contact[1] ? 1.0 : 0.0;
    /* mirror: shaping */
    double shaping = -100 * sqrt(x * x + y * y) - 100 * sqrt(vx * vx + vy * vy) - 100 * fabs(angle) + 10 * left
                     + 10 * right;
    /* mirror: reward */
    double reward = episode_shaping(&s->episode, shaping);
    reward -= m_power * 0.3;
    reward -= s_power * 0.03;
    /* mirror: termination */
    char terminated = 0;
    if (contacts->game_over || fabs(x) >= 1.0) {
        terminated = 1;
        reward = -100;
    }
    if (!body_awake(lander)) {
        terminated = 1;
        reward = +100;
    }
    obs[0] = (float)x, obs[1] = (float)y, obs[2] = (float)vx, obs[3] = (float)vy;
    obs[4] = (float)angle, obs[5] = (float)spin, obs[6] = (float)left, obs[7] = (float)right;
    *reward_out = reward;
    *terminated_out = terminated;
    *truncated_out = episode_count(&s->episode);
}

/* Sub-env j's step, when active (a task of the crew: no Python here). */
static void
lander_task(void *context, Py_ssize_t j)
{
    LanderKernel *self = context;
    const StepBuffers *b = &self->stepping.buffers;
    if (!((const char *)b->active.buf)[j]) {
        return;
    }
    double power[3];
    /* mirror: throttles */
    if (self->continuous) {
        continuous_power((const float *)b->actions.buf + 2 * j, power);
    } else {
        memcpy(power, self->throttle[((const int64_t *)b->actions.buf)[j]], sizeof power);
    }
    step_one(self, (LanderSlot *)self->slots.items + j, power, (float *)b->obs.buf + 8 * j,
             (double *)b->rewards.buf + j, (char *)b->terminated.buf + j, (char *)b->truncated.buf + j);
}

/* begin(actions, active, obs, rewards, terminated, truncated) -> bool
 *
 * Starts stepping every sub-env whose `active` byte is set on the kernel's helpers
 * (set_threads) and returns True; finish() joins them without the GIL. In between, the
 * caller may reset the sub-envs left out (attach and detach refuse the others). Returns
 * False, having started nothing, when one of them cannot take the compiled step (not
 * attached, an action that is not one, a lander asleep): the caller then steps the block
 * in Python, which says what is wrong. */
static PyObject *
lander_begin(LanderKernel *self, PyObject *const *args, Py_ssize_t nargs)
{
    StepBuffers *b = &self->stepping.buffers;
    if (!stepping_idle(&self->stepping)
        || step_buffers(b, args, nargs, self->slots.n, self->continuous ? "f" : INT64_FORMAT,
                        self->continuous ? 2 : 1, 8)
               < 0) {
        return NULL;
    }
    const char *on = b->active.buf;
    double power[3];
    int steppable = 1;
    for (Py_ssize_t j = 0; j < self->slots.n && steppable; j++) {
        if (on[j]) {
            LanderSlot *s = (LanderSlot *)self->slots.items + j;
            steppable = self->continuous ? continuous_power((const float *)b->actions.buf + 2 * j, power)
                                         : (uint64_t)((const int64_t *)b->actions.buf)[j] < 4;
            steppable = steppable && s->attached && body_awake(s->lander);
        }
    }
    if (!steppable) {
        release_step_buffers(b);
        Py_RETURN_FALSE;
    }
    stepping_start(&self->stepping, self->slots.n, lander_task, self);
    Py_RETURN_TRUE;
}

static PyObject *
lander_finish(LanderKernel *self, PyObject *unused)
{
    (void)unused;
    return stepping_finish(&self->stepping);
}

/* step(...) -> bool: begin(...) and, when it began, finish(). */
static PyObject *
lander_step(LanderKernel *self, PyObject *const *args, Py_ssize_t nargs)
{
    return stepping_complete(&self->stepping, lander_begin(self, args, nargs));
}

static PyObject *
lander_set_threads(LanderKernel *self, PyObject *threads)
{
    return stepping_set_threads(&self->stepping, threads);
}

static PyMethodDef lander_methods[] = {
    {"attach", (PyCFunction)lander_attach, METH_VARARGS,
     "attach(j, (world, world_address, listener_address), (lander, left_leg, right_leg addresses), "
     "bit_generator_capsule, helipad_y, (prev_shaping, game_over, left_contact, right_contact, elapsed_steps, "
     "step_limit or -1)): take over sub-env j's stepping (and its world's contacts)."},
    {"detach", (PyCFunction)lander_detach, METH_O,
     "detach(j) -> (prev_shaping, game_over, left_contact, right_contact, elapsed_steps): hand sub-env j back."},
    {"step", (PyCFunction)(void (*)(void))lander_step, METH_FASTCALL,
     "step(actions, active, obs, rewards, terminated, truncated) -> bool: step the active sub-envs."},
    {"begin", (PyCFunction)(void (*)(void))lander_begin, METH_FASTCALL,
     "begin(actions, active, obs, rewards, terminated, truncated) -> bool: start stepping the active sub-envs on "
     "the helpers; finish() completes it."},
    {"finish", (PyCFunction)lander_finish, METH_NOARGS, "finish(): complete the step begin() started."},
    {"set_threads", (PyCFunction)lander_set_threads, METH_O,
     "set_threads(k): step the sub-envs on k threads (the caller's and k - 1 helpers), without the GIL."},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef lander_members[] = {
    {"threads", T_INT, offsetof(LanderKernel, stepping.crew.threads), READONLY,
     "The threads a step runs on (set_threads)."},
    {NULL, 0, 0, 0, NULL},
};

PyTypeObject LanderKernelType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "palaestra_box2d._stepping.LanderKernel",
    .tp_basicsize = sizeof(LanderKernel),
    .tp_dealloc = (destructor)lander_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "LanderKernel(num_envs, rules, throttles, continuous): steps a block of LunarLanders.",
    .tp_methods = lander_methods,
    .tp_members = lander_members,
    .tp_init = (initproc)lander_init,
    .tp_new = PyType_GenericNew,
};
