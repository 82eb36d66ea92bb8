/*
 * Compiled Blackjack tables (the fast path of _blackjack_tables.py): every table's deal and
 * move in one call each.
 *
 * The specification is blackjack.py's deal, play and observe, which this file repeats rule
 * for rule (a test holds the two to the same numbers). Each table draws from its own numpy
 * generator exactly as Generator.integers(n) does for one number below n < 2**32: Lemire's
 * method on the bit generator's 32-bit outputs (m = u32 * n; while the low half of m is below
 * 2**32 % n, draw again; the number is m >> 32), through numpy's documented C interface to a
 * bit generator (the "BitGenerator" capsule; numpy/random/bitgen.h). The tables read the
 * vector env's list of generators at every call, so a table given a new generator (a reseed,
 * a restored snapshot) draws from it at once.
 *
 * The module is optional: without a C compiler the package installs without it and the
 * tables are played in Python, with the same numbers.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <string.h>

/* numpy's bitgen_t (numpy/random/bitgen.h). */
typedef struct {
    void *state;
    uint64_t (*next_uint64)(void *);
    uint32_t (*next_uint32)(void *);
    double (*next_double)(void *);
    uint64_t (*next_raw)(void *);
} BitGen;

/* The most cards a hand can hold: 21 aces and the card that busts them. */
#define WIDTH 22

static const int DECK[13] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10};

typedef struct {
    signed char cards[WIDTH];
    int count, total; /* aces counted 1 */
    int ace;
} Hand;

typedef struct {
    Hand player, dealer;
    int suit, face; /* drawn for the dealer's showing card; face -1: none drawn */
} Table;

typedef struct {
    PyObject_HEAD
    PyObject *generators; /* the vector env's list, one generator per table */
    Py_ssize_t n;
    int natural, sab;
    Table *tables;
    PyObject **held; /* the generator each table's bit generator was taken from */
    BitGen **bits;
} Kernel;

/* ---- the rules (blackjack.py) ------------------------------------------------------- */

static void
hand_deal(Hand *hand, int first, int second)
{
    memset(hand->cards, 0, sizeof hand->cards);
    hand->cards[0] = (signed char)first;
    hand->cards[1] = (signed char)second;
    hand->count = 2;
    hand->total = first + second;
    hand->ace = first == 1 || second == 1;
}

static void
hand_add(Hand *hand, int card)
{
    hand->cards[hand->count++] = (signed char)card;
    hand->total += card;
    hand->ace = hand->ace || card == 1;
}

/* usable_ace: an ace that can count 11 without busting. */
static int
usable_ace(const Hand *hand)
{
    return hand->ace && hand->total + 10 <= 21;
}

/* sum_hand: the value, a usable ace counted 11. */
static int
sum_hand(const Hand *hand)
{
    return usable_ace(hand) ? hand->total + 10 : hand->total;
}

/* score: the value, 0 when bust. */
static int
score(const Hand *hand)
{
    int value = sum_hand(hand);
    return value > 21 ? 0 : value;
}

/* is_natural: an ace and a ten-card. */
static int
is_natural(const Hand *hand)
{
    return hand->count == 2 && hand->ace && hand->total == 11;
}

/* ---- draws ------------------------------------------------------------------------ */

/* Generator.integers(n) for 1 <= n < 2**32. */
static int
draw(BitGen *bits, uint32_t n)
{
    if (n == 1) {
        return 0;
    }
    uint64_t m = (uint64_t)bits->next_uint32(bits->state) * n;
    uint32_t leftover = (uint32_t)m;
    if (leftover < n) {
        uint32_t threshold = (uint32_t)(UINT32_MAX - (n - 1)) % n;
        while (leftover < threshold) {
            m = (uint64_t)bits->next_uint32(bits->state) * n;
            leftover = (uint32_t)m;
        }
    }
    return (int)(m >> 32);
}

static int
draw_card(BitGen *bits)
{
    return DECK[draw(bits, 13)];
}

