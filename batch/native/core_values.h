/* The core request values of rules_core.requests, built from C: shared by the native readers
 * (json_request.c).
 *
 * CoreTypes holds the six named-tuple classes (Meld, Hand, Winner, Dice, LiabilityRelation,
 * SettleRequest), imported from rules_core.requests at module init by core_types_load, which
 * checks each class's _fields against the order the builders below assume and raises
 * ImportError naming the first mismatch. Keep it in the module's state (core_types_traverse and
 * core_types_clear for its m_traverse and m_clear).
 *
 * A class may have more fields after those the builders fill, each with a default (fields added
 * later, such as those of RULES.md section 14, which these readers do not read): the builders
 * append those defaults, so a value is as long as the class's own constructor makes it.
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

/* The defaults of the fields a class has after those the builders fill, by class: filled by
 * core_types_load (each module that includes this header keeps its own table). */
#define CORE_MAX_TAIL 4
typedef struct {
    PyTypeObject *cls; /* borrowed: CoreTypes holds the reference */
    Py_ssize_t n;
    PyObject *items[CORE_MAX_TAIL]; /* new references, kept for the process */
} CoreTail;
static CoreTail core_tails[6];
static int core_tail_count = 0;

/* Record the defaults of `cls`'s fields from index `from` on: 0, or -1 with ImportError. */
static inline int core_record_tail(PyObject *cls, const char *name, PyObject *fields, Py_ssize_t from) {
    Py_ssize_t extra = PyTuple_GET_SIZE(fields) - from;
    if (extra > CORE_MAX_TAIL) {
        PyErr_Format(PyExc_ImportError, "rules_core.requests.%s has more added fields than this module fills", name);
        return -1;
    }
    for (int i = 0; i < core_tail_count; i++) {
        if (core_tails[i].cls == (PyTypeObject *)cls) {
            return 0; /* recorded by an earlier load of this module */
        }
    }
    if (core_tail_count >= 6) {
        PyErr_SetString(PyExc_ImportError, "core_values.h: too many classes");
        return -1;
    }
    CoreTail tail = {(PyTypeObject *)cls, extra, {NULL}};
    PyObject *defaults = extra ? PyObject_GetAttrString(cls, "_field_defaults") : NULL;
    if (extra && (defaults == NULL || !PyDict_Check(defaults))) {
        Py_XDECREF(defaults);
        PyErr_Format(PyExc_ImportError, "rules_core.requests.%s has no _field_defaults", name);
        return -1;
    }
    for (Py_ssize_t i = 0; i < extra; i++) {
        PyObject *value = PyDict_GetItemWithError(defaults, PyTuple_GET_ITEM(fields, from + i));
        if (value == NULL) {
            for (Py_ssize_t done = 0; done < i; done++) {
                Py_DECREF(tail.items[done]);
            }
            Py_DECREF(defaults);
            if (!PyErr_Occurred()) {
                PyErr_Format(PyExc_ImportError, "rules_core.requests.%s: an added field %R has no default", name,
                             PyTuple_GET_ITEM(fields, from + i));
            }
            return -1;
        }
        tail.items[i] = Py_NewRef(value);
    }
    Py_XDECREF(defaults);
    core_tails[core_tail_count++] = tail;
    return 0;
}

/* 0 when the class's _fields start with `expected` (any later field has a default, recorded for
 * the builders), else -1 with ImportError naming it. */
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
    int same = PyTuple_Check(fields) && PyTuple_GET_SIZE(fields) >= count;
    for (Py_ssize_t i = 0; same && i < count; i++) {
        PyObject *field = PyTuple_GET_ITEM(fields, i);
        same = PyUnicode_Check(field) && PyUnicode_CompareWithASCIIString(field, expected[i]) == 0;
    }
    if (!same) {
        PyErr_Format(PyExc_ImportError, "rules_core.requests.%s._fields is %R, not the %zd fields this module builds",
                     name, fields, count);
    }
    int status = same ? core_record_tail(cls, name, fields, count) : -1;
    Py_DECREF(fields);
    return status;
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

/* A value of `cls` (a tuple subclass) of the n fields given, each reference stolen, and the
 * defaults of the class's later fields. */
static inline PyObject *core_value(PyTypeObject *cls, Py_ssize_t n, PyObject *const *fields) {
    const CoreTail *tail = NULL;
    for (int t = 0; t < core_tail_count; t++) {
        if (core_tails[t].cls == cls) {
            tail = &core_tails[t];
            break;
        }
    }
    Py_ssize_t extra = tail == NULL ? 0 : tail->n;
    PyObject *value = cls->tp_alloc(cls, n + extra);
    if (value == NULL) {
        for (Py_ssize_t i = 0; i < n; i++) {
            Py_DECREF(fields[i]);
        }
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyTuple_SET_ITEM(value, i, fields[i]);
    }
    for (Py_ssize_t i = 0; i < extra; i++) {
        PyTuple_SET_ITEM(value, n + i, Py_NewRef(tail->items[i]));
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
