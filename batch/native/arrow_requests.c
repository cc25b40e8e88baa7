/* A nested Arrow batch of requests (batch.arrow_schema.REQUEST_SCHEMA) read straight from its
 * buffers into rules_core's core values, through the Arrow C Data Interface.
 *
 * read_requests(schema_capsule, array_capsule), the two capsules of a RecordBatch's
 * __arrow_c_array__(), gives what batch.arrow_columns.read_requests_in_python gives, its Python
 * twin, which tests hold it to: a list of SettleRequest (None for a row the bounded reader must
 * judge: an enum name the tables lack, a list over its bound, a request id that may be over its
 * bound), or None for a batch not of the usual shape (a column the schema lacks or of another
 * type, dictionary-encoded or large columns among them, or any row with overrides). A null
 * reads as absent at every depth: a scalar's default, an empty list, an empty message (a null
 * dice: None).
 *
 * It declines (NotImplemented: the caller then reads the batch in Python) what it cannot be
 * sure of: an extension type, and buffers that lie (an offset out of its range or going back,
 * a child shorter than its parent, a validity bitmap missing where nulls are counted, a buffer
 * or child count not of the type, a string not UTF-8). The schema is checked whole before any
 * buffer is read; every offset is checked before the read it guides.
 *
 * Read at import, never retyped here: the core types and their _fields (core_values.h), the
 * enum names (batch.request_structs: TILES, FLOWERS, MELD_KINDS, OUTCOMES), the bounds
 * (rules_core.validation: MAX_LENGTHS, MAX_REQUEST_ID_BYTES) and the expected schema, from which
 * each field's place in its struct is found by the core field's name.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core_values.h"

/* The Arrow C Data Interface, as the Arrow specification declares it (an ABI, not a library). */
#ifndef ARROW_C_DATA_INTERFACE
#define ARROW_C_DATA_INTERFACE
#define ARROW_FLAG_DICTIONARY_ORDERED 1
#define ARROW_FLAG_NULLABLE 2
#define ARROW_FLAG_MAP_KEYS_SORTED 4

struct ArrowSchema {
    const char *format;
    const char *name;
    const char *metadata;
    int64_t flags;
    int64_t n_children;
    struct ArrowSchema **children;
    struct ArrowSchema *dictionary;
    void (*release)(struct ArrowSchema *);
    void *private_data;
};

struct ArrowArray {
    int64_t length;
    int64_t null_count;
    int64_t offset;
    int64_t n_buffers;
    int64_t n_children;
    const void **buffers;
    struct ArrowArray **children;
    struct ArrowArray *dictionary;
    void (*release)(struct ArrowArray *);
    void *private_data;
};
#endif

/* ---- What is read: each core type's fields, in _fields order, and how each is read ---- */

typedef enum { INT32, BOOL, STRING, REQUEST_ID, ENUM, ENUM_LIST, MESSAGE, OPTIONAL_MESSAGE, MESSAGE_LIST, ABSENT } Kind;
typedef enum { TILE, FLOWER, MELD_KIND, OUTCOME, N_TABLES } TableId;
typedef enum { MELD, HAND, WINNER, DICE, RELATION, REQUEST, N_MESSAGES } MessageId;

#define MAX_FIELDS 12

typedef struct {
    Kind kind;
    int of;            /* the TableId of an enum, the MessageId of a message */
    const char *limit; /* a list's key in rules_core.validation.MAX_LENGTHS */
} FieldKind;

typedef struct {
    const char *name;            /* in rules_core.requests */
    const char *const *fields;   /* core_values.h's names: the Arrow fields too */
    size_t type;                 /* offsetof the class in CoreTypes */
    int n;
    FieldKind kinds[MAX_FIELDS];
} MessagePlan;

