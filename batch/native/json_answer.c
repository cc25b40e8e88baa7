/* json_answer: a settled answer's JSON Lines line, written in C (issue 23).
 *
 * Reads a rules_core.results.SettleResult (its named tuples: WinnerResult, ValueItem, Payment,
 * Penalty, NextHand) and writes its output line as bytes, newline included: the bytes of
 * batch.records.output_line(convert.json_write.settle_response_dict(result)), its Python
 * twin, which tests hold it to byte for byte. That is msgspec's JSON text of the answer dict:
 * keys in the dict's order, "nextHand" absent when None, enums by name from json_write's tables,
 * every float field as msgspec writes float(x) (shortest round-trip digits, its exponent form),
 * strings as UTF-8 with '"', '\\' and the control characters escaped as msgspec escapes them.
 *
 * Declines (returns None, leaving the answer to the Python twin) whatever it is not sure of:
 * a value not of the exact type the core builds (a subclass, a list for a tuple, a bool for an
 * int, None for a string), an enum value outside its table or at a hole of it, a non-finite
 * float (msgspec writes null where the proto form has none), an int outside int64, a string
 * UTF-8 cannot hold (a lone surrogate: the twin writes that line escaped by json.dumps).
 * Raises only MemoryError.
 *
 * counted_line(result, counts) also adds the result to a batch's counts as
 * batch.records.count_answer does (its twin there), where the line is written and the counts
 * hold what new_counts() gives them; else it declines before changing them.
 *
 * The types, the name tables and the engine version come from Python at import (module
 * state); the import fails, naming it, when a type's _fields are not those the indices below
 * assume or a table is not a list of strings.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#define WROTE 0
#define DECLINED 1
#define FAILED (-1)

/* --- the module state: core types, enum names, engine version ----------------------------- */

enum { TABLE_ILLEGAL, TABLE_PATTERN, TABLE_ITEM_KIND, TABLE_PAYMENT, TABLE_PENALTY, TABLE_UNIT, TABLES };

static const char *const TABLE_NAMES[TABLES] = {
    "ILLEGAL_REASONS", "PATTERNS", "ITEM_KINDS", "PAYMENT_REASONS", "PENALTY_REASONS", "UNITS",
};

enum { TYPE_SETTLE, TYPE_WINNER, TYPE_ITEM, TYPE_PAYMENT, TYPE_PENALTY, TYPE_NEXT_HAND, TYPES };

static const char *const TYPE_NAMES[TYPES] = {
    "SettleResult", "WinnerResult", "ValueItem", "Payment", "Penalty", "NextHand",
};

/* The fields of each type, in the order the F_* indices below read them. */
static const char *const SETTLE_FIELDS[] = {
    "request_id", "profile", "unit", "winners", "payments", "seat_deltas", "next_hand",
    "penalties", "huangfan_after_dice", "profile_digest", NULL,
};
static const char *const WINNER_FIELDS[] = {
    "seat", "legal", "illegal_reasons", "patterns", "flowers", "items", "base_value", "value", NULL,
};
static const char *const ITEM_FIELDS[] = {"kind", "code", "name_zh", "name_en", "contribution", "count", NULL};
static const char *const PAYMENT_FIELDS[] = {"from_seat", "to_seat", "amount", "reason", NULL};
static const char *const PENALTY_FIELDS[] = {"seat", "amount", "reason", NULL};
static const char *const NEXT_HAND_FIELDS[] = {"dealer_seat", "huangfan_count", NULL};

static const char *const *const TYPE_FIELDS[TYPES] = {
    SETTLE_FIELDS, WINNER_FIELDS, ITEM_FIELDS, PAYMENT_FIELDS, PENALTY_FIELDS, NEXT_HAND_FIELDS,
};

enum { S_REQUEST_ID, S_PROFILE, S_UNIT, S_WINNERS, S_PAYMENTS, S_SEAT_DELTAS, S_NEXT_HAND,
       S_PENALTIES, S_HUANGFAN_AFTER_DICE, S_PROFILE_DIGEST, S_SIZE };
enum { W_SEAT, W_LEGAL, W_ILLEGAL_REASONS, W_PATTERNS, W_FLOWERS, W_ITEMS, W_BASE_VALUE, W_VALUE, W_SIZE };
enum { I_KIND, I_CODE, I_NAME_ZH, I_NAME_EN, I_CONTRIBUTION, I_COUNT, I_SIZE };
enum { P_FROM_SEAT, P_TO_SEAT, P_AMOUNT, P_REASON, P_SIZE };
enum { N_SEAT, N_AMOUNT, N_REASON, N_SIZE };
enum { H_DEALER_SEAT, H_HUANGFAN_COUNT, H_SIZE };

/* The keys of batch.records.new_counts() that count_answer adds to (a key missing from the
 * counts given, or of another type, is declined: count_answer then raises or adds as it does). */
enum { COUNT_SETTLED, COUNT_LEGAL, COUNT_ILLEGAL, COUNT_ENGINES, COUNT_DIGESTS, COUNT_KEYS };

