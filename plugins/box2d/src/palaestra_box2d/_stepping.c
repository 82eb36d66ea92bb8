/*
 * Compiled stepping of the Box2D suite's batched envs (the fast path of _lander_block.py).
 *
 * A batched LunarLander block spends as long in Python around the engine as in the engine:
 * reading the hull through the binding, firing the engines, building the observation and
 * the reward, and the contact listener's calls back into Python. This module does that
 * work for a whole block in one call, stepping each world through Box2D's own exported
 * b2World::Step and reading and writing bodies where the engine keeps them.
 *
 * Nothing here knows Box2D's headers. _engine_layout.py finds the engine's symbols in the
 * binding's shared object and checks, on a probe world and against the binding itself,
 * every field offset this file is given; without a match this module is never configured
 * and the envs step in Python. The arithmetic repeats the plain env's (lunar_lander.py's
 * step, the specification) operation for operation, in double precision where Python
 * computes and in single precision where Box2D does (its inline b2Body::ApplyLinearImpulse),
 * so a test holds the two to the same bits. No multiply-add fusing (-ffp-contract=off).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <limits.h>
#include <string.h>

#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

/* numpy's documented interface to a bit generator (numpy/random/bitgen.h), from the
 * "BitGenerator" capsule every numpy bit generator offers. */
typedef struct {
    void *state;
    uint64_t (*next_uint64)(void *);
    uint32_t (*next_uint32)(void *);
    double (*next_double)(void *);
    uint64_t (*next_raw)(void *);
} BitGen;

/* ---- the engine: symbols and field offsets, set once by configure() ------------------- */

typedef void (*WorldStepFn)(void *world, float dt, int velocity_iterations, int position_iterations);
typedef void (*SetListenerFn)(void *world, void *listener);

enum {
    BODY_FLAGS, AWAKE_FLAG, BODY_POSITION, BODY_CENTER, BODY_ANGLE, BODY_VELOCITY, BODY_SPIN,
    BODY_INV_MASS, BODY_INV_INERTIA, CONTACT_FIXTURE_A, CONTACT_FIXTURE_B, FIXTURE_BODY, LAYOUT_FIELDS
};

static struct {
    int ready;
    WorldStepFn world_step;
    SetListenerFn set_listener;
    Py_ssize_t at[LAYOUT_FIELDS];
} engine;

static inline float *
body_float(void *body, int field)
{
    return (float *)((char *)body + engine.at[field]);
}

static inline int
body_awake(void *body)
{
    return (*(uint16_t *)((char *)body + engine.at[BODY_FLAGS]) & engine.at[AWAKE_FLAG]) != 0;
}

static inline void *
pointer_at(void *object, int field)
{
    return *(void **)((char *)object + engine.at[field]);
}

/* b2Body::ApplyLinearImpulse(impulse, point, wake) on an awake dynamic body, in its own
 * single-precision steps: v += invMass * impulse; w += invI * cross(point - c, impulse). */
static void
apply_linear_impulse(void *body, float ix, float iy, float px, float py)
{
    float *v = body_float(body, BODY_VELOCITY), *c = body_float(body, BODY_CENTER);
    float inv_mass = *body_float(body, BODY_INV_MASS), inv_inertia = *body_float(body, BODY_INV_INERTIA);
    float mx = inv_mass * ix, my = inv_mass * iy;
    v[0] += mx;
    v[1] += my;
    float rx = px - c[0], ry = py - c[1];
    float cross = rx * iy - ry * ix;
    float turn = inv_inertia * cross;
    *body_float(body, BODY_SPIN) += turn;
}