static const MessagePlan PLANS[N_MESSAGES] = {
    [MELD] = {"Meld", CORE_MELD_FIELDS, offsetof(CoreTypes, meld), 3,
              {{ENUM, MELD_KIND, NULL}, {ENUM_LIST, TILE, "tiles"}, {INT32, 0, NULL}}},
    [HAND] = {"Hand", CORE_HAND_FIELDS, offsetof(CoreTypes, hand), 4,
              {{ENUM_LIST, TILE, "concealed"}, {ENUM, TILE, NULL}, {MESSAGE_LIST, MELD, "melds"},
               {ENUM_LIST, FLOWER, "flowers"}}},
    [WINNER] = {"Winner", CORE_WINNER_FIELDS, offsetof(CoreTypes, winner), 5,
                {{INT32, 0, NULL}, {MESSAGE, HAND, NULL}, {ENUM_LIST, TILE, "passed_tiles"}, {BOOL, 0, NULL},
                 {BOOL, 0, NULL}}},
    [DICE] = {"Dice", CORE_DICE_FIELDS, offsetof(CoreTypes, dice), 2, {{INT32, 0, NULL}, {INT32, 0, NULL}}},
    [RELATION] = {"LiabilityRelation", CORE_RELATION_FIELDS, offsetof(CoreTypes, relation), 3,
                  {{INT32, 0, NULL}, {INT32, 0, NULL}, {INT32, 0, NULL}}},
    [REQUEST] = {"SettleRequest", CORE_REQUEST_FIELDS, offsetof(CoreTypes, request), 12,
                 {{STRING, 0, NULL},
                  {ENUM, OUTCOME, NULL},
                  {MESSAGE_LIST, WINNER, "winners"},
                  {INT32, 0, NULL},
                  {OPTIONAL_MESSAGE, DICE, NULL},
                  {INT32, 0, NULL},
                  {INT32, 0, NULL},
                  {MESSAGE_LIST, RELATION, "liabilities"},
                  {INT32, 0, NULL},
                  {ABSENT, 0, NULL},
                  {REQUEST_ID, 0, NULL},
                  {STRING, 0, NULL}}},
};
static const char *const TABLE_NAMES[N_TABLES] = {"TILES", "FLOWERS", "MELD_KINDS", "OUTCOMES"};

/* ---- Module state ---- */

#define TABLE_SLOTS 128 /* a power of two, at least twice the names of any table */

typedef struct {
    const char *bytes; /* UTF-8 of a name (owned by the table's dict); NULL: a free slot */
    Py_ssize_t size;
    PyObject *member; /* borrowed from the dict */
} Name;

typedef struct {
    Name slots[TABLE_SLOTS];
    PyObject *names;       /* the dict of batch.request_structs the slots point into */
    PyObject *null_member; /* borrowed: the member of a null; NULL: a null is BAD */
} Table;

typedef struct {
    CoreTypes types;
    Table tables[N_TABLES];
    Py_ssize_t limits[N_MESSAGES][MAX_FIELDS];
    Py_ssize_t max_request_id_bytes;
    int child[N_MESSAGES][MAX_FIELDS]; /* each field's index among its Arrow struct's children */
    PyObject *expected_capsule;        /* REQUEST_SCHEMA's ArrowSchema */
    const struct ArrowSchema *expected;
    PyObject *zero, *empty;
} State;

static State *state_of(PyObject *module) { return (State *)PyModule_GetState(module); }

/* ---- Enum names: a name's bytes to its member, by open addressing ---- */

/* A name's slot, from its size and three of its bytes (the last two tell the tables' names of
 * one size apart, mostly): a probe, then memcmp, decides. */
static uint32_t hash_bytes(const char *bytes, Py_ssize_t size) {
    uint32_t h = (uint32_t)size * 2654435761u;
    if (size > 0) {
        h ^= ((uint32_t)(uint8_t)bytes[size - 1] * 40503u) ^ ((uint32_t)(uint8_t)bytes[size / 2] * 9973u);
    }
    if (size > 1) {
        h ^= (uint32_t)(uint8_t)bytes[size - 2] * 131u;
    }
    return h ^ (h >> 7);
}

/* The member named by these bytes, or NULL where the table lacks the name. */
static PyObject *member_named(const Table *table, const char *bytes, Py_ssize_t size) {
    for (uint32_t at = hash_bytes(bytes, size) & (TABLE_SLOTS - 1);; at = (at + 1) & (TABLE_SLOTS - 1)) {
        const Name *slot = &table->slots[at];
        if (slot->bytes == NULL) {
            return NULL;
        }
        if (slot->size == size && memcmp(slot->bytes, bytes, (size_t)size) == 0) {
            return slot->member;
        }
    }
}

static int table_add(Table *table, PyObject *key, PyObject *member, const char *name) {
    Py_ssize_t size;
    const char *bytes = PyUnicode_AsUTF8AndSize(key, &size);
    if (bytes == NULL) {
        return -1;
    }
    uint32_t at = hash_bytes(bytes, size) & (TABLE_SLOTS - 1);
    while (table->slots[at].bytes != NULL) {
        at = (at + 1) & (TABLE_SLOTS - 1);
    }
    table->slots[at] = (Name){bytes, size, member};
    return 0;
}

