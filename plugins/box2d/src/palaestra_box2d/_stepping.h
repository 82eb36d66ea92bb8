/*
 * What the compiled stepping's files share (_stepping.c, _lander_kernel.c, _walker_kernel.c):
 * the engine's functions and field offsets, the contact listener the engine calls without
 * Python, and buffer checks. See _stepping.c for the whole picture.
 */
#ifndef PALAESTRA_BOX2D_STEPPING_H
#define PALAESTRA_BOX2D_STEPPING_H

#include "_buffers.h"
#include "_crew.h"

#include <structmember.h>

#include <limits.h>
#include <stdint.h>

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

/* ---- the engine: exported functions and field offsets, set by configure() ------------- */

/* The functions, in the order configure() takes their addresses (_engine_layout.FUNCTIONS).
 * Each is a C++ member function: the object comes first. */
typedef struct {
    void (*world_step)(void *world, float dt, int velocity_iterations, int position_iterations);
    void (*set_contact_listener)(void *world, void *listener);
    float (*joint_angle)(void *revolute_joint);
    float (*joint_speed)(void *revolute_joint);
    void (*set_motor_speed)(void *revolute_joint, float speed);
    void (*set_max_motor_torque)(void *revolute_joint, float torque);
} EngineFunctions;

#define ENGINE_FUNCTIONS 6

/* The field offsets, in the order of _engine_layout.LAYOUT, each named by its Box2D 2.3
 * member (_engine_layout.MEMBERS). */
enum {
    BODY_FLAGS,        /* b2Body::m_flags (uint16) */
    AWAKE_FLAG,        /* b2Body::e_awakeFlag: the bit of m_flags, not an offset */
    BODY_POSITION,     /* b2Body::m_xf.p */
    BODY_CENTER,       /* b2Body::m_sweep.c */
    BODY_ANGLE,        /* b2Body::m_sweep.a */
    BODY_VELOCITY,     /* b2Body::m_linearVelocity */
    BODY_SPIN,         /* b2Body::m_angularVelocity */
    BODY_INV_MASS,     /* b2Body::m_invMass */
    BODY_INV_INERTIA,  /* b2Body::m_invI */
    CONTACT_FIXTURE_A, /* b2Contact::m_fixtureA */
    CONTACT_FIXTURE_B, /* b2Contact::m_fixtureB */
    FIXTURE_BODY,      /* b2Fixture::m_body */
    LAYOUT_FIELDS
};

typedef struct {
    int ready;
    EngineFunctions call;
    Py_ssize_t at[LAYOUT_FIELDS];
} Engine;

extern Engine engine;

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

/* b2Body::ApplyLinearImpulse(impulse, point, wake) on an awake dynamic body, in its own
 * single-precision steps: v += invMass * impulse; w += invI * cross(point - c, impulse). */
static inline void
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

/* Raises and returns 0 unless configure() ran. */
int engine_ready(void);

/* ---- the contact listener ---------------------------------------------------------------
 *
 * The world calls its listener through the listener's virtual table. A Listener starts with
 * a table of the same six slots as b2ContactListener's (two destructors, BeginContact,
 * EndContact, PreSolve, PostSolve: _engine_layout.py checks that order in the engine's own
 * table), each a function taking the object first, as a C++ member function does. The
 * rules are both envs' listeners': the hull touching anything ends the episode; two legs
 * report ground contact from their last BeginContact or EndContact. */
typedef struct {
    const void *const *vtable;
    void *hull;
    void *legs[2];
    char game_over;
    char contact[2];
} Listener;

void listener_init(Listener *listener, void *hull, void *left, void *right, int game_over, int left_contact,
                   int right_contact);

/* ---- what a kernel keeps of an episode ------------------------------------------------ */

/* The state a step changes besides the bodies: the contacts, the last step's shaping (the
 * reward is its change) and the time limit's count. */
typedef struct {
    Listener listener;
    double prev_shaping;
    int has_prev;
    long elapsed;
    long limit; /* < 0: no time limit */
} Episode;

/* Take (prev_shaping or None, game_over, left contact, right contact, elapsed, limit or -1). */
int episode_take(Episode *episode, PyObject *state, void *hull, void *left, void *right);
/* (prev_shaping or None, game_over, left contact, right contact, elapsed): as taken. */
PyObject *episode_state(const Episode *episode);