static PyObject *
configure(PyObject *module, PyObject *args)
{
    unsigned long long step, set_listener;
    PyObject *layout;
    if (!PyArg_ParseTuple(args, "KKO!", &step, &set_listener, &PyTuple_Type, &layout)) {
        return NULL;
    }
    if (PyTuple_GET_SIZE(layout) != LAYOUT_FIELDS) {
        PyErr_Format(PyExc_ValueError, "the layout has %d fields, not %zd", LAYOUT_FIELDS, PyTuple_GET_SIZE(layout));
        return NULL;
    }
    Py_ssize_t at[LAYOUT_FIELDS];
    for (int i = 0; i < LAYOUT_FIELDS; i++) {
        at[i] = PyLong_AsSsize_t(PyTuple_GET_ITEM(layout, i));
        if (at[i] == -1 && PyErr_Occurred()) {
            return NULL;
        }
    }
    memcpy(engine.at, at, sizeof at);
    engine.world_step = (WorldStepFn)(uintptr_t)step;
    engine.set_listener = (SetListenerFn)(uintptr_t)set_listener;
    engine.ready = step != 0 && set_listener != 0;
    Py_RETURN_NONE;
}

/* ---- a contact listener the engine calls without Python --------------------------------
 *
 * The world calls its listener through the listener's virtual table. This struct starts
 * with a table of the same six slots as b2ContactListener's (two destructors, BeginContact,
 * EndContact, PreSolve, PostSolve: _engine_layout.py checks that order in the engine's own
 * table), each a function taking the object first, as a C++ member function does. The
 * rules are the envs' listeners': the hull touching anything ends the episode; the two
 * legs report ground contact from their last BeginContact or EndContact. */

typedef struct {
    const void *const *vtable;
    void *hull;
    void *legs[2];
    char game_over;
    char contact[2];
} Listener;

static void
listener_nothing(Listener *self)
{
    (void)self;
}

static void
listener_solve(Listener *self, void *contact, const void *data)
{
    (void)self, (void)contact, (void)data;
}

static void
listener_begin(Listener *self, void *contact)
{
    void *a = pointer_at(pointer_at(contact, CONTACT_FIXTURE_A), FIXTURE_BODY);
    void *b = pointer_at(pointer_at(contact, CONTACT_FIXTURE_B), FIXTURE_BODY);
    if (a == self->hull || b == self->hull) {
        self->game_over = 1;
    }
    for (int k = 0; k < 2; k++) {
        if (a == self->legs[k] || b == self->legs[k]) {
            self->contact[k] = 1;
        }
    }
}

static void
listener_end(Listener *self, void *contact)
{
    void *a = pointer_at(pointer_at(contact, CONTACT_FIXTURE_A), FIXTURE_BODY);
    void *b = pointer_at(pointer_at(contact, CONTACT_FIXTURE_B), FIXTURE_BODY);
    for (int k = 0; k < 2; k++) {
        if (a == self->legs[k] || b == self->legs[k]) {
            self->contact[k] = 0;
        }
    }
}

static const void *const LISTENER_TABLE[] = {
    (const void *)listener_nothing, (const void *)listener_nothing, (const void *)listener_begin,
    (const void *)listener_end,     (const void *)listener_solve,   (const void *)listener_solve,
};

/* ---- LanderKernel: a block of LunarLanders ------------------------------------------ */

/* The env's constants, in the order lunar_lander.py hands them over (kernel_rules()). */
enum {
    R_SCALE, R_FPS, R_MAIN_POWER, R_SIDE_POWER, R_MAIN_Y, R_SIDE_AWAY, R_SIDE_HEIGHT, R_SIDE_X,
    R_LEG_DOWN, R_HALF_W, R_HALF_H, R_VELOCITY_ITERATIONS, R_POSITION_ITERATIONS, LANDER_RULES
};

typedef struct {
    int attached;
    PyObject *world_owner; /* the binding's world: keeps the world (and its bodies) alive */
    void *world;
    void *python_listener; /* the env's own listener, given back to the world on detach */
    void *lander;
    BitGen *rng;
    PyObject *rng_owner; /* the capsule: keeps the bit generator alive */
    double helipad_y;
    double prev_shaping;
    int has_prev;
    long elapsed;
    long limit; /* < 0: no time limit */
    Listener listener;
} LanderSlot;

typedef struct {
    PyObject_HEAD
    Py_ssize_t n;
    int continuous;
    double rule[LANDER_RULES];
    double throttle[4][3]; /* the discrete actions' (main power, side power, direction) */
    LanderSlot *slots;
} LanderKernel;

