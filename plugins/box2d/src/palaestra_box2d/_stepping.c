/*
 * Compiled stepping of the Box2D suite's batched envs (the fast path of _kernel_block.py).
 *
 * A batched Box2D block spends as long in Python around the engine as in the engine:
 * reading bodies and joints through the binding, firing engines or setting motors,
 * building the observation and the reward, and the contact listener's calls back into
 * Python. The kernels (_lander_kernel.c, _walker_kernel.c) do that work for a whole block
 * in one call, stepping each world through Box2D's own exported b2World::Step and reading
 * and writing bodies where the engine keeps them.
 *
 * Nothing here knows Box2D's headers. _engine_layout.py finds the engine's exported
 * functions in the binding's shared object and checks, on probe worlds and against the
 * binding itself, every field offset this module is given; without a match it is never
 * configured and the envs step in Python. The kernels repeat the plain envs' arithmetic
 * (their step methods are the specification) operation for operation, in double precision
 * where Python computes, in single precision where Box2D or numpy's float32 does, so tests
 * hold the two to the same bits. No multiply-add fusing (-ffp-contract=off).
 *
 * This file: the engine's configuration, the contact listener, the worlds' hand-over and
 * the buffers' checks, and the module.
 */
#include "_stepping.h"

#include <string.h>

Engine engine;

int
engine_ready(void)
{
    if (!engine.ready) {
        PyErr_SetString(PyExc_RuntimeError, "the engine's layout was not configured");
    }
    return engine.ready;
}

static PyObject *
configure(PyObject *module, PyObject *args)
{
    (void)module;
    PyObject *functions, *layout;
    if (!PyArg_ParseTuple(args, "O!O!", &PyTuple_Type, &functions, &PyTuple_Type, &layout)) {
        return NULL;
    }
    if (PyTuple_GET_SIZE(functions) != ENGINE_FUNCTIONS || PyTuple_GET_SIZE(layout) != LAYOUT_FIELDS) {
        PyErr_Format(PyExc_ValueError, "configure takes %d function addresses and %d offsets", ENGINE_FUNCTIONS,
                     LAYOUT_FIELDS);
        return NULL;
    }
    void *address[ENGINE_FUNCTIONS];
    int complete = 1;
    for (int i = 0; i < ENGINE_FUNCTIONS; i++) {
        address[i] = PyLong_AsVoidPtr(PyTuple_GET_ITEM(functions, i));
        complete = complete && address[i] != NULL;
    }
    Py_ssize_t at[LAYOUT_FIELDS];
    for (int i = 0; i < LAYOUT_FIELDS; i++) {
        at[i] = PyLong_AsSsize_t(PyTuple_GET_ITEM(layout, i));
    }
    if (PyErr_Occurred()) {
        return NULL;
    }
    /* Addresses of functions, handed over as integers (the only way from ctypes). */
    memcpy(&engine.call, address, sizeof engine.call);
    memcpy(engine.at, at, sizeof at);
    engine.ready = complete;
    Py_RETURN_NONE;
}

/* apply_impulse(body_address, ix, iy, px, py): the compiled impulse, for the layout's check. */
static PyObject *
apply_impulse(PyObject *module, PyObject *args)
{
    (void)module;
    PyObject *body;
    float ix, iy, px, py;
    if (!PyArg_ParseTuple(args, "Offff", &body, &ix, &iy, &px, &py) || !engine_ready()) {
        return NULL;
    }
    void *address = PyLong_AsVoidPtr(body);
    if (address == NULL) {
        return PyErr_Occurred() ? NULL : PyErr_Format(PyExc_ValueError, "no body at address 0");
    }
    apply_linear_impulse(address, ix, iy, px, py);
    Py_RETURN_NONE;
}

/* ---- stepping on a crew --------------------------------------------------------------- */

void
stepping_init(Stepping *stepping)
{
    crew_init(&stepping->crew);
    stepping->busy = stepping->in_flight = 0;
}

static int
refuse_if_busy(const Stepping *stepping)
{
    if (stepping->busy) {
        PyErr_SetString(PyExc_RuntimeError,
                        "the kernel is stepping in another thread: a batched env is not to be used by two threads at "
                        "once");
        return 0;
    }
    return 1;
}

int
stepping_idle(const Stepping *stepping)
{
    if (!refuse_if_busy(stepping)) {
        return 0;
    }
    if (stepping->in_flight) {
        PyErr_SetString(PyExc_RuntimeError, "a step is under way: finish() it first");
        return 0;
    }
    return 1;
}

void *
stepping_slot(const Stepping *stepping, Slots *slots, PyObject *index, int attached)
{
    if (!refuse_if_busy(stepping)) {
        return NULL;
    }
    void *slot = slots_get(slots, index, attached);
    if (slot != NULL && stepping->in_flight) {
        Py_ssize_t j = ((char *)slot - slots->items) / (Py_ssize_t)slots->size;
        if (((const char *)stepping->buffers.active.buf)[j]) {
            PyErr_Format(PyExc_RuntimeError, "sub-env %zd is being stepped: finish() the step first", j);
            return NULL;
        }
    }
    return slot;
}

