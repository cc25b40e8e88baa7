/* The core request values of rules_core.requests, built from C: shared by the native readers
 * (json_request.c).
 *
 * CoreTypes holds the six named-tuple classes (Meld, Hand, Winner, Dice, LiabilityRelation,
 * SettleRequest), imported from rules_core.requests at module init by core_types_load, which
 * checks each class's _fields against the order the builders below assume and raises
 * ImportError naming the first mismatch. Keep it in the module's state (core_types_traverse and
 * core_types_clear for its m_traverse and m_clear).
 *
 * The builders make a value as the Python readers do (a tuple of its fields typed as the class:
 * cls->tp_alloc(cls, n), then PyTuple_SET_ITEM, as tuple's own subtype_new). Each builder
 * STEALS a reference to every field it is given, on success and on failure alike (NULL with an
 * exception set: every field released), so a caller passes new references (Py_NewRef of a
 * borrowed enum member) and never releases them after. A field may not be NULL.
 *
 * Include <Python.h> (with PY_SSIZE_T_CLEAN) first. Everything here is static inline: a module
 * that uses a part of it has no unused-function warning for the rest.
 */
#ifndef SHMJ_CORE_VALUES_H
#define SHMJ_CORE_VALUES_H

#include <Python.h>

typedef struct {
    PyTypeObject *meld;     /* Meld(kind, tiles, from_seat) */
    PyTypeObject *hand;     /* Hand(concealed, winning_tile, melds, flowers) */
    PyTypeObject *winner;   /* Winner(seat, hand, passed_tiles, replacement_draw, first_go_around) */
    PyTypeObject *dice;     /* Dice(first, second) */
    PyTypeObject *relation; /* LiabilityRelation(claimer_seat, source_seat, claims) */
    PyTypeObject *request;  /* SettleRequest(profile, outcome, winners, dealer_seat, dice, ...) */
} CoreTypes;

/* The fields each builder fills, in order: what core_types_load holds _fields to. */
static const char *const CORE_MELD_FIELDS[] = {"kind", "tiles", "from_seat", NULL};
static const char *const CORE_HAND_FIELDS[] = {"concealed", "winning_tile", "melds", "flowers", NULL};
static const char *const CORE_WINNER_FIELDS[] = {
    "seat", "hand", "passed_tiles", "replacement_draw", "first_go_around", NULL};
static const char *const CORE_DICE_FIELDS[] = {"first", "second", NULL};
static const char *const CORE_RELATION_FIELDS[] = {"claimer_seat", "source_seat", "claims", NULL};
static const char *const CORE_REQUEST_FIELDS[] = {
    "profile", "outcome", "winners", "dealer_seat", "dice", "huangfan_count", "discarder_seat",
    "liabilities", "abandoning_seat", "overrides", "request_id", "profile_digest", NULL};

/* 0 when the class's _fields are exactly `expected`, else -1 with ImportError naming it. */
static inline int core_check_fields(PyObject *cls, const char *name, const char *const *expected) {
    PyObject *fields = PyObject_GetAttrString(cls, "_fields");
    if (fields == NULL) {
        PyErr_Format(PyExc_ImportError, "rules_core.requests.%s has no _fields", name);
        return -1;
    }
    Py_ssize_t count = 0;
    while (expected[count] != NULL) {
        count++;
    }
    int same = PyTuple_Check(fields) && PyTuple_GET_SIZE(fields) == count;
    for (Py_ssize_t i = 0; same && i < count; i++) {
        PyObject *field = PyTuple_GET_ITEM(fields, i);
        same = PyUnicode_Check(field) && PyUnicode_CompareWithASCIIString(field, expected[i]) == 0;
    }
    if (!same) {
        PyErr_Format(PyExc_ImportError, "rules_core.requests.%s._fields is %R, not the %zd fields this module builds",
                     name, fields, count);
    }
    Py_DECREF(fields);
    return same ? 0 : -1;
}

/* The class `name` of rules_core.requests (a new reference), its _fields checked; NULL on error. */
static inline PyTypeObject *core_type(PyObject *module, const char *name, const char *const *expected) {
    PyObject *cls = PyObject_GetAttrString(module, name);
    if (cls == NULL) {
        return NULL;
    }
    if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, &PyTuple_Type)) {
        PyErr_Format(PyExc_ImportError, "rules_core.requests.%s is not a tuple class", name);
        Py_DECREF(cls);
        return NULL;
    }
    if (core_check_fields(cls, name, expected) < 0) {
        Py_DECREF(cls);
        return NULL;
    }
    return (PyTypeObject *)cls;
}

