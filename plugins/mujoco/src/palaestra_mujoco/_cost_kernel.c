/*
 * Compiled control and contact costs of the MuJoCo envs, to numpy's last bit.
 *
 * The reference prices arrays as float(weight * np.square(values).sum()). For float32
 * values numpy squares in float32, sums in float32 and multiplies by the weight converted
 * to float32; for float64 values all of it happens in float64. Its sum is pairwise
 * (blocks of up to 128 values added with eight running sums, longer arrays split in two),
 * and that order is reproduced here. A float32 product or sum is computed in double and
 * converted to float, which gives numpy's float32 result (a product of two floats is
 * exact in double; for a sum, double's more than twice as long mantissa makes rounding
 * twice harmless): each conversion marks one of numpy's roundings.
 * A float64 square goes through a volatile so that no compiler fuses it with the addition
 * that follows (numpy rounds the square first).
 *
 * The module is optional: without a C compiler at install time the envs compute the same
 * numbers with numpy (mujoco_env.py), slower.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>

#define BLOCK 128 /* numpy's PW_BLOCKSIZE */

static inline float
square32(const char *p)
{
    double x = *(const float *)p;
    return (float)(x * x);
}

static inline double
square64(const char *p)
{
    double x = *(const double *)p;
    volatile double square = x * x;
    return square;
}

/* A float32 value squared in float64 (exact: no rounding to keep apart). */
static inline double
square64_of32(const char *p)
{
    double x = *(const float *)p;
    return x * x;
}

static inline float
add32(float a, float b)
{
    return (float)((double)a + b);
}

static inline double
add64(double a, double b)
{
    return a + b;
}

/* numpy's pairwise sum of the squares of n values ``stride`` bytes apart. */
#define PAIRWISE_SQUARE_SUM(NAME, TYPE, SQUARE, ADD)                                       \
    static TYPE NAME(const char *p, Py_ssize_t n, Py_ssize_t stride)                        \
    {                                                                                       \
        if (n < 8) {                                                                        \
            TYPE total = 0;                                                                 \
            for (Py_ssize_t i = 0; i < n; i++) {                                            \
                total = ADD(total, SQUARE(p + i * stride));                                 \
            }                                                                               \
            return total;                                                                   \
        }                                                                                   \
        if (n <= BLOCK) {                                                                   \
            TYPE r[8];                                                                      \
            for (int j = 0; j < 8; j++) {                                                   \
                r[j] = SQUARE(p + j * stride);                                              \
            }                                                                               \
            Py_ssize_t i;                                                                   \
            for (i = 8; i < n - (n % 8); i += 8) {                                          \
                for (int j = 0; j < 8; j++) {                                               \
                    r[j] = ADD(r[j], SQUARE(p + (i + j) * stride));                         \
                }                                                                           \
            }                                                                               \
            TYPE total = ADD(ADD(ADD(r[0], r[1]), ADD(r[2], r[3])),                         \
                             ADD(ADD(r[4], r[5]), ADD(r[6], r[7])));                        \
            for (; i < n; i++) {                                                            \
                total = ADD(total, SQUARE(p + i * stride));                                 \
            }                                                                               \
            return total;                                                                   \
        }                                                                                   \
        Py_ssize_t half = n / 2;                                                            \
        half -= half % 8;                                                                   \
        return ADD(NAME(p, half, stride), NAME(p + half * stride, n - half, stride));       \
    }

PAIRWISE_SQUARE_SUM(square_sum32, float, square32, add32)
PAIRWISE_SQUARE_SUM(square_sum64, double, square64, add64)
PAIRWISE_SQUARE_SUM(square_sum64_of32, double, square64_of32, add64)

/* The values as one strided run: 1-D with any stride, or C-contiguous of any shape.
 * Returns 1 for other layouts (left to numpy, buffer released), -1 on error. */
