/* batch.native.arrow_results: a batch's result columns written from rules_core's results.

   Reads:   a list (or tuple) of answers, each a rules_core.results.SettleResult (its nested
            WinnerResult, ValueItem, Payment, Penalty and NextHand named tuples, indexed as their
            _fields say, checked at import) or an error record (a dict of "requestId" and
            "error": code, message, fieldViolations, reason and metadata, as
            convert.json_write.error_record writes it).
   Writes:  the buffers of the columns of batch.arrow_results.CORE_TYPE (the result's columns
            with each enum as its member's number, which Python then names by a take), of
            engine_version and of error: each array's validity, int32 offsets, values or UTF-8
            data, as bytearrays, in the order pyarrow's Array.buffers() lists them (LAYOUT names
            each place; None where that array has no buffer of its own). An error row is the
            answer's fields at their defaults (unit 0, lists empty, no next hand, no version)
            and its error; an answer's error is null, and so its fields.
   Declines (returns None) on anything it is not sure of: an answer of another type, a field
            of another type than the core writes (a list where a tuple is, a float or a bool
            where an int is, an int beyond int32, or beyond 2**53 where a double is), an enum
            number with no name in convert.json_write's table of it, a string that is not
            UTF-8, a record with a key or value of another kind than an error record's (a hand
            record's answer), a column over int32 offsets. The caller then takes the Python path.
   Twin:    batch.arrow_results.python_answers_batch (Arrow's conversion of the same results);
            tests/batch/test_native_arrow_results.py holds the two batches equal.

   Nothing here recurses: each nesting of the result has its own function, depth fixed; nothing
   here runs Python code. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <string.h>

#define WRITTEN 0
#define DECLINED 1
#define FAILED (-1)

/* A number written as a double only while it is one exactly (pyarrow refuses larger ints). */
#define EXACT_DOUBLE_INT (1LL << 53)
#define MAX_NAMES 64
/* A builder's first capacity, in rows (its buffers grow past it as rows come). */
#define ROWS_HINT_MAX 1000000

/* ---- the buffers, in Array.buffers() order ------------------------------------------------ */

/* BUFFER(id, slot) a buffer written here; SHARED(id, slot) the same buffer in another place (the
   error's fields are null where it is: one bitmap); NONE(slot) an array's buffer that stays None. */
