/*
 * Buffer checks shared by the Box2D suite's compiled modules (_compiled.c, _stepping.c and
 * its kernels): each array a kernel reads or writes is taken as a C-contiguous buffer of
 * the format and size it must have, or refused with a TypeError naming it.
 */
#ifndef PALAESTRA_BOX2D_BUFFERS_H
#define PALAESTRA_BOX2D_BUFFERS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

/* Box2D's b2_maxPolygonVertices: the rows of each obstacle in the walker's ground. */
#define POLYGON_VERTICES 8

/* A C-contiguous buffer of `count` items of `format` (writable when asked); a negative
 * count asks for a multiple of -count items. */
int get_buffer(PyObject *obj, Py_buffer *view, const char *format, Py_ssize_t itemsize, Py_ssize_t count,
               int writable, const char *name);

/* The walker's ground, as _lidar.Lidar.set_ground makes it: edges ((E, 4) float32, ordered by
 * their left ends), reach ((E,) float32), polygons ((P, 8, 4) float32), counts ((P,) int32),
 * spans ((P, 2) float32). */
enum { G_EDGES, G_REACH, G_POLYGONS, G_COUNTS, G_SPANS, GROUND_ARRAYS };

typedef struct {
    Py_buffer view[GROUND_ARRAYS];
    Py_ssize_t n_edges, n_polygons;
} Ground;

/* Take the five arrays (all released again on failure). */
int ground_take(Ground *ground, PyObject *const arrays[GROUND_ARRAYS]);
void ground_release(Ground *ground);

#endif
