/* A JSON Lines line read straight into a rules_core.requests.SettleRequest (issue 23).
 *
 * read(line, profile=None) takes the bytes of a line (or its text, a str) in the usual form and
 * gives the core request, with its Winner, Hand, Meld, Dice and LiabilityRelation values, built as
 * batch.fast_requests builds them (under the job's profile when one is given, as read_line's
 * _replace would make it: 3.8 µs in Python, more than the whole read); or None, which declines the line to the Python readers
 * (batch.fast_requests.read_json_request, then the bounded reader). It is held to
 * read_json_request: where it answers, its value equals that reader's
 * (tests/batch/test_readers_agree.py).
 *
 * The usual form read here is a subset of batch.request_structs': one JSON object, the
 * lowerCamelCase keys of the .proto, enums by name (the tables of batch.request_structs, the
 * unspecified name and null read as None), whole numbers within int32, lists within
 * rules_core.validation's bounds, null as an absent field, "overrides" only as null, any JSON
 * whitespace between tokens. It declines everything else, and what it could read but the Python
 * readers might read otherwise: a backslash, a control character or a byte >= 0x80 in a string,
 * a number with a fraction or an exponent (or a leading zero, or over ten digits), a key twice
 * in one object, an unknown key, a str that is not ASCII, a request id that may be over
 * MAX_REQUEST_ID_BYTES (fast_requests' check: four bytes a character), anything after the
 * object. Its nesting is fixed by the request's shape (request, winner, hand, meld: a function
 * each, never recursion), its lists held on the stack within their bounds (LIST_CAPACITY).
 *
 * A field of the .proto it does not read (one added since, such as those of RULES.md section 14)
 * is taken at its proto3 default, as this product writes every request's JSON: null, or the
 * typed default (an empty list, false, 0, "", an enum's zero value by name or number); any other
 * value declines the line. Those fields and the form of each default come from the descriptors,
 * at import (convert.unread.unread_json_fields, given the keys read here): none is named here.
 *
 * A MemoryError is raised as such; every other fault is a None.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "core_values.h"

/* The longest list the reader can hold while it reads (a bound of rules_core.validation over it
 * is an ImportError), and the name tables' slots (at most half of them filled). */
#define LIST_CAPACITY 256
#define NAME_SLOTS 128
#define MAX_INT32_DIGITS 10

/* --- the module's state ------------------------------------------------------------------- */

typedef struct {
    PyObject *key;    /* the name (a str) */
    PyObject *member; /* its core member, or None */
    const char *name; /* the key's bytes, held alive by `key` */
    Py_ssize_t length;
} NameSlot;

typedef struct {
    NameSlot slots[NAME_SLOTS];
} NameTable;

typedef struct {
    Py_ssize_t concealed, melds, meld_tiles, flowers, passed, winners, liabilities, request_id_bytes;
} Bounds;

/* The fields of a message not read here, each taken at its default only (convert.unread). */
#define UNREAD_CAPACITY 32

typedef struct {
    PyObject *key;  /* the JSON name (a str) */
    PyObject *zero; /* an enum's zero name (a str; "" for a field of another type) */
    const char *name, *zero_name; /* their bytes, held alive by `key` and `zero` */
    Py_ssize_t length, zero_length;
    int kind; /* how its default stands: convert.unread.JsonDefault */
} UnreadField;

typedef struct {
    UnreadField fields[UNREAD_CAPACITY];
    int count;
} UnreadFields;

/* The messages read here, each with its own fields not read. */
enum { MELD_MESSAGE, HAND_MESSAGE, WINNER_MESSAGE, DICE_MESSAGE, RELATION_MESSAGE, REQUEST_MESSAGE, MESSAGES };

typedef struct {
    CoreTypes types;
    NameTable tiles, flowers, meld_kinds, outcomes;
    Bounds bounds;
    UnreadFields unread[MESSAGES];
} State;

/* --- the cursor over a line's bytes ------------------------------------------------------- */

typedef struct {
    const char *at;
    const char *end;
} Cursor;

static void skip_space(Cursor *c) {
    const char *at = c->at;
    while (at < c->end && (*at == ' ' || *at == '\n' || *at == '\r' || *at == '\t')) {
        at++;
    }
    c->at = at;
}

/* Whether the next token (after whitespace) is `ch`; it is consumed when it is. */
static int take(Cursor *c, char ch) {
    skip_space(c);
    if (c->at < c->end && *c->at == ch) {
        c->at++;
        return 1;
    }
    return 0;
}

static inline uint64_t load8(const char *bytes) {
    uint64_t word;
    memcpy(&word, bytes, 8);
    return word;
}

static inline uint32_t load4(const char *bytes) {
    uint32_t word;
    memcpy(&word, bytes, 4);
    return word;
}

/* Whether n bytes are the same. Names and keys are short: up to 16 bytes are two overlapping
 * words compared (each within the n bytes), which beats a loop or a call of memcmp. */
static inline int same_bytes(const char *a, const char *b, Py_ssize_t n) {
    if (n >= 8 && n <= 16) {
        return load8(a) == load8(b) && load8(a + n - 8) == load8(b + n - 8);
    }
    if (n >= 4 && n < 8) {
        return load4(a) == load4(b) && load4(a + n - 4) == load4(b + n - 4);
    }
    return memcmp(a, b, (size_t)n) == 0;
}