#define SLOTS(BUFFER, SHARED, NONE)                                                        \
    BUFFER(REQUEST_ID_VALIDITY, "request_id/validity")                             \
    BUFFER(REQUEST_ID_OFFSETS, "request_id/offsets")                               \
    BUFFER(REQUEST_ID_DATA, "request_id/data")                                     \
    NONE("profile/validity")                                                       \
    BUFFER(PROFILE_OFFSETS, "profile/offsets")                                     \
    BUFFER(PROFILE_DATA, "profile/data")                                           \
    NONE("unit/validity")                                                          \
    BUFFER(UNIT, "unit/values")                                                    \
    NONE("winners/validity")                                                       \
    BUFFER(WINNERS_OFFSETS, "winners/offsets")                                     \
    NONE("winners.item/validity")                                                  \
    NONE("winners.item.seat/validity")                                             \
    BUFFER(WINNER_SEAT, "winners.item.seat/values")                                \
    NONE("winners.item.legal/validity")                                            \
    BUFFER(WINNER_LEGAL, "winners.item.legal/values")                              \
    NONE("winners.item.illegal_reasons/validity")                                  \
    BUFFER(ILLEGAL_REASONS_OFFSETS, "winners.item.illegal_reasons/offsets")        \
    NONE("winners.item.illegal_reasons.item/validity")                             \
    BUFFER(ILLEGAL_REASON, "winners.item.illegal_reasons.item/values")             \
    NONE("winners.item.patterns/validity")                                         \
    BUFFER(PATTERNS_OFFSETS, "winners.item.patterns/offsets")                      \
    NONE("winners.item.patterns.item/validity")                                    \
    BUFFER(PATTERN, "winners.item.patterns.item/values")                           \
    NONE("winners.item.flowers/validity")                                          \
    BUFFER(WINNER_FLOWERS, "winners.item.flowers/values")                          \
    NONE("winners.item.items/validity")                                            \
    BUFFER(ITEMS_OFFSETS, "winners.item.items/offsets")                            \
    NONE("winners.item.items.item/validity")                                       \
    NONE("winners.item.items.item.kind/validity")                                  \
    BUFFER(ITEM_KIND, "winners.item.items.item.kind/values")                       \
    NONE("winners.item.items.item.code/validity")                                  \
    BUFFER(ITEM_CODE_OFFSETS, "winners.item.items.item.code/offsets")              \
    BUFFER(ITEM_CODE_DATA, "winners.item.items.item.code/data")                    \
    NONE("winners.item.items.item.name_zh/validity")                               \
    BUFFER(ITEM_NAME_ZH_OFFSETS, "winners.item.items.item.name_zh/offsets")        \
    BUFFER(ITEM_NAME_ZH_DATA, "winners.item.items.item.name_zh/data")              \
    NONE("winners.item.items.item.name_en/validity")                               \
    BUFFER(ITEM_NAME_EN_OFFSETS, "winners.item.items.item.name_en/offsets")        \
    BUFFER(ITEM_NAME_EN_DATA, "winners.item.items.item.name_en/data")              \
    NONE("winners.item.items.item.contribution/validity")                          \
    BUFFER(ITEM_CONTRIBUTION, "winners.item.items.item.contribution/values")       \
    NONE("winners.item.items.item.count/validity")                                 \
    BUFFER(ITEM_COUNT, "winners.item.items.item.count/values")                     \
    NONE("winners.item.base_value/validity")                                       \
    BUFFER(WINNER_BASE_VALUE, "winners.item.base_value/values")                    \
    NONE("winners.item.value/validity")                                            \
    BUFFER(WINNER_VALUE, "winners.item.value/values")                              \
    NONE("payments/validity")                                                      \
    BUFFER(PAYMENTS_OFFSETS, "payments/offsets")                                   \
    NONE("payments.item/validity")                                                 \
    NONE("payments.item.from_seat/validity")                                       \
    BUFFER(PAYMENT_FROM_SEAT, "payments.item.from_seat/values")                    \
    NONE("payments.item.to_seat/validity")                                         \
    BUFFER(PAYMENT_TO_SEAT, "payments.item.to_seat/values")                        \
    NONE("payments.item.amount/validity")                                          \
    BUFFER(PAYMENT_AMOUNT, "payments.item.amount/values")                          \
    NONE("payments.item.reason/validity")                                          \
    BUFFER(PAYMENT_REASON, "payments.item.reason/values")                          \
    NONE("seat_deltas/validity")                                                   \
    BUFFER(SEAT_DELTAS_OFFSETS, "seat_deltas/offsets")                             \
    NONE("seat_deltas.item/validity")                                              \
    BUFFER(SEAT_DELTA, "seat_deltas.item/values")                                  \
    BUFFER(NEXT_HAND_VALIDITY, "next_hand/validity")                               \
    NONE("next_hand.dealer_seat/validity")                                         \
    BUFFER(NEXT_DEALER_SEAT, "next_hand.dealer_seat/values")                       \
    NONE("next_hand.huangfan_count/validity")                                      \
    BUFFER(NEXT_HUANGFAN_COUNT, "next_hand.huangfan_count/values")                 \
    NONE("penalties/validity")                                                     \
    BUFFER(PENALTIES_OFFSETS, "penalties/offsets")                                 \
    NONE("penalties.item/validity")                                                \
    NONE("penalties.item.seat/validity")                                           \
    BUFFER(PENALTY_SEAT, "penalties.item.seat/values")                             \
    NONE("penalties.item.amount/validity")                                         \
    BUFFER(PENALTY_AMOUNT, "penalties.item.amount/values")                         \
    NONE("penalties.item.reason/validity")                                         \
    BUFFER(PENALTY_REASON, "penalties.item.reason/values")                         \
    NONE("huangfan_after_dice/validity")                                           \
    BUFFER(HUANGFAN_AFTER_DICE, "huangfan_after_dice/values")                      \
    NONE("profile_digest/validity")                                                \
    BUFFER(PROFILE_DIGEST_OFFSETS, "profile_digest/offsets")                       \
    BUFFER(PROFILE_DIGEST_DATA, "profile_digest/data") \
    NONE("engine_version/validity")                                                \
    BUFFER(ENGINE_VERSION_OFFSETS, "engine_version/offsets")                       \
    BUFFER(ENGINE_VERSION_DATA, "engine_version/data")                             \
    BUFFER(ERROR_VALIDITY, "error/validity")                                       \
    SHARED(ERROR_VALIDITY, "error.code/validity")                                  \
    BUFFER(ERROR_CODE_OFFSETS, "error.code/offsets")                               \
    BUFFER(ERROR_CODE_DATA, "error.code/data")                                     \
    SHARED(ERROR_VALIDITY, "error.message/validity")                               \
    BUFFER(ERROR_MESSAGE_OFFSETS, "error.message/offsets")                         \
    BUFFER(ERROR_MESSAGE_DATA, "error.message/data")                               \
    SHARED(ERROR_VALIDITY, "error.field_violations/validity")                      \
    BUFFER(VIOLATIONS_OFFSETS, "error.field_violations/offsets")                   \
    NONE("error.field_violations.item/validity")                                   \
    NONE("error.field_violations.item.field/validity")                             \
    BUFFER(VIOLATION_FIELD_OFFSETS, "error.field_violations.item.field/offsets")   \
    BUFFER(VIOLATION_FIELD_DATA, "error.field_violations.item.field/data")         \
    NONE("error.field_violations.item.description/validity")                       \
    BUFFER(VIOLATION_TEXT_OFFSETS, "error.field_violations.item.description/offsets") \
    BUFFER(VIOLATION_TEXT_DATA, "error.field_violations.item.description/data")    \
    SHARED(ERROR_VALIDITY, "error.reason/validity")                                \
    BUFFER(ERROR_REASON_OFFSETS, "error.reason/offsets")                           \
    BUFFER(ERROR_REASON_DATA, "error.reason/data")                                 \
    SHARED(ERROR_VALIDITY, "error.metadata/validity")                              \
    BUFFER(METADATA_OFFSETS, "error.metadata/offsets")                             \
    NONE("error.metadata.item/validity")                                           \
    NONE("error.metadata.item.key/validity")                                       \
    BUFFER(METADATA_KEY_OFFSETS, "error.metadata.item.key/offsets")                \
    BUFFER(METADATA_KEY_DATA, "error.metadata.item.key/data")                      \
    NONE("error.metadata.item.value/validity")                                     \
    BUFFER(METADATA_VALUE_OFFSETS, "error.metadata.item.value/offsets")            \
    BUFFER(METADATA_VALUE_DATA, "error.metadata.item.value/data")

#define AS_ID(id, slot) id,
#define NO_ID(id, slot)
#define NO_SLOT(slot)
enum Buffer { SLOTS(AS_ID, NO_ID, NO_SLOT) N_BUFFERS };

typedef struct {
    const char *name;
    int buffer; /* -1: None */
} Slot;

#define AS_SLOT(id, slot) {slot, id},
#define NONE_SLOT(slot) {slot, -1},
static const Slot LAYOUT[] = {SLOTS(AS_SLOT, AS_SLOT, NONE_SLOT)};
#define N_SLOTS ((Py_ssize_t)(sizeof(LAYOUT) / sizeof(LAYOUT[0])))

/* ---- the core types and name tables, taken from Python at import --------------------------- */

enum Type { SETTLE_RESULT, WINNER_RESULT, VALUE_ITEM, PAYMENT, PENALTY, NEXT_HAND, N_TYPES };

/* Each type's fields in the order the writers below index them. */
enum { R_REQUEST_ID, R_PROFILE, R_UNIT, R_WINNERS, R_PAYMENTS, R_SEAT_DELTAS, R_NEXT_HAND, R_PENALTIES,
       R_HUANGFAN_AFTER_DICE, R_PROFILE_DIGEST, R_FIELDS };
enum { W_SEAT, W_LEGAL, W_ILLEGAL_REASONS, W_PATTERNS, W_FLOWERS, W_ITEMS, W_BASE_VALUE, W_VALUE, W_FIELDS };
enum { I_KIND, I_CODE, I_NAME_ZH, I_NAME_EN, I_CONTRIBUTION, I_COUNT, I_FIELDS };
enum { P_FROM_SEAT, P_TO_SEAT, P_AMOUNT, P_REASON, P_FIELDS };
enum { PE_SEAT, PE_AMOUNT, PE_REASON, PE_FIELDS };
enum { N_DEALER_SEAT, N_HUANGFAN_COUNT, N_FIELDS };

typedef struct {
    const char *name;
    Py_ssize_t size;
    const char *fields[R_FIELDS];
} TypeSpec;