/* The table of batch.request_structs.<name> (a dict of names, and None, to members). */
static int table_load(Table *table, PyObject *structs, const char *name) {
    PyObject *names = PyObject_GetAttrString(structs, name);
    if (names == NULL) {
        return -1;
    }
    table->names = names;
    if (!PyDict_Check(names) || PyDict_GET_SIZE(names) > TABLE_SLOTS / 2) {
        PyErr_Format(PyExc_ImportError, "batch.request_structs.%s is not a dict of at most %d names", name,
                     TABLE_SLOTS / 2);
        return -1;
    }
    PyObject *key, *member;
    Py_ssize_t pos = 0;
    while (PyDict_Next(names, &pos, &key, &member)) {
        if (key == Py_None) {
            table->null_member = member;
        } else if (!PyUnicode_Check(key)) {
            PyErr_Format(PyExc_ImportError, "batch.request_structs.%s has the key %R, not a name", name, key);
            return -1;
        } else if (table_add(table, key, member, name) < 0) {
            return -1;
        }
    }
    return 0;
}

/* ---- The schema: the one given against the one expected, before any buffer is read ---- */

enum { DIFFERENT = 0, SAME = 1, UNSURE = -1 };

static int32_t read_i32(const void *at) {
    int32_t value;
    memcpy(&value, at, sizeof value); /* a crafted buffer need not be aligned */
    return value;
}

/* Whether Arrow metadata names an extension type (which pyarrow compares as another type). */
static int names_extension(const char *metadata) {
    static const char KEY[] = "ARROW:extension:name";
    if (metadata == NULL) {
        return 0;
    }
    int32_t count = read_i32(metadata);
    const char *at = metadata + 4;
    for (int32_t i = 0; i < count; i++) {
        int32_t key_size = read_i32(at);
        if (key_size < 0) {
            return 1;
        }
        const char *key = at + 4;
        int32_t value_size = read_i32(key + key_size);
        if (value_size < 0) {
            return 1;
        }
        if (key_size == (int32_t)(sizeof KEY - 1) && memcmp(key, KEY, sizeof KEY - 1) == 0) {
            return 1;
        }
        at = key + key_size + 4 + value_size;
    }
    return 0;
}

static int same_name(const char *a, const char *b) { return strcmp(a ? a : "", b ? b : "") == 0; }

/* Whether `got` is the type `want` as pyarrow's DataType equality has it: the same formats, a
 * struct's fields of the same names and nullability, a list's item of the same nullability (its
 * name aside), no dictionary; metadata aside, but for an extension type, which it declines. */
static int same_type(const struct ArrowSchema *got, const struct ArrowSchema *want) {
    if (got->format == NULL || names_extension(got->metadata)) {
        return UNSURE;
    }
    if (got->dictionary != NULL || strcmp(got->format, want->format) != 0 || got->n_children != want->n_children) {
        return DIFFERENT;
    }
    int is_struct = strcmp(want->format, "+s") == 0;
    for (int64_t k = 0; k < want->n_children; k++) {
        const struct ArrowSchema *g = got->children ? got->children[k] : NULL, *w = want->children[k];
        if (g == NULL) {
            return UNSURE;
        }
        if ((is_struct && !same_name(g->name, w->name)) ||
            (g->flags & ARROW_FLAG_NULLABLE) != (w->flags & ARROW_FLAG_NULLABLE)) {
            return DIFFERENT;
        }
        int same = same_type(g, w);
        if (same != SAME) {
            return same;
        }
    }
    return SAME;
}

/* The expected column named `name` (its index among REQUEST_SCHEMA's), or -1. */
static int64_t expected_column(const State *s, const char *name) {
    for (int64_t e = 0; e < s->expected->n_children; e++) {
        if (same_name(name, s->expected->children[e]->name)) {
            return e;
        }
    }
    return -1;
}

/* For each request field, the given column read for it (the last of that name), or -1: SAME,
 * DIFFERENT (a column the schema lacks, or of another type) or UNSURE. */
static int map_columns(const State *s, const struct ArrowSchema *given, int64_t slots[MAX_FIELDS]) {
    for (int f = 0; f < MAX_FIELDS; f++) {
        slots[f] = -1;
    }
    if (given->format == NULL || strcmp(given->format, "+s") != 0 || given->dictionary != NULL ||
        (given->n_children > 0 && given->children == NULL)) {
        return UNSURE;
    }
    for (int64_t k = 0; k < given->n_children; k++) {
        const struct ArrowSchema *column = given->children[k];
        if (column == NULL) {
            return UNSURE;
        }
        int64_t e = expected_column(s, column->name);
        if (e < 0) {
            return DIFFERENT;
        }
        int same = same_type(column, s->expected->children[e]);
        if (same != SAME) {
            return same;
        }
        for (int f = 0; f < PLANS[REQUEST].n; f++) {
            if (s->child[REQUEST][f] == e) {
                slots[f] = k;
            }
        }
    }
    return SAME;
}

