/*
 * Compiled kernel of the Box2D suite (the fast path of _lidar.py): BipedalWalker's lidar.
 *
 * The plain lidar asks Box2D for ten ray casts, each calling back into Python for every
 * fixture the ray crosses, and keeps the nearest ground hit. What Box2D reports for a ray
 * is the least fraction over the ground fixtures it hits, each computed by the shape's
 * ray cast in single precision. This file computes the same fractions with the same
 * single-precision operations in the same order as Box2D 2.3's b2EdgeShape::RayCast and
 * b2PolygonShape::RayCast (facts of the computation, written here anew), on the ground's
 * shapes as Box2D stores them (read back from the engine after the terrain is built).
 * Nothing may be fused into a multiply-add: the build passes -ffp-contract=off.
 *
 * The module is optional: without a C compiler the package installs without it and the
 * walker's lidar asks Box2D, giving the same numbers, slower.
 */
#include "_buffers.h"

#include <float.h>
#include <math.h>
#include <string.h>

#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

#define RAYS 10

/* A static body's transform: position (0, 0), angle 0 (its rotation's sine and cosine). */
static const float ROT_S = 0.0f, ROT_C = 1.0f;

/* A point in a static body's frame, as Box2D's b2MulT(xf.q, p - xf.p) computes it. */
static void
to_body_frame(float x, float y, float *bx, float *by)
{
    float dx = x - 0.0f, dy = y - 0.0f;
    *bx = ROT_C * dx + ROT_S * dy;
    *by = -ROT_S * dx + ROT_C * dy;
}

/* An edge's hit: 1 and the fraction in *t, or 0 (b2EdgeShape::RayCast). */
static int
edge_hit(const float *edge, float p1x, float p1y, float p2x, float p2y, float max_fraction, float *t)
{
    float ax, ay, bx, by;
    to_body_frame(p1x, p1y, &ax, &ay);
    to_body_frame(p2x, p2y, &bx, &by);
    float dx = bx - ax, dy = by - ay;
    float v1x = edge[0], v1y = edge[1], v2x = edge[2], v2y = edge[3];
    float ex = v2x - v1x, ey = v2y - v1y;
    float nx = ey, ny = -ex;
    float length = sqrtf(nx * nx + ny * ny);
    if (!(length < FLT_EPSILON)) {
        float inv = 1.0f / length;
        nx *= inv;
        ny *= inv;
    }
    float numerator = nx * (v1x - ax) + ny * (v1y - ay);
    float denominator = nx * dx + ny * dy;
    if (denominator == 0.0f) {
        return 0;
    }
    float f = numerator / denominator;
    if (f < 0.0f || max_fraction < f) {
        return 0;
    }
    float qx = ax + f * dx, qy = ay + f * dy;
    float rx = v2x - v1x, ry = v2y - v1y;
    float rr = rx * rx + ry * ry;
    if (rr == 0.0f) {
        return 0;
    }
    float s = ((qx - v1x) * rx + (qy - v1y) * ry) / rr;
    if (s < 0.0f || 1.0f < s) {
        return 0;
    }
    *t = f;
    return 1;
}

/* A convex polygon's hit (b2PolygonShape::RayCast); rows are (vertex x, y, normal x, y). */
static int
polygon_hit(const float *rows, int count, float p1x, float p1y, float p2x, float p2y, float max_fraction,
            float *t)
{
    float ax, ay, bx, by;
    to_body_frame(p1x, p1y, &ax, &ay);
    to_body_frame(p2x, p2y, &bx, &by);
    float dx = bx - ax, dy = by - ay;
    float lower = 0.0f, upper = max_fraction;
    int index = -1;
    for (int i = 0; i < count; i++) {
        const float *row = rows + 4 * i;
        float numerator = row[2] * (row[0] - ax) + row[3] * (row[1] - ay);
        float denominator = row[2] * dx + row[3] * dy;
        if (denominator == 0.0f) {
            if (numerator < 0.0f) {
                return 0;
            }
        } else if (denominator < 0.0f && numerator < lower * denominator) {
            lower = numerator / denominator;
            index = i;
        } else if (denominator > 0.0f && numerator < upper * denominator) {
            upper = numerator / denominator;
        }
        if (upper < lower) {
            return 0;
        }
    }
    if (index < 0) {
        return 0;
    }
    *t = lower;
    return 1;
}