static const char *const COUNT_KEY_NAMES[COUNT_KEYS] = {
    "settled", "legal_wins", "illegal_wins", "engine_versions", "profile_digests",
};

typedef struct {
    PyTypeObject *types[TYPES];
    PyObject *names[TABLES]; /* a tuple each: the name's JSON text (bytes, quoted) or None */
    PyObject *engine_version; /* bytes: the JSON string of rules_core.version.ENGINE_VERSION */
    PyObject *engine_version_text; /* str: ENGINE_VERSION itself, a key of the counts */
    PyObject *count_keys[COUNT_KEYS]; /* str: the keys of the counts count_answer adds to */
} State;

/* --- the output buffer: on the stack, moved to the heap when an answer outgrows it ---------- */

#define STACK_BYTES 4096
#define SEATS 4

typedef struct {
    char *data;
    Py_ssize_t length;
    Py_ssize_t capacity;
    char stack[STACK_BYTES];
} Buffer;

static void buffer_init(Buffer *b) {
    b->data = b->stack;
    b->length = 0;
    b->capacity = STACK_BYTES;
}

static void buffer_release(Buffer *b) {
    if (b->data != b->stack) {
        PyMem_Free(b->data);
    }
}

static int buffer_grow(Buffer *b, Py_ssize_t more) {
    if (more > PY_SSIZE_T_MAX / 2 - b->length) {
        PyErr_NoMemory();
        return FAILED;
    }
    Py_ssize_t capacity = 2 * (b->length + more);
    char *data = PyMem_Malloc((size_t)capacity);
    if (data == NULL) {
        PyErr_NoMemory();
        return FAILED;
    }
    memcpy(data, b->data, (size_t)b->length);
    buffer_release(b);
    b->data = data;
    b->capacity = capacity;
    return WROTE;
}

/* Room for `more` bytes at the end. */
static inline int reserve(Buffer *b, Py_ssize_t more) {
    return more <= b->capacity - b->length ? WROTE : buffer_grow(b, more);
}

static inline int write_bytes(Buffer *b, const char *text, Py_ssize_t size) {
    if (reserve(b, size) != WROTE) {
        return FAILED;
    }
    memcpy(b->data + b->length, text, (size_t)size);
    b->length += size;
    return WROTE;
}

#define WRITE_LITERAL(b, text) write_bytes((b), (text), (Py_ssize_t)(sizeof(text) - 1))

/* Pass a step's result on unless it wrote. */
#define STEP(call)                 \
    do {                           \
        int step_ = (call);        \
        if (step_ != WROTE) {      \
            return step_;          \
        }                          \
    } while (0)

/* --- scalars ------------------------------------------------------------------------------ */

/* The decimal digits of v (no sign) ending at `end`; returns where they begin. */
static char *digits_before(char *end, uint64_t v) {
    do {
        *--end = (char)('0' + v % 10);
        v /= 10;
    } while (v != 0);
    return end;
}

static int write_int64(Buffer *b, long long v) {
    char text[24];
    char *end = text + sizeof text;
    uint64_t magnitude = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    char *start = digits_before(end, magnitude);
    if (v < 0) {
        *--start = '-';
    }
    return write_bytes(b, start, end - start);
}

/* An int field: an exact int (never a bool, an IntEnum or an int beyond int64). */
static int write_int(Buffer *b, PyObject *value) {
    if (!PyLong_CheckExact(value)) {
        return DECLINED;
    }
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(value, &overflow);
    if (overflow != 0) {
        return DECLINED;
    }
    return write_int64(b, v);
}

static int write_bool(Buffer *b, PyObject *value) {
    if (value == Py_True) {
        return WRITE_LITERAL(b, "true");
    }
    if (value == Py_False) {
        return WRITE_LITERAL(b, "false");
    }
    return DECLINED;
}

/* A float in msgspec's form from its shortest round-trip digits ("d1d2...dn", no leading or
 * trailing zero) and `point`, the place of the decimal point after the first digit's place
 * (the value is 0.d1d2...dn x 10^point): fixed while the point is within 16 places of the first
 * digit and at most 4 zeros follow "0.", else d1[.d2...dn]e<point-1>. */
static int write_float_digits(Buffer *b, int negative, const char *digits, int n, int point) {
    char text[48];
    int at = 0;
    if (negative) {
        text[at++] = '-';
    }
    if (point >= n && point <= 16) { /* an integer: its digits, zeros to the point, ".0" */
        memcpy(text + at, digits, (size_t)n);
        at += n;
        memset(text + at, '0', (size_t)(point - n));
        at += point - n;
        memcpy(text + at, ".0", 2);
        at += 2;
    } else if (point > 0 && point <= 16) { /* the point inside the digits */
        memcpy(text + at, digits, (size_t)point);
        at += point;
        text[at++] = '.';
        memcpy(text + at, digits + point, (size_t)(n - point));
        at += n - point;
    } else if (point > -5 && point <= 0) { /* "0." and up to 4 zeros before the digits */
        memcpy(text + at, "0.", 2);
        at += 2;
        memset(text + at, '0', (size_t)(-point));
        at += -point;
        memcpy(text + at, digits, (size_t)n);
        at += n;
    } else { /* the exponent form: no "+", no leading zero in the exponent */
        text[at++] = digits[0];
        if (n > 1) {
            text[at++] = '.';
            memcpy(text + at, digits + 1, (size_t)(n - 1));
            at += n - 1;
        }
        text[at++] = 'e';
        int exponent = point - 1;
        if (exponent < 0) {
            text[at++] = '-';
            exponent = -exponent;
        }
        char number[8];
        char *end = number + sizeof number;
        char *start = digits_before(end, (uint64_t)exponent);
        memcpy(text + at, start, (size_t)(end - start));
        at += (int)(end - start);
    }
    return write_bytes(b, text, at);
}