/* Give the world its own listener back and let go of it. */
static void
lander_release(LanderSlot *slot)
{
    if (slot->attached) {
        engine.set_listener(slot->world, slot->python_listener);
    }
    slot->attached = 0;
    Py_CLEAR(slot->rng_owner);
    Py_CLEAR(slot->world_owner);
}

static void
lander_dealloc(LanderKernel *self)
{
    if (self->slots != NULL) {
        for (Py_ssize_t j = 0; j < self->n; j++) {
            lander_release(&self->slots[j]);
        }
        PyMem_Free(self->slots);
    }
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
    LanderSlot *slots = PyMem_Calloc((size_t)n, sizeof(LanderSlot));
    if (slots == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    if (self->slots != NULL) {
        for (Py_ssize_t j = 0; j < self->n; j++) {
            lander_release(&self->slots[j]);
        }
        PyMem_Free(self->slots);
    }
    self->slots = slots;
    self->n = n;
    self->continuous = continuous;
    return 0;
}

static LanderSlot *
lander_slot(LanderKernel *self, Py_ssize_t j)
{
    if (self->slots == NULL || j < 0 || j >= self->n) {
        PyErr_Format(PyExc_IndexError, "sub-env %zd is not in this block of %zd", j, self->n);
        return NULL;
    }
    return &self->slots[j];
}

static PyObject *
lander_attach(LanderKernel *self, PyObject *args)
{
    Py_ssize_t j;
    unsigned long long world, python_listener, lander, left, right;
    PyObject *world_owner, *capsule, *prev;
    double helipad_y;
    int game_over, left_contact, right_contact;
    long elapsed, limit;
    if (!engine.ready) {
        PyErr_SetString(PyExc_RuntimeError, "the engine's layout was not configured");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "n(OKK)(KKK)OdOppp(ll)", &j, &world_owner, &world, &python_listener, &lander, &left,
                          &right, &capsule, &helipad_y, &prev, &game_over, &left_contact, &right_contact, &elapsed,
                          &limit)) {
        return NULL;
    }
    LanderSlot *slot = lander_slot(self, j);
    if (slot == NULL) {
        return NULL;
    }
    BitGen *rng = PyCapsule_GetPointer(capsule, "BitGenerator");
    if (rng == NULL) {
        return NULL;
    }
    double prev_shaping = 0.0;
    if (prev != Py_None) {
        prev_shaping = PyFloat_AsDouble(prev);
        if (prev_shaping == -1.0 && PyErr_Occurred()) {
            return NULL;
        }
    }
    lander_release(slot);
    Py_INCREF(capsule);
    slot->rng_owner = capsule;
    slot->rng = rng;
    Py_INCREF(world_owner);
    slot->world_owner = world_owner;
    slot->world = (void *)(uintptr_t)world;
    slot->python_listener = (void *)(uintptr_t)python_listener;
    slot->lander = (void *)(uintptr_t)lander;
    slot->helipad_y = helipad_y;
    slot->prev_shaping = prev_shaping;
    slot->has_prev = prev != Py_None;
    slot->elapsed = elapsed;
    slot->limit = limit;
    slot->listener.vtable = LISTENER_TABLE;
    slot->listener.hull = slot->lander;
    slot->listener.legs[0] = (void *)(uintptr_t)left;
    slot->listener.legs[1] = (void *)(uintptr_t)right;
    slot->listener.game_over = (char)game_over;
    slot->listener.contact[0] = (char)left_contact;
    slot->listener.contact[1] = (char)right_contact;
    engine.set_listener(slot->world, &slot->listener);
    slot->attached = 1;
    Py_RETURN_NONE;
}

/* (prev_shaping or None, game_over, left contact, right contact, elapsed steps); the world
 * has the env's own listener again. */
