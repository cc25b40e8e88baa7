/* A SettleBatchRequest's entries read from protobuf's wire form straight into core values
 * (rules_core.requests.SettleRequest and its Winner, Hand, Meld, Dice, LiabilityRelation): the
 * SettleBatch handler's reader (issue 23).
 *
 * read_batch(body) takes the bytes of a serialised SettleBatchRequest and gives a list of its
 * entries, each a core SettleRequest or None where the entry is not in the usual form (the
 * caller reads that one from the parsed message); or None for the whole body when it holds
 * anything but entries (or is not bytes). It is held to rules_core.proto_read.read_batch, its
 * Python twin: it answers where the twin answers, with equal values, and declines exactly what
 * the twin declines (tests/batch/test_native_proto_request.py): a tag over one byte, a field the
 * proto does not define or this reader does not read (overrides), a singular field twice, a
 * repeated enum unpacked, an enum number the proto does not define, a list over its bound of
 * rules_core.validation, a meld over MAX_MELD_BYTES, a string not UTF-8, a varint that does not
 * end within ten bytes or its message, a payload past its message (and for the body: a field
 * but entries, an entry's length past the body or not ending).
 *
 * The body comes from the network: protobuf has parsed it first, but every varint and length is
 * checked here against its message's end before a byte is read. Nesting is fixed by the
 * request's shape (request, winner, hand, meld: a function each, no recursion); lists are held
 * on the stack within their bounds (LIST_CAPACITY, checked at import). The enum tables and the
 * bounds are the twin's (rules_core.proto_read, rules_core.validation), taken at import.
 *
 * A MemoryError is raised as such; every other fault is a decline.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#include "core_values.h"

/* The longest list the reader holds while it reads: a bound over it is an ImportError. */
#define LIST_CAPACITY 64
#define BATCH_TAG 0x0A /* SettleBatchRequest.requests: field 1, length-delimited */

/* --- the module's state ------------------------------------------------------------------- */

typedef struct {
    Py_ssize_t concealed, melds, flowers, passed, winners, liabilities, meld_bytes;
} Bounds;

typedef struct {
    CoreTypes types;
    PyObject *tiles, *flowers, *meld_kinds, *outcomes; /* tuples: members by enum number */
    Bounds bounds;
} State;

/* --- the cursor over a message's bytes ---------------------------------------------------- */

typedef struct {
    const unsigned char *at;
    const unsigned char *end; /* the end of the message being read */
} Cursor;

/* A varint's value: its low 64 bits, and whether it has bits above them (a Python int would). */
typedef struct {
    uint64_t low;
    int wide;
} Varint;

/* The varint at the cursor (at most ten bytes, within the message): 0, or -1 to decline. */
static int read_varint(Cursor *c, Varint *value) {
    uint64_t low = 0;
    int wide = 0;
    for (int shift = 0; shift <= 63 && c->at < c->end; shift += 7) {
        unsigned byte = *c->at++;
        uint64_t bits = byte & 0x7F;
        low |= bits << shift;
        if (shift == 63 && (bits >> 1) != 0) {
            wide = 1;
        }
        if (byte < 0x80) {
            *value = (Varint){low, wide};
            return 0;
        }
    }
    return -1;
}

/* An int32 field's value: the low 32 bits, signed (as protobuf reads it). */
static long int32_of(const Varint *value) {
    return (long)(int32_t)(uint32_t)(value->low & 0xFFFFFFFFu);
}

/* The tag at the cursor (one byte: every field here is numbered under 16): 0, or -1. */
static int read_tag(Cursor *c, unsigned *tag) {
    if (c->at >= c->end || *c->at >= 0x80) {
        return -1;
    }
    *tag = *c->at++;
    return 0;
}

/* `seen` with field `number` marked: 0, or -1 for a field seen already. */
static int mark_once(unsigned *seen, unsigned number) {
    if (*seen & (1u << number)) {
        return -1;
    }
    *seen |= 1u << number;
    return 0;
}

/* The payload whose length is at the cursor, as a cursor of its own; the outer cursor moved past
 * it: 0, or -1 for a payload past its message. */
static int read_payload(Cursor *c, Cursor *payload) {
    Varint size;
    if (read_varint(c, &size) < 0 || size.wide || size.low > (uint64_t)(c->end - c->at)) {
        return -1;
    }
    *payload = (Cursor){c->at, c->at + size.low};
    c->at = payload->end;
    return 0;
}