/* The shortest round-trip digits of a finite, non-zero double, from Python's repr (David Gay's
 * shortest digits, the closest of them, as msgspec's Ryu gives them): into `digits` (room for
 * MAX_DIGITS), their count into *n and the point's place into *point (see write_float_digits). */
#define MAX_DIGITS 24
static int shortest_digits(double x, char *digits, int *n, int *point) {
    char *repr = PyOS_double_to_string(x, 'r', 0, 0, NULL);
    if (repr == NULL) {
        return FAILED;
    }
    const char *c = repr + (repr[0] == '-');
    int count = 0, place = 0, after_point = 0, result = WROTE;
    for (; (*c >= '0' && *c <= '9') || *c == '.'; c++) {
        if (*c == '.') {
            after_point = 1;
        } else if (count == 0 && *c == '0') {
            place -= after_point; /* a zero after "0.": the first digit is a place further right */
        } else if (count == MAX_DIGITS) {
            result = DECLINED; /* more digits than a double's repr has */
            break;
        } else {
            digits[count++] = *c;
            place += !after_point;
        }
    }
    if (*c == 'e') {
        place += atoi(c + 1);
    } else if (*c != '\0') {
        result = DECLINED; /* "inf", "nan": never here, finite values only */
    }
    while (count > 0 && digits[count - 1] == '0') {
        count--; /* the trailing zeros of "1000.0": the point's place says where the digits end */
    }
    *n = count;
    *point = place;
    PyMem_Free(repr);
    return count == 0 ? DECLINED : result;
}

#define EXACT_INTEGERS 9007199254740992.0 /* 2**53: every integer below is a double, exactly */

/* A float field's value as msgspec writes float(value): an exact float, or an exact int as
 * the float it converts to; NaN and the infinities declined. */
static int write_float(Buffer *b, PyObject *value) {
    double x;
    if (PyFloat_CheckExact(value)) {
        x = PyFloat_AS_DOUBLE(value);
    } else if (PyLong_CheckExact(value)) {
        x = PyLong_AsDouble(value);
        if (x == -1.0 && PyErr_Occurred()) {
            PyErr_Clear(); /* too large for a float: the twin raises OverflowError */
            return DECLINED;
        }
    } else {
        return DECLINED;
    }
    if (!isfinite(x)) {
        return DECLINED;
    }
    if (x == 0.0) {
        return signbit(x) ? WRITE_LITERAL(b, "-0.0") : WRITE_LITERAL(b, "0.0");
    }
    if (fabs(x) < EXACT_INTEGERS && x == trunc(x)) {
        /* An integer below 2**53: its shortest digits are its own (no other number of as few
         * digits lies within half a unit of it), fixed form as it has at most 16 digits. */
        STEP(write_int64(b, (long long)x));
        return WRITE_LITERAL(b, ".0");
    }
    char digits[MAX_DIGITS];
    int n = 0, point = 0;
    STEP(shortest_digits(x, digits, &n, &point));
    return write_float_digits(b, signbit(x), digits, n, point);
}

/* --- strings ------------------------------------------------------------------------------ */

static const char HEX[] = "0123456789abcdef";

static inline int needs_escape(unsigned char c) {
    return c < 0x20 || c == '"' || c == '\\';
}

/* The escape of a byte that needs one (see needs_escape), as msgspec writes it: a short
 * escape where JSON has one, else \u00XX; returns its length. DEL and every byte of a
 * multi-byte character are written as they are. */
static int escape_of(unsigned char c, char out[6]) {
    switch (c) {
    case '"': memcpy(out, "\\\"", 2); return 2;
    case '\\': memcpy(out, "\\\\", 2); return 2;
    case '\b': memcpy(out, "\\b", 2); return 2;
    case '\t': memcpy(out, "\\t", 2); return 2;
    case '\n': memcpy(out, "\\n", 2); return 2;
    case '\f': memcpy(out, "\\f", 2); return 2;
    case '\r': memcpy(out, "\\r", 2); return 2;
    default:
        memcpy(out, "\\u00", 4);
        out[4] = HEX[c >> 4];
        out[5] = HEX[c & 15];
        return 6;
    }
}

#define ONES 0x0101010101010101ULL
#define HIGHS 0x8080808080808080ULL

