/*
 * Compiled loops of the MuJoCo suite: the per-row Python of a batch's episode starts (the
 * fast path of _start_draws.py), Python's squares of a column (of _powers.py) and the end of
 * some envs' array steps (of their plain_end_batch), one C loop each.
 *
 * random_rows(generators, out): row j of `out` gets what `generators[j].random(out=out[j])`
 * writes. numpy's Generator.random fills a float64 array with its bit generator's
 * next_double, one number after another; this loop calls the same function through the
 * bitgen_t that every numpy BitGenerator exports in its "BitGenerator" capsule (numpy's
 * documented C interface since 1.17, declared in _bitgen.h as numpy declares it).
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
 * zero_rows(arrays, rows): started episodes' rows of a batch's fields zeroed (of _batch_sim.py).
 *
 * copy_pairs(pairs): the copies between a batch's arrays and each sub-env's own fields, in the thread that
 * steps it (of _gathered_sim.py, whose numpy copies are the specification).
 *
 * weighted_sums(weights, rows, out): Humanoid's mass centres, each row's np.einsum("b,bj->j") as numpy sums
 * it here (of _row_sums.py, which checks the two equal at run time).
 *
 * square_sums(values, out): each row's np.square(row).sum() as numpy's pairwise summation gives
 * it, the specification being _pairwise_rows in _row_sums.py.
 *
 * observe_rows(qpos, qvel, observations, rows, skipped, velocity_bound): SuiteEnv.observe_batch of
 * the rows where episodes started (of _locomotion.py); pendulum_observe_rows: InvertedDoublePendulum's.
 *
 * all_finite(array): np.isfinite(array).all() of a batch of actions (of MujocoVectorEnv.check_actions).
 *
 * tally_step(buffers, limit, resetting): the step counts, truncations and done flags after a batch step (of
 * BatchedVectorEnv.tally_step in the core).
 *
 * upright_ends, forward_ends, balanced_ends, pendulum_ends and walk_ends: the end of an array step of Hopper
 * and Walker2d, of HalfCheetah, of InvertedPendulum, of InvertedDoublePendulum and of Ant and Humanoid, each row as
 * the env's numpy plain_end_batch computes it (the specification; see each function).
 *
 * The module is optional: without a C compiler the package installs without it and
 * _start_draws.py, _powers.py and the envs' plain_end_batch do the same in Python, with the same numbers.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <float.h>
#include <stdbool.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "_bitgen.h"

static PyObject *s_bit_generator, *s_capsule, *s_lock, *s_acquire, *s_release;
static PyObject *s_reset_noise_scale, *s_init_qpos, *s_init_qvel, *s_timestep;

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

/* numpy's standard normal of a bit generator (random_standard_normal of numpy's libnpyrandom, handed over by
 * the optional _normals module in a capsule). */
typedef double (*standard_normal_fn)(bitgen_t *bitgen);

/*
 * A bit generator's draws under its lock, as numpy draws them: `doubles` of its next_double (what random(out=)
 * and uniform take), then `normals` of `normal` (what standard_normal takes). 1 done, 0 left to Python (its
 * lock held by another thread: nothing drawn), -1 an error. draw_row: the same of a Generator (0 also when
 * it is not a numpy Generator).
 */
static int
draw_locked(PyObject *lock, bitgen_t *bitgen, double *row, Py_ssize_t doubles, Py_ssize_t normals,
            standard_normal_fn normal)
{
    PyObject *acquired = PyObject_CallMethodOneArg(lock, s_acquire, Py_False);
    if (acquired == NULL) {
        return -1; /* the lock's own error */
    }
    Py_DECREF(acquired);
    if (acquired != Py_True) {
        return 0; /* another thread draws: left to numpy, which waits for it */
    }
    for (Py_ssize_t k = 0; k < doubles; k++) {
        row[k] = bitgen->next_double(bitgen->state);
    }
    for (Py_ssize_t k = 0; k < normals; k++) {
        row[doubles + k] = normal(bitgen);
    }
    PyObject *released = PyObject_CallMethodNoArgs(lock, s_release);
    Py_XDECREF(released);
    return released == NULL ? -1 : 1;
}

static int
draw_row(PyObject *generator, double *row, Py_ssize_t doubles, Py_ssize_t normals, standard_normal_fn normal)
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
    bitgen_t *bitgen = PyCapsule_IsValid(capsule, "BitGenerator") ? PyCapsule_GetPointer(capsule, "BitGenerator") : NULL;
    int done = bitgen == NULL ? 0 : draw_locked(lock, bitgen, row, doubles, normals, normal);
    Py_DECREF(lock);
    Py_DECREF(capsule);
    return done;
}