static const TypeSpec TYPES[N_TYPES] = {
    {"SettleResult", R_FIELDS,
     {"request_id", "profile", "unit", "winners", "payments", "seat_deltas", "next_hand", "penalties",
      "huangfan_after_dice", "profile_digest"}},
    {"WinnerResult", W_FIELDS,
     {"seat", "legal", "illegal_reasons", "patterns", "flowers", "items", "base_value", "value"}},
    {"ValueItem", I_FIELDS, {"kind", "code", "name_zh", "name_en", "contribution", "count"}},
    {"Payment", P_FIELDS, {"from_seat", "to_seat", "amount", "reason"}},
    {"Penalty", PE_FIELDS, {"seat", "amount", "reason"}},
    {"NextHand", N_FIELDS, {"dealer_seat", "huangfan_count"}},
};

enum Table { UNITS, PATTERNS, ILLEGAL_REASONS, ITEM_KINDS, PAYMENT_REASONS, PENALTY_REASONS, N_TABLES };

typedef struct {
    const char *table; /* in convert.json_write */
    const char *module;
    const char *enum_name; /* its core enum */
} TableSpec;

static const TableSpec TABLES[N_TABLES] = {
    {"UNITS", "rules_core.profile", "Unit"},
    {"PATTERNS", "rules_core.patterns", "Pattern"},
    {"ILLEGAL_REASONS", "rules_core.patterns", "IllegalReason"},
    {"ITEM_KINDS", "rules_core.results", "ItemKind"},
    {"PAYMENT_REASONS", "rules_core.results", "PaymentReason"},
    {"PENALTY_REASONS", "rules_core.results", "PenaltyReason"},
};

/* The keys an error record (convert.json_write.error_record) has, or may have. */
enum Key { K_REQUEST_ID, K_ERROR, K_CODE, K_MESSAGE, K_FIELD_VIOLATIONS, K_REASON, K_METADATA, K_FIELD, K_DESCRIPTION,
           N_KEYS };
static const char *const KEYS[N_KEYS] = {"requestId", "error",  "code",  "message",    "fieldViolations",
                                         "reason",    "metadata", "field", "description"};

/* Which numbers of an enum have a proto name: a number past the table, or at a hole, is declined. */
typedef struct {
    Py_ssize_t size;
    char named[MAX_NAMES];
} NameTable;

typedef struct {
    PyTypeObject *types[N_TYPES];
    NameTable tables[N_TABLES];
    PyObject *engine_version;
    const char *engine_version_utf8;
    Py_ssize_t engine_version_length;
    PyObject *keys[N_KEYS];
} State;

/* ---- growing buffers (bytearrays) ---------------------------------------------------------- */

typedef struct {
    PyObject *array;
    char *at;
    Py_ssize_t length;
} Bytes;

typedef struct {
    State *state;
    Bytes b[N_BUFFERS];
    Py_ssize_t winners; /* written so far: the next legal bit's index */
} Writer;

static int bytes_open(Bytes *bytes, Py_ssize_t capacity)
{
    bytes->array = PyByteArray_FromStringAndSize(NULL, capacity);
    if (bytes->array == NULL)
        return FAILED;
    bytes->at = PyByteArray_AS_STRING(bytes->array);
    bytes->length = 0;
    return WRITTEN;
}

static int bytes_grow(Bytes *bytes, Py_ssize_t more)
{
    Py_ssize_t capacity = PyByteArray_GET_SIZE(bytes->array);
    if (more > PY_SSIZE_T_MAX / 2 - bytes->length) {
        PyErr_NoMemory();
        return FAILED;
    }
    Py_ssize_t wanted = bytes->length + more;
    if (wanted < 2 * capacity)
        wanted = 2 * capacity;
    if (PyByteArray_Resize(bytes->array, wanted) < 0)
        return FAILED;
    bytes->at = PyByteArray_AS_STRING(bytes->array);
    return WRITTEN;
}

static inline int bytes_reserve(Bytes *bytes, Py_ssize_t more)
{
    if (more <= PyByteArray_GET_SIZE(bytes->array) - bytes->length)
        return WRITTEN;
    return bytes_grow(bytes, more);
}

static inline int append_int32(Bytes *bytes, int32_t value)
{
    if (bytes_reserve(bytes, sizeof value) < 0)
        return FAILED;
    memcpy(bytes->at + bytes->length, &value, sizeof value);
    bytes->length += sizeof value;
    return WRITTEN;
}

static inline int append_double(Bytes *bytes, double value)
{
    if (bytes_reserve(bytes, sizeof value) < 0)
        return FAILED;
    memcpy(bytes->at + bytes->length, &value, sizeof value);
    bytes->length += sizeof value;
    return WRITTEN;
}

static inline int32_t last_offset(const Bytes *offsets)
{
    int32_t last;
    memcpy(&last, offsets->at + offsets->length - sizeof last, sizeof last);
    return last;
}

/* Bit `index` of a bitmap whose bytes before it are written; a new byte starts at zero. */
static inline int append_bit(Bytes *bits, Py_ssize_t index, int set)
{
    if (index % 8 == 0) {
        if (bytes_reserve(bits, 1) < 0)
            return FAILED;
        bits->at[bits->length++] = 0;
    }
    if (set)
        ((unsigned char *)bits->at)[index / 8] |= (unsigned char)(1u << (index % 8));
    return WRITTEN;
}

/* ---- values ------------------------------------------------------------------------------- */

static int append_utf8(Writer *w, int offsets, int data, const char *text, Py_ssize_t length)
{
    Bytes *bytes = &w->b[data];
    if (length > INT32_MAX - bytes->length)
        return DECLINED;
    if (bytes_reserve(bytes, length) < 0)
        return FAILED;
    memcpy(bytes->at + bytes->length, text, length);
    bytes->length += length;
    return append_int32(&w->b[offsets], (int32_t)bytes->length);
}

static int append_string(Writer *w, int offsets, int data, PyObject *value)
{
    if (!PyUnicode_Check(value))
        return DECLINED;
    if (PyUnicode_IS_COMPACT_ASCII(value)) /* its characters are its UTF-8 */
        return append_utf8(w, offsets, data, PyUnicode_DATA(value), PyUnicode_GET_LENGTH(value));
    Py_ssize_t length;
    const char *text = PyUnicode_AsUTF8AndSize(value, &length);
    if (text == NULL) { /* a lone surrogate: Arrow refuses it too */
        if (!PyErr_ExceptionMatches(PyExc_UnicodeEncodeError))
            return FAILED;
        PyErr_Clear();
        return DECLINED;
    }
    return append_utf8(w, offsets, data, text, length);
}

