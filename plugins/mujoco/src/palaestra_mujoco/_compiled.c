/*
 * Compiled loops of the MuJoCo suite: the per-row Python of a batch's episode starts (the
 * fast path of _start_draws.py), Python's squares of a column (of _powers.py) and the end of
 * Hopper's and Walker2d's array steps (of _planar.py), one C loop each.
 *
 * random_rows(generators, out): row j of `out` gets what `generators[j].random(out=out[j])`
 * writes. numpy's Generator.random fills a float64 array with its bit generator's
 * next_double, one number after another; this loop calls the same function through the
 * bitgen_t that every numpy BitGenerator exports in its "BitGenerator" capsule (numpy's
 * documented C interface since 1.17, declared below as numpy declares it).
 *
 * gather_rows(objects, name, out): row j of `out` gets `getattr(objects[j], name)`.
 *
 * squares(values, out): out[k] = values[k] ** 2 as Python's float power gives it (CPython's
 * float_pow: libm's pow of the absolute value, a NaN returned as it is), the specification
 * being plain_squares in _powers.py. It stops before a square that overflows (Python raises
 * OverflowError there) and returns how many it wrote.
 *
 * Each row fill stops at the first row it cannot do exactly as numpy would and returns how many
 * rows it filled; the Python spec in _start_draws.py does the rest, numpy's errors
 * included. random_rows stops at a generator whose lock another thread holds (numpy draws
 * under that lock with the GIL released, and a blocking wait here, holding the GIL, could
 * deadlock), or one that is not a numpy Generator; gather_rows at a value that is not a
 * one-dimensional C-contiguous native float64 array of the row's width.
 *
 * upright_ends(buffers, rules, skipped, terminate): UprightWalker.end_batch of every row, its
 * numpy code being the specification (see the function).
 *
 * The module is optional: without a C compiler the package installs without it and
 * _start_draws.py, _powers.py and _planar.py do the same in Python, with the same numbers.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <float.h>
#include <stdbool.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

/* numpy/random/bitgen.h: the functions of a bit generator and its state. */
typedef struct bitgen {
    void *state;
    uint64_t (*next_uint64)(void *st);
    uint32_t (*next_uint32)(void *st);
    double (*next_double)(void *st);
    uint64_t (*next_raw)(void *st);
} bitgen_t;

static PyObject *s_bit_generator, *s_capsule, *s_lock, *s_acquire, *s_release;
static PyObject *s_reset_noise_scale, *s_init_qpos, *s_init_qvel;

/* Fill `row` (of `width` doubles) from `item`: 1 done, 0 left to Python (no error set), -1 error. */
typedef int (*fill_row)(PyObject *item, PyObject *name, double *row, Py_ssize_t width);

/*
 * Row j of `out` from items[j] by `fill` until one is left to Python: how many rows were
 * filled. The items are taken as a tuple of their own (Python run by an attribute lookup
 * cannot change what is looped over), `out` as a writable C-contiguous (len(items), width)
 * float64 buffer, or a TypeError.
 */
static PyObject *
fill_rows(PyObject *items, PyObject *name, PyObject *out, fill_row fill)
{
    PyObject *tuple = PySequence_Tuple(items);
    if (tuple == NULL) {
        return NULL;
    }
    Py_ssize_t rows = PyTuple_GET_SIZE(tuple), j = 0;
    Py_buffer view;
    int taken = PyObject_GetBuffer(out, &view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_WRITABLE) == 0;
    if (!taken || view.ndim != 2 || view.shape[0] != rows || view.itemsize != 8 || strcmp(view.format, "d") != 0) {
        if (taken) {
            PyBuffer_Release(&view);
        }
        Py_DECREF(tuple);
        PyErr_Clear();
        return PyErr_Format(PyExc_TypeError, "out must be a writable C-contiguous float64 array of %zd rows", rows);
    }
    Py_ssize_t width = view.shape[1];
    int done = 1;
    for (; j < rows; j++) {
        done = fill(PyTuple_GET_ITEM(tuple, j), name, (double *)view.buf + j * width, width);
        if (done != 1) {
            break;
        }
    }
    PyBuffer_Release(&view);
    Py_DECREF(tuple);
    return done < 0 ? NULL : PyLong_FromSsize_t(j);
}