/* ---- The arrays: each opened (its buffers and lengths checked) before it is read ---- */

typedef struct Column {
    const struct ArrowArray *array; /* NULL: absent, every value null */
    int64_t offset, length;
    const uint8_t *validity; /* NULL: every value valid */
    const uint8_t *values;   /* int32 values, bool bits, or int32 offsets */
    const char *bytes;       /* a string column's characters */
    int64_t first, last;     /* a string column's offsets' range */
    struct Column *children; /* a message's fields, by their index in its plan; a list's items */
    PyObject *kept;          /* a string column's last string read, and its bytes: the next of */
    const char *kept_bytes;  /* the same bytes is the same str (a batch's profiles, as a rule) */
    Py_ssize_t kept_size;
} Column;

#define POOL_COLUMNS 64

typedef struct {
    const State *state;
    Column pool[POOL_COLUMNS];
    int used;
} Reader;

static Column *columns_take(Reader *r, int n) {
    if (r->used + n > POOL_COLUMNS) {
        return NULL;
    }
    Column *taken = &r->pool[r->used];
    r->used += n;
    memset(taken, 0, sizeof(Column) * (size_t)n);
    return taken;
}

/* The array's common part checked: lengths, at least `need` values, the counts its type has,
 * the validity bitmap where nulls are counted. 0, or -1: it lies. */
static int open_array(Column *c, const struct ArrowArray *a, int64_t need, int64_t buffers, int64_t children) {
    if (a == NULL || a->length < 0 || a->offset < 0 || a->length > INT64_MAX / 4 - a->offset || a->length < need ||
        a->n_buffers != buffers || a->n_children != children || a->buffers == NULL ||
        (children > 0 && a->children == NULL)) {
        return -1;
    }
    c->array = a;
    c->offset = a->offset;
    c->length = a->length;
    c->validity = a->null_count == 0 ? NULL : (const uint8_t *)a->buffers[0];
    if (a->null_count > 0 && c->validity == NULL) {
        return -1; /* nulls counted with no bitmap to say which */
    }
    c->values = buffers > 1 ? (const uint8_t *)a->buffers[1] : NULL;
    return buffers > 1 && a->length > 0 && c->values == NULL ? -1 : 0;
}

static int open_strings(Column *c, const struct ArrowArray *a, int64_t need) {
    if (open_array(c, a, need, 3, 0) < 0) {
        return -1;
    }
    if (c->length == 0) {
        return 0;
    }
    c->first = read_i32(c->values + 4 * c->offset);
    c->last = read_i32(c->values + 4 * (c->offset + c->length));
    c->bytes = (const char *)a->buffers[2];
    return c->first < 0 || c->last < c->first || (c->last > c->first && c->bytes == NULL) ? -1 : 0;
}

static int open_message(Reader *r, MessageId m, Column *c, const struct ArrowArray *a, int64_t need);

/* The column of one field of kind `k`, at least `need` values long. */
static int open_field(Reader *r, FieldKind k, Column *c, const struct ArrowArray *a, int64_t need) {
    switch (k.kind) {
    case INT32:
    case BOOL:
        return open_array(c, a, need, 2, 0);
    case STRING:
    case REQUEST_ID:
    case ENUM:
        return open_strings(c, a, need);
    case ENUM_LIST:
    case MESSAGE_LIST:
        if (open_array(c, a, need, 2, 1) < 0 || (c->children = columns_take(r, 1)) == NULL) {
            return -1;
        }
        return k.kind == ENUM_LIST ? open_strings(c->children, a->children[0], 0)
                                   : open_message(r, (MessageId)k.of, c->children, a->children[0], 0);
    case MESSAGE:
    case OPTIONAL_MESSAGE:
        return open_message(r, (MessageId)k.of, c, a, need);
    case ABSENT:
        return 0;
    }
    return -1;
}

static int open_message(Reader *r, MessageId m, Column *c, const struct ArrowArray *a, int64_t need) {
    const MessagePlan *plan = &PLANS[m];
    if (a == NULL || open_array(c, a, need, 1, a->n_children) < 0 ||
        (c->children = columns_take(r, plan->n)) == NULL) {
        return -1;
    }
    for (int f = 0; f < plan->n; f++) {
        int k = r->state->child[m][f];
        if (k < 0 || k >= a->n_children ||
            open_field(r, plan->kinds[f], &c->children[f], a->children[k], c->offset + c->length) < 0) {
            return -1;
        }
    }
    return 0;
}