/* The step's reward before costs: the change of the shaping (0 on an episode's first step). */
static inline double
episode_shaping(Episode *episode, double shaping)
{
    double change = episode->has_prev ? shaping - episode->prev_shaping : 0.0;
    episode->prev_shaping = shaping;
    episode->has_prev = 1;
    return change;
}

/* One more step; whether the time limit truncates the episode there (TimeLimit's rule). */
static inline char
episode_count(Episode *episode)
{
    episode->elapsed += 1;
    return episode->limit >= 0 && episode->elapsed >= episode->limit;
}

/* ---- the world a kernel slot steps --------------------------------------------------- */

/* The binding's world (kept alive, so its bodies are), and the env's own listener, which
 * the world gets back when the slot lets go. */
typedef struct {
    PyObject *owner;
    void *world;
    void *python_listener;
} WorldHold;

/* Take ((world, world address, listener address)); the world then reports to `listener`. */
int world_take(WorldHold *hold, PyObject *spec, Listener *listener);
/* The world's own listener back, and the world let go (nothing when not held). */
void world_release(WorldHold *hold);

/* ---- a kernel's slots ----------------------------------------------------------------- */

/* One struct per sub-env, each starting with an `int attached`, let go by `release`. */
typedef struct {
    Py_ssize_t n;
    size_t size;
    char *items;
    void (*release)(void *slot);
} Slots;

/* `n` zeroed slots of `size` bytes (after letting go of any held before). */
int slots_make(Slots *slots, Py_ssize_t n, size_t size, void (*release)(void *slot));
/* Slot `index`; with `attached`, only a slot that is (else a RuntimeError). */
void *slots_get(Slots *slots, PyObject *index, int attached);
void slots_free(Slots *slots);

/* ---- buffers ----------------------------------------------------------------------- */

/* numpy's buffer code for int64 (its "long" where C's long has 64 bits). */
#if LONG_MAX == INT64_MAX
#define INT64_FORMAT "l"
#else
#define INT64_FORMAT "q"
#endif

/* The six buffers of a kernel's step(actions, active, obs, rewards, terminated, truncated). */
typedef struct {
    Py_buffer actions, active, obs, rewards, terminated, truncated;
} StepBuffers;

int step_buffers(StepBuffers *b, PyObject *const *args, Py_ssize_t nargs, Py_ssize_t n, const char *action_format,
                 Py_ssize_t action_size, Py_ssize_t obs_size);
void release_step_buffers(StepBuffers *b);

/* ---- the kernels ------------------------------------------------------------------- */

/* What both kernels keep besides their slots: the crew that steps them and the step under
 * way. A step is begun (its buffers taken and held, the crew's helpers started) and finished
 * (the caller joins them without the GIL); in between the caller may reset the sub-envs the
 * step leaves out. */
typedef struct {
    Crew crew;
    int busy;      /* a call runs without the GIL: no other thread may touch the kernel */
    int in_flight; /* begun and not yet finished */
    StepBuffers buffers;
} Stepping;

void stepping_init(Stepping *stepping);
/* Raises and returns 0 while a step is under way. */
int stepping_idle(const Stepping *stepping);
/* Slot `index` for attach or detach (slots_get): refused while a call runs without the GIL,
 * or while the step under way steps it. */
void *stepping_slot(const Stepping *stepping, Slots *slots, PyObject *index, int attached);
/* set_threads(k): the crew's size (both kernels' method). */
PyObject *stepping_set_threads(Stepping *stepping, PyObject *threads);
/* Start task(context, j) for every sub-env j on the crew's helpers (the buffers are taken). */
void stepping_start(Stepping *stepping, Py_ssize_t n, CrewTask task, void *context);
/* finish(): join the step under way without the GIL, let its buffers go; None. */
PyObject *stepping_finish(Stepping *stepping);
/* step(): what begin() returned (`begun`), the step finished when it began. */
PyObject *stepping_complete(Stepping *stepping, PyObject *begun);
/* The kernel's end: any step under way finished, the helpers let go. */
void stepping_close(Stepping *stepping);

extern PyTypeObject LanderKernelType;
extern PyTypeObject WalkerKernelType;

#endif