/* Table i's bit generator, taken again when the list holds another generator for it. */
static BitGen *
bits_of(Kernel *self, Py_ssize_t i)
{
    if (!PyList_Check(self->generators) || PyList_GET_SIZE(self->generators) != self->n) {
        PyErr_Format(PyExc_RuntimeError, "the generators are not a list of %zd", self->n);
        return NULL;
    }
    PyObject *generator = PyList_GET_ITEM(self->generators, i);
    if (generator == self->held[i]) {
        return self->bits[i];
    }
    if (generator == Py_None) {
        PyErr_Format(PyExc_RuntimeError, "sub-env %zd has no generator yet: its owner sets one before it draws", i);
        return NULL;
    }
    PyObject *bit_generator = PyObject_GetAttrString(generator, "bit_generator");
    PyObject *capsule = bit_generator == NULL ? NULL : PyObject_GetAttrString(bit_generator, "capsule");
    Py_XDECREF(bit_generator);
    BitGen *bits = capsule == NULL ? NULL : PyCapsule_GetPointer(capsule, "BitGenerator");
    Py_XDECREF(capsule); /* the bit generator, held through its generator, keeps the state alive */
    if (bits == NULL) {
        return NULL;
    }
    Py_INCREF(generator);
    Py_XSETREF(self->held[i], generator);
    self->bits[i] = bits;
    return bits;
}

/* ---- buffers ---------------------------------------------------------------------- */