/* A generator's doubles, as its random(out=row) draws them. */
static int
random_row(PyObject *generator, PyObject *Py_UNUSED(name), double *row, Py_ssize_t width)
{
    return draw_row(generator, row, width, 0, NULL);
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

/* A writable float64 array of (rows, width) whose rows' numbers lie side by side (the rows anywhere), or 0. */
static int
float64_strided_rows(PyObject *object, Py_buffer *view)
{
    if (PyObject_GetBuffer(object, view, PyBUF_STRIDES | PyBUF_FORMAT | PyBUF_WRITABLE) != 0) {
        PyErr_Clear();
        return 0;
    }
    if (view->ndim == 2 && view->itemsize == 8 && strcmp(view->format, "d") == 0 && view->strides[1] == 8 &&
        view->strides[0] >= view->shape[1] * 8) {
        return 1;
    }
    PyBuffer_Release(view);
    return 0;
}

/*
 * Row `row` of the batch's qpos and qvel from an env's initial state and its draws (start_state's sums):
 * init_qpos + uniform(-h, h) of the first nq draws, init_qvel + uniform(-h, h) of the next nv (uniform
 * velocity noise) or + h * the nv normals (normal velocity noise).
 */
static void
place_start(const Py_buffer *qpos, const Py_buffer *qvel, Py_ssize_t row, const double *init_qpos,
            const double *init_qvel, const double *noise, double high, int normal)
{
    Py_ssize_t nq = qpos->shape[1], nv = qvel->shape[1];
    double low = -high, range = high - low;
    double *positions = (double *)((char *)qpos->buf + row * qpos->strides[0]);
    double *velocities = (double *)((char *)qvel->buf + row * qvel->strides[0]);
    for (Py_ssize_t k = 0; k < nq; k++) {
        positions[k] = init_qpos[k] + (low + range * noise[k]);
    }
    for (Py_ssize_t k = 0; k < nv; k++) {
        double velocity_noise = normal ? high * noise[nq + k] : low + range * noise[nq + k];
        velocities[k] = init_qvel[k] + velocity_noise;
    }
}

/*
 * The starts of SuiteEnv.start_state: row rows[j] of qpos and qvel gets, h = envs[j]._reset_noise_scale,
 *     uniform velocity noise (normal NULL):
 *         noise = generators[j].uniform(-h, h, nq + nv)
 *         envs[j].init_qpos + noise[:nq], envs[j].init_qvel + noise[nq:]
 *     normal velocity noise:
 *         envs[j].init_qpos + generators[j].uniform(-h, h, nq), envs[j].init_qvel + h * generators[j].standard_normal(nv)
 * numpy's uniform being low + (high - low) * u of the generator's next doubles u, its standard_normal
 * `normal` of the bit generator; qpos and qvel are the batch's arrays (a row's numbers side by side, the
 * rows anywhere). A start is left to Python, and the loop stops there, when its scale or initial state is
 * not what the loop reads or its generator is not free; nothing is drawn for it and its row is untouched.
 * Returns how many starts were done.
 */
static PyObject *
starts(PyObject *const *args, standard_normal_fn normal)
{
    PyObject *envs = PySequence_Tuple(args[0]);
    PyObject *generators = envs == NULL ? NULL : PySequence_Tuple(args[1]);
    if (generators == NULL) {
        Py_XDECREF(envs);
        return NULL;
    }
    Py_ssize_t count = PyTuple_GET_SIZE(envs), j = 0;
    Py_buffer qpos, qvel;
    int fits = PyTuple_GET_SIZE(generators) == count && PyList_GET_SIZE(args[4]) == count &&
               float64_strided_rows(args[2], &qpos);
    if (fits && !(float64_strided_rows(args[3], &qvel) && qvel.shape[0] == qpos.shape[0])) {
        PyBuffer_Release(&qpos);
        fits = 0;
    }
    if (!fits) {
        Py_DECREF(envs);
        Py_DECREF(generators);
        PyErr_SetString(PyExc_TypeError, "generators and rows must be one per env, qpos and qvel writable float64 "
                                         "arrays of as many rows, each row's numbers side by side");
        return NULL;
    }
    Py_ssize_t nq = qpos.shape[1], nv = qvel.shape[1];
    double *noise = PyMem_Malloc((size_t)(2 * (nq + nv) + 1) * sizeof(double)), *start = noise + nq + nv;
    int done = noise == NULL ? -1 : 1;
    for (; done == 1 && j < count; j++) {
        PyObject *env = PyTuple_GET_ITEM(envs, j);
        Py_ssize_t row = PyLong_AsSsize_t(PyList_GET_ITEM(args[4], j));
        if (row < 0 || row >= qpos.shape[0]) {
            PyErr_Clear();
            done = 0; /* Python's own indexing names it */
            break;
        }
        double high;
        /* Checked and gathered first: a start left to Python must not have drawn. */
        done = noise_half_width(env, &high) && gather_row(env, s_init_qpos, start, nq) &&
               gather_row(env, s_init_qvel, start + nq, nv);
        if (done == 1) {
            done = normal == NULL ? draw_row(PyTuple_GET_ITEM(generators, j), noise, nq + nv, 0, NULL)
                                  : draw_row(PyTuple_GET_ITEM(generators, j), noise, nq, nv, normal);
        }
        if (done != 1) {
            break;
        }
        place_start(&qpos, &qvel, row, start, start + nq, noise, high, normal != NULL);
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

/*
 * held_starts(held, timing, rows, first, qpos, qvel, standard_normal): the starts of
 * SuiteEnv.start_state from what RowStarts holds of each sub-env (of _row_starts.py, whose
 * Python, a sub-env's own start, is the specification). From rows[first] on, sub-env
 * i = rows[j] starts as starts() would start it, reading its held rules instead of the env:
 *     held = (generators, held_generators, bitgens, locks, scales, init_qpos, init_qvel)
 *     timing = (options, timed_with)
 * its generator generators[i] (the vector env's) being held_generators[i], whose bit generator
 * is at address bitgens[i] (0: none held) and its lock locks[i], its noise half-width scales[i] and its initial
 * state rows i of init_qpos and init_qvel; and its model's options[i].timestep still equal to
 * timed_with[i] (NaN: to be timed again). It stops at the first row that is not so, or whose
 * generator's lock another thread holds (nothing drawn for it, its row untouched), and returns
 * its position in rows; standard_normal is the _normals capsule, or None for uniform velocity noise.
 */
static PyObject *
held_starts(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    const char *capsule_name = "palaestra_mujoco._normals.standard_normal";
    if (nargs != 7 || !PyTuple_Check(args[0]) || PyTuple_GET_SIZE(args[0]) != 7 || !PyTuple_Check(args[1]) ||
        PyTuple_GET_SIZE(args[1]) != 2 || !PyList_Check(args[2]) ||
        !(args[6] == Py_None || PyCapsule_IsValid(args[6], capsule_name))) {
        PyErr_SetString(PyExc_TypeError, "held_starts(held: tuple of 7, timing: tuple of 2, rows: list, first, qpos, "
                                         "qvel, standard_normal: capsule or None)");
        return NULL;
    }
    PyObject *generators = PyTuple_GET_ITEM(args[0], 0), *held_generators = PyTuple_GET_ITEM(args[0], 1);
    PyObject *locks = PyTuple_GET_ITEM(args[0], 3), *options = PyTuple_GET_ITEM(args[1], 0);
    Py_ssize_t first = PyLong_AsSsize_t(args[3]);
    if (first == -1 && PyErr_Occurred()) {
        return NULL;
    }
    standard_normal_fn normal = args[6] == Py_None ? NULL : (standard_normal_fn)PyCapsule_GetPointer(args[6], capsule_name);
    /* bitgens (uint64), scales, timed_with, init_qpos, init_qvel, qpos, qvel */
    PyObject *sources[7] = {PyTuple_GET_ITEM(args[0], 2), PyTuple_GET_ITEM(args[0], 4), PyTuple_GET_ITEM(args[1], 1),
                            PyTuple_GET_ITEM(args[0], 5), PyTuple_GET_ITEM(args[0], 6), args[4], args[5]};
    Py_buffer view[7];
    int taken = 0;
    for (; taken < 7; taken++) {
        int flags = taken < 5 ? PyBUF_C_CONTIGUOUS | PyBUF_FORMAT : PyBUF_STRIDES | PyBUF_FORMAT | PyBUF_WRITABLE;
        if (PyObject_GetBuffer(sources[taken], &view[taken], flags) != 0) {
            PyErr_Clear();
            break;
        }
    }
    int fits = taken == 7;
    Py_ssize_t count = fits ? view[0].shape[0] : 0, nq = fits ? view[5].shape[1] : 0, nv = fits ? view[6].shape[1] : 0;
    if (fits) {
        fits = PyList_Check(generators) && PyList_Check(held_generators) && PyList_Check(locks) && PyList_Check(options) &&
               PyList_GET_SIZE(generators) == count && PyList_GET_SIZE(held_generators) == count &&
               PyList_GET_SIZE(locks) == count && PyList_GET_SIZE(options) == count && view[0].ndim == 1 &&
               view[0].itemsize == 8 && (strcmp(view[0].format, "Q") == 0 || strcmp(view[0].format, "L") == 0);
        for (int b = 1; fits && b < 7; b++) {
            Py_ssize_t width = b < 3 ? 1 : (b == 3 || b == 5) ? nq : nv;
            fits = view[b].itemsize == 8 && strcmp(view[b].format, "d") == 0 && view[b].ndim == (b < 3 ? 1 : 2) &&
                   (b < 3 ? view[b].shape[0] == count : view[b].shape[1] == width && view[b].strides[1] == 8) &&
                   (b < 5 ? view[b].shape[0] == count : view[b].shape[0] >= count);
        }
    }
    if (!fits) {
        for (int b = 0; b < taken; b++) {
            PyBuffer_Release(&view[b]);
        }
        PyErr_SetString(PyExc_TypeError, "held_starts: the held rows and timing must be one per sub-env (bitgens uint64, "
                                         "the rest float64, init_qpos and init_qvel C-contiguous), qpos and qvel writable "
                                         "float64 rows of their widths");
        return NULL;
    }
    const uint64_t *bitgens = view[0].buf;
    const double *scales = view[1].buf, *timed_with = view[2].buf, *init_qpos = view[3].buf, *init_qvel = view[4].buf;
    double *noise = PyMem_Malloc((size_t)(nq + nv + 1) * sizeof(double));
    Py_ssize_t rows = PyList_GET_SIZE(args[2]), j = first < 0 ? rows : first;
    int done = noise == NULL ? -1 : 1;
    for (; done == 1 && j < rows && j < PyList_GET_SIZE(args[2]); j++) {
        Py_ssize_t i = PyLong_AsSsize_t(PyList_GET_ITEM(args[2], j));
        if (i < 0 || i >= count || i >= PyList_GET_SIZE(options)) {
            PyErr_Clear();
            break; /* a row Python's own indexing names */
        }
        /* The timestep first: reading it could run Python, so the lists are read after it. */
        PyObject *option = Py_NewRef(PyList_GET_ITEM(options, i));
        PyObject *timestep = PyObject_GetAttr(option, s_timestep);
        Py_DECREF(option);
        double now = timestep == NULL ? NAN : PyFloat_AsDouble(timestep);
        Py_XDECREF(timestep);
        if (PyErr_Occurred()) {
            PyErr_Clear();
            now = NAN;
        }
        if (!(now == timed_with[i])) { /* NaN compares unequal: timed again by Python */
            break;
        }
        if (i >= PyList_GET_SIZE(generators) || i >= PyList_GET_SIZE(held_generators) || i >= PyList_GET_SIZE(locks)) {
            break;
        }
        PyObject *generator = PyList_GET_ITEM(held_generators, i);
        if (bitgens[i] == 0 || PyList_GET_ITEM(generators, i) != generator) {
            break; /* another generator, or none held: the sub-env's own start */
        }
        /* Kept alive while drawing: its bit generator is what bitgens[i] points at. */
        Py_INCREF(generator);
        PyObject *lock = Py_NewRef(PyList_GET_ITEM(locks, i));
        bitgen_t *bitgen = (bitgen_t *)(uintptr_t)bitgens[i];
        double high = scales[i];
        done = normal == NULL ? draw_locked(lock, bitgen, noise, nq + nv, 0, NULL) : draw_locked(lock, bitgen, noise, nq, nv, normal);
        Py_DECREF(lock);
        Py_DECREF(generator);
        if (done != 1) {
            break;
        }
        place_start(&view[5], &view[6], i, init_qpos + i * nq, init_qvel + i * nv, noise, high, normal != NULL);
    }
    PyMem_Free(noise);
    for (int b = 0; b < 7; b++) {
        PyBuffer_Release(&view[b]);
    }
    if (done < 0) {
        return PyErr_Occurred() ? NULL : PyErr_NoMemory();
    }
    return PyLong_FromSsize_t(j);
}

/* uniform_starts(envs, generators, qpos, qvel, rows): starts() with uniform velocity noise. */
static PyObject *
uniform_starts(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 5 || !PyList_Check(args[4])) {
        PyErr_SetString(PyExc_TypeError, "uniform_starts(envs, generators, qpos, qvel, rows: list)");
        return NULL;
    }
    return starts(args, NULL);
}

/* normal_starts(envs, generators, qpos, qvel, rows, standard_normal): starts() with normal velocity noise,
 * standard_normal the capsule of the _normals module (numpy's random_standard_normal). */
static PyObject *
normal_starts(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    const char *name = "palaestra_mujoco._normals.standard_normal";
    if (nargs != 6 || !PyList_Check(args[4]) || !PyCapsule_IsValid(args[5], name)) {
        PyErr_SetString(PyExc_TypeError, "normal_starts(envs, generators, qpos, qvel, rows: list, standard_normal: capsule)");
        return NULL;
    }
    return starts(args, (standard_normal_fn)PyCapsule_GetPointer(args[5], name));
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

/*
 * copy_pairs(pairs) -> bool: destination[...] = source for each (destination, source) of the tuple pairs, both
 * C-contiguous float64 arrays of one size (GatheredSimulation's gathering of one sub-env's fields into its
 * rows, in the thread that stepped it). False at the first pair that is not so (the pairs before it stay
 * copied; the caller's numpy then copies them all again).
 */
static PyObject *
copy_pairs(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 1 || !PyTuple_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "copy_pairs(pairs: tuple of (destination, source))");
        return NULL;
    }
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT, fits = 1;
    for (Py_ssize_t j = 0; fits && j < PyTuple_GET_SIZE(args[0]); j++) {
        PyObject *pair = PyTuple_GET_ITEM(args[0], j);
        Py_buffer into, from;
        if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
            return Py_NewRef(Py_False);
        }
        if (PyObject_GetBuffer(PyTuple_GET_ITEM(pair, 0), &into, flags | PyBUF_WRITABLE) != 0) {
            PyErr_Clear();
            return Py_NewRef(Py_False);
        }
        if (PyObject_GetBuffer(PyTuple_GET_ITEM(pair, 1), &from, flags) != 0) {
            PyErr_Clear();
            PyBuffer_Release(&into);
            return Py_NewRef(Py_False);
        }
        fits = into.len == from.len && strcmp(into.format, "d") == 0 && strcmp(from.format, "d") == 0;
        if (fits) {
            memmove(into.buf, from.buf, (size_t)into.len);
        }
        PyBuffer_Release(&from);
        PyBuffer_Release(&into);
    }
    return Py_NewRef(fits ? Py_True : Py_False);
}