/* An int, not a bool, in [low, high]; DECLINED for anything else. */
static int read_int(PyObject *value, long long low, long long high, long long *out)
{
    if (!PyLong_Check(value) || PyBool_Check(value))
        return DECLINED;
    int overflow;
    long long number = PyLong_AsLongLongAndOverflow(value, &overflow);
    if (number == -1 && PyErr_Occurred())
        return FAILED;
    if (overflow || number < low || number > high)
        return DECLINED;
    *out = number;
    return WRITTEN;
}

static int append_int32_of(Writer *w, int values, PyObject *value)
{
    long long number;
    int read = read_int(value, INT32_MIN, INT32_MAX, &number);
    return read != WRITTEN ? read : append_int32(&w->b[values], (int32_t)number);
}

/* A float, or an int a double holds exactly (rules_core writes some contributions as ints). */
static int append_double_of(Writer *w, int values, PyObject *value)
{
    if (PyFloat_Check(value))
        return append_double(&w->b[values], PyFloat_AS_DOUBLE(value));
    long long number;
    int read = read_int(value, -EXACT_DOUBLE_INT, EXACT_DOUBLE_INT, &number);
    return read != WRITTEN ? read : append_double(&w->b[values], (double)number);
}

/* An enum member as its number, which must have a name in its table (Python names it by take). */
static int append_member(Writer *w, int values, enum Table table, PyObject *value)
{
    const NameTable *names = &w->state->tables[table];
    long long number;
    int read = read_int(value, 0, names->size - 1, &number);
    if (read != WRITTEN)
        return read;
    if (!names->named[number])
        return DECLINED;
    return append_int32(&w->b[values], (int32_t)number);
}

/* A list's end: its items written to its child, `count` of them. */
static int end_list(Writer *w, int offsets, Py_ssize_t count)
{
    int32_t last = last_offset(&w->b[offsets]);
    if (count > INT32_MAX - last)
        return DECLINED;
    return append_int32(&w->b[offsets], (int32_t)(last + count));
}

static int end_empty_string(Writer *w, int offsets)
{
    return append_int32(&w->b[offsets], last_offset(&w->b[offsets]));
}

/* The named tuple `value` of the type, or NULL: another type, or a tuple of another size. */
static inline PyObject *fields_of(Writer *w, enum Type type, PyObject *value)
{
    if (Py_TYPE(value) != w->state->types[type] || PyTuple_GET_SIZE(value) != TYPES[type].size)
        return NULL;
    return value;
}

#define WRITE(call)                 \
    do {                            \
        int written_ = (call);      \
        if (written_ != WRITTEN)    \
            return written_;        \
    } while (0)

#define FIELD(tuple, index) PyTuple_GET_ITEM(tuple, index)

/* ---- the nested messages --------------------------------------------------------------------- */

typedef int (*WriteItem)(Writer *, PyObject *);

/* The items of a list or tuple (checked by the caller), each written by `write`, then the list's end. */
static int write_items(Writer *w, int offsets, WriteItem write, PyObject *values)
{
    Py_ssize_t count = PySequence_Fast_GET_SIZE(values);
    PyObject **items = PySequence_Fast_ITEMS(values);
    for (Py_ssize_t i = 0; i < count; i++)
        WRITE(write(w, items[i]));
    return end_list(w, offsets, count);
}

/* A tuple of values (as the core holds them: a list there is declined), each written by `write`. */
static int write_each(Writer *w, int offsets, WriteItem write, PyObject *values)
{
    return PyTuple_CheckExact(values) ? write_items(w, offsets, write, values) : DECLINED;
}


static int write_members(Writer *w, int list, int values, enum Table table, PyObject *members)
{
    if (!PyTuple_CheckExact(members))
        return DECLINED;
    Py_ssize_t count = PyTuple_GET_SIZE(members);
    for (Py_ssize_t i = 0; i < count; i++)
        WRITE(append_member(w, values, table, PyTuple_GET_ITEM(members, i)));
    return end_list(w, list, count);
}

static int write_value_item(Writer *w, PyObject *value)
{
    PyObject *item = fields_of(w, VALUE_ITEM, value);
    if (item == NULL)
        return DECLINED;
    WRITE(append_member(w, ITEM_KIND, ITEM_KINDS, FIELD(item, I_KIND)));
    WRITE(append_string(w, ITEM_CODE_OFFSETS, ITEM_CODE_DATA, FIELD(item, I_CODE)));
    WRITE(append_string(w, ITEM_NAME_ZH_OFFSETS, ITEM_NAME_ZH_DATA, FIELD(item, I_NAME_ZH)));
    WRITE(append_string(w, ITEM_NAME_EN_OFFSETS, ITEM_NAME_EN_DATA, FIELD(item, I_NAME_EN)));
    WRITE(append_double_of(w, ITEM_CONTRIBUTION, FIELD(item, I_CONTRIBUTION)));
    return append_int32_of(w, ITEM_COUNT, FIELD(item, I_COUNT));
}

static int write_legal(Writer *w, PyObject *legal)
{
    if (legal != Py_True && legal != Py_False)
        return DECLINED;
    return append_bit(&w->b[WINNER_LEGAL], w->winners++, legal == Py_True);
}

static int write_winner(Writer *w, PyObject *value)
{
    PyObject *winner = fields_of(w, WINNER_RESULT, value);
    if (winner == NULL)
        return DECLINED;
    WRITE(append_int32_of(w, WINNER_SEAT, FIELD(winner, W_SEAT)));
    WRITE(write_legal(w, FIELD(winner, W_LEGAL)));
    WRITE(write_members(w, ILLEGAL_REASONS_OFFSETS, ILLEGAL_REASON, ILLEGAL_REASONS, FIELD(winner, W_ILLEGAL_REASONS)));
    WRITE(write_members(w, PATTERNS_OFFSETS, PATTERN, PATTERNS, FIELD(winner, W_PATTERNS)));
    WRITE(append_int32_of(w, WINNER_FLOWERS, FIELD(winner, W_FLOWERS)));
    WRITE(write_each(w, ITEMS_OFFSETS, write_value_item, FIELD(winner, W_ITEMS)));
    WRITE(append_double_of(w, WINNER_BASE_VALUE, FIELD(winner, W_BASE_VALUE)));
    return append_double_of(w, WINNER_VALUE, FIELD(winner, W_VALUE));
}