/* A generator's doubles, as its random(out=row) draws them. */
static int
random_row(PyObject *generator, PyObject *Py_UNUSED(name), double *row, Py_ssize_t width)
{
    PyObject *bit_generator = PyObject_GetAttr(generator, s_bit_generator);
    if (bit_generator == NULL) {
        PyErr_Clear();
        return 0;
    }
    PyObject *capsule = PyObject_GetAttr(bit_generator, s_capsule);
    PyObject *lock = capsule == NULL ? NULL : PyObject_GetAttr(bit_generator, s_lock);
    Py_DECREF(bit_generator);
    if (lock == NULL) {
        PyErr_Clear();
        Py_XDECREF(capsule);
        return 0;
    }
    int done = 0;
    bitgen_t *bitgen = PyCapsule_IsValid(capsule, "BitGenerator") ? PyCapsule_GetPointer(capsule, "BitGenerator") : NULL;
    PyObject *acquired = bitgen == NULL ? NULL : PyObject_CallMethodOneArg(lock, s_acquire, Py_False);
    if (acquired == Py_True) {
        for (Py_ssize_t k = 0; k < width; k++) {
            row[k] = bitgen->next_double(bitgen->state);
        }
        PyObject *released = PyObject_CallMethodNoArgs(lock, s_release);
        done = released == NULL ? -1 : 1;
        Py_XDECREF(released);
    }
    else if (acquired == NULL && bitgen != NULL) {
        done = -1; /* the lock's own error */
    }
    Py_XDECREF(acquired);
    Py_DECREF(lock);
    Py_DECREF(capsule);
    return done;
}

/* An object's attribute `name`, when it is a 1-D C-contiguous native float64 array of `width`. */
static int
gather_row(PyObject *object, PyObject *name, double *row, Py_ssize_t width)
{
    PyObject *value = PyObject_GetAttr(object, name);
    if (value == NULL) {
        PyErr_Clear(); /* the Python spec raises it */
        return 0;
    }
    Py_buffer source;
    int taken = PyObject_GetBuffer(value, &source, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) == 0;
    Py_DECREF(value);
    if (!taken) {
        PyErr_Clear();
        return 0;
    }
    int exact = source.ndim == 1 && source.shape[0] == width && source.itemsize == 8 && strcmp(source.format, "d") == 0;
    if (exact) {
        memcpy(row, source.buf, (size_t)width * sizeof(double));
    }
    PyBuffer_Release(&source);
    return exact;
}

/* A writable C-contiguous (rows, width) float64 buffer, or 0 (no error set). */
static int
float64_rows(PyObject *object, Py_ssize_t rows, Py_buffer *view)
{
    if (PyObject_GetBuffer(object, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_WRITABLE) != 0) {
        PyErr_Clear();
        return 0;
    }
    if (view->ndim == 2 && view->shape[0] == rows && view->itemsize == 8 && strcmp(view->format, "d") == 0) {
        return 1;
    }
    PyBuffer_Release(view);
    return 0;
}

/* An env's noise half-width when the array path may use it (an exact float or int in [0, DBL_MAX / 2]): 1, else 0. */
static int
noise_half_width(PyObject *env, double *half_width)
{
    PyObject *scale = PyObject_GetAttr(env, s_reset_noise_scale);
    if (scale == NULL) {
        PyErr_Clear();
        return 0;
    }
    int plain = PyFloat_CheckExact(scale) || PyLong_CheckExact(scale);
    *half_width = plain ? PyFloat_AsDouble(scale) : NAN; /* an int as numpy converts it */
    Py_DECREF(scale);
    if (PyErr_Occurred()) {
        PyErr_Clear(); /* an int too large for a float: numpy's error, raised by Python */
        return 0;
    }
    return *half_width >= 0.0 && *half_width <= DBL_MAX / 2; /* NaN fails both */
}

/*
 * uniform_starts(envs, generators, qpos, qvel): row j of qpos and qvel gets
 *     noise = generators[j].uniform(-h, h, nq + nv)      h = envs[j]._reset_noise_scale
 *     envs[j].init_qpos + noise[:nq], envs[j].init_qvel + noise[nq:]
 * (SuiteEnv.start_state with uniform velocity noise), numpy's uniform being low + (high - low) * u
 * of the generator's next doubles u. A row is left to Python, and the loop stops there, when its
 * scale or initial state is not what the loop reads or its generator is not free; nothing is
 * drawn for it. Returns how many rows were filled.
 */
