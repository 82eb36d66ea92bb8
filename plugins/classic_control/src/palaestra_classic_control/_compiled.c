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

static PyMethodDef kernel_methods[] = {
    {"cartpole_integrate", (PyCFunction)(void (*)(void))cartpole_integrate, METH_FASTCALL,
     "cartpole_integrate(state, force, constants, out, failed)\n--\n\n"
     "cartpole.integrate and cartpole.failed for every column of a (4, n) float64 state:\n"
     "the new state goes in out, the failure flags in failed (n bools)."},
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