/* The ten rays' nearest ground hits: fractions and stop points into o ((10, 3) doubles). */
static void
cast_rays(double x, double y, const double *dir, const float *edge, const float *reach, Py_ssize_t n_edges,
          const float *poly, const int *count, const float *span, Py_ssize_t n_polygons, double *o)
{
    /* The ray starts at the hull's position (float32 values given as doubles). */
    float p1x = (float)x, p1y = (float)y;
    for (int r = 0; r < RAYS; r++) {
        /* The end point: computed in double by the walker, stored as float by Box2D. */
        float p2x = (float)(x + dir[2 * r]), p2y = (float)(y - dir[2 * r + 1]);
        float lo = p1x < p2x ? p1x : p2x, hi = p1x < p2x ? p2x : p1x;
        float fraction = 1.0f, max_fraction = 1.0f, t;
        int stop = 0, hit = 0;
        /* Fixtures wholly left or right of the ray cannot be hit: only the others are cast.
         * The edges come by their left ends, and reach[i] is the furthest right any of the
         * first i + 1 goes, so those before the first reach >= lo all end left of the ray
         * and those after a left end > hi all start right of it. (The nearest hit does not
         * depend on the order the edges are tried in.) */
        Py_ssize_t first = 0, last = n_edges;
        while (first < last) {
            Py_ssize_t middle = first + (last - first) / 2;
            if (reach[middle] < lo) {
                first = middle + 1;
            } else {
                last = middle;
            }
        }
        for (Py_ssize_t i = first; i < n_edges && !stop; i++) {
            const float *e = edge + 4 * i;
            float e_lo = e[0] < e[2] ? e[0] : e[2], e_hi = e[0] < e[2] ? e[2] : e[0];
            if (e_lo > hi) {
                break;
            }
            if (e_hi < lo) {
                continue;
            }
            if (edge_hit(e, p1x, p1y, p2x, p2y, max_fraction, &t)) {
                fraction = max_fraction = t;
                hit = 1;
                stop = t == 0.0f; /* Box2D ends the cast at a fraction of 0 */
            }
        }
        for (Py_ssize_t i = 0; i < n_polygons && !stop; i++) {
            if (span[2 * i + 1] < lo || span[2 * i] > hi) {
                continue;
            }
            if (polygon_hit(poly + 4 * POLYGON_VERTICES * i, count[i], p1x, p1y, p2x, p2y, max_fraction, &t)) {
                fraction = max_fraction = t;
                hit = 1;
                stop = t == 0.0f;
            }
        }
        o[3 * r] = fraction;
        /* Where the ray stops (drawn by renders): Box2D's hit point (1 - f) * p1 + f * p2 in
         * float, or the end the walker computed in double. */
        if (hit) {
            o[3 * r + 1] = (1.0f - fraction) * p1x + fraction * p2x;
            o[3 * r + 2] = (1.0f - fraction) * p1y + fraction * p2y;
        } else {
            o[3 * r + 1] = x + dir[2 * r];
            o[3 * r + 2] = y - dir[2 * r + 1];
        }
    }
}

static PyObject *
walker_lidar(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 9) {
        PyErr_Format(PyExc_TypeError,
                     "walker_lidar(x, y, directions, edges, reach, polygons, counts, spans, out) takes 9 arguments, "
                     "got %zd", nargs);
        return NULL;
    }
    double x = PyFloat_AsDouble(args[0]);
    double y = PyFloat_AsDouble(args[1]);
    if (PyErr_Occurred()) {
        return NULL;
    }
    Py_buffer directions, out;
    Ground ground;
    if (get_buffer(args[2], &directions, "d", sizeof(double), 2 * RAYS, 0, "directions") < 0) {
        return NULL;
    }
    if (ground_take(&ground, args + 3) < 0) {
        PyBuffer_Release(&directions);
        return NULL;
    }
    if (get_buffer(args[8], &out, "d", sizeof(double), 3 * RAYS, 1, "out") < 0) {
        ground_release(&ground);
        PyBuffer_Release(&directions);
        return NULL;
    }
    Py_buffer *g = ground.view;
    cast_rays(x, y, directions.buf, g[G_EDGES].buf, g[G_REACH].buf, ground.n_edges, g[G_POLYGONS].buf,
              g[G_COUNTS].buf, g[G_SPANS].buf, ground.n_polygons, out.buf);
    PyBuffer_Release(&out);
    ground_release(&ground);
    PyBuffer_Release(&directions);
    Py_RETURN_NONE;
}

static PyMethodDef kernel_methods[] = {
    {"walker_lidar", (PyCFunction)(void (*)(void))walker_lidar, METH_FASTCALL,
     "walker_lidar(x, y, directions, edges, reach, polygons, counts, spans, out)\n--\n\n"
     "BipedalWalker's ten lidar rays from (x, y) along directions ((10, 2) doubles) against the\n"
     "ground's edges ((E, 4) float32: both vertices, ordered by their left ends; reach (E,) float32:\n"
     "the running maximum of their right ends) and convex polygons ((P, 8, 4) float32:\n"
     "vertex and normal rows, counts (P,) int32, spans (P, 2) float32 of their x): each ray's\n"
     "nearest-hit fraction and stop point go in out ((10, 3) doubles)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef kernel_module = {
    PyModuleDef_HEAD_INIT,
    "palaestra_box2d._compiled",
    "Compiled kernel of the Box2D suite (optional; the same numbers as asking Box2D).",
    -1,
    kernel_methods,
};

PyMODINIT_FUNC
PyInit__compiled(void)
{
    PyObject *module = PyModule_Create(&kernel_module);
    if (module == NULL) {
        return NULL;
    }
    /* cast_rays for C callers (the batched walker's compiled step, _walker_kernel.c). */
    PyObject *capsule = PyCapsule_New((void *)cast_rays, "palaestra_box2d._compiled.cast_rays", NULL);
    if (capsule == NULL || PyModule_AddObject(module, "cast_rays", capsule) < 0) {
        Py_XDECREF(capsule);
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