static PyObject *
uniform_starts(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "uniform_starts(envs, generators, qpos, qvel)");
        return NULL;
    }
    PyObject *envs = PySequence_Tuple(args[0]);
    PyObject *generators = envs == NULL ? NULL : PySequence_Tuple(args[1]);
    if (generators == NULL) {
        Py_XDECREF(envs);
        return NULL;
    }
    Py_ssize_t rows = PyTuple_GET_SIZE(envs), j = 0;
    Py_buffer qpos, qvel;
    int fits = PyTuple_GET_SIZE(generators) == rows && float64_rows(args[2], rows, &qpos);
    if (fits && !float64_rows(args[3], rows, &qvel)) {
        PyBuffer_Release(&qpos);
        fits = 0;
    }
    if (!fits) {
        Py_DECREF(envs);
        Py_DECREF(generators);
        return PyErr_Format(PyExc_TypeError, "generators, qpos and qvel must be one per env, "
                            "qpos and qvel writable C-contiguous float64 arrays of %zd rows", rows);
    }
    Py_ssize_t nq = qpos.shape[1], nv = qvel.shape[1];
    double *noise = PyMem_Malloc((size_t)(nq + nv + 1) * sizeof(double));
    int done = noise == NULL ? -1 : 1;
    for (; done == 1 && j < rows; j++) {
        PyObject *env = PyTuple_GET_ITEM(envs, j);
        double *positions = (double *)qpos.buf + j * nq, *velocities = (double *)qvel.buf + j * nv, high;
        /* Checked and gathered first: a row left to Python must not have drawn. */
        done = noise_half_width(env, &high) && gather_row(env, s_init_qpos, positions, nq) &&
               gather_row(env, s_init_qvel, velocities, nv);
        if (done == 1) {
            done = random_row(PyTuple_GET_ITEM(generators, j), NULL, noise, nq + nv);
        }
        if (done != 1) {
            break;
        }
        double low = -high, range = high - low;
        for (Py_ssize_t k = 0; k < nq; k++) {
            positions[k] = positions[k] + (low + range * noise[k]);
        }
        for (Py_ssize_t k = 0; k < nv; k++) {
            velocities[k] = velocities[k] + (low + range * noise[nq + k]);
        }
    }
    PyMem_Free(noise);
    PyBuffer_Release(&qpos);
    PyBuffer_Release(&qvel);
    Py_DECREF(envs);
    Py_DECREF(generators);
    if (done < 0) {
        return PyErr_Occurred() ? NULL : PyErr_NoMemory();
    }
    return PyLong_FromSsize_t(j);
}

static PyObject *
random_rows(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "random_rows(generators, out)");
        return NULL;
    }
    return fill_rows(args[0], NULL, args[1], random_row);
}

static PyObject *
gather_rows(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3 || !PyUnicode_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "gather_rows(objects, name: str, out)");
        return NULL;
    }
    return fill_rows(args[0], args[1], args[2], gather_row);
}

/* The exponent, read at run time: a compiler may turn pow(x, 2.0) into x * x, and libm's pow
 * (what Python's ** calls) need not round every square as the product does. */
static volatile double two = 2.0;

/* Python's a ** 2 of a float (CPython's float_pow, whose own ranges left aside: not NaN, finite
 * result): pow of the absolute value. */