/* Whether each row of a buffer (taken with strides), all its dimensions after the first, is one stretch of memory. */
static int
rows_contiguous(Py_buffer *view)
{
    Py_ssize_t step = view->itemsize;
    for (int k = view->ndim - 1; k >= 1; k--) {
        if (view->strides[k] != step) {
            return 0;
        }
        step *= view->shape[k];
    }
    return 1;
}

/*
 * zero_rows(arrays, rows) -> bool: arrays[a][rows] = 0.0 for each array (a batch's fields, started
 * episodes' rows): float64 arrays of any dimensions, each row one stretch of memory (the rows anywhere),
 * rows a list of row indices. False, nothing written, when an array or an index is not so: the caller's
 * numpy zeroes them (and names a bad index).
 */
static PyObject *
zero_rows(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2 || !PyList_Check(args[0]) || !PyList_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "zero_rows(arrays: list, rows: list)");
        return NULL;
    }
    Py_ssize_t count = PyList_GET_SIZE(args[0]), taken = 0, n = PyList_GET_SIZE(args[1]);
    Py_buffer *views = PyMem_Malloc((size_t)(count + 1) * sizeof(Py_buffer));
    Py_ssize_t *indices = PyMem_Malloc((size_t)(n + 1) * sizeof(Py_ssize_t));
    int fits = views != NULL && indices != NULL;
    for (; fits && taken < count; taken++) {
        Py_buffer *view = &views[taken];
        if (PyObject_GetBuffer(PyList_GET_ITEM(args[0], taken), view, PyBUF_STRIDES | PyBUF_FORMAT | PyBUF_WRITABLE) != 0) {
            PyErr_Clear();
            fits = 0;
            break;
        }
        fits = view->ndim >= 1 && strcmp(view->format, "d") == 0 && rows_contiguous(view) &&
               view->shape[0] == views[0].shape[0];
        if (!fits) {
            PyBuffer_Release(view);
        }
    }
    for (Py_ssize_t j = 0; fits && j < n; j++) {
        indices[j] = PyLong_AsSsize_t(PyList_GET_ITEM(args[1], j));
        fits = indices[j] >= 0 && (count == 0 || indices[j] < views[0].shape[0]);
    }
    PyErr_Clear();
    for (Py_ssize_t a = 0; a < taken; a++) {
        if (fits) {
            Py_ssize_t size = views[a].itemsize;
            for (int k = 1; k < views[a].ndim; k++) {
                size *= views[a].shape[k];
            }
            for (Py_ssize_t j = 0; j < n; j++) {
                memset((char *)views[a].buf + indices[j] * views[a].strides[0], 0, (size_t)size); /* 0.0: all bits zero */
            }
        }
        PyBuffer_Release(&views[a]);
    }
    PyMem_Free(views);
    PyMem_Free(indices);
    if (views == NULL || indices == NULL) {
        return PyErr_NoMemory();
    }
    return Py_NewRef(fits ? Py_True : Py_False);
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

/* A velocity bound numpy's clipping and the loop's agree on: None (no clipping) or a positive plain number, so
 * that no signed zeros are told apart. 1 with *clipped set, else 0. */
static int
velocity_bound(PyObject *value, double *bound, int *clipped)
{
    *clipped = value != Py_None;
    return !*clipped || (plain_number(value, bound) && *bound > 0.0);
}

/*
 * Take objects[k] as layout[k] says, each with its numbers side by side in its last dimension (a batch's
 * rows lie apart): 'R' float64 rows (N, width) to read, 'r' float64 rows to write, 'd' a float64 vector
 * of N, '?' a bool vector of N, 'q' an int64 vector of N (the vectors written), N the same for all. 1 when
 * all fit, else 0 with none held (no error set).
 */
static int
take_batch(PyObject *objects, const char *layout, Py_buffer *view)
{
    Py_ssize_t count = (Py_ssize_t)strlen(layout), k = 0, n = -1;
    if (!PyTuple_Check(objects) || PyTuple_GET_SIZE(objects) != count) {
        return 0;
    }
    for (; k < count; k++) {
        char kind = layout[k];
        int ndim = kind == 'r' || kind == 'R' ? 2 : 1, flags = PyBUF_STRIDES | PyBUF_FORMAT;
        Py_ssize_t itemsize = kind == '?' ? 1 : 8;
        if (PyObject_GetBuffer(PyTuple_GET_ITEM(objects, k), &view[k], kind == 'R' ? flags : flags | PyBUF_WRITABLE) != 0) {
            PyErr_Clear();
            break;
        }
        const char *format = view[k].format;
        int typed = kind == 'q' ? strcmp(format, "q") == 0 || strcmp(format, "l") == 0
                                : strcmp(format, kind == '?' ? "?" : "d") == 0;
        if (n < 0 && view[k].ndim == ndim) {
            n = view[k].shape[0];
        }
        if (!typed || view[k].ndim != ndim || view[k].itemsize != itemsize || view[k].shape[0] != n ||
            view[k].strides[ndim - 1] != itemsize || (ndim == 2 && view[k].strides[0] < view[k].shape[1] * itemsize)) {
            PyBuffer_Release(&view[k]);
            break;
        }
    }
    if (k == count) {
        return 1;
    }
    while (k > 0) {
        PyBuffer_Release(&view[--k]);
    }
    return 0;
}

static void
release_batch(Py_buffer *view, Py_ssize_t count)
{
    for (Py_ssize_t k = 0; k < count; k++) {
        PyBuffer_Release(&view[k]);
    }
}

/* Row r of a two-dimensional buffer taken by take_batch. */
static double *
row_of(Py_buffer *view, Py_ssize_t r)
{
    return (double *)((char *)view->buf + r * view->strides[0]);
}

/* np.minimum(np.maximum(value, low), high) of a number, NaN kept (bounds that are neither NaN nor a zero, whose
 * sign numpy's loops may tell apart otherwise: velocity_bound's and clip_bound's). */
static double
clipped_to(double value, double low, double high)
{
    if (isnan(value)) {
        return value;
    }
    value = value < low ? low : value;
    return value > high ? high : value;
}

/*
 * SuiteEnv.observe_batch of one row: positions[skipped:nq], then the nv velocities through
 * np.maximum(v, -bound) and np.minimum(v, bound) when clipped (which keep a NaN as it is).
 */
static void
observe_row(const double *positions, const double *velocities, double *observation, Py_ssize_t skipped, Py_ssize_t nq,
            Py_ssize_t nv, int clipped, double bound)
{
    memcpy(observation, positions + skipped, (size_t)(nq - skipped) * sizeof(double));
    observation += nq - skipped;
    for (Py_ssize_t k = 0; k < nv; k++) {
        observation[k] = clipped ? clipped_to(velocities[k], -bound, bound) : velocities[k];
    }
}

/*
 * take_batch of a layout that begins with qpos, qvel and the observations ("RRr..."), where the observations
 * are [qpos[:, skipped:], qvel] and qpos has at least min_nq columns: 1, else 0 with none held.
 */
static int
take_observing_batch(PyObject *objects, const char *layout, Py_ssize_t skipped, Py_ssize_t min_nq, Py_buffer *view)
{
    if (!take_batch(objects, layout, view)) {
        return 0;
    }
    Py_ssize_t nq = view[0].shape[1];
    if (nq >= min_nq && skipped >= 0 && skipped <= nq && view[2].shape[1] == nq - skipped + view[1].shape[1]) {
        return 1;
    }
    release_batch(view, (Py_ssize_t)strlen(layout));
    return 0;
}