static int
take_buffer(PyObject *obj, Py_buffer *view, const char *format, Py_ssize_t count, int writable, const char *name)
{
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0)) < 0) {
        return -1;
    }
    if (strcmp(view->format, format) != 0 || (count >= 0 && view->len != count * view->itemsize)) {
        PyErr_Format(PyExc_TypeError, "%s must be a C-contiguous array of %zd items of format %s", name, count,
                     format);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* numpy's buffer code for int64 and for bool. */
#if LONG_MAX == INT64_MAX
#define INT64_FORMAT "l"
#else
#define INT64_FORMAT "q"
#endif

/* ---- the type ---------------------------------------------------------------------- */

static void
kernel_dealloc(Kernel *self)
{
    for (Py_ssize_t i = 0; self->held != NULL && i < self->n; i++) {
        Py_XDECREF(self->held[i]);
    }
    PyMem_Free(self->held);
    PyMem_Free(self->bits);
    PyMem_Free(self->tables);
    Py_XDECREF(self->generators);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int
kernel_init(Kernel *self, PyObject *args, PyObject *kwargs)
{
    static char *names[] = {"generators", "natural", "sab", NULL};
    PyObject *generators;
    int natural, sab;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O!pp", names, &PyList_Type, &generators, &natural, &sab)) {
        return -1;
    }
    if (self->tables != NULL) {
        PyErr_SetString(PyExc_RuntimeError, "BlackjackKernel is initialised once");
        return -1;
    }
    Py_ssize_t n = PyList_GET_SIZE(generators);
    if (n < 1) {
        PyErr_SetString(PyExc_ValueError, "BlackjackKernel needs at least one table");
        return -1;
    }
    self->tables = PyMem_Calloc((size_t)n, sizeof(Table));
    self->held = PyMem_Calloc((size_t)n, sizeof(PyObject *));
    self->bits = PyMem_Calloc((size_t)n, sizeof(BitGen *));
    if (self->tables == NULL || self->held == NULL || self->bits == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        self->tables[i].face = -1;
    }
    Py_INCREF(generators);
    self->generators = generators;
    self->n = n;
    self->natural = natural;
    self->sab = sab;
    return 0;
}

/* deal(tables): new hands at the listed tables (int64 indices), blackjack.deal's draws in its order. */
static PyObject *
kernel_deal(Kernel *self, PyObject *indices)
{
    Py_buffer view;
    if (take_buffer(indices, &view, INT64_FORMAT, -1, 0, "tables") < 0) {
        return NULL;
    }
    const int64_t *at = view.buf;
    Py_ssize_t count = view.len / (Py_ssize_t)sizeof(int64_t);
    for (Py_ssize_t k = 0; k < count; k++) {
        Py_ssize_t i = (Py_ssize_t)at[k];
        BitGen *bits = i >= 0 && i < self->n ? bits_of(self, i) : NULL;
        if (bits == NULL) {
            if (!PyErr_Occurred()) {
                PyErr_Format(PyExc_IndexError, "table %zd is not one of %zd", i, self->n);
            }
            PyBuffer_Release(&view);
            return NULL;
        }
        Table *table = self->tables + i;
        int d1 = draw_card(bits), d2 = draw_card(bits);
        int p1 = draw_card(bits), p2 = draw_card(bits);
        hand_deal(&table->dealer, d1, d2);
        hand_deal(&table->player, p1, p2);
        table->suit = draw(bits, 4);
        table->face = d1 == 10 ? draw(bits, 3) : -1;
    }
    PyBuffer_Release(&view);
    Py_RETURN_NONE;
}

/* play(hit, stick, rewards, ended): one move at each table that hits or sticks (bool arrays),
 * blackjack.play's rules; every table's reward and end written (0 and False where none). */
static PyObject *
kernel_play(Kernel *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4) {
        PyErr_Format(PyExc_TypeError, "play(hit, stick, rewards, ended) takes 4 arguments, got %zd", nargs);
        return NULL;
    }
    Py_buffer hit, stick, rewards, ended;
    if (take_buffer(args[0], &hit, "?", self->n, 0, "hit") < 0) {
        return NULL;
    }
    if (take_buffer(args[1], &stick, "?", self->n, 0, "stick") < 0) {
        PyBuffer_Release(&hit);
        return NULL;
    }
    if (take_buffer(args[2], &rewards, "d", self->n, 1, "rewards") < 0) {
        PyBuffer_Release(&hit);
        PyBuffer_Release(&stick);
        return NULL;
    }
    if (take_buffer(args[3], &ended, "?", self->n, 1, "ended") < 0) {
        PyBuffer_Release(&hit);
        PyBuffer_Release(&stick);
        PyBuffer_Release(&rewards);
        return NULL;
    }
    const char *hits = hit.buf, *sticks = stick.buf;
    double *reward = rewards.buf;
    char *end = ended.buf;
    PyObject *result = Py_None;
    for (Py_ssize_t i = 0; i < self->n; i++) {
        reward[i] = 0.0;
        end[i] = 0;
        if (!hits[i] && !sticks[i]) {
            continue;
        }
        BitGen *bits = bits_of(self, i);
        if (bits == NULL) {
            result = NULL;
            break;
        }
        Table *table = self->tables + i;
        if (hits[i]) {
            hand_add(&table->player, draw_card(bits));
            int bust = sum_hand(&table->player) > 21;
            reward[i] = bust ? -1.0 : 0.0;
            end[i] = (char)bust;
            continue;
        }
        while (sum_hand(&table->dealer) < 17) {
            hand_add(&table->dealer, draw_card(bits));
        }
        int mine = score(&table->player), theirs = score(&table->dealer);
        double value = (double)(mine > theirs) - (double)(mine < theirs);
        if (self->sab && is_natural(&table->player) && !is_natural(&table->dealer)) {
            value = 1.0;
        } else if (!self->sab && self->natural && is_natural(&table->player) && value == 1.0) {
            value = 1.5;
        }
        reward[i] = value;
        end[i] = 1;
    }
    PyBuffer_Release(&hit);
    PyBuffer_Release(&stick);
    PyBuffer_Release(&rewards);
    PyBuffer_Release(&ended);
    if (result == NULL) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* observe(sums, showing, aces): blackjack.observe for every table, into three int64 arrays. */
static PyObject *
kernel_observe(Kernel *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_Format(PyExc_TypeError, "observe(sums, showing, aces) takes 3 arguments, got %zd", nargs);
        return NULL;
    }
    Py_buffer out[3];
    static const char *what[3] = {"sums", "showing", "aces"};
    for (int k = 0; k < 3; k++) {
        if (take_buffer(args[k], &out[k], INT64_FORMAT, self->n, 1, what[k]) < 0) {
            while (k-- > 0) {
                PyBuffer_Release(&out[k]);
            }
            return NULL;
        }
    }
    int64_t *sums = out[0].buf, *showing = out[1].buf, *aces = out[2].buf;
    for (Py_ssize_t i = 0; i < self->n; i++) {
        const Table *table = self->tables + i;
        int usable = usable_ace(&table->player);
        sums[i] = table->player.total + (usable ? 10 : 0);
        showing[i] = table->dealer.cards[0];
        aces[i] = usable;
    }
    for (int k = 0; k < 3; k++) {
        PyBuffer_Release(&out[k]);
    }
    Py_RETURN_NONE;
}

