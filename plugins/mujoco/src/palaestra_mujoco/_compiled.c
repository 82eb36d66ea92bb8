/*
 * Compiled row fills of the MuJoCo suite (the fast path of _start_draws.py): the per-row
 * Python of a batch's episode starts, one C loop each.
 *
 * random_rows(generators, out): row j of `out` gets what `generators[j].random(out=out[j])`
 * writes. numpy's Generator.random fills a float64 array with its bit generator's
 * next_double, one number after another; this loop calls the same function through the
 * bitgen_t that every numpy BitGenerator exports in its "BitGenerator" capsule (numpy's
 * documented C interface since 1.17, declared below as numpy declares it).
 *
 * gather_rows(objects, name, out): row j of `out` gets `getattr(objects[j], name)`.
 *
 * Each stops at the first row it cannot do exactly as numpy would and returns how many
 * rows it filled; the Python spec in _start_draws.py does the rest, numpy's errors
 * included. random_rows stops at a generator whose lock another thread holds (numpy draws
 * under that lock with the GIL released, and a blocking wait here, holding the GIL, could
 * deadlock), or one that is not a numpy Generator; gather_rows at a value that is not a
 * one-dimensional C-contiguous native float64 array of the row's width.
 *
 * The module is optional: without a C compiler the package installs without it and
 * _start_draws.py fills the rows in Python, with the same numbers.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

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

static PyMethodDef methods[] = {
    {"random_rows", (PyCFunction)(void (*)(void))random_rows, METH_FASTCALL,
     "random_rows(generators, out) -> rows filled: row j as generators[j].random(out=out[j])."},
    {"gather_rows", (PyCFunction)(void (*)(void))gather_rows, METH_FASTCALL,
     "gather_rows(objects, name, out) -> rows filled: row j as getattr(objects[j], name)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef compiled_module = {
    PyModuleDef_HEAD_INIT,
    "palaestra_mujoco._compiled",
    "Compiled row fills of the MuJoCo suite's batch starts (see _start_draws.py).",
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
    if (!s_bit_generator || !s_capsule || !s_lock || !s_acquire || !s_release) {
        return NULL;
    }
    return PyModule_Create(&compiled_module);
}