/*
 * observe_rows(qpos, qvel, observations, rows, skipped, velocity_bound) -> bool: observations[r] =
 * SuiteEnv.observe_batch of qpos[r] and qvel[r] (observe_row) for each r of rows, a list of row indices
 * into all three (a batch's arrays: each row's numbers side by side, the rows anywhere). False, nothing
 * written, when an array, an index or the bound is not so: the caller's numpy observes them.
 */
static PyObject *
observe_rows(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 6 || !PyList_Check(args[3]) || !PyLong_Check(args[4])) {
        PyErr_SetString(PyExc_TypeError,
                        "observe_rows(qpos, qvel, observations, rows: list, skipped: int, velocity_bound)");
        return NULL;
    }
    Py_ssize_t skipped = PyLong_AsSsize_t(args[4]);
    if (PyErr_Occurred()) {
        return NULL;
    }
    double bound = 0.0;
    int clipped;
    Py_buffer view[3];
    PyObject *arrays = PyTuple_Pack(3, args[0], args[1], args[2]);
    if (arrays == NULL) {
        return NULL;
    }
    int fits = velocity_bound(args[5], &bound, &clipped) && take_observing_batch(arrays, "RRr", skipped, 0, view);
    Py_DECREF(arrays);
    if (!fits) {
        return Py_NewRef(Py_False);
    }
    Py_ssize_t n = view[0].shape[0], nq = view[0].shape[1], nv = view[1].shape[1], count = PyList_GET_SIZE(args[3]);
    for (Py_ssize_t j = 0; fits && j < count; j++) {
        Py_ssize_t r = PyLong_AsSsize_t(PyList_GET_ITEM(args[3], j));
        fits = r >= 0 && r < n;
    }
    PyErr_Clear();
    for (Py_ssize_t j = 0; fits && j < count; j++) {
        Py_ssize_t r = PyLong_AsSsize_t(PyList_GET_ITEM(args[3], j));
        observe_row(row_of(&view[0], r), row_of(&view[1], r), row_of(&view[2], r), skipped, nq, nv, clipped, bound);
    }
    release_batch(view, 3);
    return Py_NewRef(fits ? Py_True : Py_False);
}

/* upright_ends' buffers and rules, in the order given. */
enum { U_QPOS, U_QVEL, U_OBSERVATIONS, U_X_BEFORE, U_CTRL, U_DT, U_REWARDS, U_TERMINATED, U_X_POSITION, U_Z_DISTANCE,
       U_X_VELOCITY, U_FORWARD, U_CTRL_REWARD, U_SURVIVE, U_BUFFERS };
static const char upright_layout[] = "RRrdddd?dddddd";
enum { FORWARD_WEIGHT, HEALTHY_REWARD, Z_LOW, Z_HIGH, ANGLE_LOW, ANGLE_HIGH, STATE_LOW, STATE_HIGH, INIT_Z,
       U_VELOCITY_BOUND, U_RULES };

/* upright_ends' rules as numbers (rule[k]); 0 when one is not a number the loop reads as numpy would. */
static int
upright_rules(PyObject *rules, double *rule, int *state_range, int *clipped)
{
    *state_range = PyTuple_GET_ITEM(rules, STATE_LOW) != Py_None;
    if (!PyFloat_CheckExact(PyTuple_GET_ITEM(rules, HEALTHY_REWARD)) ||
        !velocity_bound(PyTuple_GET_ITEM(rules, U_VELOCITY_BOUND), &rule[U_VELOCITY_BOUND], clipped)) {
        return 0; /* an int healthy reward: numpy's survive column would be int64 */
    }
    for (int k = 0; k < U_VELOCITY_BOUND; k++) {
        PyObject *value = PyTuple_GET_ITEM(rules, k);
        int unused = (k == STATE_LOW || k == STATE_HIGH) && !*state_range;
        if (unused ? value != Py_None : !plain_number(value, &rule[k])) {
            return 0;
        }
    }
    return 1;
}

/*
 * upright_ends(buffers, rules, skipped, terminate) -> bool: UprightWalker.plain_end_batch of every row
 * (Hopper and Walker2d), whose numpy code is the specification (_planar.py, hopper.py, _locomotion.py):
 *
 *   healthy_batch: (z_low < z) & (z < z_high) & (angle_low < angle) & (angle < angle_high), z and angle
 *                  being qpos[:, 1] and qpos[:, 2]; with a state range (Hopper's), every number of
 *                  qpos[:, 2:] and qvel strictly inside it too (a NaN fails).
 *   _scored:       x_velocity = (x_after - x_before) / dt, forward = forward_weight * x_velocity,
 *                  survive = healthy * healthy_reward, reward = (forward + survive) - ctrl; the columns
 *                  x_position = x_after, z_distance = z_after - init_z and reward_ctrl = -ctrl.
 *   observe_batch: observe_row.
 *   terminated:    ~healthy when terminate, else False.
 *
 * buffers: as upright_layout (see take_batch) in the order of the U_ names; rules: the numbers of the
 * U_RULES names, STATE_LOW and STATE_HIGH None without a state range, the bound None without clipping.
 * Returns False having written nothing when a rule is not a number read as numpy reads it (an int
 * healthy reward makes an int64 column) or a buffer is not of those shapes: the caller's numpy does the
 * batch then.
 */
static PyObject *
upright_ends(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4 || !PyTuple_Check(args[1]) || PyTuple_GET_SIZE(args[1]) != U_RULES || !PyLong_Check(args[2])) {
        PyErr_SetString(PyExc_TypeError, "upright_ends(buffers: 14-tuple, rules: 10-tuple, skipped: int, terminate)");
        return NULL;
    }
    double rule[U_RULES];
    int state_range, clipped;
    Py_ssize_t skipped = PyLong_AsSsize_t(args[2]);
    int terminate = PyObject_IsTrue(args[3]);
    if (PyErr_Occurred()) {
        return NULL;
    }
    Py_buffer view[U_BUFFERS];
    if (!upright_rules(args[1], rule, &state_range, &clipped) ||
        !take_observing_batch(args[0], upright_layout, skipped, 3, view)) {
        return Py_NewRef(Py_False);
    }
    Py_ssize_t n = view[U_QPOS].shape[0], nq = view[U_QPOS].shape[1], nv = view[U_QVEL].shape[1];
    const double *x_before = view[U_X_BEFORE].buf, *ctrl = view[U_CTRL].buf, *dt = view[U_DT].buf;
    double *rewards = view[U_REWARDS].buf, *x_position = view[U_X_POSITION].buf, *z_distance = view[U_Z_DISTANCE].buf;
    double *x_velocity = view[U_X_VELOCITY].buf, *forward = view[U_FORWARD].buf, *ctrl_reward = view[U_CTRL_REWARD].buf;
    double *survive = view[U_SURVIVE].buf, low = rule[STATE_LOW], high = rule[STATE_HIGH];
    bool *terminated = view[U_TERMINATED].buf;
    for (Py_ssize_t r = 0; r < n; r++) {
        const double *positions = row_of(&view[U_QPOS], r), *velocities = row_of(&view[U_QVEL], r);
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
        observe_row(positions, velocities, row_of(&view[U_OBSERVATIONS], r), skipped, nq, nv, clipped,
                    rule[U_VELOCITY_BOUND]);
        terminated[r] = terminate && !healthy;
    }
    release_batch(view, U_BUFFERS);
    return Py_NewRef(Py_True);
}

/* forward_ends' buffers, in the order given. */
enum { F_QPOS, F_QVEL, F_OBSERVATIONS, F_X_BEFORE, F_CTRL, F_DT, F_REWARDS, F_X_POSITION, F_X_VELOCITY, F_FORWARD,
       F_CTRL_REWARD, F_BUFFERS };
static const char forward_layout[] = "RRrdddddddd";

/*
 * forward_ends(buffers, forward_weight, velocity_bound, skipped) -> bool: HalfCheetahEnv.plain_end_batch of
 * every row, its numpy code being the specification (half_cheetah.py, _locomotion.py):
 *
 *   _scored:       x_velocity = (x_after - x_before) / dt, forward = forward_weight * x_velocity,
 *                  reward = forward - ctrl; the columns x_position = x_after and reward_ctrl = -ctrl.
 *   observe_batch: observe_row.
 *
 * buffers: as forward_layout in the order of the F_ names. Returns False having written nothing when the
 * weight or the bound is not read as numpy reads it or a buffer is not of those shapes.
 */
static PyObject *
forward_ends(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4 || !PyLong_Check(args[3])) {
        PyErr_SetString(PyExc_TypeError, "forward_ends(buffers: 11-tuple, forward_weight, velocity_bound, skipped: int)");
        return NULL;
    }
    double weight, bound = 0.0;
    int clipped;
    Py_ssize_t skipped = PyLong_AsSsize_t(args[3]);
    if (PyErr_Occurred()) {
        return NULL;
    }
    Py_buffer view[F_BUFFERS];
    if (!plain_number(args[1], &weight) || !velocity_bound(args[2], &bound, &clipped) ||
        !take_observing_batch(args[0], forward_layout, skipped, 1, view)) {
        return Py_NewRef(Py_False);
    }
    Py_ssize_t n = view[F_QPOS].shape[0], nq = view[F_QPOS].shape[1], nv = view[F_QVEL].shape[1];
    const double *x_before = view[F_X_BEFORE].buf, *ctrl = view[F_CTRL].buf, *dt = view[F_DT].buf;
    double *rewards = view[F_REWARDS].buf, *x_position = view[F_X_POSITION].buf, *x_velocity = view[F_X_VELOCITY].buf;
    double *forward = view[F_FORWARD].buf, *ctrl_reward = view[F_CTRL_REWARD].buf;
    for (Py_ssize_t r = 0; r < n; r++) {
        const double *positions = row_of(&view[F_QPOS], r);
        /* _scored */
        x_position[r] = positions[0];
        x_velocity[r] = (positions[0] - x_before[r]) / dt[r];
        forward[r] = weight * x_velocity[r];
        ctrl_reward[r] = -ctrl[r];
        rewards[r] = forward[r] - ctrl[r];
        observe_row(positions, row_of(&view[F_QVEL], r), row_of(&view[F_OBSERVATIONS], r), skipped, nq, nv, clipped, bound);
    }
    release_batch(view, F_BUFFERS);
    return Py_NewRef(Py_True);
}