/* The batch's own struct, its request fields from the columns `slots` names. */
static int open_batch(Reader *r, Column *c, const struct ArrowArray *a, const int64_t slots[MAX_FIELDS]) {
    const MessagePlan *plan = &PLANS[REQUEST];
    if (a == NULL || a->release == NULL || open_array(c, a, 0, 1, a->n_children) < 0 || c->validity != NULL ||
        (c->children = columns_take(r, plan->n)) == NULL) {
        return -1;
    }
    for (int f = 0; f < plan->n; f++) {
        if (slots[f] >= 0 && plan->kinds[f].kind != ABSENT &&
            open_field(r, plan->kinds[f], &c->children[f], a->children[slots[f]], c->offset + c->length) < 0) {
            return -1;
        }
    }
    return 0;
}

/* ---- Reading one value: OK with a new reference, BAD (the row is the bounded reader's),
 * DECLINE (a buffer lies), or FAILED (an exception set) ---- */

enum { OK = 0, BAD = 1, DECLINE = 2, FAILED = -1 };

static int is_null(const Column *c, int64_t i) {
    if (c->array == NULL) {
        return 1;
    }
    if (c->validity == NULL) {
        return 0;
    }
    int64_t bit = c->offset + i;
    return !((c->validity[bit >> 3] >> (bit & 7)) & 1);
}

static int got(PyObject *value, PyObject **out) {
    *out = value;
    return value == NULL ? FAILED : OK;
}

/* The bytes of the string at i, its offsets checked against the column's range. */
static int string_at(const Column *c, int64_t i, const char **bytes, Py_ssize_t *size) {
    int64_t start = read_i32(c->values + 4 * (c->offset + i)), end = read_i32(c->values + 4 * (c->offset + i + 1));
    if (start < c->first || end < start || end > c->last) {
        return DECLINE;
    }
    *bytes = c->bytes + start;
    *size = (Py_ssize_t)(end - start);
    return OK;
}

static int read_string(const Reader *r, Column *c, int64_t i, int null, int is_id, PyObject **out) {
    if (null) {
        return got(Py_NewRef(r->state->empty), out);
    }
    const char *bytes;
    Py_ssize_t size;
    if (string_at(c, i, &bytes, &size) != OK) {
        return DECLINE;
    }
    if (c->kept != NULL && size == c->kept_size && memcmp(bytes, c->kept_bytes, (size_t)size) == 0) {
        return got(Py_NewRef(c->kept), out);
    }
    PyObject *text = PyUnicode_DecodeUTF8(bytes, size, NULL);
    if (text == NULL) {
        if (!PyErr_ExceptionMatches(PyExc_UnicodeDecodeError)) {
            return FAILED;
        }
        PyErr_Clear();
        return DECLINE; /* not UTF-8: not a string column as Arrow has it */
    }
    if (is_id && PyUnicode_GET_LENGTH(text) * 4 > r->state->max_request_id_bytes) {
        Py_DECREF(text); /* perhaps over its bound in UTF-8: the bounded reader measures it */
        return BAD;
    }
    if (!is_id) {
        Py_XSETREF(c->kept, Py_NewRef(text));
        c->kept_bytes = bytes;
        c->kept_size = size;
    }
    *out = text;
    return OK;
}

static int read_enum(const Reader *r, TableId t, const Column *c, int64_t i, int null, PyObject **out) {
    const Table *table = &r->state->tables[t];
    PyObject *member = table->null_member;
    if (!null) {
        const char *bytes;
        Py_ssize_t size;
        if (string_at(c, i, &bytes, &size) != OK) {
            return DECLINE;
        }
        member = member_named(table, bytes, size);
    }
    if (member == NULL) {
        return BAD; /* a name the table lacks */
    }
    *out = Py_NewRef(member);
    return OK;
}

static int read_int32(const Reader *r, const Column *c, int64_t i, int null, PyObject **out) {
    if (null) {
        return got(Py_NewRef(r->state->zero), out);
    }
    return got(PyLong_FromLong(read_i32(c->values + 4 * (c->offset + i))), out);
}

static int read_bool(const Column *c, int64_t i, int null, PyObject **out) {
    int64_t bit = c->offset + i;
    int value = !null && ((c->values[bit >> 3] >> (bit & 7)) & 1);
    return got(Py_NewRef(value ? Py_True : Py_False), out);
}

static int read_message(const Reader *r, MessageId m, Column *c, int64_t i, int null, PyObject **out);
static int read_field(const Reader *r, MessageId m, int f, Column *c, int64_t i, int null, PyObject **out);