/* --- values ------------------------------------------------------------------------------- */

/* Each reader gives a new reference, or NULL to decline (an exception set only for a real
 * error: memory). */

static void release(PyObject **items, Py_ssize_t count) {
    for (Py_ssize_t i = 0; i < count; i++) {
        Py_XDECREF(items[i]);
    }
}

/* The member of enum number `value` in `table` (None at 0), or NULL for one it lacks. */
static PyObject *member_of(PyObject *table, const Varint *value) {
    if (value->wide || value->low >= (uint64_t)PyTuple_GET_SIZE(table)) {
        return NULL;
    }
    return Py_NewRef(PyTuple_GET_ITEM(table, (Py_ssize_t)value->low));
}

/* A packed repeated enum: its members by `table`, one byte each, at most `limit` of them. */
static PyObject *packed_members(const Cursor *payload, PyObject *table, Py_ssize_t limit) {
    Py_ssize_t count = payload->end - payload->at;
    if (count > limit) {
        return NULL;
    }
    PyObject *members = PyTuple_New(count);
    if (members == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        Varint number = {payload->at[i], 0};
        PyObject *member = member_of(table, &number);
        if (member == NULL) {
            Py_DECREF(members);
            return NULL;
        }
        PyTuple_SET_ITEM(members, i, member);
    }
    return members;
}

/* A string field's text, or NULL for bytes that are not UTF-8 (a decline). */
static PyObject *utf8_text(const Cursor *payload) {
    PyObject *text = PyUnicode_DecodeUTF8((const char *)payload->at, payload->end - payload->at, "strict");
    if (text == NULL && PyErr_ExceptionMatches(PyExc_UnicodeDecodeError)) {
        PyErr_Clear();
    }
    return text;
}

/* --- Dice, LiabilityRelation -------------------------------------------------------------- */

/* The int32 varint fields numbered 1 to `count` of a small message (0 where absent): 0, or -1. */
static int small_ints(Cursor c, long *values, unsigned count) {
    unsigned seen = 0;
    for (unsigned i = 0; i < count; i++) {
        values[i] = 0;
    }
    while (c.at < c.end) {
        unsigned tag;
        Varint value;
        if (read_tag(&c, &tag) < 0) {
            return -1;
        }
        unsigned number = tag >> 3;
        if ((tag & 7) != 0 || number < 1 || number > count || mark_once(&seen, number) < 0 ||
            read_varint(&c, &value) < 0) {
            return -1;
        }
        values[number - 1] = int32_of(&value);
    }
    return 0;
}

/* The fields of a small message as ints (new references, all or none): 0, or -1. */
static int ints_of(const long *values, unsigned count, PyObject **fields) {
    for (unsigned i = 0; i < count; i++) {
        fields[i] = PyLong_FromLong(values[i]);
        if (fields[i] == NULL) {
            release(fields, i);
            return -1;
        }
    }
    return 0;
}

static PyObject *dice_value(const State *state, Cursor payload) {
    long values[2];
    PyObject *f[2];
    if (small_ints(payload, values, 2) < 0 || ints_of(values, 2, f) < 0) {
        return NULL;
    }
    return core_dice(&state->types, f[0], f[1]);
}

static PyObject *relation_value(const State *state, Cursor payload) {
    long values[3];
    PyObject *f[3];
    if (small_ints(payload, values, 3) < 0 || ints_of(values, 3, f) < 0) {
        return NULL;
    }
    return core_relation(&state->types, f[0], f[1], f[2]);
}

/* --- Meld --------------------------------------------------------------------------------- */

static PyObject *meld_value(const State *state, Cursor c) {
    if (c.end - c.at > state->bounds.meld_bytes) {
        return NULL; /* a long meld: the message's reading converts it otherwise */
    }
    Varint kind = {0, 0};
    long from_seat = 0;
    PyObject *tiles = NULL;
    unsigned seen = 0;
    while (c.at < c.end) {
        unsigned tag;
        Varint value;
        Cursor payload;
        if (read_tag(&c, &tag) < 0 || mark_once(&seen, tag >> 3) < 0) {
            goto decline;
        }
        if (tag == 0x12) { /* 2: tiles, packed */
            if (read_payload(&c, &payload) < 0 ||
                (tiles = packed_members(&payload, state->tiles, state->bounds.meld_bytes)) == NULL) {
                goto decline;
            }
        } else if (tag == 0x08) { /* 1: kind */
            if (read_varint(&c, &kind) < 0) {
                goto decline;
            }
        } else if (tag == 0x18) { /* 3: from_seat */
            if (read_varint(&c, &value) < 0) {
                goto decline;
            }
            from_seat = int32_of(&value);
        } else {
            goto decline;
        }
    }
    PyObject *member = member_of(state->meld_kinds, &kind);
    if (member == NULL) {
        goto decline;
    }
    PyObject *seat = PyLong_FromLong(from_seat);
    if (tiles == NULL) {
        tiles = PyTuple_New(0);
    }
    if (seat == NULL || tiles == NULL) {
        Py_DECREF(member);
        Py_XDECREF(seat);
        goto decline;
    }
    return core_meld(&state->types, member, tiles, seat);
decline:
    Py_XDECREF(tiles);
    return NULL;
}