/* balanced_ends' buffers, in the order given. */
enum { B_QPOS, B_QVEL, B_OBSERVATIONS, B_REWARDS, B_TERMINATED, B_SURVIVE, B_BUFFERS };
static const char balanced_layout[] = "RRrd?q";

/*
 * balanced_ends(buffers, balance_limit) -> bool: InvertedPendulumEnv.plain_end_batch of every row, its numpy
 * code being the specification (inverted_pendulum.py, _locomotion.py):
 *
 *   observe_batch: observe_row, nothing skipped or clipped.
 *   balanced:      (abs(observation[1]) <= balance_limit) and every number of the observation finite;
 *                  reward = float(balanced), terminated = not balanced, reward_survive = int(balanced).
 *
 * buffers: as balanced_layout in the order of the B_ names. Returns False having written nothing when the
 * limit is not read as numpy reads it or a buffer is not of those shapes.
 */
static PyObject *
balanced_ends(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "balanced_ends(buffers: 6-tuple, balance_limit)");
        return NULL;
    }
    double limit;
    Py_buffer view[B_BUFFERS];
    if (!plain_number(args[1], &limit) || !take_observing_batch(args[0], balanced_layout, 0, 2, view)) {
        return Py_NewRef(Py_False);
    }
    Py_ssize_t n = view[B_QPOS].shape[0], nq = view[B_QPOS].shape[1], nv = view[B_QVEL].shape[1];
    double *rewards = view[B_REWARDS].buf;
    bool *terminated = view[B_TERMINATED].buf;
    int64_t *survive = view[B_SURVIVE].buf;
    for (Py_ssize_t r = 0; r < n; r++) {
        double *observation = row_of(&view[B_OBSERVATIONS], r);
        observe_row(row_of(&view[B_QPOS], r), row_of(&view[B_QVEL], r), observation, 0, nq, nv, 0, 0.0);
        bool balanced = fabs(observation[1]) <= limit;
        for (Py_ssize_t k = 0; balanced && k < nq + nv; k++) {
            balanced = isfinite(observation[k]);
        }
        rewards[r] = balanced ? 1.0 : 0.0;
        terminated[r] = !balanced;
        survive[r] = balanced;
    }
    release_batch(view, B_BUFFERS);
    return Py_NewRef(Py_True);
}

/*
 * The pairwise sum numpy gives one contiguous vector of n <= 128 squares, as _pairwise_rows in _row_sums.py
 * computes it for every row at once (the specification, itself checked against numpy's own sums at run
 * time): below 8 numbers left to right from zero; else eight running sums over the blocks of eight,
 * combined in pairs, then the rest left to right. A square is one product, x * x, in the row's type.
 */
#define PAIRWISE_SUM(TYPE, row, n, result)                                                                     \
    do {                                                                                                    \
        TYPE running[8], total = 0;                                                                         \
        Py_ssize_t whole = (n) < 8 ? 0 : (n) - (n) % 8, k = whole;                                         \
        if (whole) {                                                                                        \
            for (int j = 0; j < 8; j++) {                                                                   \
                running[j] = (row)[j] * (row)[j];                                                           \
            }                                                                                               \
            for (Py_ssize_t start = 8; start < whole; start += 8) {                                         \
                for (int j = 0; j < 8; j++) {                                                               \
                    running[j] += (row)[start + j] * (row)[start + j];                                      \
                }                                                                                           \
            }                                                                                               \
            total = ((running[0] + running[1]) + (running[2] + running[3])) +                               \
                    ((running[4] + running[5]) + (running[6] + running[7]));                                \
        }                                                                                                   \
        for (; k < (n); k++) {                                                                              \
            total += (row)[k] * (row)[k];                                                                   \
        }                                                                                                   \
        (result) = total;                                                                                   \
    } while (0)

/*
 * square_sums(values, out) -> bool: out[r] = the pairwise sum of values[r]'s squares, for float64 or float32
 * rows (each row's numbers side by side, the rows anywhere; out a contiguous vector of their type), rows of
 * at most 128 numbers. False for anything else (the caller sums with numpy), where C floats carry more
 * precision than their type (FLT_EVAL_METHOD), or when a sum is not finite: numpy's sums then warn of the
 * overflow (or the NaN) as a single env's do.
 */
static PyObject *
pairwise_square_sums(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "square_sums(values, out)");
        return NULL;
    }
#if FLT_EVAL_METHOD != 0
    return Py_NewRef(Py_False);
#endif
    Py_buffer values, out;
    if (PyObject_GetBuffer(args[0], &values, PyBUF_STRIDES | PyBUF_FORMAT) != 0) {
        PyErr_Clear();
        return Py_NewRef(Py_False);
    }
    if (PyObject_GetBuffer(args[1], &out, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_WRITABLE) != 0) {
        PyErr_Clear();
        PyBuffer_Release(&values);
        return Py_NewRef(Py_False);
    }
    int wide = strcmp(values.format, "d") == 0, narrow = strcmp(values.format, "f") == 0;
    int fits = (wide || narrow) && strcmp(out.format, values.format) == 0 && values.ndim == 2 && out.ndim == 1 &&
               out.shape[0] == values.shape[0] && values.shape[1] <= 128 && values.strides[1] == values.itemsize;
    if (fits) {
        Py_ssize_t rows = values.shape[0], n = values.shape[1];
        for (Py_ssize_t r = 0; fits && r < rows; r++) {
            const char *row = (const char *)values.buf + r * values.strides[0];
            double sum;
            if (wide) {
                PAIRWISE_SUM(double, (const double *)row, n, ((double *)out.buf)[r]);
                sum = ((double *)out.buf)[r];
            }
            else {
                PAIRWISE_SUM(float, (const float *)row, n, ((float *)out.buf)[r]);
                sum = ((float *)out.buf)[r];
            }
            fits = isfinite(sum); /* else numpy again, for its overflow warnings */
        }
    }
    PyBuffer_Release(&out);
    PyBuffer_Release(&values);
    return Py_NewRef(fits ? Py_True : Py_False);
}

/* Python's v ** 2 of a float, as squares() gives it (a NaN as it is); *overflowed set where Python raises. */
static double
python_square(double value, int *overflowed)
{
    if (isnan(value)) {
        return value;
    }
    double square = pow(fabs(value), two);
    *overflowed |= isinf(square) && !isinf(value);
    return square;
}

/*
 * InvertedDoublePendulumEnv.observe_rows of one row: [qpos[0], sines, cosines, qvel, constraint[0]], the last
 * nv + 1 numbers through np.maximum(v, -bound) and np.minimum(v, bound) when clipped (a NaN kept); the sines
 * and cosines numpy's, of qpos[1:].
 */
static void
pendulum_observe(const double *positions, const double *velocities, const double *constraint, const double *sines,
                 const double *cosines, double *observation, Py_ssize_t nq, Py_ssize_t nv, int clipped, double bound)
{
    observation[0] = positions[0];
    memcpy(observation + 1, sines, (size_t)(nq - 1) * sizeof(double));
    memcpy(observation + nq, cosines, (size_t)(nq - 1) * sizeof(double));
    double *tail = observation + 2 * nq - 1;
    memcpy(tail, velocities, (size_t)nv * sizeof(double));
    tail[nv] = constraint[0];
    for (Py_ssize_t k = 0; clipped && k <= nv; k++) {
        tail[k] = clipped_to(tail[k], -bound, bound);
    }
}

/*
 * pendulum_observe_rows(batch, angles, rows, velocity_bound) -> bool: InvertedDoublePendulumEnv.observe_rows of the
 * rows where episodes started, into their rows of the observations (its numpy code being the specification).
 * batch: (qpos, qvel, qfrc_constraint, observations), a batch's arrays; angles: (sines, cosines), numpy's
 * np.sin and np.cos of np.ascontiguousarray(qpos[rows, 1:]), a row per started row; rows: a list of row
 * indices. False, nothing written, when an array, an index or the bound is not so.
 */