static PyObject *
squares(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "squares(values, out)");
        return NULL;
    }
    Py_buffer in, out;
    if (PyObject_GetBuffer(args[0], &in, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) != 0) {
        return NULL;
    }
    if (PyObject_GetBuffer(args[1], &out, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_WRITABLE) != 0) {
        PyBuffer_Release(&in);
        return NULL;
    }
    Py_ssize_t n = in.len / 8, k = 0;
    int fits = in.ndim == 1 && out.ndim == 1 && in.itemsize == 8 && out.itemsize == 8 && strcmp(in.format, "d") == 0 &&
               strcmp(out.format, "d") == 0 && out.len == in.len;
    if (fits) {
        const double *values = in.buf;
        double *squared = out.buf;
        double exponent = two;
        for (; k < n; k++) {
            double value = values[k];
            if (isnan(value)) {
                squared[k] = value; /* float_pow returns a NaN base itself */
                continue;
            }
            double square = pow(fabs(value), exponent);
            if (isinf(square) && !isinf(value)) {
                break; /* Python raises OverflowError: left to it */
            }
            squared[k] = square;
        }
    }
    PyBuffer_Release(&out);
    PyBuffer_Release(&in);
    if (!fits) {
        PyErr_SetString(PyExc_TypeError, "values and out must be C-contiguous float64 vectors of one length");
        return NULL;
    }
    return PyLong_FromSsize_t(k);
}

/* A rule's number as the array path uses it: an exact float, or an exact int of at most 2**53 (which numpy
 * converts without rounding). 1, else 0 (no error set). */
static int
plain_number(PyObject *value, double *number)
{
    if (PyFloat_CheckExact(value)) {
        *number = PyFloat_AS_DOUBLE(value);
        return 1;
    }
    if (!PyLong_CheckExact(value)) {
        return 0;
    }
    *number = PyLong_AsDouble(value);
    if (PyErr_Occurred()) {
        PyErr_Clear();
        return 0;
    }
    return fabs(*number) <= 9007199254740992.0;
}

/* A writable array of `ndim` dimensions, items of `format` ("d" or "?") side by side in its last dimension (its
 * rows may lie apart, as a batch's fields do), or 0 (no error set). */
static int
array_of(PyObject *object, int ndim, const char *format, Py_buffer *view)
{
    if (PyObject_GetBuffer(object, view, PyBUF_STRIDES | PyBUF_FORMAT | PyBUF_WRITABLE) != 0) {
        PyErr_Clear();
        return 0;
    }
    Py_ssize_t itemsize = format[0] == 'd' ? 8 : 1;
    if (view->ndim == ndim && view->itemsize == itemsize && strcmp(view->format, format) == 0 &&
        view->strides[ndim - 1] == itemsize && (ndim == 1 || view->strides[0] >= view->shape[1] * itemsize)) {
        return 1;
    }
    PyBuffer_Release(view);
    return 0;
}

/* Row r of a two-dimensional buffer taken by array_of. */
static double *
row_of(Py_buffer *view, Py_ssize_t r)
{
    return (double *)((char *)view->buf + r * view->strides[0]);
}

/* upright_ends' buffers, in the order given. */
enum { QPOS, QVEL, OBSERVATIONS, X_BEFORE, CTRL, DT, REWARDS, TERMINATED, X_POSITION, Z_DISTANCE, X_VELOCITY,
       FORWARD, CTRL_REWARD, SURVIVE, BUFFERS };
/* upright_ends' rules, in the order given. */
enum { FORWARD_WEIGHT, HEALTHY_REWARD, Z_LOW, Z_HIGH, ANGLE_LOW, ANGLE_HIGH, STATE_LOW, STATE_HIGH, INIT_Z,
       VELOCITY_BOUND, RULES };

/* The rules as numbers (rule[k]); 0 when one is not a number the loop reads as numpy would. */
static int
upright_rules(PyObject *rules, double *rule, int *state_range, int *clipped)
{
    *state_range = PyTuple_GET_ITEM(rules, STATE_LOW) != Py_None;
    *clipped = PyTuple_GET_ITEM(rules, VELOCITY_BOUND) != Py_None;
    if (!PyFloat_CheckExact(PyTuple_GET_ITEM(rules, HEALTHY_REWARD))) {
        return 0; /* an int's survive column would be int64 */
    }
    for (int k = 0; k < RULES; k++) {
        PyObject *value = PyTuple_GET_ITEM(rules, k);
        int unused = ((k == STATE_LOW || k == STATE_HIGH) && !*state_range) || (k == VELOCITY_BOUND && !*clipped);
        if (unused ? value != Py_None : !plain_number(value, &rule[k])) {
            return 0;
        }
    }
    return !*clipped || rule[VELOCITY_BOUND] > 0.0; /* a positive bound: no signed zeros to tell apart */
}