static PyObject *
hand_list(const Hand *hand)
{
    PyObject *list = PyList_New(hand->count);
    for (int k = 0; list != NULL && k < hand->count; k++) {
        PyList_SET_ITEM(list, k, PyLong_FromLong(hand->cards[k]));
    }
    return list;
}

/* hand(i) -> (player cards, dealer cards, suit, face or -1). */
static PyObject *
kernel_hand(Kernel *self, PyObject *index)
{
    Py_ssize_t i = PyLong_AsSsize_t(index);
    if (i == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (i < 0 || i >= self->n) {
        return PyErr_Format(PyExc_IndexError, "table %zd is not one of %zd", i, self->n);
    }
    const Table *table = self->tables + i;
    return Py_BuildValue("(NNii)", hand_list(&table->player), hand_list(&table->dealer), table->suit, table->face);
}

/* state() -> bytes: every table's hands and drawn card (what a copy takes over). */
static PyObject *
kernel_state(Kernel *self, PyObject *unused)
{
    (void)unused;
    return PyBytes_FromStringAndSize((const char *)self->tables, self->n * (Py_ssize_t)sizeof(Table));
}

/* set_state(bytes): take over what state() gave (of a kernel with as many tables). */
static PyObject *
kernel_set_state(Kernel *self, PyObject *state)
{
    char *data;
    Py_ssize_t size;
    if (PyBytes_AsStringAndSize(state, &data, &size) < 0) {
        return NULL;
    }
    if (size != self->n * (Py_ssize_t)sizeof(Table)) {
        return PyErr_Format(PyExc_ValueError, "the state is of %zd bytes, not the %zd of %zd tables", size,
                            self->n * (Py_ssize_t)sizeof(Table), self->n);
    }
    memcpy(self->tables, data, (size_t)size);
    Py_RETURN_NONE;
}

static PyMethodDef kernel_methods[] = {
    {"deal", (PyCFunction)kernel_deal, METH_O, "deal(tables): new hands at the listed tables (int64 indices)."},
    {"play", (PyCFunction)(void (*)(void))kernel_play, METH_FASTCALL,
     "play(hit, stick, rewards, ended): one move at each table that hits or sticks."},
    {"observe", (PyCFunction)(void (*)(void))kernel_observe, METH_FASTCALL,
     "observe(sums, showing, aces): every table's observation, into three int64 arrays."},
    {"hand", (PyCFunction)kernel_hand, METH_O, "hand(i) -> (player cards, dealer cards, suit, face or -1)."},
    {"state", (PyCFunction)kernel_state, METH_NOARGS, "state() -> bytes: every table's hands and drawn card."},
    {"set_state", (PyCFunction)kernel_set_state, METH_O, "set_state(state): take over what state() gave."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject KernelType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "palaestra_toy_text._blackjack_kernel.BlackjackKernel",
    .tp_basicsize = sizeof(Kernel),
    .tp_dealloc = (destructor)kernel_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "BlackjackKernel(generators, natural, sab): Blackjack tables, each drawing from its generator.",
    .tp_methods = kernel_methods,
    .tp_init = (initproc)kernel_init,
    .tp_new = PyType_GenericNew,
};

static struct PyModuleDef kernel_module = {
    PyModuleDef_HEAD_INIT,
    "palaestra_toy_text._blackjack_kernel",
    "Compiled Blackjack tables (optional; the same numbers as the Python tables).",
    -1,
    NULL,
};

PyMODINIT_FUNC
PyInit__blackjack_kernel(void)
{
    if (PyType_Ready(&KernelType) < 0) {
        return NULL;
    }
    PyObject *module = PyModule_Create(&kernel_module);
    if (module == NULL) {
        return NULL;
    }
    Py_INCREF(&KernelType);
    if (PyModule_AddObject(module, "BlackjackKernel", (PyObject *)&KernelType) < 0) {
        Py_DECREF(&KernelType);
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