/* --- Hand --------------------------------------------------------------------------------- */

enum { CONCEALED, WINNING_TILE, MELDS, FLOWERS, HAND_FIELDS };

/* The hand of a winner without one: Hand((), None, (), ()). */
static PyObject *empty_hand(const State *state) {
    PyObject *concealed = PyTuple_New(0), *melds = PyTuple_New(0), *flowers = PyTuple_New(0);
    if (concealed == NULL || melds == NULL || flowers == NULL) {
        Py_XDECREF(concealed);
        Py_XDECREF(melds);
        Py_XDECREF(flowers);
        return NULL;
    }
    return core_hand(&state->types, concealed, Py_NewRef(Py_None), melds, flowers);
}

/* One length-delimited field of a hand into `f` (melds into `melds`): 0, or -1. */
static int hand_payload(const State *state, unsigned number, Cursor payload, PyObject **f, PyObject **melds,
                        Py_ssize_t *count_melds) {
    switch (number) {
    case 1:
        f[CONCEALED] = packed_members(&payload, state->tiles, state->bounds.concealed);
        return f[CONCEALED] == NULL ? -1 : 0;
    case 3:
        if (*count_melds == state->bounds.melds) {
            return -1;
        }
        melds[*count_melds] = meld_value(state, payload);
        return melds[*count_melds] == NULL ? -1 : (++*count_melds, 0);
    case 4:
        f[FLOWERS] = packed_members(&payload, state->flowers, state->bounds.flowers);
        return f[FLOWERS] == NULL ? -1 : 0;
    default:
        return -1;
    }
}

static PyObject *hand_value(const State *state, Cursor c) {
    PyObject *f[HAND_FIELDS] = {NULL};
    PyObject *melds[LIST_CAPACITY];
    Py_ssize_t count_melds = 0;
    Varint winning_tile = {0, 0};
    unsigned seen = 0;
    while (c.at < c.end) {
        unsigned tag;
        Cursor payload;
        if (read_tag(&c, &tag) < 0 || (tag >> 3 != 3 && mark_once(&seen, tag >> 3) < 0)) {
            goto decline;
        }
        if ((tag & 7) == 0) {
            if (tag >> 3 != 2 || read_varint(&c, &winning_tile) < 0) {
                goto decline;
            }
        } else if ((tag & 7) != 2 || read_payload(&c, &payload) < 0 ||
                   hand_payload(state, tag >> 3, payload, f, melds, &count_melds) < 0) {
            goto decline;
        }
    }
    if ((f[WINNING_TILE] = member_of(state->tiles, &winning_tile)) == NULL) {
        goto decline;
    }
    f[MELDS] = core_tuple(count_melds, melds);
    count_melds = 0;
    f[CONCEALED] = f[CONCEALED] ? f[CONCEALED] : PyTuple_New(0);
    f[FLOWERS] = f[FLOWERS] ? f[FLOWERS] : PyTuple_New(0);
    if (f[MELDS] == NULL || f[CONCEALED] == NULL || f[FLOWERS] == NULL) {
        goto decline;
    }
    return core_hand(&state->types, f[CONCEALED], f[WINNING_TILE], f[MELDS], f[FLOWERS]);
decline:
    release(f, HAND_FIELDS);
    release(melds, count_melds);
    return NULL;
}

/* --- Winner ------------------------------------------------------------------------------- */

typedef struct {
    long seat;
    int replacement_draw, first_go_around;
    PyObject *hand, *passed; /* new references, or NULL while absent */
} WinnerFields;