/* Take the buffers: 1 when all are of upright_ends' shapes for `skipped` positions left out, else 0 (none held). */
static int
upright_buffers(PyObject *objects, Py_ssize_t skipped, Py_buffer *view)
{
    int k = 0;
    for (; k < BUFFERS; k++) {
        int ndim = k <= OBSERVATIONS ? 2 : 1;
        if (!array_of(PyTuple_GET_ITEM(objects, k), ndim, k == TERMINATED ? "?" : "d", &view[k])) {
            break;
        }
    }
    int fits = k == BUFFERS;
    if (fits) {
        Py_ssize_t n = view[QPOS].shape[0], nq = view[QPOS].shape[1], nv = view[QVEL].shape[1];
        fits = nq >= 3 && skipped >= 0 && skipped <= nq && view[QVEL].shape[0] == n && view[OBSERVATIONS].shape[0] == n &&
               view[OBSERVATIONS].shape[1] == nq - skipped + nv;
        for (int j = X_BEFORE; fits && j < BUFFERS; j++) {
            fits = view[j].shape[0] == n;
        }
    }
    if (!fits) {
        while (k > 0) {
            PyBuffer_Release(&view[--k]);
        }
    }
    return fits;
}

/*
 * upright_ends(buffers, rules, skipped, terminate) -> bool: UprightWalker.end_batch of every row (Hopper
 * and Walker2d), whose numpy code is the specification (_planar.py, hopper.py, _locomotion.py):
 *
 *   healthy_batch: (z_low < z) & (z < z_high) & (angle_low < angle) & (angle < angle_high), z and angle
 *                  being qpos[:, 1] and qpos[:, 2]; with a state range (Hopper's), every number of
 *                  qpos[:, 2:] and qvel strictly inside it too (a NaN fails).
 *   _scored:       x_velocity = (x_after - x_before) / dt, forward = forward_weight * x_velocity,
 *                  survive = healthy * healthy_reward, reward = (forward + survive) - ctrl; the columns
 *                  x_position = x_after, z_distance = z_after - init_z and reward_ctrl = -ctrl.
 *   observe_batch: qpos[:, skipped:], then qvel through np.maximum(v, -bound) and np.minimum(v, bound),
 *                  which keep a NaN as it is.
 *   terminated:    ~healthy when terminate, else False.
 *
 * buffers: the BUFFERS arrays: qpos, qvel and observations float64 rows (a row's numbers side by side, the
 * rows anywhere), the others vectors of N, terminated bool, the rest float64. rules: the RULES numbers,
 * STATE_LOW and STATE_HIGH None without a state range, VELOCITY_BOUND None without clipping.
 * Returns False having written nothing when a rule is not a number read as numpy reads it (an int healthy
 * reward makes an int64 column) or a buffer is not of those shapes: the caller's numpy does the batch then.
 */
