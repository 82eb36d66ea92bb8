/*
 * Compiled kernels of the classic-control envs (the fast paths of _kernels.py).
 *
 * Each function computes exactly what a Python function of an env module computes, with
 * the same operations in the same order. Nothing may be fused into a multiply-add (that
 * rounds once instead of twice): the build passes -ffp-contract=off, and the pragma below
 * says the same to compilers that read it.
 *
 * MountainCarContinuous's step:
 *
 * Gymnasium 1.4.0 computes MountainCarContinuous's step with numpy float32 scalars. Each
 * numpy float32 operation is the exact result rounded to float32 once. For a sum or
 * product of two float32 numbers, rounding first to double and then to float gives the
 * same float (a product is even exact in double; for sums, double has more than twice
 * float's precision, which makes the double rounding harmless). So "compute in double,
 * convert to float" gives numpy's bits. Every conversion below marks a rounding the
 * reference performs; none may be dropped or merged.
 *
 * The module is optional: without a C compiler at install time the envs run their plain
 * steps (continuous_mountain_car.py's numpy-scalar step, cartpole.integrate on arrays) and
 * give the same numbers, slower.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <string.h>

#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

/* The constants tuple built by Continuous_MountainCarEnv._constants_changed: eight float32
 * values, then the valley's gravity as the double it is (Gymnasium multiplies it in double). */
enum {
    LOW_FORCE,
    HIGH_FORCE,
    LEFT,
    RIGHT,
    TOP_SPEED,
    GOAL_POSITION,
    GOAL_VELOCITY,
    POWER,
    VALLEY_GRAVITY,
    N_CONSTANTS
};

static int
read_constants(PyObject *constants, double out[N_CONSTANTS])
{
    if (!PyTuple_CheckExact(constants) || PyTuple_GET_SIZE(constants) != N_CONSTANTS) {
        PyErr_SetString(PyExc_TypeError, "constants must be a tuple of 9 floats");
        return -1;
    }
    for (Py_ssize_t i = 0; i < N_CONSTANTS; i++) {
        out[i] = PyFloat_AsDouble(PyTuple_GET_ITEM(constants, i));
        if (out[i] == -1.0 && PyErr_Occurred()) {
            return -1;
        }
    }
    return 0;
}

static PyObject *
mountain_car_continuous_move(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    double k[N_CONSTANTS];
    if (nargs != 4) {
        PyErr_Format(PyExc_TypeError,
                     "mountain_car_continuous_move(position, velocity, force, constants) "
                     "takes 4 arguments, got %zd", nargs);
        return NULL;
    }
    double position = PyFloat_AsDouble(args[0]);
    double velocity = PyFloat_AsDouble(args[1]);
    double force = PyFloat_AsDouble(args[2]);
    if (PyErr_Occurred() || read_constants(args[3], k) < 0) {
        return NULL;
    }

    /* A clipped force (or NaN) is left to the plain step: clipping to a Python constant
     * makes Gymnasium 1.4.0 mix doubles into the float32 arithmetic. */
    if (!(k[LOW_FORCE] <= force && force <= k[HIGH_FORCE])) {
        Py_RETURN_NONE;
    }
    double angle = (float)(3.0 * position);
    double gravity = (float)(k[VALLEY_GRAVITY] * cos(angle));  /* the double product, then float32 */
    double push = (float)(force * k[POWER]);
    double change = (float)(push - gravity);
    velocity = (float)(velocity + change);
    if (!(-k[TOP_SPEED] <= velocity && velocity <= k[TOP_SPEED])) {
        Py_RETURN_NONE;  /* the speed limit: also the plain step's business */
    }
    position = (float)(position + velocity);
    if (!(k[LEFT] < position && position <= k[RIGHT])) {
        Py_RETURN_NONE;  /* an end of the track or the left wall */
    }
    int terminated = position >= k[GOAL_POSITION] && velocity >= k[GOAL_VELOCITY];

    /* force * force is exact (a float32 squared); volatile keeps a compiler from fusing
     * the scaling into the subtraction (one rounding fewer than Gymnasium 1.4.0). */
    volatile double penalty = force * force * 0.1;
    double reward = (terminated ? 100.0 : 0.0) - penalty;

    PyObject *result = PyTuple_New(4);
    if (result == NULL) {
        return NULL;
    }
    PyObject *items[4] = {
        PyFloat_FromDouble(position),
        PyFloat_FromDouble(velocity),
        PyBool_FromLong(terminated),
        PyFloat_FromDouble(reward),
    };
    for (int i = 0; i < 4; i++) {
        if (items[i] == NULL) {
            Py_DECREF(result);
            for (int j = i + 1; j < 4; j++) {
                Py_XDECREF(items[j]);
            }
            return NULL;
        }
        PyTuple_SET_ITEM(result, i, items[i]);
    }
    return result;
}