static PyObject *
pendulum_observe_rows(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4 || !PyList_Check(args[2])) {
        PyErr_SetString(PyExc_TypeError, "pendulum_observe_rows(batch: 4-tuple, angles: 2-tuple, rows: list, velocity_bound)");
        return NULL;
    }
    double bound = 0.0;
    int clipped;
    Py_buffer view[4], angle[2];
    if (!velocity_bound(args[3], &bound, &clipped) || !take_batch(args[0], "RRRr", view)) {
        return Py_NewRef(Py_False);
    }
    if (!take_batch(args[1], "RR", angle)) {
        release_batch(view, 4);
        return Py_NewRef(Py_False);
    }
    Py_ssize_t n = view[0].shape[0], nq = view[0].shape[1], nv = view[1].shape[1], count = PyList_GET_SIZE(args[2]);
    int fits = nq >= 2 && view[2].shape[1] >= 1 && angle[0].shape[0] == count && angle[0].shape[1] == nq - 1 &&
               angle[1].shape[1] == nq - 1 && view[3].shape[1] == 1 + 2 * (nq - 1) + nv + 1;
    for (Py_ssize_t j = 0; fits && j < count; j++) {
        Py_ssize_t r = PyLong_AsSsize_t(PyList_GET_ITEM(args[2], j));
        fits = r >= 0 && r < n;
    }
    PyErr_Clear();
    for (Py_ssize_t j = 0; fits && j < count; j++) {
        Py_ssize_t r = PyLong_AsSsize_t(PyList_GET_ITEM(args[2], j));
        pendulum_observe(row_of(&view[0], r), row_of(&view[1], r), row_of(&view[2], r), row_of(&angle[0], j),
                         row_of(&angle[1], j), row_of(&view[3], r), nq, nv, clipped, bound);
    }
    release_batch(angle, 2);
    release_batch(view, 4);
    return Py_NewRef(fits ? Py_True : Py_False);
}

/* pendulum_ends' buffers, in the order given. */
enum { P_QPOS, P_QVEL, P_CONSTRAINT, P_TIPS, P_SINES, P_COSINES, P_OBSERVATIONS, P_REWARDS, P_TERMINATED, P_SURVIVE,
       P_DISTANCE, P_VELOCITY, P_BUFFERS };
static const char pendulum_layout[] = "RRRRRRrd?ddd";

/*
 * pendulum_ends(buffers, healthy_reward, velocity_bound) -> bool: InvertedDoublePendulumEnv.plain_end_batch of
 * every row, its numpy code being the specification (inverted_double_pendulum.py):
 *
 *   observe_rows:  [qpos[0], sines, cosines, qvel, constraint[0]], the last nv + 1 numbers through
 *                  np.maximum(v, -bound) and np.minimum(v, bound); sines and cosines are numpy's np.sin and
 *                  np.cos of qpos[:, 1:] (numpy's loops need not round as libm does: the caller takes them).
 *   _scored_rows:  x, y = tip[0], tip[2]; w1, w2 = qvel[1], qvel[2]; terminated = y <= 1;
 *                  distance = 0.01 * x**2 + (y - 2)**2; velocity = 1e-3 * w1**2 + 5e-3 * w2**2 (Python's
 *                  squares: pow); alive = healthy_reward * (not terminated); reward = alive - distance -
 *                  velocity; the columns alive, -distance and -velocity.
 *
 * buffers: as pendulum_layout in the order of the P_ names (tips: each row's first site position).
 * Returns False having written nothing when the healthy reward is not a float (an int's alive column is
 * int64), the bound not a positive plain number, a buffer not of those shapes, or a square would overflow
 * (Python raises OverflowError there, as the numpy version does).
 */
static PyObject *
pendulum_ends(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "pendulum_ends(buffers: 12-tuple, healthy_reward, velocity_bound)");
        return NULL;
    }
    double bound = 0.0;
    int clipped;
    Py_buffer view[P_BUFFERS];
    if (!PyFloat_CheckExact(args[1]) || !velocity_bound(args[2], &bound, &clipped) ||
        !take_batch(args[0], pendulum_layout, view)) {
        return Py_NewRef(Py_False);
    }
    double healthy_reward = PyFloat_AS_DOUBLE(args[1]);
    Py_ssize_t n = view[P_QPOS].shape[0], nq = view[P_QPOS].shape[1], nv = view[P_QVEL].shape[1];
    int fits = nq >= 2 && nv >= 3 && view[P_CONSTRAINT].shape[1] >= 1 && view[P_TIPS].shape[1] >= 3 &&
               view[P_SINES].shape[1] == nq - 1 && view[P_COSINES].shape[1] == nq - 1 &&
               view[P_OBSERVATIONS].shape[1] == 1 + 2 * (nq - 1) + nv + 1;
    int overflowed = 0;
    for (Py_ssize_t r = 0; fits && r < n; r++) { /* Python's overflow first: then nothing is written */
        const double *tip = row_of(&view[P_TIPS], r), *velocities = row_of(&view[P_QVEL], r);
        python_square(tip[0], &overflowed), python_square(tip[2] - 2, &overflowed);
        python_square(velocities[1], &overflowed), python_square(velocities[2], &overflowed);
        fits = !overflowed;
    }
    if (!fits) {
        release_batch(view, P_BUFFERS);
        return Py_NewRef(Py_False);
    }
    double *rewards = view[P_REWARDS].buf, *survive = view[P_SURVIVE].buf, *distance = view[P_DISTANCE].buf;
    double *velocity = view[P_VELOCITY].buf;
    bool *terminated = view[P_TERMINATED].buf;
    for (Py_ssize_t r = 0; r < n; r++) {
        const double *positions = row_of(&view[P_QPOS], r), *velocities = row_of(&view[P_QVEL], r);
        const double *tip = row_of(&view[P_TIPS], r);
        pendulum_observe(positions, velocities, row_of(&view[P_CONSTRAINT], r), row_of(&view[P_SINES], r),
                         row_of(&view[P_COSINES], r), row_of(&view[P_OBSERVATIONS], r), nq, nv, clipped, bound);
        /* _scored_rows */
        double x = tip[0], y = tip[2];
        terminated[r] = y <= 1;
        distance[r] = 0.01 * python_square(x, &overflowed) + python_square(y - 2, &overflowed);
        velocity[r] = 1e-3 * python_square(velocities[1], &overflowed) + 5e-3 * python_square(velocities[2], &overflowed);
        survive[r] = healthy_reward * (terminated[r] ? 0.0 : 1.0);
        rewards[r] = (survive[r] - distance[r]) - velocity[r];
        distance[r] = -distance[r];
        velocity[r] = -velocity[r];
    }
    release_batch(view, P_BUFFERS);
    return Py_NewRef(Py_True);
}

/*
 * all_finite(array) -> bool, or None: whether every number of a C-contiguous float64 or float32 array is finite
 * (np.isfinite(array).all(), the check of a batch of actions); None for other arrays (the caller's numpy checks).
 */
static PyObject *
all_finite(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 1) {
        PyErr_SetString(PyExc_TypeError, "all_finite(array)");
        return NULL;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(args[0], &view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) != 0) {
        PyErr_Clear();
        Py_RETURN_NONE;
    }
    int wide = strcmp(view.format, "d") == 0, narrow = strcmp(view.format, "f") == 0, finite = 1;
    if (!wide && !narrow) {
        PyBuffer_Release(&view);
        Py_RETURN_NONE;
    }
    Py_ssize_t count = view.len / view.itemsize;
    for (Py_ssize_t k = 0; finite && k < count; k++) {
        finite = wide ? isfinite(((const double *)view.buf)[k]) : isfinite(((const float *)view.buf)[k]);
    }
    PyBuffer_Release(&view);
    return Py_NewRef(finite ? Py_True : Py_False);
}

/*
 * weighted_sums(weights, rows, out) -> bool: out[r, k] = the sum over b of weights[b] * rows[r, b, k], each sum
 * taken from 0.0 left to right in b (Humanoid's mass centres: the order numpy's einsum("b,bj->j") takes here,
 * which _row_sums checks at run time before using this). weights: a C-contiguous float64 vector of B; rows:
 * float64 (N, B, K), each row's numbers side by side (the rows anywhere); out: a C-contiguous float64 (N, K).
 * False for anything else, nothing written.
 */
static PyObject *
weighted_sums(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "weighted_sums(weights, rows, out)");
        return NULL;
    }
    Py_buffer weights, rows, out;
    if (PyObject_GetBuffer(args[0], &weights, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) != 0) {
        PyErr_Clear();
        return Py_NewRef(Py_False);
    }
    if (PyObject_GetBuffer(args[1], &rows, PyBUF_STRIDES | PyBUF_FORMAT) != 0) {
        PyErr_Clear();
        PyBuffer_Release(&weights);
        return Py_NewRef(Py_False);
    }
    if (PyObject_GetBuffer(args[2], &out, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_WRITABLE) != 0) {
        PyErr_Clear();
        PyBuffer_Release(&rows);
        PyBuffer_Release(&weights);
        return Py_NewRef(Py_False);
    }
    int fits = weights.ndim == 1 && rows.ndim == 3 && out.ndim == 2 && strcmp(weights.format, "d") == 0 &&
               strcmp(rows.format, "d") == 0 && strcmp(out.format, "d") == 0 && rows.shape[1] == weights.shape[0] &&
               out.shape[0] == rows.shape[0] && out.shape[1] == rows.shape[2] && rows_contiguous(&rows);
    if (fits) {
        const double *weight = weights.buf;
        Py_ssize_t n = rows.shape[0], count = rows.shape[1], width = rows.shape[2];
        for (Py_ssize_t r = 0; r < n; r++) {
            const double *row = (const double *)((const char *)rows.buf + r * rows.strides[0]);
            double *sums = (double *)out.buf + r * width;
            for (Py_ssize_t k = 0; k < width; k++) {
                double sum = 0.0;
                for (Py_ssize_t b = 0; b < count; b++) {
                    sum += weight[b] * row[b * width + k];
                }
                sums[k] = sum;
            }
        }
    }
    PyBuffer_Release(&out);
    PyBuffer_Release(&rows);
    PyBuffer_Release(&weights);
    return Py_NewRef(fits ? Py_True : Py_False);
}