static int winner_varint(unsigned number, const Varint *value, WinnerFields *w) {
    switch (number) {
    case 1:
        w->seat = int32_of(value);
        return 0;
    case 4:
        w->replacement_draw = value->low != 0; /* protobuf keeps the low 64 bits */
        return 0;
    case 5:
        w->first_go_around = value->low != 0;
        return 0;
    default:
        return -1;
    }
}

static int winner_payload(const State *state, unsigned number, Cursor payload, WinnerFields *w) {
    if (number == 2) {
        w->hand = hand_value(state, payload);
        return w->hand == NULL ? -1 : 0;
    }
    if (number == 3) {
        w->passed = packed_members(&payload, state->tiles, state->bounds.passed);
        return w->passed == NULL ? -1 : 0;
    }
    return -1;
}

static PyObject *winner_value(const State *state, Cursor c) {
    WinnerFields w = {0, 0, 0, NULL, NULL};
    unsigned seen = 0;
    while (c.at < c.end) {
        unsigned tag;
        Varint value;
        Cursor payload;
        if (read_tag(&c, &tag) < 0 || mark_once(&seen, tag >> 3) < 0) {
            goto decline;
        }
        if ((tag & 7) == 0) {
            if (read_varint(&c, &value) < 0 || winner_varint(tag >> 3, &value, &w) < 0) {
                goto decline;
            }
        } else if ((tag & 7) != 2 || read_payload(&c, &payload) < 0 ||
                   winner_payload(state, tag >> 3, payload, &w) < 0) {
            goto decline;
        }
    }
    w.hand = w.hand ? w.hand : empty_hand(state);
    w.passed = w.passed ? w.passed : PyTuple_New(0);
    PyObject *seat = PyLong_FromLong(w.seat);
    if (w.hand == NULL || w.passed == NULL || seat == NULL) {
        Py_XDECREF(seat);
        goto decline;
    }
    return core_winner(&state->types, seat, w.hand, w.passed, PyBool_FromLong(w.replacement_draw),
                       PyBool_FromLong(w.first_go_around));
decline:
    Py_XDECREF(w.hand);
    Py_XDECREF(w.passed);
    return NULL;
}

/* --- SettleRequest ------------------------------------------------------------------------ */

typedef struct {
    long dealer, huangfan, discarder, abandoning;
    Varint outcome;
    PyObject *profile, *request_id, *digest, *dice; /* new references, or NULL while absent */
    PyObject *winners[LIST_CAPACITY];
    PyObject *liabilities[LIST_CAPACITY];
    Py_ssize_t count_winners, count_liabilities;
} RequestFields;

static void release_request(RequestFields *r) {
    Py_XDECREF(r->profile);
    Py_XDECREF(r->request_id);
    Py_XDECREF(r->digest);
    Py_XDECREF(r->dice);
    release(r->winners, r->count_winners);
    release(r->liabilities, r->count_liabilities);
}

static int request_varint(unsigned number, const Varint *value, RequestFields *r) {
    switch (number) {
    case 4:
        r->dealer = int32_of(value);
        return 0;
    case 6:
        r->huangfan = int32_of(value);
        return 0;
    case 7:
        r->outcome = *value;
        return 0;
    case 8:
        r->discarder = int32_of(value);
        return 0;
    case 11:
        r->abandoning = int32_of(value);
        return 0;
    default:
        return -1;
    }
}

/* A singular message or string field into its slot (empty, since each is read once). */
static int set_once(PyObject **slot, PyObject *value) {
    *slot = value;
    return value == NULL ? -1 : 0;
}

static int request_payload(const State *state, unsigned number, Cursor payload, RequestFields *r) {
    switch (number) {
    case 9:
        if (r->count_winners == state->bounds.winners) {
            return -1;
        }
        r->winners[r->count_winners] = winner_value(state, payload);
        return r->winners[r->count_winners] == NULL ? -1 : (r->count_winners++, 0);
    case 10:
        if (r->count_liabilities == state->bounds.liabilities) {
            return -1;
        }
        r->liabilities[r->count_liabilities] = relation_value(state, payload);
        return r->liabilities[r->count_liabilities] == NULL ? -1 : (r->count_liabilities++, 0);
    case 1:
        return set_once(&r->request_id, utf8_text(&payload));
    case 2:
        return set_once(&r->profile, utf8_text(&payload));
    case 12:
        return set_once(&r->digest, utf8_text(&payload));
    case 5:
        return set_once(&r->dice, dice_value(state, payload));
    default: /* 3: overrides, read from the message */
        return -1;
    }
}