static int write_payment(Writer *w, PyObject *value)
{
    PyObject *payment = fields_of(w, PAYMENT, value);
    if (payment == NULL)
        return DECLINED;
    WRITE(append_int32_of(w, PAYMENT_FROM_SEAT, FIELD(payment, P_FROM_SEAT)));
    WRITE(append_int32_of(w, PAYMENT_TO_SEAT, FIELD(payment, P_TO_SEAT)));
    WRITE(append_double_of(w, PAYMENT_AMOUNT, FIELD(payment, P_AMOUNT)));
    return append_member(w, PAYMENT_REASON, PAYMENT_REASONS, FIELD(payment, P_REASON));
}

static int write_penalty(Writer *w, PyObject *value)
{
    PyObject *penalty = fields_of(w, PENALTY, value);
    if (penalty == NULL)
        return DECLINED;
    WRITE(append_int32_of(w, PENALTY_SEAT, FIELD(penalty, PE_SEAT)));
    WRITE(append_double_of(w, PENALTY_AMOUNT, FIELD(penalty, PE_AMOUNT)));
    return append_member(w, PENALTY_REASON, PENALTY_REASONS, FIELD(penalty, PE_REASON));
}

static int write_seat_delta(Writer *w, PyObject *delta) { return append_double_of(w, SEAT_DELTA, delta); }

/* A null next hand's fields are 0, as Arrow's conversion of None leaves them. */
static int write_next_hand(Writer *w, Py_ssize_t row, PyObject *value)
{
    if (value == Py_None) {
        WRITE(append_bit(&w->b[NEXT_HAND_VALIDITY], row, 0));
        WRITE(append_int32(&w->b[NEXT_DEALER_SEAT], 0));
        return append_int32(&w->b[NEXT_HUANGFAN_COUNT], 0);
    }
    PyObject *next = fields_of(w, NEXT_HAND, value);
    if (next == NULL)
        return DECLINED;
    WRITE(append_bit(&w->b[NEXT_HAND_VALIDITY], row, 1));
    WRITE(append_int32_of(w, NEXT_DEALER_SEAT, FIELD(next, N_DEALER_SEAT)));
    return append_int32_of(w, NEXT_HUANGFAN_COUNT, FIELD(next, N_HUANGFAN_COUNT));
}

/* ---- rows ------------------------------------------------------------------------------------ */

static int write_result(Writer *w, Py_ssize_t row, PyObject *result)
{
    const State *state = w->state;
    WRITE(append_bit(&w->b[REQUEST_ID_VALIDITY], row, 1));
    WRITE(append_string(w, REQUEST_ID_OFFSETS, REQUEST_ID_DATA, FIELD(result, R_REQUEST_ID)));
    WRITE(append_string(w, PROFILE_OFFSETS, PROFILE_DATA, FIELD(result, R_PROFILE)));
    WRITE(append_member(w, UNIT, UNITS, FIELD(result, R_UNIT)));
    WRITE(write_each(w, WINNERS_OFFSETS, write_winner, FIELD(result, R_WINNERS)));
    WRITE(write_each(w, PAYMENTS_OFFSETS, write_payment, FIELD(result, R_PAYMENTS)));
    WRITE(write_each(w, SEAT_DELTAS_OFFSETS, write_seat_delta, FIELD(result, R_SEAT_DELTAS)));
    WRITE(write_next_hand(w, row, FIELD(result, R_NEXT_HAND)));
    WRITE(write_each(w, PENALTIES_OFFSETS, write_penalty, FIELD(result, R_PENALTIES)));
    WRITE(append_int32_of(w, HUANGFAN_AFTER_DICE, FIELD(result, R_HUANGFAN_AFTER_DICE)));
    WRITE(append_utf8(w, ENGINE_VERSION_OFFSETS, ENGINE_VERSION_DATA, state->engine_version_utf8,
                      state->engine_version_length));
    return append_string(w, PROFILE_DIGEST_OFFSETS, PROFILE_DIGEST_DATA, FIELD(result, R_PROFILE_DIGEST));
}

/* ---- error records ------------------------------------------------------------------------- */

/* The key among KEYS[first..last], or -1: a key of another type (even a str subclass) or name. */
static int key_of(const State *state, PyObject *key, int first, int last)
{
    if (!PyUnicode_CheckExact(key))
        return -1;
    for (int i = first; i <= last; i++)
        if (key == state->keys[i] || PyUnicode_Compare(key, state->keys[i]) == 0)
            return i;
    return -1;
}

/* The values of a dict whose every key is one of KEYS[first..last] (exact str: looking them up
   runs no Python code), into found[] by key (NULL where absent); DECLINED for any other key. */
static int read_keys(const State *state, PyObject *dict, int first, int last, PyObject **found)
{
    Py_ssize_t at = 0;
    PyObject *key, *value;
    for (int i = first; i <= last; i++)
        found[i] = NULL;
    while (PyDict_Next(dict, &at, &key, &value)) {
        int index = key_of(state, key, first, last);
        if (index < 0)
            return DECLINED;
        found[index] = value;
    }
    return WRITTEN;
}

static int write_violation(Writer *w, PyObject *violation)
{
    PyObject *found[N_KEYS];
    if (!PyDict_CheckExact(violation) || PyDict_GET_SIZE(violation) != 2)
        return DECLINED;
    WRITE(read_keys(w->state, violation, K_FIELD, K_DESCRIPTION, found));
    if (found[K_FIELD] == NULL || found[K_DESCRIPTION] == NULL)
        return DECLINED;
    WRITE(append_string(w, VIOLATION_FIELD_OFFSETS, VIOLATION_FIELD_DATA, found[K_FIELD]));
    return append_string(w, VIOLATION_TEXT_OFFSETS, VIOLATION_TEXT_DATA, found[K_DESCRIPTION]);
}

/* The field violations, a list as an error record holds them (a tuple there is declined). */
static int write_violations(Writer *w, PyObject *violations)
{
    return PyList_CheckExact(violations) ? write_items(w, VIOLATIONS_OFFSETS, write_violation, violations) : DECLINED;
}

/* An ErrorInfo's metadata (a dict of str) as its key/value entries, in the dict's order. */
static int write_metadata(Writer *w, PyObject *metadata)
{
    if (metadata == NULL)
        return end_list(w, METADATA_OFFSETS, 0);
    if (!PyDict_CheckExact(metadata))
        return DECLINED;
    Py_ssize_t at = 0;
    PyObject *key, *value;
    while (PyDict_Next(metadata, &at, &key, &value)) {
        WRITE(append_string(w, METADATA_KEY_OFFSETS, METADATA_KEY_DATA, key));
        WRITE(append_string(w, METADATA_VALUE_OFFSETS, METADATA_VALUE_DATA, value));
    }
    return end_list(w, METADATA_OFFSETS, PyDict_GET_SIZE(metadata));
}