/* The tuple of the list at i: its items read by `item` of `m`'s field f, at most its bound. */
static int read_list(const Reader *r, MessageId m, int f, Column *c, int64_t i, int null, PyObject **out) {
    if (null) {
        return got(PyTuple_New(0), out);
    }
    Column *items = c->children;
    int64_t start = read_i32(c->values + 4 * (c->offset + i)), end = read_i32(c->values + 4 * (c->offset + i + 1));
    if (start < 0 || end < start || end > items->length) {
        return DECLINE;
    }
    if (end - start > r->state->limits[m][f]) {
        return BAD; /* over its bound: the bounded reader names it */
    }
    PyObject *list = PyTuple_New((Py_ssize_t)(end - start));
    if (list == NULL) {
        return FAILED;
    }
    FieldKind k = PLANS[m].kinds[f];
    for (int64_t j = start; j < end; j++) {
        PyObject *item = NULL;
        int status = k.kind == ENUM_LIST ? read_enum(r, (TableId)k.of, items, j, is_null(items, j), &item)
                                         : read_message(r, (MessageId)k.of, items, j, 0, &item);
        if (status != OK) {
            Py_DECREF(list);
            return status;
        }
        PyTuple_SET_ITEM(list, (Py_ssize_t)(j - start), item);
    }
    *out = list;
    return OK;
}

/* Field f of message m at i of its column c (null where the message is). */
static int read_field(const Reader *r, MessageId m, int f, Column *c, int64_t i, int null, PyObject **out) {
    FieldKind k = PLANS[m].kinds[f];
    if (k.kind != MESSAGE) {
        null = null || is_null(c, i);
    }
    switch (k.kind) {
    case INT32:
        return read_int32(r, c, i, null, out);
    case BOOL:
        return read_bool(c, i, null, out);
    case STRING:
    case REQUEST_ID:
        return read_string(r, c, i, null, k.kind == REQUEST_ID, out);
    case ENUM:
        return read_enum(r, (TableId)k.of, c, i, null, out);
    case ENUM_LIST:
    case MESSAGE_LIST:
        return read_list(r, m, f, c, i, null, out);
    case MESSAGE:
        return read_message(r, (MessageId)k.of, c, i, null, out);
    case OPTIONAL_MESSAGE:
        return null ? got(Py_NewRef(Py_None), out) : read_message(r, (MessageId)k.of, c, i, 0, out);
    case ABSENT:
        return got(Py_NewRef(Py_None), out);
    }
    return DECLINE;
}

/* The core value of message m at i of its struct column c: its fields at c's offset + i. */
static int read_message(const Reader *r, MessageId m, Column *c, int64_t i, int null, PyObject **out) {
    const MessagePlan *plan = &PLANS[m];
    if (c->children == NULL) {
        return DECLINE; /* an absent message column: only the optional dice can be, read as None */
    }
    null = null || is_null(c, i);
    int64_t at = c->array == NULL ? 0 : c->offset + i;
    PyObject *fields[MAX_FIELDS];
    for (int f = 0; f < plan->n; f++) {
        int status = read_field(r, m, f, &c->children[f], at, null, &fields[f]);
        if (status != OK) {
            for (int done = 0; done < f; done++) {
                Py_DECREF(fields[done]);
            }
            return status;
        }
    }
    PyTypeObject *type = *(PyTypeObject *const *)((const char *)&r->state->types + plan->type);
    return got(core_value(type, plan->n, fields), out);
}

/* ---- The batch ---- */

static int64_t nulls_in(const Column *c, int64_t start, int64_t count) {
    int64_t nulls = 0;
    for (int64_t i = start; i < start + count; i++) {
        nulls += is_null(c, i);
    }
    return nulls;
}

/* Whether any row has overrides (a request the bounded reader reads): checked as the Python twin
 * does, before any other column is read. -1: the column lies. */
static int has_overrides(const struct ArrowArray *batch, int64_t slot) {
    if (slot < 0) {
        return 0;
    }
    const struct ArrowArray *column = batch->children[slot];
    Column c = {0};
    if (column == NULL || open_array(&c, column, batch->offset + batch->length, 1, column->n_children) < 0) {
        return -1;
    }
    return nulls_in(&c, batch->offset, batch->length) < batch->length;
}

/* The request field read as absent: overrides. */
static int overrides_field(void) {
    int f = 0;
    while (PLANS[REQUEST].kinds[f].kind != ABSENT) {
        f++;
    }
    return f;
}

/* The strings the columns keep for the next row, released once the batch is read. */
static void release_strings(Reader *r) {
    for (int k = 0; k < r->used; k++) {
        Py_CLEAR(r->pool[k].kept);
    }
}

