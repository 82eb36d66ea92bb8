/*
 * Compiled float32 kernels for the classic-control envs.
 *
 * Gymnasium 1.4.0 computes MountainCarContinuous's step with numpy float32 scalars. Each
 * numpy float32 operation is the exact result rounded to float32 once. For a sum or
 * product of two float32 numbers, rounding first to double and then to float gives the
 * same float (a product is even exact in double; for sums, double has more than twice
 * float's precision, which makes the double rounding harmless). So "compute in double,
 * convert to float" gives numpy's bits. Every conversion below marks a rounding the
 * reference performs; none may be dropped or merged.
 *
 * The module is optional: without a C compiler at install time the envs run the same
 * arithmetic in Python (continuous_mountain_car.py) and give the same numbers, slower.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>

/* The float32 constants tuple built by Continuous_MountainCarEnv._constants_changed. */
enum {
    LOW_FORCE,
    HIGH_FORCE,
    LEFT,
    RIGHT,
    TOP_SPEED,
    GOAL_POSITION,
    GOAL_VELOCITY,
    POWER,
    N_CONSTANTS
};

static int
read_constants(PyObject *constants, double out[N_CONSTANTS])
{
    if (!PyTuple_CheckExact(constants) || PyTuple_GET_SIZE(constants) != N_CONSTANTS) {
        PyErr_SetString(PyExc_TypeError, "constants must be a tuple of 8 floats");
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

    /* A clipped force (or NaN) is handled by the Python step: clipping to a Python
     * constant makes Gymnasium 1.4.0 mix doubles into the float32 arithmetic. */
    if (!(k[LOW_FORCE] <= force && force <= k[HIGH_FORCE])) {
        Py_RETURN_NONE;
    }
    double angle = (float)(3.0 * position);
    double gravity = (float)(0.0025 * cos(angle));  /* the double product, then float32 */
    double push = (float)(force * k[POWER]);
    double change = (float)(push - gravity);
    velocity = (float)(velocity + change);
    if (!(-k[TOP_SPEED] <= velocity && velocity <= k[TOP_SPEED])) {
        Py_RETURN_NONE;  /* the speed limit: also the Python step's business */
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

static PyMethodDef kernel_methods[] = {
    {"mountain_car_continuous_move", (PyCFunction)(void (*)(void))mountain_car_continuous_move,
     METH_FASTCALL,
     "mountain_car_continuous_move(position, velocity, force, constants)\n--\n\n"
     "One in-bounds MountainCarContinuous step in float32: (position, velocity, terminated,\n"
     "reward), or None when the force is clipped or a speed or position bound is reached."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef kernel_module = {
    PyModuleDef_HEAD_INIT,
    "palaestra_classic_control._float32_kernels",
    "Compiled float32 arithmetic of the classic-control envs (optional; same numbers as Python).",
    -1,
    kernel_methods,
};

PyMODINIT_FUNC
PyInit__float32_kernels(void)
{
    return PyModule_Create(&kernel_module);
}