/* tally_step's buffers, in the order given. */
enum { T_STEPS, T_REWARDS, T_TERMINATED, T_TRUNCATED, T_DONE, T_BUFFERS };
static const char tally_layout[] = "qd???";

/*
 * tally_step(buffers, limit, resetting) -> how many are done, or None: BatchedVectorEnv.tally_step of a step
 * without held sub-envs, its numpy code being the specification (core's vector/_batched.py):
 *
 *   steps += 1 (int64, wrapping as numpy's does); truncated = steps >= limit (none without a limit); for the
 *   rows in resetting: steps = 0, reward = 0.0, terminated = truncated = False; done = terminated | truncated.
 *
 * buffers: as tally_layout in the order of the T_ names (steps, rewards and terminated changed in place,
 * truncated and done written). limit: an int or None; resetting: a bool vector of N or None. None, nothing
 * written, for anything else (a limit beyond int64, other dtypes): the caller's numpy does it.
 */
static PyObject *
tally_step(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "tally_step(buffers: 5-tuple, limit, resetting)");
        return NULL;
    }
    long long limit = 0;
    int limited = args[1] != Py_None;
    if (limited) {
        if (!PyLong_CheckExact(args[1])) {
            Py_RETURN_NONE;
        }
        int overflow;
        limit = PyLong_AsLongLongAndOverflow(args[1], &overflow);
        if (overflow || (limit == -1 && PyErr_Occurred())) {
            PyErr_Clear();
            Py_RETURN_NONE;
        }
    }
    Py_buffer view[T_BUFFERS], reset;
    int resets = args[2] != Py_None;
    if (!take_batch(args[0], tally_layout, view)) {
        Py_RETURN_NONE;
    }
    Py_ssize_t n = view[T_STEPS].shape[0];
    if (resets) {
        if (PyObject_GetBuffer(args[2], &reset, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) != 0) {
            PyErr_Clear();
            release_batch(view, T_BUFFERS);
            Py_RETURN_NONE;
        }
        if (reset.ndim != 1 || reset.shape[0] != n || strcmp(reset.format, "?") != 0) {
            PyBuffer_Release(&reset);
            release_batch(view, T_BUFFERS);
            Py_RETURN_NONE;
        }
    }
    int64_t *steps = view[T_STEPS].buf;
    double *rewards = view[T_REWARDS].buf;
    bool *terminated = view[T_TERMINATED].buf, *truncated = view[T_TRUNCATED].buf, *done = view[T_DONE].buf;
    const bool *resetting = resets ? reset.buf : NULL;
    Py_ssize_t count = 0;
    for (Py_ssize_t r = 0; r < n; r++) {
        if (resetting != NULL && resetting[r]) {
            steps[r] = 0;
            rewards[r] = 0.0;
            terminated[r] = truncated[r] = done[r] = false;
            continue;
        }
        steps[r] = (int64_t)((uint64_t)steps[r] + 1u);
        truncated[r] = limited && steps[r] >= limit;
        done[r] = terminated[r] || truncated[r];
        count += done[r];
    }
    if (resets) {
        PyBuffer_Release(&reset);
    }
    release_batch(view, T_BUFFERS);
    return PyLong_FromSsize_t(count);
}

/* walk_ends' buffers and rules, in the order given. */
enum { K_QPOS, K_QVEL, K_FORCES, K_BEFORE, K_AFTER, K_OBSERVATIONS, K_CTRL, K_DT, K_DISTANCE, K_REWARDS, K_TERMINATED,
       K_X_POSITION, K_Y_POSITION, K_X_VELOCITY, K_Y_VELOCITY, K_FORWARD, K_CTRL_REWARD, K_CONTACT_REWARD, K_SURVIVE,
       K_BUFFERS };
static const char walk_layout[] = "RRRRRrdddd?dddddddd";
enum { W_FORWARD_WEIGHT, W_HEALTHY_REWARD, W_Z_LOW, W_Z_HIGH, W_CONTACT_WEIGHT, W_CONTACT_LOW, W_CONTACT_HIGH,
       W_FORCE_LOW, W_FORCE_HIGH, W_RULES };
#define MAX_EXTRAS 8

/* A clipping bound numpy's np.maximum / np.minimum and the loop agree on: a plain number, neither NaN nor a zero
 * (whose sign numpy's loops may tell apart otherwise). 1, else 0. */
static int
clip_bound(PyObject *value, double *bound)
{
    return plain_number(value, bound) && !isnan(*bound) && *bound != 0.0;
}

/*
 * walk_ends(buffers, rules, extras, skipped, open_range, finite_state, terminate, forces_observed) -> bool: the end
 * of an array step of Ant and Humanoid, each row as their numpy plain_end_batch computes it (the specification;
 * ant.py, humanoid.py, _locomotion.py):
 *
 *   forces:      each row of cfrc_ext, through np.minimum(np.maximum(f, force_low), force_high) where those
 *                rules are given (Ant's contact_force_range), else as they are.
 *   contact:     contact_weight * the pairwise sum of the forces' squares (square_sums), then through
 *                np.minimum(np.maximum(c, contact_low), contact_high) where given (Humanoid's contact_cost_range).
 *   healthy:     z = qpos[2] inside [z_low, z_high] (open with open_range: Humanoid's), and with finite_state
 *                every number of qpos and qvel finite (Ant's).
 *   _walk_scored: x_velocity = (after_x - before_x) / dt, y alike; forward = x_velocity * forward_weight;
 *                survive = healthy * healthy_reward; reward = (forward + survive) - (ctrl + contact); the columns
 *                x_position = qpos[0], y_position = qpos[1], x_velocity, y_velocity, forward, -ctrl,
 *                -contact and survive.
 *   observation: qpos[skipped:], qvel, each extra's row (Humanoid's cinert, cvel, ... parts), then with
 *                forces_observed the clipped forces but the first body's six (Ant's).
 *   terminated:  not healthy when terminate, else False.
 *
 * buffers: as walk_layout in the order of the K_ names (before and after: each row's x and y; distance: each
 * row's distance from the origin, which numpy's BLAS computes; the rest written). rules: the numbers of the
 * W_RULES names, the contact and force bounds None where not clipped. extras: a tuple of (N, width) float64
 * arrays, each row's numbers side by side. Returns False having written no observation when a rule is not a
 * number read as numpy reads it, a buffer or extra is not of those shapes, a row has more than 128 forces, or a
 * contact cost is not finite (numpy then warns of it as the single env does).
 */
static PyObject *
walk_ends(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 8 || !PyTuple_Check(args[1]) || PyTuple_GET_SIZE(args[1]) != W_RULES || !PyTuple_Check(args[2]) ||
        PyTuple_GET_SIZE(args[2]) > MAX_EXTRAS || !PyLong_Check(args[3])) {
        PyErr_SetString(PyExc_TypeError, "walk_ends(buffers: 19-tuple, rules: 9-tuple, extras: tuple of at most 8, "
                                         "skipped: int, open_range, finite_state, terminate, forces_observed)");
        return NULL;
    }
#if FLT_EVAL_METHOD != 0
    return Py_NewRef(Py_False);