/* Whether the next token is the literal `word` (null, true, false); consumed when it is. */
static int take_word(Cursor *c, const char *word, Py_ssize_t length) {
    skip_space(c);
    if (c->end - c->at >= length && same_bytes(c->at, word, length)) {
        c->at += length;
        return 1;
    }
    return 0;
}

static int take_null(Cursor *c) {
    return take_word(c, "null", 4);
}

/* The bytes that end a plain string's run: the quote, and what is declined (a backslash, a
 * control character, a byte >= 0x80). */
static unsigned char ENDS_RUN[256];

static void fill_ends_run(void) {
    for (int byte = 0; byte < 256; byte++) {
        ENDS_RUN[byte] = byte == '"' || byte == '\\' || byte < 0x20 || byte >= 0x80;
    }
}

/* The first byte of `at` (up to `end`) that ends a plain string's run: eight bytes a step where
 * eight are left. In a word, a byte's high bit is set in the mask where it is a quote, a
 * backslash, under 0x20 or over 0x7f; each test can also flag bytes after its first true one
 * (a borrow), never before, so the lowest bit set is the first such byte. */
static const char *run_end(const char *at, const char *end) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    const uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull;
    while (end - at >= 8) {
        uint64_t word = load8(at);
        uint64_t quote = word ^ (ones * '"'), backslash = word ^ (ones * '\\');
        uint64_t mask = ((quote - ones) & ~quote) | ((backslash - ones) & ~backslash) |
                        ((word - ones * 0x20) & ~word) | word;
        mask &= high;
        if (mask != 0) {
            return at + (__builtin_ctzll(mask) >> 3);
        }
        at += 8;
    }
#endif
    while (at < end && !ENDS_RUN[(unsigned char)*at]) {
        at++;
    }
    return at;
}

/* A string's bytes, without its quotes: 0, or -1 to decline (not a string, or one holding a
 * backslash, a control character or a byte >= 0x80). */
static int read_string(Cursor *c, const char **start, Py_ssize_t *length) {
    if (!take(c, '"')) {
        return -1;
    }
    const char *from = c->at, *at = run_end(c->at, c->end);
    if (at == c->end || *at != '"') {
        return -1;
    }
    *start = from;
    *length = at - from;
    c->at = at + 1;
    return 0;
}

/* A whole number within int32: 0, or -1 to decline. */
static int read_int32(Cursor *c, long *value) {
    skip_space(c);
    int negative = c->at < c->end && *c->at == '-';
    c->at += negative;
    const char *digits = c->at;
    int64_t magnitude = 0;
    while (c->at < c->end && *c->at >= '0' && *c->at <= '9') {
        if (c->at - digits == MAX_INT32_DIGITS) {
            return -1;
        }
        magnitude = magnitude * 10 + (*c->at - '0');
        c->at++;
    }
    Py_ssize_t count = c->at - digits;
    if (count == 0 || (count > 1 && *digits == '0')) {
        return -1;
    }
    if (c->at < c->end && (*c->at == '.' || *c->at == 'e' || *c->at == 'E')) {
        return -1;
    }
    int64_t number = negative ? -magnitude : magnitude;
    if (number < INT32_MIN || number > INT32_MAX) {
        return -1;
    }
    *value = (long)number;
    return 0;
}

/* --- the name tables ---------------------------------------------------------------------- */

/* A name's slot to start from: FNV-1a of its length and last three bytes, which tell the names
 * of one table apart (they share their prefix) nearly always; a clash only costs a probe. */
static uint32_t name_hash(const char *name, Py_ssize_t length) {
    uint32_t hash = (2166136261u ^ (uint32_t)length) * 16777619u;
    for (Py_ssize_t i = length > 3 ? length - 3 : 0; i < length; i++) {
        hash = (hash ^ (unsigned char)name[i]) * 16777619u;
    }
    return hash;
}

/* The core member of a name (borrowed), or NULL for a name the table lacks. */
static PyObject *look_up(const NameTable *table, const char *name, Py_ssize_t length) {
    for (uint32_t i = name_hash(name, length) & (NAME_SLOTS - 1);; i = (i + 1) & (NAME_SLOTS - 1)) {
        const NameSlot *slot = &table->slots[i];
        if (slot->key == NULL) {
            return NULL;
        }
        if (slot->length == length && same_bytes(slot->name, name, length)) {
            return slot->member;
        }
    }
}

/* Fill `table` from a dict of batch.request_structs (name: member; its None key is null's, read
 * here as such): 0, or -1 with ImportError. */
static int fill_names(NameTable *table, PyObject *names, const char *what) {
    if (!PyDict_Check(names) || PyDict_GET_SIZE(names) > NAME_SLOTS / 2) {
        PyErr_Format(PyExc_ImportError, "batch.request_structs.%s is not a dict of at most %d names", what,
                     NAME_SLOTS / 2);
        return -1;
    }
    Py_ssize_t position = 0;
    PyObject *key, *member;
    while (PyDict_Next(names, &position, &key, &member)) {
        if (key == Py_None) {
            continue;
        }
        Py_ssize_t length;
        const char *name = PyUnicode_Check(key) ? PyUnicode_AsUTF8AndSize(key, &length) : NULL;
        if (name == NULL || !PyUnicode_IS_ASCII(key)) {
            PyErr_Format(PyExc_ImportError, "batch.request_structs.%s has a key %R that is not an ASCII name", what,
                         key);
            return -1;
        }
        uint32_t i = name_hash(name, length) & (NAME_SLOTS - 1);
        while (table->slots[i].key != NULL) {
            i = (i + 1) & (NAME_SLOTS - 1);
        }
        table->slots[i] = (NameSlot){Py_NewRef(key), Py_NewRef(member), name, length};
    }
    return 0;
}