static inline void core_types_clear(CoreTypes *types) {
    Py_CLEAR(types->meld);
    Py_CLEAR(types->hand);
    Py_CLEAR(types->winner);
    Py_CLEAR(types->dice);
    Py_CLEAR(types->relation);
    Py_CLEAR(types->request);
}

static inline int core_types_traverse(CoreTypes *types, visitproc visit, void *arg) {
    Py_VISIT(types->meld);
    Py_VISIT(types->hand);
    Py_VISIT(types->winner);
    Py_VISIT(types->dice);
    Py_VISIT(types->relation);
    Py_VISIT(types->request);
    return 0;
}

/* Fill `types` from rules_core.requests: 0, or -1 with an exception set (and `types` cleared). */
static inline int core_types_load(CoreTypes *types) {
    PyObject *module = PyImport_ImportModule("rules_core.requests");
    if (module == NULL) {
        return -1;
    }
    types->meld = core_type(module, "Meld", CORE_MELD_FIELDS);
    types->hand = types->meld ? core_type(module, "Hand", CORE_HAND_FIELDS) : NULL;
    types->winner = types->hand ? core_type(module, "Winner", CORE_WINNER_FIELDS) : NULL;
    types->dice = types->winner ? core_type(module, "Dice", CORE_DICE_FIELDS) : NULL;
    types->relation = types->dice ? core_type(module, "LiabilityRelation", CORE_RELATION_FIELDS) : NULL;
    types->request = types->relation ? core_type(module, "SettleRequest", CORE_REQUEST_FIELDS) : NULL;
    Py_DECREF(module);
    if (types->request == NULL) {
        core_types_clear(types);
        return -1;
    }
    return 0;
}

/* A value of `cls` (a tuple subclass) of the n fields given, each reference stolen. */
static inline PyObject *core_value(PyTypeObject *cls, Py_ssize_t n, PyObject *const *fields) {
    PyObject *value = cls->tp_alloc(cls, n);
    if (value == NULL) {
        for (Py_ssize_t i = 0; i < n; i++) {
            Py_DECREF(fields[i]);
        }
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyTuple_SET_ITEM(value, i, fields[i]);
    }
    return value;
}

/* A plain tuple of the n items given, each reference stolen (the empty tuple for none). */
static inline PyObject *core_tuple(Py_ssize_t n, PyObject *const *items) {
    PyObject *tuple = PyTuple_New(n);
    for (Py_ssize_t i = 0; i < n; i++) {
        if (tuple == NULL) {
            Py_DECREF(items[i]);
        } else {
            PyTuple_SET_ITEM(tuple, i, items[i]);
        }
    }
    return tuple;
}

static inline PyObject *core_meld(const CoreTypes *t, PyObject *kind, PyObject *tiles, PyObject *from_seat) {
    PyObject *fields[] = {kind, tiles, from_seat};
    return core_value(t->meld, 3, fields);
}

static inline PyObject *core_hand(const CoreTypes *t, PyObject *concealed, PyObject *winning_tile, PyObject *melds,
                                  PyObject *flowers) {
    PyObject *fields[] = {concealed, winning_tile, melds, flowers};
    return core_value(t->hand, 4, fields);
}

static inline PyObject *core_winner(const CoreTypes *t, PyObject *seat, PyObject *hand, PyObject *passed_tiles,
                                    PyObject *replacement_draw, PyObject *first_go_around) {
    PyObject *fields[] = {seat, hand, passed_tiles, replacement_draw, first_go_around};
    return core_value(t->winner, 5, fields);
}

static inline PyObject *core_dice(const CoreTypes *t, PyObject *first, PyObject *second) {
    PyObject *fields[] = {first, second};
    return core_value(t->dice, 2, fields);
}

static inline PyObject *core_relation(const CoreTypes *t, PyObject *claimer_seat, PyObject *source_seat,
                                      PyObject *claims) {
    PyObject *fields[] = {claimer_seat, source_seat, claims};
    return core_value(t->relation, 3, fields);
}

/* The fields of a SettleRequest, in _fields order: filled by a reader, then core_request. */
typedef struct {
    PyObject *profile, *outcome, *winners, *dealer_seat, *dice, *huangfan_count, *discarder_seat, *liabilities,
        *abandoning_seat, *overrides, *request_id, *profile_digest;
} CoreRequestFields;

static inline PyObject *core_request(const CoreTypes *t, const CoreRequestFields *f) {
    PyObject *fields[] = {f->profile,         f->outcome,        f->winners,     f->dealer_seat,
                          f->dice,            f->huangfan_count, f->discarder_seat, f->liabilities,
                          f->abandoning_seat, f->overrides,      f->request_id,  f->profile_digest};
    return core_value(t->request, 12, fields);
}

#endif /* SHMJ_CORE_VALUES_H */