static PyObject *read_rows(Reader *r, Column *batch) {
    PyObject *rows = PyList_New((Py_ssize_t)batch->length);
    if (rows == NULL) {
        return NULL;
    }
    for (int64_t i = 0; i < batch->length; i++) {
        PyObject *request = NULL;
        int status = read_message(r, REQUEST, batch, i, 0, &request);
        if (status == BAD) {
            request = Py_NewRef(Py_None);
        } else if (status != OK) {
            Py_DECREF(rows);
            return status == FAILED ? NULL : Py_NewRef(Py_NotImplemented);
        }
        PyList_SET_ITEM(rows, (Py_ssize_t)i, request);
    }
    return rows;
}

static PyObject *read_requests(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "read_requests takes a batch's schema and array capsules");
        return NULL;
    }
    const struct ArrowSchema *schema = PyCapsule_GetPointer(args[0], "arrow_schema");
    const struct ArrowArray *array = schema ? PyCapsule_GetPointer(args[1], "arrow_array") : NULL;
    if (array == NULL) {
        return NULL;
    }
    Reader r = {.state = state_of(module)};
    int64_t slots[MAX_FIELDS];
    int same = map_columns(r.state, schema, slots);
    if (same != SAME) {
        return Py_NewRef(same == DIFFERENT ? Py_None : Py_NotImplemented);
    }
    if (schema->release == NULL || array->release == NULL || array->n_children != schema->n_children ||
        (array->n_children > 0 && array->children == NULL)) {
        return Py_NewRef(Py_NotImplemented);
    }
    int overrides = has_overrides(array, slots[overrides_field()]);
    if (overrides != 0) {
        return Py_NewRef(overrides > 0 ? Py_None : Py_NotImplemented);
    }
    Column batch = {0};
    if (open_batch(&r, &batch, array, slots) < 0) {
        return Py_NewRef(Py_NotImplemented);
    }
    PyObject *rows = read_rows(&r, &batch);
    release_strings(&r);
    return rows;
}

/* ---- Import: what the reader relies on, read from Python and checked ---- */

/* The Arrow format a field of kind k has in the expected schema (a list: its item's). */
static const char *format_of(Kind kind) {
    switch (kind) {
    case INT32:
        return "i";
    case BOOL:
        return "b";
    case STRING:
    case REQUEST_ID:
    case ENUM:
    case ENUM_LIST:
        return "u";
    case MESSAGE:
    case OPTIONAL_MESSAGE:
    case MESSAGE_LIST:
        return "+s";
    case ABSENT:
        return NULL;
    }
    return NULL;
}

static int resolve_message(State *s, MessageId m, const struct ArrowSchema *node, PyObject *max_lengths);

/* Field f of message m found by its name among `node`'s children, its type the kind's. */
static int resolve_field(State *s, MessageId m, int f, const struct ArrowSchema *node, PyObject *max_lengths) {
    const MessagePlan *plan = &PLANS[m];
    FieldKind k = plan->kinds[f];
    const char *name = plan->fields[f];
    const struct ArrowSchema *field = NULL;
    for (int64_t c = 0; c < node->n_children && field == NULL; c++) {
        if (same_name(node->children[c]->name, name)) {
            s->child[m][f] = (int)c;
            field = node->children[c];
        }
    }
    if (field == NULL) {
        PyErr_Format(PyExc_ImportError, "REQUEST_SCHEMA has no field %s of %s", name, plan->name);
        return -1;
    }
    const struct ArrowSchema *item = field;
    if (k.kind == ENUM_LIST || k.kind == MESSAGE_LIST) {
        if (strcmp(field->format, "+l") != 0 || field->n_children != 1) {
            PyErr_Format(PyExc_ImportError, "REQUEST_SCHEMA's %s.%s is not a list", plan->name, name);
            return -1;
        }
        item = field->children[0];
        PyObject *limit = PyDict_GetItemString(max_lengths, k.limit);
        s->limits[m][f] = limit ? PyLong_AsSsize_t(limit) : -1;
        if (s->limits[m][f] < 0) {
            PyErr_Clear();
            PyErr_Format(PyExc_ImportError, "rules_core.validation.MAX_LENGTHS has no bound %s", k.limit);
            return -1;
        }
    }
    const char *format = format_of(k.kind);
    if (format != NULL && strcmp(item->format, format) != 0) {
        PyErr_Format(PyExc_ImportError, "REQUEST_SCHEMA's %s.%s is of format %s, not %s", plan->name, name,
                     item->format, format);
        return -1;
    }
    return strcmp(format ? format : "", "+s") == 0 ? resolve_message(s, (MessageId)k.of, item, max_lengths) : 0;
}