static PyObject *
lander_detach(LanderKernel *self, PyObject *arg)
{
    Py_ssize_t j = PyLong_AsSsize_t(arg);
    if (j == -1 && PyErr_Occurred()) {
        return NULL;
    }
    LanderSlot *slot = lander_slot(self, j);
    if (slot == NULL) {
        return NULL;
    }
    if (!slot->attached) {
        PyErr_Format(PyExc_RuntimeError, "sub-env %zd is not attached", j);
        return NULL;
    }
    PyObject *state = slot->has_prev ? Py_BuildValue("(dOOOl)", slot->prev_shaping,
                                                     slot->listener.game_over ? Py_True : Py_False,
                                                     slot->listener.contact[0] ? Py_True : Py_False,
                                                     slot->listener.contact[1] ? Py_True : Py_False, slot->elapsed)
                                     : Py_BuildValue("(OOOOl)", Py_None, slot->listener.game_over ? Py_True : Py_False,
                                                     slot->listener.contact[0] ? Py_True : Py_False,
                                                     slot->listener.contact[1] ? Py_True : Py_False, slot->elapsed);
    if (state != NULL) {
        lander_release(slot);
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

/* One sub-env's step: lunar_lander.py's LunarLander.step (without wind or rendering) and
 * TimeLimit's count, writing the observation row and the flags. */
static void
lander_step_one(LanderKernel *self, LanderSlot *s, const double power[3], float *obs, double *reward_out,
                char *terminated_out, char *truncated_out)
{
    const double *r = self->rule;
    const double scale = r[R_SCALE], fps = r[R_FPS];
    void *lander = s->lander;
    double m_power = power[0], s_power = power[1], direction = power[2];
    double angle = (double)*body_float(lander, BODY_ANGLE);
    double tip_x = sin(angle), tip_y = cos(angle);
    double side_x = -tip_y, side_y = tip_x;
    double u0 = s->rng->next_double(s->rng->state);
    double u1 = s->rng->next_double(s->rng->state);
    double d0 = (-1.0 + 2.0 * u0) / scale;
    double d1 = (-1.0 + 2.0 * u1) / scale;
    if (m_power != 0.0) {
        double reach = r[R_MAIN_Y] / scale + 2 * d0;
        double ox = tip_x * reach + side_x * d1;
        double oy = -tip_y * reach - side_y * d1;
        float *p = body_float(lander, BODY_POSITION);
        double at_x = (double)p[0] + ox, at_y = (double)p[1] + oy;
        double engine_power = r[R_MAIN_POWER];
        apply_linear_impulse(lander, (float)(-ox * engine_power * m_power), (float)(-oy * engine_power * m_power),
                             (float)at_x, (float)at_y);
    }
    if (s_power != 0.0) {
        double lever = 3 * d1 + direction * r[R_SIDE_AWAY] / scale;
        double ox = tip_x * d0 + side_x * lever;
        double oy = -tip_y * d0 - side_y * lever;
        float *p = body_float(lander, BODY_POSITION);
        double at_x = (double)p[0] + ox - tip_x * r[R_SIDE_X] / scale;
        double at_y = (double)p[1] + oy + tip_y * r[R_SIDE_HEIGHT] / scale;
        double engine_power = r[R_SIDE_POWER];
        apply_linear_impulse(lander, (float)(-ox * engine_power * s_power), (float)(-oy * engine_power * s_power),
                             (float)at_x, (float)at_y);
    }

    engine.world_step(s->world, (float)(1.0 / fps), (int)r[R_VELOCITY_ITERATIONS], (int)r[R_POSITION_ITERATIONS]);

    const float *p = body_float(lander, BODY_POSITION), *v = body_float(lander, BODY_VELOCITY);
    double half_w = r[R_HALF_W], half_h = r[R_HALF_H];
    double x = ((double)p[0] - half_w) / half_w;
    double y = ((double)p[1] - (s->helipad_y + r[R_LEG_DOWN] / scale)) / half_h;
    double vx = (double)v[0] * half_w / fps;
    double vy = (double)v[1] * half_h / fps;
    angle = (double)*body_float(lander, BODY_ANGLE);
    double spin = 20.0 * (double)*body_float(lander, BODY_SPIN) / fps;
    double left = s->listener.contact[0] ? 1.0 : 0.0, right = s->listener.contact[1] ? 1.0 : 0.0;
    double shaping = -100 * sqrt(x * x + y * y) - 100 * sqrt(vx * vx + vy * vy) - 100 * fabs(angle) + 10 * left
                     + 10 * right;
    double reward = s->has_prev ? shaping - s->prev_shaping : 0.0;
    s->prev_shaping = shaping;
    s->has_prev = 1;
    reward -= m_power * 0.3;
    reward -= s_power * 0.03;
    char terminated = 0;
    if (s->listener.game_over || fabs(x) >= 1.0) {
        terminated = 1;
        reward = -100;
    }
    if (!body_awake(lander)) {
        terminated = 1;
        reward = +100;
    }
    s->elapsed += 1;
    obs[0] = (float)x, obs[1] = (float)y, obs[2] = (float)vx, obs[3] = (float)vy;
    obs[4] = (float)angle, obs[5] = (float)spin, obs[6] = (float)left, obs[7] = (float)right;
    *reward_out = reward;
    *terminated_out = terminated;
    *truncated_out = s->limit >= 0 && s->elapsed >= s->limit;
}

/* The (main power, side power, direction) of a continuous action, as _throttles computes it;
 * 0 when the action is not finite (the caller then takes the plain path, which names it). */
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

/* numpy's buffer code for int64 (its "long" where C's long has 64 bits). */
#if LONG_MAX == INT64_MAX
#define INT64_FORMAT "l"
#else
#define INT64_FORMAT "q"
#endif

static int
get_buffer(PyObject *obj, Py_buffer *view, const char *format, Py_ssize_t itemsize, Py_ssize_t count, int writable,
           const char *name)
{
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, view, flags) < 0) {
        return -1;
    }
    if (view->itemsize != itemsize || view->format == NULL || strcmp(view->format, format) != 0
        || view->len != itemsize * count) {
        PyErr_Format(PyExc_TypeError, "%s must hold %zd items of format '%s'", name, count, format);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* step(actions, active, obs, rewards, terminated, truncated) -> bool
 *
 * Steps every sub-env whose `active` byte is set. Returns False, having stepped none, when
 * one of them cannot take the compiled step (not attached, an action that is not one, a
 * lander asleep): the caller then steps the block in Python, which says what is wrong. */
static PyObject *
lander_step(LanderKernel *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "step takes actions, active, obs, rewards, terminated, truncated");
        return NULL;
    }
    Py_ssize_t n = self->n;
    Py_buffer actions, active, obs, rewards, terminated, truncated;
    int ok = 0;
    if (self->continuous ? get_buffer(args[0], &actions, "f", sizeof(float), 2 * n, 0, "actions")
                         : get_buffer(args[0], &actions, INT64_FORMAT, sizeof(int64_t), n, 0, "actions")) {
        return NULL;
    }
    if (get_buffer(args[1], &active, "?", 1, n, 0, "active") < 0) {
        goto release_actions;
    }
    if (get_buffer(args[2], &obs, "f", sizeof(float), 8 * n, 1, "obs") < 0) {
        goto release_active;
    }
    if (get_buffer(args[3], &rewards, "d", sizeof(double), n, 1, "rewards") < 0) {
        goto release_obs;
    }
    if (get_buffer(args[4], &terminated, "?", 1, n, 1, "terminated") < 0) {
        goto release_rewards;
    }
    if (get_buffer(args[5], &truncated, "?", 1, n, 1, "truncated") < 0) {
        goto release_terminated;
    }
    const char *on = active.buf;
    double power[3];
    int steppable = 1;
    for (Py_ssize_t j = 0; j < n && steppable; j++) {
        if (!on[j]) {
            continue;
        }
        LanderSlot *s = &self->slots[j];
        if (self->continuous) {
            steppable = continuous_power((const float *)actions.buf + 2 * j, power);
        } else {
            int64_t a = ((const int64_t *)actions.buf)[j];
            steppable = a >= 0 && a <= 3;
        }
        steppable = steppable && s->attached && body_awake(s->lander);
    }
    if (steppable) {
        for (Py_ssize_t j = 0; j < n; j++) {
            if (!on[j]) {
                continue;
            }
            if (self->continuous) {
                continuous_power((const float *)actions.buf + 2 * j, power);
            } else {
                memcpy(power, self->throttle[((const int64_t *)actions.buf)[j]], sizeof power);
            }
            lander_step_one(self, &self->slots[j], power, (float *)obs.buf + 8 * j, (double *)rewards.buf + j,
                            (char *)terminated.buf + j, (char *)truncated.buf + j);
        }
    }
    ok = 1;
    PyBuffer_Release(&truncated);
release_terminated:
    PyBuffer_Release(&terminated);
release_rewards:
    PyBuffer_Release(&rewards);
release_obs:
    PyBuffer_Release(&obs);
release_active:
    PyBuffer_Release(&active);
release_actions:
    PyBuffer_Release(&actions);
    if (!ok) {
        return NULL;
    }
    return PyBool_FromLong(steppable);
}