/* Whether a zero byte is among a word's eight (exact for its presence). */
static inline uint64_t has_zero_byte(uint64_t w) {
    return (w - ONES) & ~w & HIGHS;
}

/* Whether one of eight bytes needs an escape: below 0x20 (exact, as 0x20 <= 0x80), '"', '\\'. */
static inline int word_needs_escape(uint64_t w) {
    uint64_t below = (w - ONES * 0x20) & ~w & HIGHS;
    return (below | has_zero_byte(w ^ (ONES * '"')) | has_zero_byte(w ^ (ONES * '\\'))) != 0;
}

/* How many bytes from the start of text need no escape, eight at a time while it can. */
static Py_ssize_t clean_run(const char *text, Py_ssize_t size) {
    Py_ssize_t i = 0;
    for (; i + 8 <= size; i += 8) {
        uint64_t w;
        memcpy(&w, text + i, 8);
        if (word_needs_escape(w)) {
            break;
        }
    }
    while (i < size && !needs_escape((unsigned char)text[i])) {
        i++;
    }
    return i;
}

static int write_escaped(Buffer *b, const char *text, Py_ssize_t size) {
    STEP(WRITE_LITERAL(b, "\""));
    while (size > 0) {
        Py_ssize_t run = clean_run(text, size);
        STEP(write_bytes(b, text, run));
        if (run == size) {
            break;
        }
        char escape[6];
        STEP(write_bytes(b, escape, escape_of((unsigned char)text[run], escape)));
        text += run + 1;
        size -= run + 1;
    }
    return WRITE_LITERAL(b, "\"");
}

/* A string field: an exact str that UTF-8 can hold, written raw but for its escapes. */
static int write_string(Buffer *b, PyObject *value) {
    if (!PyUnicode_CheckExact(value)) {
        return DECLINED;
    }
    Py_ssize_t size;
    const char *text;
    if (PyUnicode_IS_ASCII(value)) {
        text = (const char *)PyUnicode_DATA(value);
        size = PyUnicode_GET_LENGTH(value);
    } else {
        text = PyUnicode_AsUTF8AndSize(value, &size);
        if (text == NULL) {
            if (!PyErr_ExceptionMatches(PyExc_UnicodeEncodeError)) {
                return FAILED;
            }
            PyErr_Clear(); /* a lone surrogate: the twin writes the line escaped */
            return DECLINED;
        }
    }
    return write_escaped(b, text, size);
}

/* An enum field: its name's JSON text from a table built at import. */
static int write_name(Buffer *b, PyObject *table, PyObject *value) {
    if (!PyLong_Check(value) || PyBool_Check(value)) {
        return DECLINED;
    }
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(value, &overflow);
    if (overflow != 0 || v < 0 || v >= PyTuple_GET_SIZE(table)) {
        return DECLINED; /* the twin's list index would take a negative value from the end */
    }
    PyObject *name = PyTuple_GET_ITEM(table, (Py_ssize_t)v);
    if (name == Py_None) {
        return DECLINED;
    }
    return write_bytes(b, PyBytes_AS_STRING(name), PyBytes_GET_SIZE(name));
}

/* --- the answer's shape: each object's keys in the dict's order and what each holds ------- */

typedef enum {
    INT,             /* an exact int */
    BOOL,            /* True or False */
    FLOAT,           /* written as msgspec writes float(value) */
    STRING,          /* an exact str */
    NAME,            /* an enum value, by its name in `table` */
    NAMES,           /* a tuple of enum values, named by `table` */
    FLOATS,          /* a tuple of `size` floats */
    OBJECTS,         /* a tuple of objects of `shape` */
    OPTIONAL_OBJECT, /* an object of `shape`, or None: then not even its key is written */
    ENGINE_VERSION,  /* no field: rules_core.version.ENGINE_VERSION */
} Kind;

typedef struct Shape Shape;

typedef struct {
    const char *key; /* the key's JSON text, its colon included */
    Py_ssize_t key_size;
    Kind kind;
    int field;          /* the value's index in its named tuple */
    int table;          /* NAME, NAMES: the table naming it */
    Py_ssize_t size;    /* FLOATS: how many there are */
    const Shape *shape; /* OBJECTS, OPTIONAL_OBJECT: their elements' */
} Member;

struct Shape {
    int type;          /* TYPE_*: the core type an object of this shape is, exactly */
    Py_ssize_t fields; /* that named tuple's length */
    const Member *members;
    int count;
};

#define KEY(name) "\"" name "\":", (Py_ssize_t)(sizeof("\"" name "\":") - 1)
#define MEMBERS(array) array, (int)(sizeof(array) / sizeof(array[0]))

static const Member ITEM_MEMBERS[] = {
    {KEY("kind"), NAME, I_KIND, .table = TABLE_ITEM_KIND},
    {KEY("code"), STRING, I_CODE},
    {KEY("nameZh"), STRING, I_NAME_ZH},
    {KEY("nameEn"), STRING, I_NAME_EN},
    {KEY("contribution"), FLOAT, I_CONTRIBUTION},
    {KEY("count"), INT, I_COUNT},
};
static const Shape ITEM = {TYPE_ITEM, I_SIZE, MEMBERS(ITEM_MEMBERS)};