/* The constants tuple built by cartpole.dynamics_constants plus the two failure limits. */
enum {
    POLEMASS_LENGTH,
    TOTAL_MASS,
    GRAVITY,
    LENGTH,
    MASSPOLE,
    TAU,
    EULER,
    X_THRESHOLD,
    THETA_THRESHOLD,
    N_CARTPOLE
};

/* A C-contiguous buffer of `count` items of `format` (writable when asked). */
static int
get_buffer(PyObject *obj, Py_buffer *view, const char *format, Py_ssize_t itemsize, Py_ssize_t count,
           int writable, const char *name)
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

static PyObject *
cartpole_integrate(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    double k[N_CARTPOLE];
    if (nargs != 5) {
        PyErr_Format(PyExc_TypeError,
                     "cartpole_integrate(state, force, constants, out, failed) takes 5 arguments, got %zd",
                     nargs);
        return NULL;
    }
    if (!PyTuple_CheckExact(args[2]) || PyTuple_GET_SIZE(args[2]) != N_CARTPOLE) {
        PyErr_SetString(PyExc_TypeError, "constants must be a tuple of 9 numbers");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < N_CARTPOLE; i++) {
        k[i] = PyFloat_AsDouble(PyTuple_GET_ITEM(args[2], i));
        if (k[i] == -1.0 && PyErr_Occurred()) {
            return NULL;
        }
    }
    Py_buffer force, state, out, failed;
    if (PyObject_GetBuffer(args[1], &force, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
        return NULL;
    }
    Py_ssize_t n = force.len / (Py_ssize_t)sizeof(double);
    PyBuffer_Release(&force);
    if (get_buffer(args[1], &force, "d", sizeof(double), n, 0, "force") < 0) {
        return NULL;
    }
    if (get_buffer(args[0], &state, "d", sizeof(double), 4 * n, 0, "state") < 0) {
        PyBuffer_Release(&force);
        return NULL;
    }
    if (get_buffer(args[3], &out, "d", sizeof(double), 4 * n, 1, "out") < 0) {
        PyBuffer_Release(&force);
        PyBuffer_Release(&state);
        return NULL;
    }
    if (get_buffer(args[4], &failed, "?", 1, n, 1, "failed") < 0) {
        PyBuffer_Release(&force);
        PyBuffer_Release(&state);
        PyBuffer_Release(&out);
        return NULL;
    }
    const double *s = state.buf, *f = force.buf;
    double *o = out.buf;
    unsigned char *done = failed.buf;
    const double pml = k[POLEMASS_LENGTH], total = k[TOTAL_MASS], g = k[GRAVITY];
    const double length = k[LENGTH], mp = k[MASSPOLE], tau = k[TAU];
    const double xl = k[X_THRESHOLD], al = k[THETA_THRESHOLD];
    const int euler = k[EULER] != 0.0;
    for (Py_ssize_t i = 0; i < n; i++) {
        /* cartpole.integrate, operation by operation, in its order. */
        double x = s[i], x_dot = s[n + i], theta = s[2 * n + i], theta_dot = s[3 * n + i];
        double costheta = cos(theta), sintheta = sin(theta);
        double temp = (f[i] + pml * (theta_dot * theta_dot) * sintheta) / total;
        double thetaacc = (g * sintheta - costheta * temp)
                          / (length * (4.0 / 3.0 - mp * (costheta * costheta) / total));
        double xacc = temp - pml * thetaacc * costheta / total;
        if (euler) {
            x = x + tau * x_dot;
            x_dot = x_dot + tau * xacc;
            theta = theta + tau * theta_dot;
            theta_dot = theta_dot + tau * thetaacc;
        } else {
            x_dot = x_dot + tau * xacc;
            theta_dot = theta_dot + tau * thetaacc;
            x = x + tau * x_dot;
            theta = theta + tau * theta_dot;
        }
        o[i] = x;
        o[n + i] = x_dot;
        o[2 * n + i] = theta;
        o[3 * n + i] = theta_dot;
        done[i] = (x < -xl) | (x > xl) | (theta < -al) | (theta > al);  /* cartpole.failed */
    }
    PyBuffer_Release(&force);
    PyBuffer_Release(&state);
    PyBuffer_Release(&out);
    PyBuffer_Release(&failed);
    Py_RETURN_NONE;
}

/* acrobot.step_state's constants, as acrobot_constants in _kernels.py folds them (each
 * product or sum of constants computed by Python in the order acrobot.dsdt writes it). */
enum {
    AC_M2,          /* LINK_MASS_2 */
    AC_INERTIA,     /* LINK_MOI */
    AC_MASS11_A,    /* m1 * r1**2 */
    AC_MASS11_B,    /* l1**2 + r2**2 */
    AC_LR2,         /* 2 * l1 * r2 */
    AC_R2SQ,        /* r2**2 */
    AC_L1R2,        /* l1 * r2 */
    AC_GRAV2,       /* m2 * r2 * g */
    AC_VEL_A,       /* -m2 * l1 * r2 */
    AC_VEL_B,       /* 2 * m2 * l1 * r2 */
    AC_GRAV1,       /* (m1 * r1 + m2 * l1) * g */
    AC_BOOK,        /* m2 * l1 * r2 (the book's extra term) */
    AC_DENOM,       /* m2 * r2**2 + inertia */
    AC_USE_BOOK,    /* 1.0 for the book's dynamics, 0.0 for the NIPS paper's */
    AC_DT,
    AC_MAX_VEL_1,
    AC_MAX_VEL_2,
    N_ACROBOT
};

/* libm's pow, called for real: a compiler would turn pow(x, 2.0) into x * x, which is not
 * always pow's result in the last bit (Python's x**2 calls pow). */
static double (*volatile acrobot_pow)(double, double) = pow;

/* acrobot.dsdt for one state; writes the four derivatives (the torque's is 0). */
static void
acrobot_dsdt(const double k[N_ACROBOT], const double y[5], double out[4])
{
    const double theta1 = y[0], theta2 = y[1], omega1 = y[2], omega2 = y[3], torque = y[4];
    const double m2 = k[AC_M2], inertia = k[AC_INERTIA];
    const double cos2 = cos(theta2), sin2 = sin(theta2);
    const double mass_11 = k[AC_MASS11_A] + m2 * (k[AC_MASS11_B] + k[AC_LR2] * cos2) + inertia + inertia;
    const double mass_12 = m2 * (k[AC_R2SQ] + k[AC_L1R2] * cos2) + inertia;
    const double gravity_2 = k[AC_GRAV2] * cos(theta1 + theta2 - M_PI / 2.0);
    const double velocity_terms = k[AC_VEL_A] * acrobot_pow(omega2, 2.0) * sin2
                                  - k[AC_VEL_B] * omega2 * omega1 * sin2;
    const double gravity_1 = velocity_terms + k[AC_GRAV1] * cos(theta1 - M_PI / 2.0) + gravity_2;
    double drive = torque + mass_12 / mass_11 * gravity_1;
    if (k[AC_USE_BOOK] != 0.0) {
        drive = drive - k[AC_BOOK] * acrobot_pow(omega1, 2.0) * sin2;
    }
    const double alpha2 = (drive - gravity_2) / (k[AC_DENOM] - acrobot_pow(mass_12, 2.0) / mass_11);
    out[0] = omega1;
    out[1] = omega2;
    out[2] = -(mass_12 * alpha2 + gravity_1) / mass_11;
    out[3] = alpha2;
}

/* acrobot.step_state for one acrobot: RK4 over dt, angles wrapped, speeds bounded. */
static int
acrobot_advance(const double k[N_ACROBOT], const double s[4], double torque, double out[4])
{
    const double dt = k[AC_DT], dt2 = dt / 2.0, sixth = dt / 6.0;
    double y[5], k1[4], k2[4], k3[4], k4[4];
    /* The torque's derivative is 0.0: acrobot.rk4 still adds dt2 * 0.0 to it. */
    const double tq_half = torque + dt2 * 0.0, tq_full = torque + dt * 0.0;
    for (int j = 0; j < 4; j++) y[j] = s[j];
    y[4] = torque;
    acrobot_dsdt(k, y, k1);
    for (int j = 0; j < 4; j++) y[j] = s[j] + dt2 * k1[j];
    y[4] = tq_half;
    acrobot_dsdt(k, y, k2);
    for (int j = 0; j < 4; j++) y[j] = s[j] + dt2 * k2[j];
    acrobot_dsdt(k, y, k3);
    for (int j = 0; j < 4; j++) y[j] = s[j] + dt * k3[j];
    y[4] = tq_full;
    acrobot_dsdt(k, y, k4);
    for (int j = 0; j < 4; j++) {
        out[j] = s[j] + sixth * (k1[j] + 2 * k2[j] + 2 * k3[j] + k4[j]);
    }
    const double span = M_PI - -M_PI;
    for (int j = 0; j < 2; j++) { /* acrobot.wrap: whole periods, one at a time */
        while (out[j] > M_PI) out[j] = out[j] - span;
        while (out[j] < -M_PI) out[j] = out[j] + span;
    }
    const double limits[2] = {k[AC_MAX_VEL_1], k[AC_MAX_VEL_2]};
    for (int j = 0; j < 2; j++) { /* acrobot.bound (NaN stays NaN, as numpy's clip) */
        double v = out[2 + j];
        out[2 + j] = v < -limits[j] ? -limits[j] : (v > limits[j] ? limits[j] : v);
    }
    return -cos(out[0]) - cos(out[1] + out[0]) > 1.0;
}

static PyObject *
acrobot_step(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    double k[N_ACROBOT];
    if (nargs != 6) {
        PyErr_Format(PyExc_TypeError,
                     "acrobot_step(state, torque, constants, out, observation, terminated) takes 6 arguments, "
                     "got %zd", nargs);
        return NULL;
    }
    if (!PyTuple_CheckExact(args[2]) || PyTuple_GET_SIZE(args[2]) != N_ACROBOT) {
        PyErr_Format(PyExc_TypeError, "constants must be a tuple of %d numbers", (int)N_ACROBOT);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < N_ACROBOT; i++) {
        k[i] = PyFloat_AsDouble(PyTuple_GET_ITEM(args[2], i));
        if (k[i] == -1.0 && PyErr_Occurred()) {
            return NULL;
        }
    }
    Py_buffer torque, state, out, obs, terminated;
    if (PyObject_GetBuffer(args[1], &torque, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
        return NULL;
    }
    Py_ssize_t n = torque.len / (Py_ssize_t)sizeof(double);
    PyBuffer_Release(&torque);
    if (get_buffer(args[1], &torque, "d", sizeof(double), n, 0, "torque") < 0) {
        return NULL;
    }
    if (get_buffer(args[0], &state, "d", sizeof(double), 4 * n, 0, "state") < 0) {
        PyBuffer_Release(&torque);
        return NULL;
    }
    if (get_buffer(args[3], &out, "d", sizeof(double), 4 * n, 1, "out") < 0) {
        PyBuffer_Release(&torque);
        PyBuffer_Release(&state);
        return NULL;
    }
    if (get_buffer(args[4], &obs, "f", sizeof(float), 6 * n, 1, "observation") < 0) {
        PyBuffer_Release(&torque);
        PyBuffer_Release(&state);
        PyBuffer_Release(&out);
        return NULL;
    }
    if (get_buffer(args[5], &terminated, "?", 1, n, 1, "terminated") < 0) {
        PyBuffer_Release(&torque);
        PyBuffer_Release(&state);
        PyBuffer_Release(&out);
        PyBuffer_Release(&obs);
        return NULL;
    }
    const double *s = state.buf, *tq = torque.buf;
    double *o = out.buf;
    float *ob = obs.buf;
    unsigned char *done = terminated.buf;
    for (Py_ssize_t i = 0; i < n; i++) {
        double *row = o + 4 * i;
        done[i] = (unsigned char)acrobot_advance(k, s + 4 * i, tq[i], row);
        /* acrobot.observation, in double then rounded to float32 as numpy's cast rounds. */
        float *ro = ob + 6 * i;
        ro[0] = (float)cos(row[0]);
        ro[1] = (float)sin(row[0]);
        ro[2] = (float)cos(row[1]);
        ro[3] = (float)sin(row[1]);
        ro[4] = (float)row[2];
        ro[5] = (float)row[3];
    }
    PyBuffer_Release(&torque);
    PyBuffer_Release(&state);
    PyBuffer_Release(&out);
    PyBuffer_Release(&obs);
    PyBuffer_Release(&terminated);
    Py_RETURN_NONE;
}

static PyMethodDef kernel_methods[] = {
    {"cartpole_integrate", (PyCFunction)(void (*)(void))cartpole_integrate, METH_FASTCALL,
     "cartpole_integrate(state, force, constants, out, failed)\n--\n\n"
     "cartpole.integrate and cartpole.failed for every column of a (4, n) float64 state:\n"
     "the new state goes in out, the failure flags in failed (n bools)."},
    {"acrobot_step", (PyCFunction)(void (*)(void))acrobot_step, METH_FASTCALL,
     "acrobot_step(state, torque, constants, out, observation, terminated)\n--\n\n"
     "acrobot.step_state and acrobot.observation for every row of an (n, 4) float64 state:\n"
     "the new state goes in out, the (n, 6) float32 observation in observation, the\n"
     "terminations in terminated (n bools)."},
    {"mountain_car_continuous_move", (PyCFunction)(void (*)(void))mountain_car_continuous_move,
     METH_FASTCALL,
     "mountain_car_continuous_move(position, velocity, force, constants)\n--\n\n"
     "One in-bounds MountainCarContinuous step in float32: (position, velocity, terminated,\n"
     "reward), or None when the force is clipped or a speed or position bound is reached."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef kernel_module = {
    PyModuleDef_HEAD_INIT,
    "palaestra_classic_control._compiled",
    "Compiled kernels of the classic-control envs (optional; the same numbers as Python).",
    -1,
    kernel_methods,
};

PyMODINIT_FUNC
PyInit__compiled(void)
{
    return PyModule_Create(&kernel_module);
}