static void clear_names(NameTable *table) {
    for (int i = 0; i < NAME_SLOTS; i++) {
        Py_CLEAR(table->slots[i].key);
        Py_CLEAR(table->slots[i].member);
    }
}

static int traverse_names(NameTable *table, visitproc visit, void *arg) {
    for (int i = 0; i < NAME_SLOTS; i++) {
        Py_VISIT(table->slots[i].key);
        Py_VISIT(table->slots[i].member);
    }
    return 0;
}

/* --- values ------------------------------------------------------------------------------- */

/* Each reader gives a new reference, null read as the field's absent value, or NULL to decline
 * (an exception set only for a real error: memory). */

static PyObject *int_value(Cursor *c) {
    long value = 0;
    if (!take_null(c) && read_int32(c, &value) < 0) {
        return NULL;
    }
    return PyLong_FromLong(value);
}

static PyObject *bool_value(Cursor *c) {
    if (take_word(c, "true", 4)) {
        Py_RETURN_TRUE;
    }
    if (take_word(c, "false", 5) || take_null(c)) {
        Py_RETURN_FALSE;
    }
    return NULL;
}

static PyObject *ascii_text(const char *bytes, Py_ssize_t length) {
    PyObject *text = PyUnicode_New(length, 127);
    if (text != NULL) {
        memcpy(PyUnicode_DATA(text), bytes, (size_t)length);
    }
    return text;
}

static PyObject *text_value(Cursor *c) {
    const char *bytes = "";
    Py_ssize_t length = 0;
    if (!take_null(c) && read_string(c, &bytes, &length) < 0) {
        return NULL;
    }
    return ascii_text(bytes, length);
}

/* An enum's name: its member (None for the unspecified name). */
static PyObject *name_string(Cursor *c, const NameTable *table) {
    const char *name;
    Py_ssize_t length;
    if (read_string(c, &name, &length) < 0) {
        return NULL;
    }
    PyObject *member = look_up(table, name, length);
    return member == NULL ? NULL : Py_NewRef(member);
}

/* An enum field: its member by name, or None for null. */
static PyObject *name_value(Cursor *c, const NameTable *table) {
    if (take_null(c)) {
        Py_RETURN_NONE;
    }
    return name_string(c, table);
}

static void release(PyObject **items, Py_ssize_t count) {
    for (Py_ssize_t i = 0; i < count; i++) {
        Py_XDECREF(items[i]);
    }
}

/* --- lists -------------------------------------------------------------------------------- */

typedef PyObject *(*ItemReader)(const State *state, Cursor *c, const void *arg);

/* A list of at most `bound` items as a tuple (null: the empty tuple). */
static PyObject *list_value(const State *state, Cursor *c, Py_ssize_t bound, ItemReader item, const void *arg) {
    if (take_null(c)) {
        return PyTuple_New(0);
    }
    if (!take(c, '[')) {
        return NULL;
    }
    if (take(c, ']')) {
        return PyTuple_New(0);
    }
    PyObject *items[LIST_CAPACITY];
    Py_ssize_t count = 0;
    do {
        if (count == bound) {
            release(items, count);
            return NULL;
        }
        PyObject *value = item(state, c, arg);
        if (value == NULL) {
            release(items, count);
            return NULL;
        }
        items[count++] = value;
    } while (take(c, ','));
    if (!take(c, ']')) {
        release(items, count);
        return NULL;
    }
    return core_tuple(count, items);
}

/* A name in a list (where msgspec refuses a null). */
static PyObject *name_item(const State *state, Cursor *c, const void *table) {
    return name_string(c, table);
}

static PyObject *names_value(const State *state, Cursor *c, const NameTable *table, Py_ssize_t bound) {
    return list_value(state, c, bound, name_item, table);
}

/* --- objects ------------------------------------------------------------------------------ */

/* An object's keys, in the order of its core value's fields. */
typedef struct {
    const char *name;
    Py_ssize_t length;
} Key;

#define KEY(name) {name, sizeof(name) - 1}

/* How a field not read stands at its default, besides null (convert.unread.JsonDefault). */
enum {
    DEFAULT_NULL_ONLY, DEFAULT_EMPTY_LIST, DEFAULT_EMPTY_OBJECT, DEFAULT_FALSE, DEFAULT_ZERO, DEFAULT_EMPTY_TEXT,
    DEFAULT_ENUM_ZERO, DEFAULT_KINDS
};

/* Whether the next value is 0 (a whole number; consumed either way). */
static int take_zero(Cursor *c) {
    long value;
    return read_int32(c, &value) == 0 && value == 0;
}

/* Whether the next value is the field's proto3 default in a form of its kind (consumed either
 * way: a value that is not declines the line). */
