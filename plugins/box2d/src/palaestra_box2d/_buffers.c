/* Buffer checks shared by the Box2D suite's compiled modules (see _buffers.h). */
#include "_buffers.h"

#include <string.h>

int
get_buffer(PyObject *obj, Py_buffer *view, const char *format, Py_ssize_t itemsize, Py_ssize_t count, int writable,
           const char *name)
{
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, view, flags) < 0) {
        return -1;
    }
    if (view->itemsize != itemsize || view->format == NULL || strcmp(view->format, format) != 0
        || (count >= 0 && view->len != itemsize * count) || (count < 0 && view->len % (itemsize * -count) != 0)) {
        PyErr_Format(PyExc_TypeError, "%s must hold %s%zd items of format '%s'", name, count < 0 ? "a multiple of " : "",
                     count < 0 ? -count : count, format);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

int
ground_take(Ground *ground, PyObject *const arrays[GROUND_ARRAYS])
{
    Py_buffer *v = ground->view;
    int taken = 0;
    if (get_buffer(arrays[G_EDGES], &v[G_EDGES], "f", sizeof(float), -4, 0, "edges") < 0) {
        goto fail;
    }
    taken++;
    ground->n_edges = v[G_EDGES].len / (Py_ssize_t)(4 * sizeof(float));
    if (get_buffer(arrays[G_REACH], &v[G_REACH], "f", sizeof(float), ground->n_edges, 0, "reach") < 0) {
        goto fail;
    }
    taken++;
    if (get_buffer(arrays[G_POLYGONS], &v[G_POLYGONS], "f", sizeof(float), -4 * POLYGON_VERTICES, 0, "polygons")
        < 0) {
        goto fail;
    }
    taken++;
    ground->n_polygons = v[G_POLYGONS].len / (Py_ssize_t)(4 * POLYGON_VERTICES * sizeof(float));
    if (get_buffer(arrays[G_COUNTS], &v[G_COUNTS], "i", sizeof(int), ground->n_polygons, 0, "counts") < 0) {
        goto fail;
    }
    taken++;
    if (get_buffer(arrays[G_SPANS], &v[G_SPANS], "f", sizeof(float), 2 * ground->n_polygons, 0, "spans") < 0) {
        goto fail;
    }
    return 0;
fail:
    while (taken > 0) {
        PyBuffer_Release(&v[--taken]);
    }
    return -1;
}

void
ground_release(Ground *ground)
{
    for (int i = 0; i < GROUND_ARRAYS; i++) {
        PyBuffer_Release(&ground->view[i]);
    }
}