/* The error: code, message and field violations, a reason ("" when it has none) and metadata. */
static int write_error(Writer *w, Py_ssize_t row, PyObject *error)
{
    PyObject *found[N_KEYS];
    if (error == NULL || !PyDict_CheckExact(error))
        return DECLINED;
    WRITE(read_keys(w->state, error, K_CODE, K_METADATA, found));
    if (found[K_CODE] == NULL || found[K_MESSAGE] == NULL || found[K_FIELD_VIOLATIONS] == NULL)
        return DECLINED;
    WRITE(append_bit(&w->b[ERROR_VALIDITY], row, 1));
    WRITE(append_string(w, ERROR_CODE_OFFSETS, ERROR_CODE_DATA, found[K_CODE]));
    WRITE(append_string(w, ERROR_MESSAGE_OFFSETS, ERROR_MESSAGE_DATA, found[K_MESSAGE]));
    WRITE(write_violations(w, found[K_FIELD_VIOLATIONS]));
    if (found[K_REASON] == NULL)
        WRITE(end_empty_string(w, ERROR_REASON_OFFSETS));
    else
        WRITE(append_string(w, ERROR_REASON_OFFSETS, ERROR_REASON_DATA, found[K_REASON]));
    return write_metadata(w, found[K_METADATA]);
}

/* An answer's error: null, and so each of its fields. */
static int write_no_error(Writer *w, Py_ssize_t row)
{
    WRITE(append_bit(&w->b[ERROR_VALIDITY], row, 0));
    WRITE(end_empty_string(w, ERROR_CODE_OFFSETS));
    WRITE(end_empty_string(w, ERROR_MESSAGE_OFFSETS));
    WRITE(end_list(w, VIOLATIONS_OFFSETS, 0));
    WRITE(end_empty_string(w, ERROR_REASON_OFFSETS));
    return end_list(w, METADATA_OFFSETS, 0);
}

/* An error record's row (its keys "requestId" and "error" alone, as batch.arrow_results'
   _is_plain_error holds them): its request id (null when it has none), every answer field at
   its default (unit 0, lists empty, no next hand, no engine version), and its error. */
static int write_error_row(Writer *w, Py_ssize_t row, PyObject *record)
{
    PyObject *found[N_KEYS];
    WRITE(read_keys(w->state, record, K_REQUEST_ID, K_ERROR, found));
    PyObject *request_id = found[K_REQUEST_ID];
    if (request_id == NULL || request_id == Py_None) {
        WRITE(append_bit(&w->b[REQUEST_ID_VALIDITY], row, 0));
        WRITE(end_empty_string(w, REQUEST_ID_OFFSETS));
    } else {
        WRITE(append_bit(&w->b[REQUEST_ID_VALIDITY], row, 1));
        WRITE(append_string(w, REQUEST_ID_OFFSETS, REQUEST_ID_DATA, request_id));
    }
    WRITE(end_empty_string(w, PROFILE_OFFSETS));
    WRITE(append_int32(&w->b[UNIT], 0)); /* UNIT_UNSPECIFIED */
    WRITE(end_list(w, WINNERS_OFFSETS, 0));
    WRITE(end_list(w, PAYMENTS_OFFSETS, 0));
    WRITE(end_list(w, SEAT_DELTAS_OFFSETS, 0));
    WRITE(write_next_hand(w, row, Py_None));
    WRITE(end_list(w, PENALTIES_OFFSETS, 0));
    WRITE(append_int32(&w->b[HUANGFAN_AFTER_DICE], 0));
    WRITE(end_empty_string(w, ENGINE_VERSION_OFFSETS));
    WRITE(end_empty_string(w, PROFILE_DIGEST_OFFSETS));
    return write_error(w, row, found[K_ERROR]);
}

static int write_answer(Writer *w, Py_ssize_t row, PyObject *answer)
{
    if (fields_of(w, SETTLE_RESULT, answer) != NULL) {
        WRITE(write_result(w, row, answer));
        return write_no_error(w, row);
    }
    if (PyDict_CheckExact(answer))
        return write_error_row(w, row, answer);
    return DECLINED;
}

/* ---- the batch ------------------------------------------------------------------------------- */

static int is_offsets(const Slot *slot)
{
    const char *role = strrchr(slot->name, '/');
    return slot->buffer >= 0 && role != NULL && strcmp(role, "/offsets") == 0;
}

static void writer_close(Writer *w)
{
    for (int i = 0; i < N_BUFFERS; i++)
        Py_CLEAR(w->b[i].array);
}

/* Every buffer made, with room for a row each; each offsets buffer holding its first 0. */
static int writer_open(Writer *w, State *state, Py_ssize_t rows)
{
    memset(w, 0, sizeof *w);
    w->state = state;
    Py_ssize_t capacity = rows < 16 ? 64 : (rows + 1) * (Py_ssize_t)sizeof(double);
    for (int i = 0; i < N_BUFFERS; i++)
        if (bytes_open(&w->b[i], capacity) < 0)
            goto failed;
    for (Py_ssize_t i = 0; i < N_SLOTS; i++)
        if (is_offsets(&LAYOUT[i]) && append_int32(&w->b[LAYOUT[i].buffer], 0) < 0)
            goto failed;
    return WRITTEN;
failed:
    writer_close(w);
    return FAILED;
}

/* The buffers in LAYOUT's order, each bytearray cut to what was written. */
static PyObject *writer_buffers(Writer *w)
{
    PyObject *out = PyTuple_New(N_SLOTS);
    if (out == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < N_SLOTS; i++) {
        int buffer = LAYOUT[i].buffer;
        PyObject *item = Py_None;
        if (buffer >= 0) {
            Bytes *bytes = &w->b[buffer];
            if (PyByteArray_Resize(bytes->array, bytes->length) < 0) {
                Py_DECREF(out);
                return NULL;
            }
            item = bytes->array;
        }
        Py_INCREF(item);
        PyTuple_SET_ITEM(out, i, item);
    }
    return out;
}