static int take_default(Cursor *c, const UnreadField *field) {
    if (take_null(c)) {
        return 1;
    }
    const char *text;
    Py_ssize_t length;
    switch (field->kind) {
    case DEFAULT_EMPTY_LIST:
        return take(c, '[') && take(c, ']');
    case DEFAULT_EMPTY_OBJECT:
        return take(c, '{') && take(c, '}');
    case DEFAULT_FALSE:
        return take_word(c, "false", 5);
    case DEFAULT_ZERO:
        return take_zero(c);
    case DEFAULT_EMPTY_TEXT:
        return read_string(c, &text, &length) == 0 && length == 0;
    case DEFAULT_ENUM_ZERO:
        skip_space(c);
        if (c->at < c->end && *c->at == '"') {
            return read_string(c, &text, &length) == 0 && length == field->zero_length &&
                   same_bytes(text, field->zero_name, length);
        }
        return take_zero(c);
    default: /* DEFAULT_NULL_ONLY */
        return 0;
    }
}

/* The index of a field not read in `unread`, or -1. */
static int unread_of(const UnreadFields *unread, const char *key, Py_ssize_t length) {
    for (int i = 0; i < unread->count; i++) {
        if (unread->fields[i].length == length && same_bytes(unread->fields[i].name, key, length)) {
            return i;
        }
    }
    return -1;
}

/* One object's keys in turn: Object walks them, the field index in its key list each time; a
 * field not read is passed over where it holds its default. `seen` has a bit for each key read
 * and, after those, for each field not read (UNREAD_CAPACITY + the most keys read: under 64). */
typedef struct {
    const Key *keys;
    int count_keys;
    const UnreadFields *unread;
    uint64_t seen;
    int count;
} Object;

enum { FIELD_END = -1, FIELD_DECLINED = -2 };

static int field_of(const Object *object, const char *key, Py_ssize_t length) {
    for (int i = 0; i < object->count_keys; i++) {
        if (object->keys[i].length == length && same_bytes(object->keys[i].name, key, length)) {
            return i;
        }
    }
    return FIELD_DECLINED;
}

/* Whether the key (its bit `bit`) is new in the object; marked seen. */
static int first_time(Object *object, int bit) {
    uint64_t mask = (uint64_t)1 << bit;
    if (object->seen & mask) {
        return 0;
    }
    object->seen |= mask;
    return 1;
}

/* The index of the next key read, its colon read (FIELD_END after the last; FIELD_DECLINED for
 * an unknown key, a key twice, a field not read off its default, or anything not an object's). */
static int next_field(Object *object, Cursor *c) {
    for (;;) {
        if (take(c, '}')) {
            return FIELD_END;
        }
        if (object->count > 0 && !take(c, ',')) {
            return FIELD_DECLINED;
        }
        const char *key;
        Py_ssize_t length;
        if (read_string(c, &key, &length) < 0 || !take(c, ':')) {
            return FIELD_DECLINED;
        }
        object->count++;
        int index = field_of(object, key, length);
        if (index >= 0) {
            return first_time(object, index) ? index : FIELD_DECLINED;
        }
        int skipped = unread_of(object->unread, key, length);
        if (skipped < 0 || !first_time(object, object->count_keys + skipped) ||
            !take_default(c, &object->unread->fields[skipped])) {
            return FIELD_DECLINED;
        }
    }
}

/* The start of an object (null is not one: each caller says what null is). */
static int open_object(Object *object, Cursor *c, const Key *keys, int count_keys, const UnreadFields *unread) {
    *object = (Object){keys, count_keys, unread, 0, 0};
    return take(c, '{');
}

/* What an absent field (or a null) is read as. */
enum { ABSENT_ZERO, ABSENT_NONE, ABSENT_FALSE, ABSENT_EMPTY_TEXT, ABSENT_EMPTY_TUPLE, ABSENT_EMPTY_HAND };

static PyObject *empty_hand(const State *state);

/* Fill every field still absent with its absent value: 0, or -1 on memory. */
static int fill_absent(const State *state, PyObject **fields, const int *kinds, int count) {
    for (int i = 0; i < count; i++) {
        if (fields[i] != NULL) {
            continue;
        }
        switch (kinds[i]) {
        case ABSENT_ZERO:
            fields[i] = PyLong_FromLong(0);
            break;
        case ABSENT_NONE:
            fields[i] = Py_NewRef(Py_None);
            break;
        case ABSENT_FALSE:
            fields[i] = Py_NewRef(Py_False);
            break;
        case ABSENT_EMPTY_TEXT:
            fields[i] = PyUnicode_New(0, 127);
            break;
        case ABSENT_EMPTY_TUPLE:
            fields[i] = PyTuple_New(0);
            break;
        default:
            fields[i] = empty_hand(state);
            break;
        }
        if (fields[i] == NULL) {
            return -1;
        }
    }
    return 0;
}

/* Walk an object's fields into `fields` with `read_field`, then fill the absent ones: 0, or -1
 * (every field read released). */
typedef PyObject *(*FieldReader)(const State *state, Cursor *c, int index);