static int resolve_message(State *s, MessageId m, const struct ArrowSchema *node, PyObject *max_lengths) {
    const MessagePlan *plan = &PLANS[m];
    Py_ssize_t count = 0;
    while (plan->fields[count] != NULL) {
        count++;
    }
    if (count != plan->n) {
        PyErr_Format(PyExc_ImportError, "core_values.h names %zd fields of %s, this reader reads %d", count,
                     plan->name, plan->n);
        return -1;
    }
    for (int f = 0; f < plan->n; f++) {
        if (resolve_field(s, m, f, node, max_lengths) < 0) {
            return -1;
        }
    }
    return 0;
}

static PyObject *attribute_of(const char *module_name, const char *name) {
    PyObject *module = PyImport_ImportModule(module_name);
    if (module == NULL) {
        return NULL;
    }
    PyObject *value = PyObject_GetAttrString(module, name);
    Py_DECREF(module);
    return value;
}

static int load_expected_schema(State *s) {
    PyObject *schema = attribute_of("batch.arrow_schema", "REQUEST_SCHEMA");
    if (schema == NULL) {
        return -1;
    }
    s->expected_capsule = PyObject_CallMethod(schema, "__arrow_c_schema__", NULL);
    Py_DECREF(schema);
    if (s->expected_capsule == NULL) {
        return -1;
    }
    s->expected = PyCapsule_GetPointer(s->expected_capsule, "arrow_schema");
    if (s->expected == NULL) {
        return -1;
    }
    PyObject *max_lengths = attribute_of("rules_core.validation", "MAX_LENGTHS");
    if (max_lengths == NULL) {
        return -1;
    }
    int resolved = PyDict_Check(max_lengths) ? resolve_message(s, REQUEST, s->expected, max_lengths) : -1;
    if (resolved < 0 && !PyErr_Occurred()) {
        PyErr_SetString(PyExc_ImportError, "rules_core.validation.MAX_LENGTHS is not a dict");
    }
    Py_DECREF(max_lengths);
    return resolved;
}

static int load_bounds_and_tables(State *s) {
    PyObject *max_id = attribute_of("rules_core.validation", "MAX_REQUEST_ID_BYTES");
    if (max_id == NULL) {
        return -1;
    }
    s->max_request_id_bytes = PyLong_AsSsize_t(max_id);
    Py_DECREF(max_id);
    if (s->max_request_id_bytes < 0) {
        return -1;
    }
    PyObject *structs = PyImport_ImportModule("batch.request_structs");
    if (structs == NULL) {
        return -1;
    }
    int loaded = 0;
    for (int t = 0; t < N_TABLES && loaded == 0; t++) {
        loaded = table_load(&s->tables[t], structs, TABLE_NAMES[t]);
    }
    Py_DECREF(structs);
    return loaded;
}

static int module_exec(PyObject *module) {
    State *s = state_of(module);
    if (core_types_load(&s->types) < 0 || load_bounds_and_tables(s) < 0 || load_expected_schema(s) < 0) {
        return -1;
    }
    s->zero = PyLong_FromLong(0);
    s->empty = PyUnicode_FromStringAndSize("", 0);
    return s->zero && s->empty ? 0 : -1;
}

static int module_traverse(PyObject *module, visitproc visit, void *arg) {
    State *s = state_of(module);
    for (int t = 0; t < N_TABLES; t++) {
        Py_VISIT(s->tables[t].names);
    }
    Py_VISIT(s->expected_capsule);
    Py_VISIT(s->zero);
    Py_VISIT(s->empty);
    return core_types_traverse(&s->types, visit, arg);
}

static int module_clear(PyObject *module) {
    State *s = state_of(module);
    for (int t = 0; t < N_TABLES; t++) {
        Py_CLEAR(s->tables[t].names);
    }
    s->expected = NULL;
    Py_CLEAR(s->expected_capsule);
    Py_CLEAR(s->zero);
    Py_CLEAR(s->empty);
    core_types_clear(&s->types);
    return 0;
}

static void module_free(void *module) { module_clear((PyObject *)module); }

static PyMethodDef METHODS[] = {
    {"read_requests", (PyCFunction)(void (*)(void))read_requests, METH_FASTCALL,
     "read_requests(schema_capsule, array_capsule): the core request of each row (None: the bounded "
     "reader's), None for a batch not of the usual shape, NotImplemented where it declines."},
    {NULL, NULL, 0, NULL},
};

static PyModuleDef_Slot SLOTS[] = {{Py_mod_exec, module_exec}, {0, NULL}};

static struct PyModuleDef MODULE = {
    PyModuleDef_HEAD_INIT, "arrow_requests", "A nested Arrow batch of requests read into core values, in C.",
    sizeof(State),         METHODS,          SLOTS,
    module_traverse,       module_clear,     module_free,
};

PyMODINIT_FUNC PyInit_arrow_requests(void) { return PyModuleDef_Init(&MODULE); }