/* Each field of an entry into `r`: 0, or -1 to decline. */
static int read_request_fields(const State *state, Cursor c, RequestFields *r) {
    unsigned seen = 0;
    while (c.at < c.end) {
        unsigned tag;
        Varint value;
        Cursor payload;
        if (read_tag(&c, &tag) < 0) {
            return -1;
        }
        unsigned number = tag >> 3;
        if (number != 9 && number != 10 && mark_once(&seen, number) < 0) {
            return -1;
        }
        if ((tag & 7) == 0) {
            if (read_varint(&c, &value) < 0 || request_varint(number, &value, r) < 0) {
                return -1;
            }
        } else if ((tag & 7) != 2 || read_payload(&c, &payload) < 0 || request_payload(state, number, payload, r) < 0) {
            return -1;
        }
    }
    return 0;
}

static PyObject *text_or_empty(PyObject *text) {
    return text ? text : PyUnicode_New(0, 127);
}

static PyObject *request_value(const State *state, Cursor c) {
    RequestFields r = {0};
    if (read_request_fields(state, c, &r) < 0) {
        release_request(&r);
        return NULL;
    }
    PyObject *outcome = member_of(state->outcomes, &r.outcome);
    if (outcome == NULL) {
        release_request(&r);
        return NULL;
    }
    PyObject *winners = core_tuple(r.count_winners, r.winners);
    PyObject *liabilities = core_tuple(r.count_liabilities, r.liabilities);
    r.count_winners = r.count_liabilities = 0;
    CoreRequestFields f = {
        text_or_empty(r.profile), outcome, winners, PyLong_FromLong(r.dealer), r.dice ? r.dice : Py_NewRef(Py_None),
        PyLong_FromLong(r.huangfan), PyLong_FromLong(r.discarder), liabilities, PyLong_FromLong(r.abandoning),
        Py_NewRef(Py_None), text_or_empty(r.request_id), text_or_empty(r.digest)};
    PyObject *const all[] = {f.profile,         f.outcome,        f.winners,        f.dealer_seat,
                             f.dice,            f.huangfan_count, f.discarder_seat, f.liabilities,
                             f.abandoning_seat, f.overrides,      f.request_id,     f.profile_digest};
    for (int i = 0; i < 12; i++) {
        if (all[i] == NULL) {
            for (int j = 0; j < 12; j++) {
                Py_XDECREF(all[j]);
            }
            return NULL;
        }
    }
    return core_request(&state->types, &f);
}

/* --- the batch ---------------------------------------------------------------------------- */

/* The entries of a body: a list of requests and Nones, or NULL (no exception: a body holding
 * anything but entries). */
static PyObject *batch_entries(const State *state, Cursor c) {
    PyObject *entries = PyList_New(0);
    while (entries != NULL && c.at < c.end) {
        Cursor entry;
        if (*c.at != BATCH_TAG) {
            Py_CLEAR(entries);
            break;
        }
        c.at++;
        if (read_payload(&c, &entry) < 0) {
            Py_CLEAR(entries);
            break;
        }
        PyObject *request = request_value(state, entry);
        if (request == NULL && PyErr_Occurred()) {
            Py_CLEAR(entries);
            break;
        }
        int error = PyList_Append(entries, request ? request : Py_None);
        Py_XDECREF(request);
        if (error < 0) {
            Py_CLEAR(entries);
        }
    }
    return entries;
}

static PyObject *read_batch(PyObject *module, PyObject *body) {
    const State *state = PyModule_GetState(module);
    if (!PyBytes_Check(body)) {
        Py_RETURN_NONE;
    }
    const unsigned char *start = (const unsigned char *)PyBytes_AS_STRING(body);
    PyObject *entries = batch_entries(state, (Cursor){start, start + PyBytes_GET_SIZE(body)});
    if (entries == NULL && !PyErr_Occurred()) {
        Py_RETURN_NONE;
    }
    return entries;
}

/* --- the module --------------------------------------------------------------------------- */

static int module_traverse(PyObject *module, visitproc visit, void *arg) {
    State *state = PyModule_GetState(module);
    if (state == NULL) {
        return 0;
    }
    Py_VISIT(state->tiles);
    Py_VISIT(state->flowers);
    Py_VISIT(state->meld_kinds);
    Py_VISIT(state->outcomes);
    return core_types_traverse(&state->types, visit, arg);
}