static int read_object(const State *state, Cursor *c, int message, const Key *keys, const int *kinds, int count,
                       PyObject **fields, FieldReader read_field) {
    Object object;
    if (!open_object(&object, c, keys, count, &state->unread[message])) {
        return -1;
    }
    int index;
    while ((index = next_field(&object, c)) >= 0) {
        fields[index] = read_field(state, c, index);
        if (fields[index] == NULL) {
            break;
        }
    }
    if (index != FIELD_END || fill_absent(state, fields, kinds, count) < 0) {
        release(fields, count);
        return -1;
    }
    return 0;
}

/* --- Meld --------------------------------------------------------------------------------- */

static const Key MELD_KEYS[] = {KEY("kind"), KEY("tiles"), KEY("fromSeat")};
static const int MELD_ABSENT[] = {ABSENT_NONE, ABSENT_EMPTY_TUPLE, ABSENT_ZERO};

static PyObject *meld_field(const State *state, Cursor *c, int index) {
    switch (index) {
    case 0:
        return name_value(c, &state->meld_kinds);
    case 1:
        return names_value(state, c, &state->tiles, state->bounds.meld_tiles);
    default:
        return int_value(c);
    }
}

static PyObject *meld_item(const State *state, Cursor *c, const void *arg) {
    PyObject *f[3] = {NULL};
    if (read_object(state, c, MELD_MESSAGE, MELD_KEYS, MELD_ABSENT, 3, f, meld_field) < 0) {
        return NULL;
    }
    return core_meld(&state->types, f[0], f[1], f[2]);
}

/* --- Hand --------------------------------------------------------------------------------- */

static const Key HAND_KEYS[] = {KEY("concealed"), KEY("winningTile"), KEY("melds"), KEY("flowers")};
static const int HAND_ABSENT[] = {ABSENT_EMPTY_TUPLE, ABSENT_NONE, ABSENT_EMPTY_TUPLE, ABSENT_EMPTY_TUPLE};

static PyObject *hand_field(const State *state, Cursor *c, int index) {
    switch (index) {
    case 0:
        return names_value(state, c, &state->tiles, state->bounds.concealed);
    case 1:
        return name_value(c, &state->tiles);
    case 2:
        return list_value(state, c, state->bounds.melds, meld_item, NULL);
    default:
        return names_value(state, c, &state->flowers, state->bounds.flowers);
    }
}

/* The hand of a winner without one (or with null): Hand(concealed=()). */
static PyObject *empty_hand(const State *state) {
    PyObject *f[4] = {NULL};
    if (fill_absent(state, f, HAND_ABSENT, 4) < 0) {
        release(f, 4);
        return NULL;
    }
    return core_hand(&state->types, f[0], f[1], f[2], f[3]);
}

static PyObject *hand_value(const State *state, Cursor *c) {
    if (take_null(c)) {
        return empty_hand(state);
    }
    PyObject *f[4] = {NULL};
    if (read_object(state, c, HAND_MESSAGE, HAND_KEYS, HAND_ABSENT, 4, f, hand_field) < 0) {
        return NULL;
    }
    return core_hand(&state->types, f[0], f[1], f[2], f[3]);
}

/* --- Winner ------------------------------------------------------------------------------- */

static const Key WINNER_KEYS[] = {KEY("seat"), KEY("hand"), KEY("passedTiles"), KEY("replacementDraw"),
                                   KEY("firstGoAround")};
static const int WINNER_ABSENT[] = {ABSENT_ZERO, ABSENT_EMPTY_HAND, ABSENT_EMPTY_TUPLE, ABSENT_FALSE, ABSENT_FALSE};

static PyObject *winner_field(const State *state, Cursor *c, int index) {
    switch (index) {
    case 0:
        return int_value(c);
    case 1:
        return hand_value(state, c);
    case 2:
        return names_value(state, c, &state->tiles, state->bounds.passed);
    default:
        return bool_value(c);
    }
}

static PyObject *winner_item(const State *state, Cursor *c, const void *arg) {
    PyObject *f[5] = {NULL};
    if (read_object(state, c, WINNER_MESSAGE, WINNER_KEYS, WINNER_ABSENT, 5, f, winner_field) < 0) {
        return NULL;
    }
    return core_winner(&state->types, f[0], f[1], f[2], f[3], f[4]);
}

/* --- Dice, LiabilityRelation -------------------------------------------------------------- */

static const Key DICE_KEYS[] = {KEY("first"), KEY("second")};
static const Key RELATION_KEYS[] = {KEY("claimerSeat"), KEY("sourceSeat"), KEY("claims")};
static const int ALL_ZERO[] = {ABSENT_ZERO, ABSENT_ZERO, ABSENT_ZERO};

static PyObject *int_field(const State *state, Cursor *c, int index) {
    return int_value(c);
}

/* The dice; null (as absent) is None. */
static PyObject *dice_value(const State *state, Cursor *c) {
    if (take_null(c)) {
        Py_RETURN_NONE;
    }
    PyObject *f[2] = {NULL};
    if (read_object(state, c, DICE_MESSAGE, DICE_KEYS, ALL_ZERO, 2, f, int_field) < 0) {
        return NULL;
    }
    return core_dice(&state->types, f[0], f[1]);
}

