/*
 * numpy's standard normal draw (random_standard_normal, from the static library numpy ships for
 * extensions, libnpyrandom) handed to the _compiled module in a capsule, for the normal velocity noise of
 * a batch's episode starts (_start_draws.normal_starts). Generator.standard_normal draws each number with
 * this function; _start_draws checks the two against each other on this numpy before use.
 *
 * Optional twice over: built only where numpy's static library was found at build time, and used only when
 * its draws equal numpy's own (the numpy at run time may not be the one built against).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "_bitgen.h"

/* numpy/random/distributions.h */
extern double random_standard_normal(bitgen_t *bitgen_state);

static struct PyModuleDef normals_module = {
    PyModuleDef_HEAD_INIT,
    "palaestra_mujoco._normals",
    "numpy's standard normal draw, as a capsule for palaestra_mujoco._compiled.normal_starts.",
    -1,
    NULL,
    NULL,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC
PyInit__normals(void)
{
    PyObject *module = PyModule_Create(&normals_module);
    if (module == NULL) {
        return NULL;
    }
    PyObject *capsule = PyCapsule_New((void *)random_standard_normal, "palaestra_mujoco._normals.standard_normal", NULL);
    if (capsule == NULL || PyModule_AddObject(module, "standard_normal", capsule) < 0) {
        Py_XDECREF(capsule);
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