static int
get_values(PyObject *obj, Py_buffer *view, Py_ssize_t *n, Py_ssize_t *stride)
{
    if (PyObject_GetBuffer(obj, view, PyBUF_STRIDES | PyBUF_FORMAT) < 0) {
        return -1;
    }
    if (strcmp(view->format, "f") != 0 && strcmp(view->format, "d") != 0) {
        PyErr_Format(PyExc_TypeError, "values must be float32 or float64, not format '%s'", view->format);
        PyBuffer_Release(view);
        return -1;
    }
    if (view->ndim == 1) {
        *n = view->shape[0];
        *stride = view->strides[0];
        return 0;
    }
    if (PyBuffer_IsContiguous(view, 'C')) {
        *n = view->len / view->itemsize;
        *stride = view->itemsize;
        return 0;
    }
    PyBuffer_Release(view);
    return 1;
}

/* Copy the n values into the float64 array ``ctrl`` (same length, writable, contiguous). */
static int
copy_into(PyObject *target, const Py_buffer *values, Py_ssize_t n, Py_ssize_t stride)
{
    Py_buffer ctrl;
    if (PyObject_GetBuffer(target, &ctrl, PyBUF_WRITABLE | PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0) {
        return -1;
    }
    int status = -1;
    if (ctrl.ndim != 1 || strcmp(ctrl.format, "d") != 0) {
        PyErr_SetString(PyExc_TypeError, "ctrl must be a 1-D float64 array");
    }
    else if (ctrl.shape[0] != n) {
        PyErr_Format(PyExc_ValueError, "values have %zd entries, ctrl %zd", n, ctrl.shape[0]);
    }
    else {
        double *out = (double *)ctrl.buf;
        const char *p = (const char *)values->buf;
        int single = values->itemsize == sizeof(float);
        for (Py_ssize_t i = 0; i < n; i++) {
            out[i] = single ? *(const float *)(p + i * stride) : *(const double *)(p + i * stride);
        }
        status = 0;
    }
    PyBuffer_Release(&ctrl);
    return status;
}

static PyObject *
weighted_square_sum(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3 && nargs != 4) {
        PyErr_Format(PyExc_TypeError,
                     "weighted_square_sum(weight, values, ctrl, in_float64=False) takes 3 or 4 "
                     "arguments, got %zd", nargs);
        return NULL;
    }
    int in_float64 = nargs == 4 ? PyObject_IsTrue(args[3]) : 0;
    if (in_float64 < 0) {
        return NULL;
    }
    double weight = PyFloat_AsDouble(args[0]);
    if (weight == -1.0 && PyErr_Occurred()) {
        return NULL;
    }
    Py_buffer values;
    Py_ssize_t n, stride;
    int layout = get_values(args[1], &values, &n, &stride);
    if (layout != 0) {
        return layout < 0 ? NULL : Py_NewRef(Py_None); /* numpy walks other layouts its own way */
    }
    double cost;
    if (values.itemsize == sizeof(float) && in_float64) {
        cost = weight * square_sum64_of32((const char *)values.buf, n, stride);
    }
    else if (values.itemsize == sizeof(float)) {
        cost = (float)((double)(float)weight * square_sum32((const char *)values.buf, n, stride));
    }
    else {
        cost = weight * square_sum64((const char *)values.buf, n, stride);
    }
    PyObject *result = NULL;
    if (!isfinite(cost)) {
        result = Py_NewRef(Py_None); /* the Python path names a NaN or infinite action */
    }
    else if (args[2] == Py_None || copy_into(args[2], &values, n, stride) == 0) {
        result = PyFloat_FromDouble(cost);
    }
    PyBuffer_Release(&values);
    return result;
}

static PyMethodDef kernel_methods[] = {
    {"weighted_square_sum", (PyCFunction)(void (*)(void))weighted_square_sum, METH_FASTCALL,
     "weighted_square_sum(weight, values, ctrl, in_float64=False)\n--\n\n"
     "float(weight * np.square(values).sum()) for float32 or float64 values, to the last bit;\n"
     "with in_float64, float32 values are priced as if converted to float64 first.\n"
     "When ctrl (a float64 array) is not None, the values are also copied into it. None when\n"
     "the result is not finite (then nothing is copied) or the values are neither 1-D nor\n"
     "C-contiguous."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef kernel_module = {
    PyModuleDef_HEAD_INIT,
    "palaestra_mujoco._cost_kernel",
    "Compiled control and contact costs of the MuJoCo envs (optional; same numbers as numpy).",
    -1,
    kernel_methods,
};

PyMODINIT_FUNC
PyInit__cost_kernel(void)
{
    return PyModule_Create(&kernel_module);
}