static const Member WINNER_MEMBERS[] = {
    {KEY("seat"), INT, W_SEAT},
    {KEY("legal"), BOOL, W_LEGAL},
    {KEY("illegalReasons"), NAMES, W_ILLEGAL_REASONS, .table = TABLE_ILLEGAL},
    {KEY("patterns"), NAMES, W_PATTERNS, .table = TABLE_PATTERN},
    {KEY("flowers"), INT, W_FLOWERS},
    {KEY("items"), OBJECTS, W_ITEMS, .shape = &ITEM},
    {KEY("baseValue"), FLOAT, W_BASE_VALUE},
    {KEY("value"), FLOAT, W_VALUE},
};
static const Shape WINNER = {TYPE_WINNER, W_SIZE, MEMBERS(WINNER_MEMBERS)};

static const Member PAYMENT_MEMBERS[] = {
    {KEY("fromSeat"), INT, P_FROM_SEAT},
    {KEY("toSeat"), INT, P_TO_SEAT},
    {KEY("amount"), FLOAT, P_AMOUNT},
    {KEY("reason"), NAME, P_REASON, .table = TABLE_PAYMENT},
};
static const Shape PAYMENT = {TYPE_PAYMENT, P_SIZE, MEMBERS(PAYMENT_MEMBERS)};

static const Member NEXT_HAND_MEMBERS[] = {
    {KEY("dealerSeat"), INT, H_DEALER_SEAT},
    {KEY("huangfanCount"), INT, H_HUANGFAN_COUNT},
};
static const Shape NEXT_HAND = {TYPE_NEXT_HAND, H_SIZE, MEMBERS(NEXT_HAND_MEMBERS)};

static const Member PENALTY_MEMBERS[] = {
    {KEY("seat"), INT, N_SEAT},
    {KEY("amount"), FLOAT, N_AMOUNT},
    {KEY("reason"), NAME, N_REASON, .table = TABLE_PENALTY},
};
static const Shape PENALTY = {TYPE_PENALTY, N_SIZE, MEMBERS(PENALTY_MEMBERS)};

static const Member SETTLE_MEMBERS[] = {
    {KEY("requestId"), STRING, S_REQUEST_ID},
    {KEY("profile"), STRING, S_PROFILE},
    {KEY("unit"), NAME, S_UNIT, .table = TABLE_UNIT},
    {KEY("winners"), OBJECTS, S_WINNERS, .shape = &WINNER},
    {KEY("payments"), OBJECTS, S_PAYMENTS, .shape = &PAYMENT},
    {KEY("seatDeltas"), FLOATS, S_SEAT_DELTAS, .size = SEATS}, /* as the core's type (and its compiled twin) says */
    {KEY("nextHand"), OPTIONAL_OBJECT, S_NEXT_HAND, .shape = &NEXT_HAND},
    {KEY("penalties"), OBJECTS, S_PENALTIES, .shape = &PENALTY},
    {KEY("huangfanAfterDice"), INT, S_HUANGFAN_AFTER_DICE},
    {KEY("engineVersion"), ENGINE_VERSION},
    {KEY("profileDigest"), STRING, S_PROFILE_DIGEST},
};
static const Shape SETTLE = {TYPE_SETTLE, S_SIZE, MEMBERS(SETTLE_MEMBERS)};

/* --- writing an object by its shape (its depth is the shapes', fixed: SETTLE > WINNER > ITEM) */

/* The fields of a core named tuple, NULL unless `value` is exactly of `type`, with `size` of them. */
static PyObject *const *fields_of(PyObject *value, PyTypeObject *type, Py_ssize_t size) {
    if (Py_TYPE(value) != type || PyTuple_GET_SIZE(value) != size) {
        return NULL;
    }
    return ((PyTupleObject *)value)->ob_item;
}

static int write_object(Buffer *b, const State *state, const Shape *shape, PyObject *value);

static int write_element(Buffer *b, const State *state, const Member *m, PyObject *element) {
    switch (m->kind) {
    case NAMES: return write_name(b, state->names[m->table], element);
    case FLOATS: return write_float(b, element);
    default: return write_object(b, state, m->shape, element);
    }
}

/* A JSON array of a tuple's elements (exactly m->size of them where it is given). */
static int write_array(Buffer *b, const State *state, const Member *m, PyObject *elements) {
    if (!PyTuple_CheckExact(elements) || (m->size > 0 && PyTuple_GET_SIZE(elements) != m->size)) {
        return DECLINED;
    }
    STEP(WRITE_LITERAL(b, "["));
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(elements); i++) {
        if (i > 0) {
            STEP(WRITE_LITERAL(b, ","));
        }
        STEP(write_element(b, state, m, PyTuple_GET_ITEM(elements, i)));
    }
    return WRITE_LITERAL(b, "]");
}