static PyMethodDef lander_methods[] = {
    {"attach", (PyCFunction)lander_attach, METH_VARARGS,
     "attach(j, (world, world_address, listener_address), (lander, left_leg, right_leg addresses), "
     "bit_generator_capsule, helipad_y, prev_shaping, game_over, left_contact, right_contact, "
     "(elapsed_steps, step_limit or -1)): take over sub-env j's stepping (and its world's contacts)."},
    {"detach", (PyCFunction)lander_detach, METH_O,
     "detach(j) -> (prev_shaping, game_over, left_contact, right_contact, elapsed_steps): hand sub-env j back."},
    {"step", (PyCFunction)(void (*)(void))lander_step, METH_FASTCALL,
     "step(actions, active, obs, rewards, terminated, truncated) -> bool: step the active sub-envs."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject LanderKernelType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "palaestra_box2d._stepping.LanderKernel",
    .tp_basicsize = sizeof(LanderKernel),
    .tp_dealloc = (destructor)lander_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "LanderKernel(num_envs, rules, throttles, continuous): steps a block of LunarLanders.",
    .tp_methods = lander_methods,
    .tp_init = (initproc)lander_init,
    .tp_new = PyType_GenericNew,
};

/* apply_impulse(body_address, ix, iy, px, py): the compiled impulse, for the layout's check. */
static PyObject *
apply_impulse(PyObject *module, PyObject *args)
{
    unsigned long long body;
    float ix, iy, px, py;
    if (!PyArg_ParseTuple(args, "Kffff", &body, &ix, &iy, &px, &py)) {
        return NULL;
    }
    if (!engine.ready) {
        PyErr_SetString(PyExc_RuntimeError, "the engine's layout was not configured");
        return NULL;
    }
    apply_linear_impulse((void *)(uintptr_t)body, ix, iy, px, py);
    Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
    {"apply_impulse", apply_impulse, METH_VARARGS,
     "apply_impulse(body_address, ix, iy, px, py): the compiled b2Body::ApplyLinearImpulse on an awake body."},
    {"configure", configure, METH_VARARGS,
     "configure(world_step, set_contact_listener, layout): the engine's symbols and checked field offsets."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef stepping_module = {
    PyModuleDef_HEAD_INIT, "palaestra_box2d._stepping",
    "Compiled stepping of the Box2D suite's batched envs (see _lander_block.py).", -1, module_methods,
};

PyMODINIT_FUNC
PyInit__stepping(void)
{
    if (PyType_Ready(&LanderKernelType) < 0) {
        return NULL;
    }
    PyObject *module = PyModule_Create(&stepping_module);
    if (module == NULL) {
        return NULL;
    }
    Py_INCREF(&LanderKernelType);
    if (PyModule_AddObject(module, "LanderKernel", (PyObject *)&LanderKernelType) < 0) {
        Py_DECREF(&LanderKernelType);
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