static int module_clear(PyObject *module) {
    State *state = PyModule_GetState(module);
    if (state == NULL) {
        return 0;
    }
    Py_CLEAR(state->tiles);
    Py_CLEAR(state->flowers);
    Py_CLEAR(state->meld_kinds);
    Py_CLEAR(state->outcomes);
    core_types_clear(&state->types);
    return 0;
}

static void module_free(void *module) {
    module_clear(module);
}

/* A bound of `module` (named `where`), from 0 to `limit`: 0, or -1 with ImportError. */
static int read_bound(PyObject *module, const char *where, const char *name, Py_ssize_t limit, Py_ssize_t *bound) {
    PyObject *value = PyObject_GetAttrString(module, name);
    *bound = value != NULL && PyLong_Check(value) ? PyLong_AsSsize_t(value) : -1;
    Py_XDECREF(value);
    if (*bound < 0 || *bound > limit) {
        PyErr_Clear();
        PyErr_Format(PyExc_ImportError, "%s.%s is not a bound from 0 to %zd", where, name, limit);
        return -1;
    }
    return 0;
}

static int load_bounds(Bounds *bounds, PyObject *proto_read) {
    PyObject *validation = PyImport_ImportModule("rules_core.validation");
    if (validation == NULL) {
        return -1;
    }
    const char *v = "rules_core.validation";
    int error = read_bound(validation, v, "MAX_CONCEALED", PY_SSIZE_T_MAX, &bounds->concealed) ||
                read_bound(validation, v, "MAX_MELDS", LIST_CAPACITY, &bounds->melds) ||
                read_bound(validation, v, "MAX_FLOWERS", PY_SSIZE_T_MAX, &bounds->flowers) ||
                read_bound(validation, v, "MAX_PASSED", PY_SSIZE_T_MAX, &bounds->passed) ||
                read_bound(validation, v, "MAX_WINNERS", LIST_CAPACITY, &bounds->winners) ||
                read_bound(validation, v, "MAX_LIABILITIES", LIST_CAPACITY, &bounds->liabilities) ||
                read_bound(proto_read, "rules_core.proto_read", "MAX_MELD_BYTES", PY_SSIZE_T_MAX, &bounds->meld_bytes);
    Py_DECREF(validation);
    return error ? -1 : 0;
}

/* An enum table of rules_core.proto_read (a tuple, members by number): a new reference, or NULL
 * with ImportError. */
static PyObject *load_table(PyObject *proto_read, const char *name) {
    PyObject *table = PyObject_GetAttrString(proto_read, name);
    if (table != NULL && !PyTuple_CheckExact(table)) {
        PyErr_Format(PyExc_ImportError, "rules_core.proto_read.%s is not a tuple of members by number", name);
        Py_CLEAR(table);
    }
    return table;
}

static int load_tables(State *state) {
    PyObject *proto_read = PyImport_ImportModule("rules_core.proto_read");
    if (proto_read == NULL) {
        return -1;
    }
    int error = (state->tiles = load_table(proto_read, "TILES")) == NULL ||
                (state->flowers = load_table(proto_read, "FLOWERS")) == NULL ||
                (state->meld_kinds = load_table(proto_read, "MELD_KINDS")) == NULL ||
                (state->outcomes = load_table(proto_read, "OUTCOMES")) == NULL ||
                load_bounds(&state->bounds, proto_read) < 0;
    Py_DECREF(proto_read);
    return error ? -1 : 0;
}

static PyMethodDef methods[] = {
    {"read_batch", (PyCFunction)read_batch, METH_O,
     "read_batch(body) -> list[SettleRequest | None] | None: each entry of a serialised SettleBatchRequest as "
     "a core value, or None where it is not in the usual form; None for a body holding anything but entries "
     "(rules_core.proto_read.read_batch's twin)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "batch.native.proto_request",
    .m_doc = "A SettleBatchRequest's entries read from protobuf's wire form into rules_core SettleRequests "
             "(rules_core.proto_read's twin).",
    .m_size = sizeof(State),
    .m_methods = methods,
    .m_traverse = module_traverse,
    .m_clear = module_clear,
    .m_free = module_free,
};

PyMODINIT_FUNC PyInit_proto_request(void) {
    PyObject *module = PyModule_Create(&module_def);
    if (module == NULL) {
        return NULL;
    }
    State *state = PyModule_GetState(module);
    if (core_types_load(&state->types) < 0 || load_tables(state) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