static int write_value(Buffer *b, const State *state, const Member *m, PyObject *value) {
    switch (m->kind) {
    case INT: return write_int(b, value);
    case BOOL: return write_bool(b, value);
    case FLOAT: return write_float(b, value);
    case STRING: return write_string(b, value);
    case NAME: return write_name(b, state->names[m->table], value);
    case NAMES:
    case FLOATS:
    case OBJECTS: return write_array(b, state, m, value);
    case OPTIONAL_OBJECT: return write_object(b, state, m->shape, value);
    case ENGINE_VERSION:
        return write_bytes(b, PyBytes_AS_STRING(state->engine_version), PyBytes_GET_SIZE(state->engine_version));
    }
    return DECLINED;
}

static int write_object(Buffer *b, const State *state, const Shape *shape, PyObject *value) {
    PyObject *const *fields = fields_of(value, state->types[shape->type], shape->fields);
    if (fields == NULL) {
        return DECLINED;
    }
    int first = 1;
    for (int i = 0; i < shape->count; i++) {
        const Member *m = &shape->members[i];
        PyObject *field = m->kind == ENGINE_VERSION ? NULL : fields[m->field];
        if (m->kind == OPTIONAL_OBJECT && field == Py_None) {
            continue;
        }
        STEP(write_bytes(b, first ? "{" : ",", 1));
        STEP(write_bytes(b, m->key, m->key_size));
        STEP(write_value(b, state, m, field));
        first = 0;
    }
    return WRITE_LITERAL(b, "}");
}

static int write_answer(Buffer *b, const State *state, PyObject *result) {
    STEP(write_object(b, state, &SETTLE, result));
    return WRITE_LITERAL(b, "\n");
}

/* --- the counts: count_answer's additions for a result whose line was written ------------- */

typedef struct {
    PyObject *entries[COUNT_KEYS]; /* borrowed: the counts' ints and dicts */
    PyObject *engine_answers;      /* borrowed: engine_versions[ENGINE_VERSION], or NULL */
} Counts;

/* The entries count_answer adds to, checked before any is changed: DECLINED unless `counts`
 * is a dict holding each, the three counts exact ints and the two tables dicts. */
static int counts_of(const State *state, PyObject *counts, Counts *c) {
    if (!PyDict_CheckExact(counts)) {
        return DECLINED;
    }
    for (int i = 0; i < COUNT_KEYS; i++) {
        c->entries[i] = PyDict_GetItemWithError(counts, state->count_keys[i]);
        if (c->entries[i] == NULL) {
            return PyErr_Occurred() ? FAILED : DECLINED;
        }
        int is_table = i == COUNT_ENGINES || i == COUNT_DIGESTS;
        if (is_table ? !PyDict_CheckExact(c->entries[i]) : !PyLong_CheckExact(c->entries[i])) {
            return DECLINED;
        }
    }
    c->engine_answers = PyDict_GetItemWithError(c->entries[COUNT_ENGINES], state->engine_version_text);
    if (c->engine_answers == NULL && PyErr_Occurred()) {
        return FAILED;
    }
    return c->engine_answers == NULL || PyLong_CheckExact(c->engine_answers) ? WROTE : DECLINED;
}

/* dict[key] = count + more (count an exact int, or NULL for 0). */
static int add_count(PyObject *dict, PyObject *key, PyObject *count, Py_ssize_t more) {
    PyObject *addend = PyLong_FromSsize_t(more);
    if (addend == NULL) {
        return FAILED;
    }
    PyObject *sum = count == NULL ? Py_NewRef(addend) : PyNumber_Add(count, addend);
    Py_DECREF(addend);
    if (sum == NULL) {
        return FAILED;
    }
    int set = PyDict_SetItem(dict, key, sum);
    Py_DECREF(sum);
    return set < 0 ? FAILED : WROTE;
}

/* count_answer(counts, result) for a result written whole (its fields checked): settled,
 * the engine's answers, the profile by its digest, the legal and the illegal wins. */
static int add_counts(const State *state, PyObject *counts, PyObject *result) {
    Counts c;
    STEP(counts_of(state, counts, &c));
    PyObject *const *f = ((PyTupleObject *)result)->ob_item;
    Py_ssize_t legal = 0, winners = PyTuple_GET_SIZE(f[S_WINNERS]);
    for (Py_ssize_t i = 0; i < winners; i++) {
        legal += ((PyTupleObject *)PyTuple_GET_ITEM(f[S_WINNERS], i))->ob_item[W_LEGAL] == Py_True;
    }
    PyObject *const *keys = state->count_keys;
    STEP(add_count(counts, keys[COUNT_SETTLED], c.entries[COUNT_SETTLED], 1));
    STEP(add_count(c.entries[COUNT_ENGINES], state->engine_version_text, c.engine_answers, 1));
    if (PyUnicode_GET_LENGTH(f[S_PROFILE_DIGEST]) > 0
        && PyDict_SetItem(c.entries[COUNT_DIGESTS], f[S_PROFILE_DIGEST], f[S_PROFILE]) < 0) {
        return FAILED;
    }
    if (legal > 0) {
        STEP(add_count(counts, keys[COUNT_LEGAL], c.entries[COUNT_LEGAL], legal));
    }
    if (winners > legal) {
        STEP(add_count(counts, keys[COUNT_ILLEGAL], c.entries[COUNT_ILLEGAL], winners - legal));
    }
    return WROTE;
}