static PyObject *relation_item(const State *state, Cursor *c, const void *arg) {
    PyObject *f[3] = {NULL};
    if (read_object(state, c, RELATION_MESSAGE, RELATION_KEYS, ALL_ZERO, 3, f, int_field) < 0) {
        return NULL;
    }
    return core_relation(&state->types, f[0], f[1], f[2]);
}

/* --- SettleRequest ------------------------------------------------------------------------ */

/* SettleRequest's fields, in its order (CoreRequestFields), and their keys. */
enum {
    PROFILE, OUTCOME, WINNERS, DEALER_SEAT, DICE, HUANGFAN_COUNT, DISCARDER_SEAT, LIABILITIES, ABANDONING_SEAT,
    OVERRIDES, REQUEST_ID, PROFILE_DIGEST, REQUEST_FIELDS
};
_Static_assert(REQUEST_FIELDS + UNREAD_CAPACITY <= 64, "an object's keys read and fields not read have a bit each");
static const Key REQUEST_KEYS[REQUEST_FIELDS] = {
    [PROFILE] = KEY("profile"),           [OUTCOME] = KEY("outcome"),
    [WINNERS] = KEY("winners"),           [DEALER_SEAT] = KEY("dealerSeat"),
    [DICE] = KEY("dice"),                 [HUANGFAN_COUNT] = KEY("huangfanCount"),
    [DISCARDER_SEAT] = KEY("discarderSeat"), [LIABILITIES] = KEY("liabilities"),
    [ABANDONING_SEAT] = KEY("abandoningSeat"), [OVERRIDES] = KEY("overrides"),
    [REQUEST_ID] = KEY("requestId"),      [PROFILE_DIGEST] = KEY("profileDigest"),
};
static const int REQUEST_ABSENT[REQUEST_FIELDS] = {
    [PROFILE] = ABSENT_EMPTY_TEXT,   [OUTCOME] = ABSENT_NONE,         [WINNERS] = ABSENT_EMPTY_TUPLE,
    [DEALER_SEAT] = ABSENT_ZERO,     [DICE] = ABSENT_NONE,            [HUANGFAN_COUNT] = ABSENT_ZERO,
    [DISCARDER_SEAT] = ABSENT_ZERO,  [LIABILITIES] = ABSENT_EMPTY_TUPLE, [ABANDONING_SEAT] = ABSENT_ZERO,
    [OVERRIDES] = ABSENT_NONE,       [REQUEST_ID] = ABSENT_EMPTY_TEXT, [PROFILE_DIGEST] = ABSENT_EMPTY_TEXT,
};

static PyObject *request_field(const State *state, Cursor *c, int index) {
    switch (index) {
    case PROFILE:
    case REQUEST_ID:
    case PROFILE_DIGEST:
        return text_value(c);
    case OUTCOME:
        return name_value(c, &state->outcomes);
    case WINNERS:
        return list_value(state, c, state->bounds.winners, winner_item, NULL);
    case DICE:
        return dice_value(state, c);
    case LIABILITIES:
        return list_value(state, c, state->bounds.liabilities, relation_item, NULL);
    case OVERRIDES: /* only null here: a request with overrides is the bounded reader's */
        return take_null(c) ? Py_NewRef(Py_None) : NULL;
    default: /* the seats and the huangfan count */
        return int_value(c);
    }
}

/* The request; `profile`, when not NULL, in place of the line's own (as _replace would). */
static PyObject *request_value(const State *state, Cursor *c, PyObject *profile) {
    PyObject *f[REQUEST_FIELDS] = {NULL};
    if (read_object(state, c, REQUEST_MESSAGE, REQUEST_KEYS, REQUEST_ABSENT, REQUEST_FIELDS, f, request_field) < 0) {
        return NULL;
    }
    if (PyUnicode_GET_LENGTH(f[REQUEST_ID]) * 4 > state->bounds.request_id_bytes) {
        release(f, REQUEST_FIELDS); /* perhaps over the bound: the bounded reader says */
        return NULL;
    }
    if (profile != NULL) {
        Py_SETREF(f[PROFILE], Py_NewRef(profile));
    }
    CoreRequestFields fields = {f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], f[9], f[10], f[11]};
    return core_request(&state->types, &fields);
}

/* --- the module --------------------------------------------------------------------------- */

/* The bytes of a line: 0, or -1 for what is not read here (a str not all ASCII, another type). */
static int line_bytes(PyObject *line, Cursor *c) {
    if (PyBytes_Check(line)) {
        c->at = PyBytes_AS_STRING(line);
        c->end = c->at + PyBytes_GET_SIZE(line);
        return 0;
    }
    if (PyUnicode_Check(line) && PyUnicode_IS_READY(line) && PyUnicode_IS_ASCII(line)) {
        c->at = (const char *)PyUnicode_DATA(line);
        c->end = c->at + PyUnicode_GET_LENGTH(line);
        return 0;
    }
    return -1;
}

/* The job's profile of read's arguments: NULL for None or "" (the line's own stands, as
 * read_line's `if profile`), else the str; -1 with TypeError for anything else. */