#endif
    Py_ssize_t skipped = PyLong_AsSsize_t(args[3]);
    int open_range = PyObject_IsTrue(args[4]), finite_state = PyObject_IsTrue(args[5]);
    int terminate = PyObject_IsTrue(args[6]), forces_observed = PyObject_IsTrue(args[7]);
    if (PyErr_Occurred()) {
        return NULL;
    }
    PyObject *rules = args[1];
    double rule[W_RULES];
    int clip_forces = PyTuple_GET_ITEM(rules, W_FORCE_LOW) != Py_None;
    int clip_contact = PyTuple_GET_ITEM(rules, W_CONTACT_LOW) != Py_None;
    int readable = PyFloat_CheckExact(PyTuple_GET_ITEM(rules, W_HEALTHY_REWARD)); /* an int: an int64 column */
    for (int k = 0; readable && k < W_RULES; k++) {
        PyObject *value = PyTuple_GET_ITEM(rules, k);
        if (k == W_FORCE_LOW || k == W_FORCE_HIGH) {
            readable = clip_forces ? clip_bound(value, &rule[k]) : value == Py_None;
        }
        else if (k == W_CONTACT_LOW || k == W_CONTACT_HIGH) {
            readable = clip_contact ? clip_bound(value, &rule[k]) : value == Py_None;
        }
        else {
            readable = plain_number(value, &rule[k]);
        }
    }
    Py_buffer view[K_BUFFERS], extra[MAX_EXTRAS];
    if (!readable || !take_batch(args[0], walk_layout, view)) {
        return Py_NewRef(Py_False);
    }
    Py_ssize_t n = view[K_QPOS].shape[0], nq = view[K_QPOS].shape[1], nv = view[K_QVEL].shape[1];
    Py_ssize_t nforces = view[K_FORCES].shape[1], count = PyTuple_GET_SIZE(args[2]), taken = 0;
    Py_ssize_t width = nq - skipped + nv + (forces_observed ? nforces - 6 : 0);
    int fits = nq >= 3 && skipped >= 0 && skipped <= nq && nforces <= 128 && (!forces_observed || nforces >= 6) &&
               view[K_BEFORE].shape[1] == 2 && view[K_AFTER].shape[1] == 2;
    for (; fits && taken < count; taken++) {
        Py_buffer *part = &extra[taken];
        if (PyObject_GetBuffer(PyTuple_GET_ITEM(args[2], taken), part, PyBUF_STRIDES | PyBUF_FORMAT) != 0) {
            PyErr_Clear();
            fits = 0;
            break;
        }
        fits = part->ndim == 2 && part->shape[0] == n && part->itemsize == 8 && strcmp(part->format, "d") == 0 &&
               part->strides[1] == 8;
        if (!fits) {
            PyBuffer_Release(part);
            break;
        }
        width += part->shape[1];
    }
    fits = fits && view[K_OBSERVATIONS].shape[1] == width;
    double *contact = view[K_CONTACT_REWARD].buf, clipped[128];
    /* First the contact costs, so that a cost numpy would warn of leaves the batch to it with nothing observed. */
    for (Py_ssize_t r = 0; fits && r < n; r++) {
        const double *forces = (const double *)row_of(&view[K_FORCES], r);
        for (Py_ssize_t k = 0; k < nforces; k++) {
            clipped[k] = clip_forces ? clipped_to(forces[k], rule[W_FORCE_LOW], rule[W_FORCE_HIGH]) : forces[k];
        }
        double sum;
        PAIRWISE_SUM(double, clipped, nforces, sum);
        double cost = rule[W_CONTACT_WEIGHT] * sum;
        fits = isfinite(cost);
        contact[r] = clip_contact ? clipped_to(cost, rule[W_CONTACT_LOW], rule[W_CONTACT_HIGH]) : cost;
    }
    if (!fits) {
        release_batch(extra, taken);
        release_batch(view, K_BUFFERS);
        return Py_NewRef(Py_False);
    }
    const double *ctrl = view[K_CTRL].buf, *dt = view[K_DT].buf;
    double *rewards = view[K_REWARDS].buf, *x_position = view[K_X_POSITION].buf, *y_position = view[K_Y_POSITION].buf;
    double *x_velocity = view[K_X_VELOCITY].buf, *y_velocity = view[K_Y_VELOCITY].buf, *forward = view[K_FORWARD].buf;
    double *ctrl_reward = view[K_CTRL_REWARD].buf, *survive = view[K_SURVIVE].buf;
    bool *terminated = view[K_TERMINATED].buf;
    for (Py_ssize_t r = 0; r < n; r++) {
        const double *positions = row_of(&view[K_QPOS], r), *velocities = row_of(&view[K_QVEL], r);
        const double *before = row_of(&view[K_BEFORE], r), *after = row_of(&view[K_AFTER], r);
        double z = positions[2];
        bool healthy = open_range ? (rule[W_Z_LOW] < z) & (z < rule[W_Z_HIGH]) : (rule[W_Z_LOW] <= z) & (z <= rule[W_Z_HIGH]);
        for (Py_ssize_t k = 0; finite_state && healthy && k < nq + nv; k++) {
            healthy = isfinite(k < nq ? positions[k] : velocities[k - nq]);
        }
        x_velocity[r] = (after[0] - before[0]) / dt[r];
        y_velocity[r] = (after[1] - before[1]) / dt[r];
        forward[r] = x_velocity[r] * rule[W_FORWARD_WEIGHT];
        survive[r] = (healthy ? 1.0 : 0.0) * rule[W_HEALTHY_REWARD];
        rewards[r] = (forward[r] + survive[r]) - (ctrl[r] + contact[r]);
        ctrl_reward[r] = -ctrl[r];
        contact[r] = -contact[r];
        x_position[r] = positions[0];
        y_position[r] = positions[1];
        terminated[r] = terminate && !healthy;
        double *observation = row_of(&view[K_OBSERVATIONS], r);
        observe_row(positions, velocities, observation, skipped, nq, nv, 0, 0.0);
        observation += nq - skipped + nv;
        for (Py_ssize_t e = 0; e < count; e++) {
            memcpy(observation, (const char *)extra[e].buf + r * extra[e].strides[0], (size_t)extra[e].shape[1] * 8);
            observation += extra[e].shape[1];
        }
        if (forces_observed) {
            const double *forces = (const double *)row_of(&view[K_FORCES], r);
            for (Py_ssize_t k = 6; k < nforces; k++) {
                *observation++ = clip_forces ? clipped_to(forces[k], rule[W_FORCE_LOW], rule[W_FORCE_HIGH]) : forces[k];
            }
        }
    }
    release_batch(extra, taken);
    release_batch(view, K_BUFFERS);
    return Py_NewRef(Py_True);
}

static PyMethodDef methods[] = {
    {"random_rows", (PyCFunction)(void (*)(void))random_rows, METH_FASTCALL,
     "random_rows(generators, out) -> rows filled: row j as generators[j].random(out=out[j])."},
    {"gather_rows", (PyCFunction)(void (*)(void))gather_rows, METH_FASTCALL,
     "gather_rows(objects, name, out) -> rows filled: row j as getattr(objects[j], name)."},
    {"squares", (PyCFunction)(void (*)(void))squares, METH_FASTCALL,
     "squares(values, out) -> how many written: out[k] as float(values[k]) ** 2 (stops before an overflow)."},
    {"normal_starts", (PyCFunction)(void (*)(void))normal_starts, METH_FASTCALL,
     "normal_starts(envs, generators, qpos, qvel, rows, standard_normal) -> starts done: with normal velocity noise."},
    {"held_starts", (PyCFunction)(void (*)(void))held_starts, METH_FASTCALL,
     "held_starts(held, timing, rows, first, qpos, qvel, standard_normal) -> where it stopped: starts from held rows."},
    {"uniform_starts", (PyCFunction)(void (*)(void))uniform_starts, METH_FASTCALL,
     "uniform_starts(envs, generators, qpos, qvel, rows) -> starts done: each env's start state with uniform noise."},
    {"observe_rows", (PyCFunction)(void (*)(void))observe_rows, METH_FASTCALL,
     "observe_rows(qpos, qvel, observations, rows, skipped, velocity_bound) -> whether done: started rows observed."},
    {"upright_ends", (PyCFunction)(void (*)(void))upright_ends, METH_FASTCALL,
     "upright_ends(buffers, rules, skipped, terminate) -> whether done: UprightWalker's end of a batch step."},
    {"forward_ends", (PyCFunction)(void (*)(void))forward_ends, METH_FASTCALL,
     "forward_ends(buffers, forward_weight, velocity_bound, skipped) -> whether done: HalfCheetah's end of a batch step."},
    {"pendulum_observe_rows", (PyCFunction)(void (*)(void))pendulum_observe_rows, METH_FASTCALL,
     "pendulum_observe_rows(batch, angles, rows, velocity_bound) -> whether done: started rows observed."},
    {"pendulum_ends", (PyCFunction)(void (*)(void))pendulum_ends, METH_FASTCALL,
     "pendulum_ends(buffers, healthy_reward, velocity_bound) -> whether done: InvertedDoublePendulum's end of a batch step."},
    {"balanced_ends", (PyCFunction)(void (*)(void))balanced_ends, METH_FASTCALL,
     "balanced_ends(buffers, balance_limit) -> whether done: InvertedPendulum's end of a batch step."},
    {"zero_rows", (PyCFunction)(void (*)(void))zero_rows, METH_FASTCALL,
     "zero_rows(arrays, rows) -> whether done: arrays[a][rows] = 0.0 for each array."},
    {"all_finite", (PyCFunction)(void (*)(void))all_finite, METH_FASTCALL,
     "all_finite(array) -> whether every number is finite, or None for arrays it leaves to numpy."},
    {"tally_step", (PyCFunction)(void (*)(void))tally_step, METH_FASTCALL,
     "tally_step(buffers, limit, resetting) -> how many are done, or None: the template's count of a step."},
    {"weighted_sums", (PyCFunction)(void (*)(void))weighted_sums, METH_FASTCALL,
     "weighted_sums(weights, rows, out) -> whether done: each row's weighted sum over its first axis."},
    {"copy_pairs", (PyCFunction)(void (*)(void))copy_pairs, METH_FASTCALL,
     "copy_pairs(pairs) -> whether done: destination[...] = source for each pair of float64 arrays."},
    {"walk_ends", (PyCFunction)(void (*)(void))walk_ends, METH_FASTCALL,
     "walk_ends(buffers, rules, extras, skipped, open_range, finite_state, terminate, forces_observed) -> whether done: "
     "Ant's and Humanoid's end of a batch step."},
    {"square_sums", (PyCFunction)(void (*)(void))pairwise_square_sums, METH_FASTCALL,
     "square_sums(values, out) -> whether done: each row's sum of squares as numpy sums one vector."},
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
    s_timestep = PyUnicode_InternFromString("timestep");
    if (!s_bit_generator || !s_capsule || !s_lock || !s_acquire || !s_release || !s_reset_noise_scale || !s_init_qpos ||
        !s_init_qvel || !s_timestep) {
        return NULL;
    }
    return PyModule_Create(&compiled_module);
}