/* --- the module --------------------------------------------------------------------------- */

/* The line of `result` (bytes), None where it declines, NULL with the error raised; added to
 * `counts` as count_answer adds when `counts` is not NULL (and only when the line is written). */
static PyObject *line_of(const State *state, PyObject *result, PyObject *counts) {
    Buffer b;
    buffer_init(&b);
    int wrote = write_answer(&b, state, result);
    if (wrote == WROTE && counts != NULL) {
        wrote = add_counts(state, counts, result);
    }
    PyObject *line = NULL;
    if (wrote == WROTE) {
        line = PyBytes_FromStringAndSize(b.data, b.length);
    } else if (wrote == DECLINED) {
        line = Py_NewRef(Py_None);
    }
    buffer_release(&b);
    return line;
}

static PyObject *settle_line(PyObject *module, PyObject *result) {
    return line_of(PyModule_GetState(module), result, NULL);
}

static PyObject *counted_line(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "counted_line() takes a result and the counts (%zd given)", nargs);
        return NULL;
    }
    return line_of(PyModule_GetState(module), args[0], args[1]);
}

/* The JSON text of a name (bytes, quoted), as write_string writes it. */
static PyObject *encoded_string(PyObject *text) {
    Buffer b;
    buffer_init(&b);
    int wrote = write_string(&b, text);
    PyObject *out = NULL;
    if (wrote == WROTE) {
        out = PyBytes_FromStringAndSize(b.data, b.length);
    } else if (wrote == DECLINED) {
        PyErr_Format(PyExc_ImportError, "json_answer: %R is not a str UTF-8 can hold", text);
    }
    buffer_release(&b);
    return out;
}

/* A table of json_write (a list of str) as a tuple of their JSON texts, None for "" (a value
 * with no member). */
static PyObject *encoded_table(PyObject *json_write, const char *name) {
    PyObject *list = PyObject_GetAttrString(json_write, name);
    if (list == NULL) {
        return NULL;
    }
    PyObject *out = NULL;
    if (!PyList_CheckExact(list)) {
        PyErr_Format(PyExc_ImportError, "json_answer: convert.json_write.%s is not a list", name);
        goto done;
    }
    out = PyTuple_New(PyList_GET_SIZE(list));
    if (out == NULL) {
        goto done;
    }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(list); i++) {
        PyObject *entry = PyList_GET_ITEM(list, i);
        if (!PyUnicode_CheckExact(entry)) {
            PyErr_Format(PyExc_ImportError, "json_answer: convert.json_write.%s[%zd] is not a str", name, i);
            Py_CLEAR(out);
            goto done;
        }
        PyObject *text = PyUnicode_GET_LENGTH(entry) == 0 ? Py_NewRef(Py_None) : encoded_string(entry);
        if (text == NULL) {
            Py_CLEAR(out);
            goto done;
        }
        PyTuple_SET_ITEM(out, i, text);
    }
done:
    Py_DECREF(list);
    return out;
}

/* The core type `name` of rules_core.results, its _fields checked against `fields`. */
static PyTypeObject *core_type(PyObject *results, const char *name, const char *const *fields) {
    PyObject *type = PyObject_GetAttrString(results, name);
    if (type == NULL) {
        return NULL;
    }
    PyObject *found = PyType_Check(type) ? PyObject_GetAttrString(type, "_fields") : NULL;
    PyObject *expected = PyList_New(0);
    int same = 0;
    if (found != NULL && expected != NULL) {
        for (const char *const *field = fields; *field != NULL; field++) {
            PyObject *text = PyUnicode_FromString(*field);
            if (text == NULL || PyList_Append(expected, text) < 0) {
                Py_XDECREF(text);
                goto done;
            }
            Py_DECREF(text);
        }
        PyObject *as_tuple = PyList_AsTuple(expected);
        if (as_tuple == NULL) {
            goto done;
        }
        same = PyObject_RichCompareBool(found, as_tuple, Py_EQ);
        if (same == 0) {
            PyErr_Format(PyExc_ImportError,
                         "json_answer: rules_core.results.%s._fields is %R, the writer reads %R", name, found,
                         as_tuple);
        }
        Py_DECREF(as_tuple);
    } else {
        PyErr_Clear();
        PyErr_Format(PyExc_ImportError, "json_answer: rules_core.results.%s is not a named tuple", name);
    }
done:
    Py_XDECREF(found);
    Py_XDECREF(expected);
    if (same != 1) {
        Py_DECREF(type);
        return NULL;
    }
    return (PyTypeObject *)type;
}