static int job_profile(PyObject *const *args, Py_ssize_t nargs, PyObject **profile) {
    *profile = NULL;
    if (nargs < 1 || nargs > 2) {
        PyErr_Format(PyExc_TypeError, "read(line, profile=None) takes 1 or 2 arguments, not %zd", nargs);
        return -1;
    }
    if (nargs == 1 || args[1] == Py_None) {
        return 0;
    }
    if (!PyUnicode_Check(args[1])) {
        PyErr_Format(PyExc_TypeError, "read: profile must be a str or None, not %.100s", Py_TYPE(args[1])->tp_name);
        return -1;
    }
    *profile = PyUnicode_GET_LENGTH(args[1]) > 0 ? args[1] : NULL;
    return 0;
}

static PyObject *read_line(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    const State *state = PyModule_GetState(module);
    PyObject *profile;
    if (job_profile(args, nargs, &profile) < 0) {
        return NULL;
    }
    Cursor c;
    if (line_bytes(args[0], &c) < 0) {
        Py_RETURN_NONE;
    }
    PyObject *request = request_value(state, &c, profile);
    if (request != NULL) {
        skip_space(&c);
        if (c.at == c.end) {
            return request;
        }
        Py_DECREF(request); /* something after the object */
    }
    if (PyErr_Occurred()) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static void clear_unread(UnreadFields *unread) {
    for (int i = 0; i < UNREAD_CAPACITY; i++) {
        Py_CLEAR(unread->fields[i].key);
        Py_CLEAR(unread->fields[i].zero);
    }
    unread->count = 0;
}

static int module_traverse(PyObject *module, visitproc visit, void *arg) {
    State *state = PyModule_GetState(module);
    if (state == NULL) {
        return 0;
    }
    for (int m = 0; m < MESSAGES; m++) {
        for (int i = 0; i < state->unread[m].count; i++) {
            Py_VISIT(state->unread[m].fields[i].key);
            Py_VISIT(state->unread[m].fields[i].zero);
        }
    }
    NameTable *tables[] = {&state->tiles, &state->flowers, &state->meld_kinds, &state->outcomes};
    for (int i = 0; i < 4; i++) {
        int error = traverse_names(tables[i], visit, arg);
        if (error) {
            return error;
        }
    }
    return core_types_traverse(&state->types, visit, arg);
}

static int module_clear(PyObject *module) {
    State *state = PyModule_GetState(module);
    if (state == NULL) {
        return 0;
    }
    clear_names(&state->tiles);
    clear_names(&state->flowers);
    clear_names(&state->meld_kinds);
    clear_names(&state->outcomes);
    for (int m = 0; m < MESSAGES; m++) {
        clear_unread(&state->unread[m]);
    }
    core_types_clear(&state->types);
    return 0;
}

static void module_free(void *module) {
    module_clear(module);
}

/* A bound of rules_core.validation, from 0 to `limit`: 0, or -1 with ImportError. */
static int read_bound(PyObject *validation, const char *name, Py_ssize_t limit, Py_ssize_t *bound) {
    PyObject *value = PyObject_GetAttrString(validation, name);
    *bound = value != NULL && PyLong_Check(value) ? PyLong_AsSsize_t(value) : -1;
    Py_XDECREF(value);
    if (*bound < 0 || *bound > limit) {
        PyErr_Clear();
        PyErr_Format(PyExc_ImportError, "rules_core.validation.%s is not a bound from 0 to %zd", name, limit);
        return -1;
    }
    return 0;
}

static int load_bounds(Bounds *bounds) {
    PyObject *validation = PyImport_ImportModule("rules_core.validation");
    if (validation == NULL) {
        return -1;
    }
    int error = read_bound(validation, "MAX_CONCEALED", LIST_CAPACITY, &bounds->concealed) ||
                read_bound(validation, "MAX_MELDS", LIST_CAPACITY, &bounds->melds) ||
                read_bound(validation, "MAX_MELD_TILES", LIST_CAPACITY, &bounds->meld_tiles) ||
                read_bound(validation, "MAX_FLOWERS", LIST_CAPACITY, &bounds->flowers) ||
                read_bound(validation, "MAX_PASSED", LIST_CAPACITY, &bounds->passed) ||
                read_bound(validation, "MAX_WINNERS", LIST_CAPACITY, &bounds->winners) ||
                read_bound(validation, "MAX_LIABILITIES", LIST_CAPACITY, &bounds->liabilities) ||
                read_bound(validation, "MAX_REQUEST_ID_BYTES", PY_SSIZE_T_MAX / 8, &bounds->request_id_bytes);
    Py_DECREF(validation);
    return error ? -1 : 0;
}

static int load_names(State *state) {
    PyObject *structs = PyImport_ImportModule("batch.request_structs");
    if (structs == NULL) {
        return -1;
    }
    struct {
        NameTable *table;
        const char *name;
    } tables[] = {{&state->tiles, "TILES"},
                  {&state->flowers, "FLOWERS"},
                  {&state->meld_kinds, "MELD_KINDS"},
                  {&state->outcomes, "OUTCOMES"}};
    int error = 0;
    for (int i = 0; i < 4 && !error; i++) {
        PyObject *names = PyObject_GetAttrString(structs, tables[i].name);
        error = names == NULL || fill_names(tables[i].table, names, tables[i].name) < 0;
        Py_XDECREF(names);
    }
    Py_DECREF(structs);
    return error ? -1 : 0;
}

/* An ASCII str's bytes (held alive by it), or NULL. */
static const char *ascii_name(PyObject *text, Py_ssize_t *length) {
    if (!PyUnicode_Check(text) || !PyUnicode_IS_ASCII(text)) {
        return NULL;
    }
    return PyUnicode_AsUTF8AndSize(text, length);
}

/* Fill `unread` from convert.unread.unread_json_fields's entries for a message (a tuple of
 * (JSON name, kind, zero name)): 0, or -1 with ImportError. */
static int fill_unread(UnreadFields *unread, PyObject *entries, const char *message) {
    if (!PyTuple_Check(entries) || PyTuple_GET_SIZE(entries) > UNREAD_CAPACITY) {
        PyErr_Format(PyExc_ImportError,
                     "convert.unread.unread_json_fields(%s) is %R, not a tuple of at most %d fields", message,
                     entries, UNREAD_CAPACITY);
        return -1;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(entries); i++) {
        PyObject *entry = PyTuple_GET_ITEM(entries, i);
        UnreadField field = {NULL};
        long kind = -1;
        if (PyTuple_Check(entry) && PyTuple_GET_SIZE(entry) == 3) {
            field.name = ascii_name(PyTuple_GET_ITEM(entry, 0), &field.length);
            field.zero_name = ascii_name(PyTuple_GET_ITEM(entry, 2), &field.zero_length);
            kind = PyLong_Check(PyTuple_GET_ITEM(entry, 1)) ? PyLong_AsLong(PyTuple_GET_ITEM(entry, 1)) : -1;
        }
        if (field.name == NULL || field.zero_name == NULL || kind < 0 || kind >= DEFAULT_KINDS) {
            PyErr_Clear();
            PyErr_Format(PyExc_ImportError,
                         "convert.unread.unread_json_fields(%s) has an entry %R, not (an ASCII JSON name, a "
                         "kind from 0 to %d, an ASCII zero name)",
                         message, entry, DEFAULT_KINDS - 1);
            return -1;
        }
        field.key = Py_NewRef(PyTuple_GET_ITEM(entry, 0));
        field.zero = Py_NewRef(PyTuple_GET_ITEM(entry, 2));
        field.kind = (int)kind;
        unread->fields[unread->count++] = field;
    }
    return 0;
}

/* The fields not read of each message, from its descriptor, given the keys read here. */
static int load_unread(State *state) {
    PyObject *module = PyImport_ImportModule("convert.unread");
    if (module == NULL) {
        return -1;
    }
    PyObject *derive = PyObject_GetAttrString(module, "unread_json_fields");
    Py_DECREF(module);
    if (derive == NULL) {
        return -1;
    }
    struct {
        const char *message;
        const Key *keys;
        int count;
    } messages[MESSAGES] = {
        [MELD_MESSAGE] = {"mahjong.shanghai.v1.Meld", MELD_KEYS, 3},
        [HAND_MESSAGE] = {"mahjong.shanghai.v1.Hand", HAND_KEYS, 4},
        [WINNER_MESSAGE] = {"mahjong.shanghai.v1.Winner", WINNER_KEYS, 5},
        [DICE_MESSAGE] = {"mahjong.shanghai.v1.Dice", DICE_KEYS, 2},
        [RELATION_MESSAGE] = {"mahjong.shanghai.v1.LiabilityRelation", RELATION_KEYS, 3},
        [REQUEST_MESSAGE] = {"mahjong.shanghai.v1.SettleRequest", REQUEST_KEYS, REQUEST_FIELDS},
    };
    int error = 0;
    for (int m = 0; m < MESSAGES && !error; m++) {
        PyObject *read = PyTuple_New(messages[m].count);
        for (int i = 0; read != NULL && i < messages[m].count; i++) {
            PyObject *key = PyUnicode_FromStringAndSize(messages[m].keys[i].name, messages[m].keys[i].length);
            if (key == NULL) {
                Py_CLEAR(read);
                break;
            }
            PyTuple_SET_ITEM(read, i, key);
        }
        PyObject *entries = read == NULL ? NULL : PyObject_CallFunction(derive, "sO", messages[m].message, read);
        error = entries == NULL || fill_unread(&state->unread[m], entries, messages[m].message) < 0;
        Py_XDECREF(entries);
        Py_XDECREF(read);
    }
    Py_DECREF(derive);
    return error ? -1 : 0;
}

static PyMethodDef methods[] = {
    {"read", (PyCFunction)(void (*)(void))read_line, METH_FASTCALL,
     "read(line, profile=None) -> SettleRequest | None: the request of a JSON line (bytes or str) in the "
     "usual form, re-settled under the job's profile when one is given (read_line's _replace), or None to "
     "leave the line to the Python readers."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "batch.native.json_request",
    .m_doc = "A JSON Lines line read straight into a rules_core SettleRequest, or None (batch.fast_requests' twin).",
    .m_size = sizeof(State),
    .m_methods = methods,
    .m_traverse = module_traverse,
    .m_clear = module_clear,
    .m_free = module_free,
};

PyMODINIT_FUNC PyInit_json_request(void) {
    fill_ends_run();
    PyObject *module = PyModule_Create(&module_def);
    if (module == NULL) {
        return NULL;
    }
    State *state = PyModule_GetState(module);
    if (core_types_load(&state->types) < 0 || load_bounds(&state->bounds) < 0 || load_names(state) < 0 ||
        load_unread(state) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