static PyObject *
upright_ends(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4 || !PyTuple_Check(args[0]) || PyTuple_GET_SIZE(args[0]) != BUFFERS || !PyTuple_Check(args[1]) ||
        PyTuple_GET_SIZE(args[1]) != RULES || !PyLong_Check(args[2])) {
        PyErr_SetString(PyExc_TypeError, "upright_ends(buffers: 14-tuple, rules: 10-tuple, skipped: int, terminate)");
        return NULL;
    }
    double rule[RULES];
    int state_range, clipped;
    Py_ssize_t skipped = PyLong_AsSsize_t(args[2]);
    int terminate = PyObject_IsTrue(args[3]);
    if (PyErr_Occurred()) {
        return NULL;
    }
    Py_buffer view[BUFFERS];
    if (!upright_rules(args[1], rule, &state_range, &clipped) || !upright_buffers(args[0], skipped, view)) {
        return Py_NewRef(Py_False);
    }
    Py_ssize_t n = view[QPOS].shape[0], nq = view[QPOS].shape[1], nv = view[QVEL].shape[1], split = nq - skipped;
    const double *x_before = view[X_BEFORE].buf, *ctrl = view[CTRL].buf, *dt = view[DT].buf;
    double *rewards = view[REWARDS].buf, *x_position = view[X_POSITION].buf, *z_distance = view[Z_DISTANCE].buf;
    double *x_velocity = view[X_VELOCITY].buf, *forward = view[FORWARD].buf, *ctrl_reward = view[CTRL_REWARD].buf;
    double *survive = view[SURVIVE].buf, low = rule[STATE_LOW], high = rule[STATE_HIGH], bound = rule[VELOCITY_BOUND];
    bool *terminated = view[TERMINATED].buf;
    for (Py_ssize_t r = 0; r < n; r++) {
        const double *positions = row_of(&view[QPOS], r), *velocities = row_of(&view[QVEL], r);
        double *observation = row_of(&view[OBSERVATIONS], r);
        double z = positions[1], angle = positions[2];
        /* healthy_batch */
        bool healthy = (rule[Z_LOW] < z) & (z < rule[Z_HIGH]) & (rule[ANGLE_LOW] < angle) & (angle < rule[ANGLE_HIGH]);
        for (Py_ssize_t k = 2; state_range && healthy && k < nq + nv; k++) {
            double value = k < nq ? positions[k] : velocities[k - nq];
            healthy = low < value && value < high;
        }
        /* _scored */
        x_position[r] = positions[0];
        x_velocity[r] = (positions[0] - x_before[r]) / dt[r];
        forward[r] = rule[FORWARD_WEIGHT] * x_velocity[r];
        survive[r] = (healthy ? 1.0 : 0.0) * rule[HEALTHY_REWARD];
        z_distance[r] = z - rule[INIT_Z];
        ctrl_reward[r] = -ctrl[r];
        rewards[r] = (forward[r] + survive[r]) - ctrl[r];
        /* observe_batch */
        memcpy(observation, positions + skipped, (size_t)split * sizeof(double));
        for (Py_ssize_t k = 0; k < nv; k++) {
            double value = velocities[k];
            if (clipped && !isnan(value)) {
                value = value < -bound ? -bound : value;
                value = value > bound ? bound : value;
            }
            observation[split + k] = value;
        }
        terminated[r] = terminate && !healthy;
    }
    for (int k = 0; k < BUFFERS; k++) {
        PyBuffer_Release(&view[k]);
    }
    return Py_NewRef(Py_True);
}

static PyMethodDef methods[] = {
    {"random_rows", (PyCFunction)(void (*)(void))random_rows, METH_FASTCALL,
     "random_rows(generators, out) -> rows filled: row j as generators[j].random(out=out[j])."},
    {"gather_rows", (PyCFunction)(void (*)(void))gather_rows, METH_FASTCALL,
     "gather_rows(objects, name, out) -> rows filled: row j as getattr(objects[j], name)."},
    {"squares", (PyCFunction)(void (*)(void))squares, METH_FASTCALL,
     "squares(values, out) -> how many written: out[k] as float(values[k]) ** 2 (stops before an overflow)."},
    {"uniform_starts", (PyCFunction)(void (*)(void))uniform_starts, METH_FASTCALL,
     "uniform_starts(envs, generators, qpos, qvel) -> rows filled: each env's start state with uniform noise."},
    {"upright_ends", (PyCFunction)(void (*)(void))upright_ends, METH_FASTCALL,
     "upright_ends(buffers, rules, skipped, terminate) -> whether done: UprightWalker.end_batch of every row."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef compiled_module = {
    PyModuleDef_HEAD_INIT,
    "palaestra_mujoco._compiled",
    "Compiled row fills of the MuJoCo suite's batch starts (_start_draws.py) and Python's squares (_powers.py).",
    -1,
    methods,
};

PyMODINIT_FUNC
PyInit__compiled(void)
{
    s_bit_generator = PyUnicode_InternFromString("bit_generator");
    s_capsule = PyUnicode_InternFromString("capsule");
    s_lock = PyUnicode_InternFromString("lock");
    s_acquire = PyUnicode_InternFromString("acquire");
    s_release = PyUnicode_InternFromString("release");
    s_reset_noise_scale = PyUnicode_InternFromString("_reset_noise_scale");
    s_init_qpos = PyUnicode_InternFromString("init_qpos");
    s_init_qvel = PyUnicode_InternFromString("init_qvel");
    if (!s_bit_generator || !s_capsule || !s_lock || !s_acquire || !s_release || !s_reset_noise_scale || !s_init_qpos ||
        !s_init_qvel) {
        return NULL;
    }
    return PyModule_Create(&compiled_module);
}