static int load_types(State *state) {
    PyObject *results = PyImport_ImportModule("rules_core.results");
    if (results == NULL) {
        return FAILED;
    }
    int status = WROTE;
    for (int i = 0; i < TYPES && status == WROTE; i++) {
        state->types[i] = core_type(results, TYPE_NAMES[i], TYPE_FIELDS[i]);
        status = state->types[i] == NULL ? FAILED : WROTE;
    }
    Py_DECREF(results);
    return status;
}

static int load_names(State *state) {
    PyObject *json_write = PyImport_ImportModule("convert.json_write");
    if (json_write == NULL) {
        return FAILED;
    }
    int status = WROTE;
    for (int i = 0; i < TABLES && status == WROTE; i++) {
        state->names[i] = encoded_table(json_write, TABLE_NAMES[i]);
        status = state->names[i] == NULL ? FAILED : WROTE;
    }
    Py_DECREF(json_write);
    return status;
}

static int load_engine_version(State *state) {
    PyObject *version = PyImport_ImportModule("rules_core.version");
    if (version == NULL) {
        return FAILED;
    }
    PyObject *text = PyObject_GetAttrString(version, "ENGINE_VERSION");
    Py_DECREF(version);
    if (text == NULL) {
        return FAILED;
    }
    if (!PyUnicode_CheckExact(text)) {
        PyErr_SetString(PyExc_ImportError, "json_answer: rules_core.version.ENGINE_VERSION is not a str");
        Py_DECREF(text);
        return FAILED;
    }
    state->engine_version_text = text;
    state->engine_version = encoded_string(text);
    return state->engine_version == NULL ? FAILED : WROTE;
}

static int load_count_keys(State *state) {
    for (int i = 0; i < COUNT_KEYS; i++) {
        state->count_keys[i] = PyUnicode_InternFromString(COUNT_KEY_NAMES[i]);
        if (state->count_keys[i] == NULL) {
            return FAILED;
        }
    }
    return WROTE;
}

static int module_exec(PyObject *module) {
    State *state = PyModule_GetState(module);
    if (load_types(state) != WROTE || load_names(state) != WROTE || load_engine_version(state) != WROTE
        || load_count_keys(state) != WROTE) {
        return -1;
    }
    return 0;
}

static int module_traverse(PyObject *module, visitproc visit, void *arg) {
    State *state = PyModule_GetState(module);
    if (state == NULL) {
        return 0;
    }
    for (int i = 0; i < TYPES; i++) {
        Py_VISIT(state->types[i]);
    }
    for (int i = 0; i < TABLES; i++) {
        Py_VISIT(state->names[i]);
    }
    Py_VISIT(state->engine_version);
    Py_VISIT(state->engine_version_text);
    for (int i = 0; i < COUNT_KEYS; i++) {
        Py_VISIT(state->count_keys[i]);
    }
    return 0;
}

static int module_clear(PyObject *module) {
    State *state = PyModule_GetState(module);
    if (state == NULL) {
        return 0;
    }
    for (int i = 0; i < TYPES; i++) {
        Py_CLEAR(state->types[i]);
    }
    for (int i = 0; i < TABLES; i++) {
        Py_CLEAR(state->names[i]);
    }
    Py_CLEAR(state->engine_version);
    Py_CLEAR(state->engine_version_text);
    for (int i = 0; i < COUNT_KEYS; i++) {
        Py_CLEAR(state->count_keys[i]);
    }
    return 0;
}

static void module_free(void *module) {
    module_clear((PyObject *)module);
}

PyDoc_STRVAR(settle_line_doc,
             "settle_line(result, /)\n--\n\n"
             "A rules_core.results.SettleResult's JSON Lines output line (bytes, newline included),\n"
             "byte for byte batch.records.output_line(settle_response_dict(result)); None where it\n"
             "declines (a value not as the core builds it, an enum outside its table, a non-finite\n"
             "float, a string UTF-8 cannot hold): the caller then takes that Python path.");

PyDoc_STRVAR(counted_line_doc,
             "counted_line(result, counts, /)\n--\n\n"
             "settle_line(result), and the result added to counts (batch.records.new_counts) as\n"
             "batch.records.count_answer adds it, only where the line is written; None, counts\n"
             "unchanged, where it declines the result or the counts are not as new_counts makes them.");

static PyMethodDef methods[] = {
    {"settle_line", settle_line, METH_O, settle_line_doc},
    {"counted_line", (PyCFunction)(void (*)(void))counted_line, METH_FASTCALL, counted_line_doc},
    {NULL, NULL, 0, NULL},
};

static PyModuleDef_Slot slots[] = {
    {Py_mod_exec, module_exec},
    {0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "batch.native.json_answer",
    .m_doc = "A settled answer's JSON Lines line, written in C (the twin: "
             "batch.records.output_line(convert.json_write.settle_response_dict(result))).",
    .m_size = sizeof(State),
    .m_methods = methods,
    .m_slots = slots,
    .m_traverse = module_traverse,
    .m_clear = module_clear,
    .m_free = module_free,
};

PyMODINIT_FUNC PyInit_json_answer(void) {
    return PyModuleDef_Init(&module_def);
}