static PyObject *result_buffers(PyObject *module, PyObject *answers)
{
    if (!PyList_CheckExact(answers) && !PyTuple_CheckExact(answers))
        Py_RETURN_NONE;
    State *state = PyModule_GetState(module);
    Py_ssize_t rows = PySequence_Fast_GET_SIZE(answers);
    Writer w;
    if (writer_open(&w, state, rows) < 0)
        return NULL;
    int written = WRITTEN;
    /* Nothing below runs Python code (a record's keys are exact str before one is looked up), so
       the list stays as it is; each answer is held while it is written all the same. */
    for (Py_ssize_t row = 0; row < rows && written == WRITTEN; row++) {
        PyObject *answer = Py_NewRef(PySequence_Fast_GET_ITEM(answers, row));
        written = write_answer(&w, row, answer);
        Py_DECREF(answer);
    }
    PyObject *out = NULL;
    if (written == WRITTEN)
        out = writer_buffers(&w);
    else if (written == DECLINED)
        out = Py_NewRef(Py_None);
    writer_close(&w);
    return out;
}

/* ---- a batch built row by row ----------------------------------------------------------------- */

/* Builder: the same buffers as result_buffers', each answer appended as it is made (so that the
   caller need not keep a batch's answers until its columns are built), then finished once. An
   answer it declines, or a failure, ends it: every later append says False, and finish None. */
typedef struct {
    PyObject_HEAD
    PyObject *module; /* holds the State the writer reads */
    Writer w;
    Py_ssize_t rows;
    int open; /* 1 while answers may be appended; 0 once declined, failed or finished */
} Builder;