PyObject *
stepping_set_threads(Stepping *stepping, PyObject *threads)
{
    long k = PyLong_AsLong(threads);
    if ((k == -1 && PyErr_Occurred()) || !stepping_idle(stepping) || crew_resize(&stepping->crew, k) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

void
stepping_start(Stepping *stepping, Py_ssize_t n, CrewTask task, void *context)
{
    stepping->in_flight = 1;
    crew_start(&stepping->crew, n, task, context);
}

PyObject *
stepping_finish(Stepping *stepping)
{
    if (!refuse_if_busy(stepping)) {
        return NULL;
    }
    if (!stepping->in_flight) {
        PyErr_SetString(PyExc_RuntimeError, "no step is under way: begin() one first");
        return NULL;
    }
    stepping->busy = 1;
    Py_BEGIN_ALLOW_THREADS
    crew_finish(&stepping->crew);
    Py_END_ALLOW_THREADS
    stepping->busy = 0;
    stepping->in_flight = 0;
    release_step_buffers(&stepping->buffers);
    Py_RETURN_NONE;
}

PyObject *
stepping_complete(Stepping *stepping, PyObject *begun)
{
    if (begun == Py_True) {
        PyObject *finished = stepping_finish(stepping);
        if (finished == NULL) {
            Py_DECREF(begun);
            return NULL;
        }
        Py_DECREF(finished);
    }
    return begun;
}

void
stepping_close(Stepping *stepping)
{
    if (stepping->in_flight) {
        crew_finish(&stepping->crew);
        stepping->in_flight = 0;
        release_step_buffers(&stepping->buffers);
    }
    crew_dismiss(&stepping->crew);
}

/* ---- the contact listener ----------------------------------------------------------- */

static inline void *
pointer_at(void *object, int field)
{
    return *(void **)((char *)object + engine.at[field]);
}

static void
listener_nothing(Listener *self)
{
    (void)self;
}

static void
listener_solve(Listener *self, void *contact, const void *data)
{
    (void)self, (void)contact, (void)data;
}

static void
listener_begin(Listener *self, void *contact)
{
    void *a = pointer_at(pointer_at(contact, CONTACT_FIXTURE_A), FIXTURE_BODY);
    void *b = pointer_at(pointer_at(contact, CONTACT_FIXTURE_B), FIXTURE_BODY);
    if (a == self->hull || b == self->hull) {
        self->game_over = 1;
    }
    for (int k = 0; k < 2; k++) {
        if (a == self->legs[k] || b == self->legs[k]) {
            self->contact[k] = 1;
        }
    }
}

static void
listener_end(Listener *self, void *contact)
{
    void *a = pointer_at(pointer_at(contact, CONTACT_FIXTURE_A), FIXTURE_BODY);
    void *b = pointer_at(pointer_at(contact, CONTACT_FIXTURE_B), FIXTURE_BODY);
    for (int k = 0; k < 2; k++) {
        if (a == self->legs[k] || b == self->legs[k]) {
            self->contact[k] = 0;
        }
    }
}

static const void *const LISTENER_TABLE[] = {
    (const void *)listener_nothing, (const void *)listener_nothing, (const void *)listener_begin,
    (const void *)listener_end,     (const void *)listener_solve,   (const void *)listener_solve,
};

void
listener_init(Listener *listener, void *hull, void *left, void *right, int game_over, int left_contact,
              int right_contact)
{
    listener->vtable = LISTENER_TABLE;
    listener->hull = hull;
    listener->legs[0] = left;
    listener->legs[1] = right;
    listener->game_over = (char)game_over;
    listener->contact[0] = (char)left_contact;
    listener->contact[1] = (char)right_contact;
}

/* ---- episodes --------------------------------------------------------------------- */

int
episode_take(Episode *episode, PyObject *state, void *hull, void *left, void *right)
{
    PyObject *prev;
    int game_over, left_contact, right_contact;
    long elapsed, limit;
    if (!PyArg_ParseTuple(state, "Opppll", &prev, &game_over, &left_contact, &right_contact, &elapsed, &limit)) {
        return -1;
    }
    double prev_shaping = prev == Py_None ? 0.0 : PyFloat_AsDouble(prev);
    if (PyErr_Occurred()) {
        return -1;
    }
    listener_init(&episode->listener, hull, left, right, game_over, left_contact, right_contact);
    episode->prev_shaping = prev_shaping;
    episode->has_prev = prev != Py_None;
    episode->elapsed = elapsed;
    episode->limit = limit;
    return 0;
}

PyObject *
episode_state(const Episode *episode)
{
    PyObject *prev = episode->has_prev ? PyFloat_FromDouble(episode->prev_shaping) : Py_NewRef(Py_None);
    if (prev == NULL) {
        return NULL;
    }
    const Listener *listener = &episode->listener;
    return Py_BuildValue("(NOOOl)", prev, listener->game_over ? Py_True : Py_False,
                         listener->contact[0] ? Py_True : Py_False, listener->contact[1] ? Py_True : Py_False,
                         episode->elapsed);
}

/* ---- worlds ----------------------------------------------------------------------- */

int
world_take(WorldHold *hold, PyObject *spec, Listener *listener)
{
    PyObject *owner, *world, *python_listener;
    if (!PyArg_ParseTuple(spec, "OOO", &owner, &world, &python_listener)) {
        return -1;
    }
    void *world_address = PyLong_AsVoidPtr(world);
    void *listener_address = PyLong_AsVoidPtr(python_listener);
    if (PyErr_Occurred()) {
        return -1;
    }
    if (world_address == NULL) {
        PyErr_SetString(PyExc_ValueError, "no world at address 0");
        return -1;
    }
    world_release(hold);
    Py_INCREF(owner);
    hold->owner = owner;
    hold->world = world_address;
    hold->python_listener = listener_address;
    engine.call.set_contact_listener(world_address, listener);
    return 0;
}

void
world_release(WorldHold *hold)
{
    if (hold->owner != NULL) {
        engine.call.set_contact_listener(hold->world, hold->python_listener);
        Py_CLEAR(hold->owner);
    }
}

/* ---- slots ------------------------------------------------------------------------- */

void
slots_free(Slots *slots)
{
    if (slots->items != NULL) {
        for (Py_ssize_t j = 0; j < slots->n; j++) {
            slots->release(slots->items + (size_t)j * slots->size);
        }
        PyMem_Free(slots->items);
        slots->items = NULL;
    }
}

int
slots_make(Slots *slots, Py_ssize_t n, size_t size, void (*release)(void *slot))
{
    char *items = PyMem_Calloc((size_t)n, size);
    if (items == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    slots_free(slots);
    slots->items = items;
    slots->n = n;
    slots->size = size;
    slots->release = release;
    return 0;
}

void *
slots_get(Slots *slots, PyObject *index, int attached)
{
    Py_ssize_t j = PyLong_AsSsize_t(index);
    if (j == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (slots->items == NULL || j < 0 || j >= slots->n) {
        PyErr_Format(PyExc_IndexError, "sub-env %zd is not in this block of %zd", j, slots->n);
        return NULL;
    }
    void *slot = slots->items + (size_t)j * slots->size;
    if (attached && !*(int *)slot) {
        PyErr_Format(PyExc_RuntimeError, "sub-env %zd is not attached", j);
        return NULL;
    }
    return slot;
}

/* ---- buffers ----------------------------------------------------------------------- */

int
step_buffers(StepBuffers *b, PyObject *const *args, Py_ssize_t nargs, Py_ssize_t n, const char *action_format,
             Py_ssize_t action_size, Py_ssize_t obs_size)
{
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "step takes actions, active, obs, rewards, terminated, truncated");
        return -1;
    }
    Py_buffer *views[6] = {&b->actions, &b->active, &b->obs, &b->rewards, &b->terminated, &b->truncated};
    const char *formats[6] = {action_format, "?", "f", "d", "?", "?"};
    const Py_ssize_t sizes[6] = {action_format[0] == 'f' ? 4 : 8, 1, 4, 8, 1, 1};
    const Py_ssize_t counts[6] = {action_size * n, n, obs_size * n, n, n, n};
    const char *names[6] = {"actions", "active", "obs", "rewards", "terminated", "truncated"};
    for (int i = 0; i < 6; i++) {
        if (get_buffer(args[i], views[i], formats[i], sizes[i], counts[i], i >= 2, names[i]) < 0) {
            while (i > 0) {
                PyBuffer_Release(views[--i]);
            }
            return -1;
        }
    }
    return 0;
}

void
release_step_buffers(StepBuffers *b)
{
    Py_buffer *views[6] = {&b->actions, &b->active, &b->obs, &b->rewards, &b->terminated, &b->truncated};
    for (int i = 0; i < 6; i++) {
        PyBuffer_Release(views[i]);
    }
}

/* ---- the module ----------------------------------------------------------------------- */

static PyMethodDef module_methods[] = {
    {"configure", configure, METH_VARARGS,
     "configure(functions, layout): the engine's exported functions (addresses, in _engine_layout.FUNCTIONS' "
     "order) and its checked field offsets (_engine_layout.LAYOUT's)."},
    {"apply_impulse", apply_impulse, METH_VARARGS,
     "apply_impulse(body_address, ix, iy, px, py): the compiled b2Body::ApplyLinearImpulse on an awake body."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef stepping_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "palaestra_box2d._stepping",
    .m_doc = "Compiled stepping of the Box2D suite's batched envs (see _kernel_block.py).",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC
PyInit__stepping(void)
{
    PyTypeObject *types[] = {&LanderKernelType, &WalkerKernelType};
    const char *names[] = {"LanderKernel", "WalkerKernel"};
    for (int i = 0; i < 2; i++) {
        if (PyType_Ready(types[i]) < 0) {
            return NULL;
        }
    }
    PyObject *module = PyModule_Create(&stepping_module);
    if (module == NULL) {
        return NULL;
    }
    for (int i = 0; i < 2; i++) {
        Py_INCREF(types[i]);
        if (PyModule_AddObject(module, names[i], (PyObject *)types[i]) < 0) {
            Py_DECREF(types[i]);
            Py_DECREF(module);
            return NULL;
        }
    }
    return module;
}