static PyObject *builder_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    Py_ssize_t capacity = 0;
    static char *names[] = {"capacity", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|n:Builder", names, &capacity))
        return NULL;
    if (capacity < 0 || capacity > ROWS_HINT_MAX) {
        PyErr_Format(PyExc_ValueError, "Builder: capacity must be 0 to %d rows, not %zd", ROWS_HINT_MAX, capacity);
        return NULL;
    }
    PyObject *module = PyType_GetModule(type);
    if (module == NULL)
        return NULL;
    Builder *self = (Builder *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    if (writer_open(&self->w, PyModule_GetState(module), capacity) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    self->module = Py_NewRef(module);
    self->open = 1;
    return (PyObject *)self;
}

static void builder_dealloc(Builder *self)
{
    PyTypeObject *type = Py_TYPE(self);
    writer_close(&self->w);
    Py_XDECREF(self->module);
    type->tp_free(self);
    Py_DECREF(type);
}

static PyObject *builder_append(Builder *self, PyObject *answer)
{
    if (!self->open)
        Py_RETURN_FALSE;
    Py_INCREF(answer);
    int written = write_answer(&self->w, self->rows, answer);
    Py_DECREF(answer);
    if (written == WRITTEN) {
        self->rows++;
        Py_RETURN_TRUE;
    }
    self->open = 0;
    writer_close(&self->w);
    if (written == FAILED)
        return NULL;
    Py_RETURN_FALSE;
}

static PyObject *builder_finish(Builder *self, PyObject *unused)
{
    if (!self->open)
        Py_RETURN_NONE;
    self->open = 0;
    PyObject *out = writer_buffers(&self->w);
    writer_close(&self->w);
    return out;
}

static PyObject *builder_rows(Builder *self, void *unused) { return PyLong_FromSsize_t(self->rows); }

static PyMethodDef BUILDER_METHODS[] = {
    {"append", (PyCFunction)builder_append, METH_O,
     "append(answer) -> bool\n\nThe answer written as the batch's next row: True; False where it is declined "
     "(or was before), which ends the builder."},
    {"finish", (PyCFunction)builder_finish, METH_NOARGS,
     "finish() -> tuple | None\n\nThe buffers of the rows appended, as result_buffers gives them; None where "
     "one was declined or the builder was finished before."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef BUILDER_GETSET[] = {
    {"rows", (getter)builder_rows, NULL, "The rows written so far.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyType_Slot BUILDER_SLOTS[] = {
    {Py_tp_new, builder_new},
    {Py_tp_dealloc, builder_dealloc},
    {Py_tp_methods, BUILDER_METHODS},
    {Py_tp_getset, BUILDER_GETSET},
    {Py_tp_doc, "Builder(capacity=0): a batch's result buffers written an answer at a time (append, then finish)."},
    {0, NULL},
};

static PyType_Spec BUILDER_SPEC = {
    .name = "batch.native.arrow_results.Builder",
    .basicsize = sizeof(Builder),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE,
    .slots = BUILDER_SLOTS,
};

/* ---- import: the types, fields and tables this relies on ------------------------------------- */

static PyObject *attribute_of(const char *module_name, const char *name)
{
    PyObject *module = PyImport_ImportModule(module_name);
    if (module == NULL)
        return NULL;
    PyObject *value = PyObject_GetAttrString(module, name);
    Py_DECREF(module);
    return value;
}

static int check_fields(PyTypeObject *type, const TypeSpec *spec)
{
    PyObject *fields = PyObject_GetAttrString((PyObject *)type, "_fields");
    if (fields == NULL)
        return FAILED;
    int same = PyTuple_Check(fields) && PyTuple_GET_SIZE(fields) == spec->size;
    for (Py_ssize_t i = 0; same && i < spec->size; i++) {
        PyObject *name = PyTuple_GET_ITEM(fields, i);
        same = PyUnicode_Check(name) && PyUnicode_CompareWithASCIIString(name, spec->fields[i]) == 0;
    }
    if (!same) {
        PyObject *expected = PyTuple_New(spec->size);
        for (Py_ssize_t i = 0; expected != NULL && i < spec->size; i++) {
            PyObject *name = PyUnicode_FromString(spec->fields[i]);
            if (name == NULL)
                Py_CLEAR(expected);
            else
                PyTuple_SET_ITEM(expected, i, name);
        }
        if (expected != NULL)
            PyErr_Format(PyExc_ImportError,
                         "rules_core.results.%s._fields are %R, not the %R batch.native.arrow_results indexes",
                         spec->name, fields, expected);
        Py_XDECREF(expected);
    }
    Py_DECREF(fields);
    return same ? WRITTEN : FAILED;
}

static int take_types(State *state)
{
    for (int i = 0; i < N_TYPES; i++) {
        PyObject *type = attribute_of("rules_core.results", TYPES[i].name);
        if (type == NULL)
            return FAILED;
        if (!PyType_Check(type) || !PyType_IsSubtype((PyTypeObject *)type, &PyTuple_Type)) {
            PyErr_Format(PyExc_ImportError, "rules_core.results.%s is not a named tuple", TYPES[i].name);
            Py_DECREF(type);
            return FAILED;
        }
        state->types[i] = (PyTypeObject *)type;
        if (check_fields(state->types[i], &TYPES[i]) < 0)
            return FAILED;
    }
    return WRITTEN;
}

/* The largest value of the enum's members, each of which must have a name in `names`. */
static int check_members(const TableSpec *spec, PyObject *names)
{
    PyObject *core = attribute_of(spec->module, spec->enum_name);
    if (core == NULL)
        return FAILED;
    PyObject *members = PySequence_List(core);
    Py_DECREF(core);
    if (members == NULL)
        return FAILED;
    int result = WRITTEN;
    Py_ssize_t largest = 0;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(members) && result == WRITTEN; i++) {
        Py_ssize_t value = PyNumber_AsSsize_t(PyList_GET_ITEM(members, i), NULL);
        if (value == -1 && PyErr_Occurred())
            result = FAILED;
        else if (value < 0 || value >= PyTuple_GET_SIZE(names) ||
                 PyUnicode_GetLength(PyTuple_GET_ITEM(names, value)) <= 0)
            result = FAILED;
        else if (value > largest)
            largest = value;
    }
    Py_DECREF(members);
    if (result == WRITTEN && largest + 1 != PyTuple_GET_SIZE(names))
        result = FAILED;
    if (result == FAILED && !PyErr_Occurred())
        PyErr_Format(PyExc_ImportError,
                     "convert.json_write.%s has %zd names, not one for each member of %s.%s by its value",
                     spec->table, PyTuple_GET_SIZE(names), spec->module, spec->enum_name);
    return result;
}

/* A table of convert.json_write: a list of str, "" where no member has the value. */
static int take_table(NameTable *table, const TableSpec *spec)
{
    PyObject *names = attribute_of("convert.json_write", spec->table);
    if (names == NULL)
        return FAILED;
    PyObject *held = PyList_Check(names) ? PyList_AsTuple(names) : NULL;
    Py_DECREF(names);
    if (held == NULL) {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_ImportError, "convert.json_write.%s is not a list", spec->table);
        return FAILED;
    }
    Py_ssize_t size = PyTuple_GET_SIZE(held);
    int taken = WRITTEN;
    if (size < 1 || size > MAX_NAMES) {
        PyErr_Format(PyExc_ImportError, "convert.json_write.%s has %zd names, not 1 to %d", spec->table, size,
                     MAX_NAMES);
        taken = FAILED;
    }
    for (Py_ssize_t i = 0; i < size && taken == WRITTEN; i++) {
        PyObject *name = PyTuple_GET_ITEM(held, i);
        if (!PyUnicode_Check(name)) {
            PyErr_Format(PyExc_ImportError, "convert.json_write.%s[%zd] is not a str", spec->table, i);
            taken = FAILED;
        } else {
            table->named[i] = PyUnicode_GET_LENGTH(name) > 0;
        }
    }
    table->size = size;
    if (taken == WRITTEN)
        taken = check_members(spec, held);
    Py_DECREF(held);
    return taken;
}

static int take_strings(State *state)
{
    state->engine_version = attribute_of("rules_core.version", "ENGINE_VERSION");
    if (state->engine_version == NULL)
        return FAILED;
    if (!PyUnicode_Check(state->engine_version)) {
        PyErr_SetString(PyExc_ImportError, "rules_core.version.ENGINE_VERSION is not a str");
        return FAILED;
    }
    state->engine_version_utf8 = PyUnicode_AsUTF8AndSize(state->engine_version, &state->engine_version_length);
    for (int i = 0; i < N_KEYS; i++)
        if ((state->keys[i] = PyUnicode_InternFromString(KEYS[i])) == NULL)
            return FAILED;
    return state->engine_version_utf8 == NULL ? FAILED : WRITTEN;
}

static int take_tables(State *state)
{
    for (int i = 0; i < N_TABLES; i++)
        if (take_table(&state->tables[i], &TABLES[i]) < 0)
            return FAILED;
    return WRITTEN;
}

static PyObject *layout_names(void)
{
    PyObject *names = PyTuple_New(N_SLOTS);
    for (Py_ssize_t i = 0; names != NULL && i < N_SLOTS; i++) {
        PyObject *name = PyUnicode_FromString(LAYOUT[i].name);
        if (name == NULL)
            Py_CLEAR(names);
        else
            PyTuple_SET_ITEM(names, i, name);
    }
    return names;
}

static int module_traverse(PyObject *module, visitproc visit, void *arg)
{
    State *state = PyModule_GetState(module);
    if (state == NULL)
        return 0;
    for (int i = 0; i < N_TYPES; i++)
        Py_VISIT(state->types[i]);
    Py_VISIT(state->engine_version);
    for (int i = 0; i < N_KEYS; i++)
        Py_VISIT(state->keys[i]);
    return 0;
}

static int module_clear(PyObject *module)
{
    State *state = PyModule_GetState(module);
    if (state == NULL)
        return 0;
    for (int i = 0; i < N_TYPES; i++)
        Py_CLEAR(state->types[i]);
    Py_CLEAR(state->engine_version);
    for (int i = 0; i < N_KEYS; i++)
        Py_CLEAR(state->keys[i]);
    return 0;
}

static void module_free(void *module) { module_clear(module); }

static PyMethodDef METHODS[] = {
    {"result_buffers", result_buffers, METH_O,
     "result_buffers(answers) -> tuple | None\n\nThe buffers of the core's result columns, the engine version and "
     "the error, in LAYOUT's order (None where that array has none of its own); None where the answers hold "
     "anything unexpected."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {
    PyModuleDef_HEAD_INIT,
    .m_name = "batch.native.arrow_results",
    .m_doc = "A batch's result columns written from rules_core's results (batch.arrow_results' native path).",
    .m_size = sizeof(State),
    .m_methods = METHODS,
    .m_traverse = module_traverse,
    .m_clear = module_clear,
    .m_free = module_free,
};

PyMODINIT_FUNC PyInit_arrow_results(void)
{
    PyObject *module = PyModule_Create(&MODULE);
    if (module == NULL)
        return NULL;
    State *state = PyModule_GetState(module);
    memset(state, 0, sizeof *state);
    PyObject *layout = NULL;
    if (take_types(state) < 0 || take_tables(state) < 0 || take_strings(state) < 0 ||
        (layout = layout_names()) == NULL || PyModule_AddObject(module, "LAYOUT", layout) < 0) {
        Py_XDECREF(layout);
        Py_DECREF(module);
        return NULL;
    }
    PyObject *builder = PyType_FromModuleAndSpec(module, &BUILDER_SPEC, NULL);
    if (builder == NULL || PyModule_AddType(module, (PyTypeObject *)builder) < 0) {
        Py_XDECREF(builder);
        Py_DECREF(module);
        return NULL;
    }
    Py_DECREF(builder);
    return module;
}
