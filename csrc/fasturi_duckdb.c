/* fasturi_duckdb.c: fasturi's uri_* SQL functions as a DuckDB extension.
 *
 * Built on DuckDB's C extension API (csrc/duckdb/, C API v1.2.0, so one
 * file loads in every DuckDB from 1.2.0 on) over the same C scanners the
 * column kernels run: no Python inside.  setup.py links it as
 * fasturi/fasturi.duckdb_extension and appends DuckDB's metadata footer;
 * fasturi.duckdb LOADs it.
 *
 * DuckDB hands a scalar function flat vectors of at most 2,048 rows, from
 * any of its threads at once: every call keeps its scratch memory to itself
 * (nothing here is written after the extension is loaded).  A row's text is
 * a duckdb_string_t: 16 bytes, a uint32 length, then the bytes themselves
 * when they are 12 or fewer, else a 4-byte prefix and a pointer.
 *
 * Results are those of fasturi.arrow's kernels, row for row: NULL in, NULL
 * out; a row whose bytes are not UTF-8 (DuckDB checks text it makes, but a
 * BLOB cast or a producer may hand it other bytes) fails the query with
 * "row N is not valid UTF-8", N counted in the vector, as the kernels
 * refuse such a row.  Every scanner reads only [0, length) of its row.
 */
#define DUCKDB_EXTENSION_NAME fasturi

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "duckdb/duckdb_extension.h"

#include "fasturi_arrow.h"
#include "fasturi_canon.h"
#include "fasturi_dots.h"
#include "fasturi_parts.h"
#include "fasturi_psl.h"
#include "fasturi_rules.h"
#include "fasturi_scan.h"
#include "fasturi_shared.h"
#include "fasturi_xxh64.h"

/* Written by setup.py from the building Python's own str.lower: its
 * case mappings beyond ASCII, and the Cased and Case_Ignorable code points
 * its Final_Sigma rule reads (FU_LOWER, FU_CASED, FU_IGNORABLE). */
#include "fasturi_lower_unicode.h"

#include "fasturi_psl_table.h"

DUCKDB_EXTENSION_EXTERN

/* What a function computes (its extra info). */
enum {
    OP_SCHEME = 1,
    OP_AUTHORITY,
    OP_USERINFO,
    OP_HOST,
    OP_PORT,
    OP_PATH,
    OP_QUERY,
    OP_FRAGMENT,
    OP_NORMALIZE,
    OP_CANONICALIZE,
    OP_FINGERPRINT,
    OP_IS_VALID,
    OP_RESOLVE,
    OP_SPLIT,
    OP_QUERY_PARAMS,
    OP_REGISTRABLE_DOMAIN,
    OP_PUBLIC_SUFFIX,
    OP_QUERY_PARAM,
    OP_PATH_EXTENSION,
    OP_REMOVE_PARAMS,
    OP_SUBDOMAIN,
    OP_PATH_HIERARCHY,
};

/* uri_split's fields, in order (the components OP_SCHEME..OP_FRAGMENT). */
static const char *SPLIT_FIELDS[8] = { "scheme", "authority", "userinfo", "host",
                                       "port",   "path",      "query",    "fragment" };

/* ---- one call's scratch memory ------------------------------------------ */

typedef struct {
    uint8_t *data;
    size_t cap;
    uint8_t *more; /* canonicalize: the normalized text */
    size_t more_cap;
    uint32_t *wide; /* is_valid: a non-ASCII row's code points */
    size_t wide_cap;
    fu_field_t *fields; /* canonicalize: the query's fields */
    ptrdiff_t fields_cap;
} scratch_t;

static int reserve(uint8_t **data, size_t *cap, size_t want)
{
    uint8_t *p;
    if (want <= *cap)
        return 0;
    if (want < 256)
        want = 256;
    p = (uint8_t *)realloc(*data, want);
    if (p == NULL)
        return -1;
    *data = p;
    *cap = want;
    return 0;
}

/* Room for n code points in s->wide. */
static int reserve_wide(scratch_t *s, size_t n)
{
    uint32_t *w;
    if (n <= s->wide_cap)
        return 0;
    w = (uint32_t *)realloc(s->wide, n * sizeof(uint32_t));
    if (w == NULL)
        return -1;
    s->wide = w;
    s->wide_cap = n;
    return 0;
}

static void scratch_free(scratch_t *s)
{
    free(s->data);
    free(s->more);
    free(s->wide);
    free(s->fields);
}

/* ---- rows in and out ----------------------------------------------------- */

static inline void row_text(const duckdb_string_t *v, const uint8_t **p, int64_t *n)
{
    uint32_t len = v->value.inlined.length;
    *n = len;
    *p = len <= 12 ? (const uint8_t *)v->value.inlined.inlined
                   : (const uint8_t *)v->value.pointer.ptr;
}

/* (the validity mask's layout is the C API's: bit i % 64 of word i / 64) */
static inline int row_valid(const uint64_t *validity, idx_t i)
{
    return validity == NULL || (validity[i >> 6] >> (i & 63) & 1);
}

/* ---- text results -----------------------------------------------------------
 *
 * A text of 12 bytes or fewer is written inline, in its row's
 * duckdb_string_t.  A longer one must live in the vector's own string
 * memory, and the C API puts text there only through
 * duckdb_vector_assign_string_element_len: called once a row, that cost
 * about 220 instructions a row in DuckDB 2.0 (the vector's string buffer
 * looked up, an allocation, the copy, a UTF-8 check), most of uri_host's
 * time.  So a call's long texts are gathered one after the other into one
 * block, which one assign copies into the vector's string memory, and each
 * row's duckdb_string_t then points at its part of that copy: memory the
 * vector owns for as long as it lives, as any text assigned to it.  Until
 * the block is handed over, a pending row's pointer holds its offset in the
 * block.  (The block is valid UTF-8 where each text is: DuckDB's check of it
 * passes where its checks of the rows would.) */

/* A block's most bytes: a string's length is a uint32, and a block this
 * size is a few rows' worth of copying ahead. */
#define FU_TEXT_BLOCK ((size_t)1 << 24)

typedef struct {
    duckdb_vector v;
    duckdb_string_t *data; /* v's rows: text_refresh after moving them */
    uint8_t *block;
    size_t len, cap;
    idx_t *rows; /* the rows pending, in order */
    size_t nrows, rows_cap;
} texts_t;

static void text_init(texts_t *t, duckdb_vector v)
{
    memset(t, 0, sizeof *t);
    t->v = v;
    t->data = (duckdb_string_t *)duckdb_vector_get_data(v);
}

/* (a list's child vector moves its rows when it grows) */
static inline void text_refresh(texts_t *t)
{
    t->data = (duckdb_string_t *)duckdb_vector_get_data(t->v);
}

/* Hands the block to the vector; every pending row then points into the
 * vector's copy of it. */
static void text_flush(texts_t *t)
{
    duckdb_string_t first;
    const char *base;
    size_t k;
    if (t->nrows == 0)
        return;
    first = t->data[t->rows[0]];
    /* (the block holds a text longer than 12 bytes: it is never inlined) */
    duckdb_vector_assign_string_element_len(t->v, t->rows[0], (const char *)t->block,
                                            (idx_t)t->len);
    base = t->data[t->rows[0]].value.pointer.ptr;
    t->data[t->rows[0]] = first;
    for (k = 0; k < t->nrows; k++) {
        duckdb_string_t *d = &t->data[t->rows[k]];
        d->value.pointer.ptr = (char *)base + (uintptr_t)d->value.pointer.ptr;
    }
    t->len = t->nrows = 0;
}

static void text_free(texts_t *t)
{
    free(t->block);
    free(t->rows);
    t->block = NULL;
    t->rows = NULL;
}

/* Row i is p[0, n); -1 when out of memory. */
static inline int put_text(texts_t *t, idx_t i, const uint8_t *p, int64_t n)
{
    duckdb_string_t *d = &t->data[i];
    if (n <= 12) {
        memset(d, 0, sizeof *d);
        d->value.inlined.length = (uint32_t)n;
        fu_copy((uint8_t *)d->value.inlined.inlined, p, n);
        return 0;
    }
    if ((size_t)n > FU_TEXT_BLOCK / 2) { /* a text that is a block of its own */
        duckdb_vector_assign_string_element_len(t->v, i, (const char *)p, (idx_t)n);
        return 0;
    }
    if (t->len + (size_t)n > FU_TEXT_BLOCK)
        text_flush(t);
    if (t->len + (size_t)n > t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 4096;
        uint8_t *b;
        while (cap < t->len + (size_t)n)
            cap *= 2;
        b = (uint8_t *)realloc(t->block, cap);
        if (b == NULL)
            return -1;
        t->block = b;
        t->cap = cap;
    }
    if (t->nrows == t->rows_cap) {
        size_t cap = t->rows_cap ? 2 * t->rows_cap : 256;
        idx_t *r = (idx_t *)realloc(t->rows, cap * sizeof(idx_t));
        if (r == NULL)
            return -1;
        t->rows = r;
        t->rows_cap = cap;
    }
    fu_copy(t->block + t->len, p, n);
    d->value.pointer.length = (uint32_t)n;
    memcpy(d->value.pointer.prefix, p, 4);
    d->value.pointer.ptr = (char *)(uintptr_t)t->len;
    t->len += (size_t)n;
    t->rows[t->nrows++] = i;
    return 0;
}

static inline int is_utf8(const uint8_t *p, int64_t n, int ascii)
{
    return ascii || fu_utf8_decode(p, n, NULL, NULL);
}

/* Fails the query: -1. */
static int fail_utf8(duckdb_function_info info, idx_t row)
{
    char msg[64];
    snprintf(msg, sizeof msg, "row %llu is not valid UTF-8", (unsigned long long)row);
    duckdb_scalar_function_set_error(info, msg);
    return -1;
}

static inline void set_null(duckdb_vector out, uint64_t **validity, idx_t i)
{
    if (*validity == NULL) {
        duckdb_vector_ensure_validity_writable(out);
        *validity = duckdb_vector_get_validity(out);
    }
    duckdb_validity_set_row_invalid(*validity, i);
}

/* ---- the row loop ----------------------------------------------------------- */

/* One call of a scalar function, as its row steps see it: the vector it
 * writes, that vector's data and its validity (fetched at the first NULL
 * written), the function's extra info and the call's scratch memory.  A
 * function with more state has a struct whose first member is its call_t
 * (its steps cast back to it). */
typedef struct {
    duckdb_function_info info;
    duckdb_vector out;
    void *data; /* duckdb_string_t for text, uint64_t, bool, duckdb_list_entry */
    uint64_t *out_valid;
    int op;
    scratch_t sc;
    texts_t text; /* a text result's rows (text.v NULL for other results) */
} call_t;

static void call_init(call_t *c, duckdb_function_info info, duckdb_vector out)
{
    duckdb_logical_type type = duckdb_vector_get_column_type(out);
    memset(c, 0, sizeof *c);
    c->info = info;
    c->out = out;
    c->data = duckdb_vector_get_data(out);
    c->op = (int)(intptr_t)duckdb_scalar_function_get_extra_info(info);
    if (duckdb_get_type_id(type) == DUCKDB_TYPE_VARCHAR)
        text_init(&c->text, out);
    duckdb_destroy_logical_type(&type);
}

/* A row's step, its text p[0, n): 0 to go on, -1 to end the call (the
 * query's error set); a NULL row's step. */
typedef int (*row_step_t)(call_t *c, idx_t i, const uint8_t *p, int64_t n);
typedef void (*null_step_t)(call_t *c, idx_t i);

/* Row i of the output is NULL. */
static inline int null_row(call_t *c, idx_t i)
{
    set_null(c->out, &c->out_valid, i);
    return 0;
}

static int out_of_memory(call_t *c)
{
    duckdb_scalar_function_set_error(c->info, "out of memory");
    return -1;
}

/* Every function's loop over the rows of its text argument arg: a NULL
 * row goes to null_step (NULL: the output's row is NULL), any other to
 * step, until a step ends the call; then the scratch memory is freed.
 * Always inlined, so that the steps, known where it is called, are
 * compiled into each function's own loop as if written there. */
static FU_ALWAYS_INLINE void each_row(call_t *c, duckdb_data_chunk input, idx_t arg,
                                      row_step_t step, null_step_t null_step)
{
    idx_t rows = duckdb_data_chunk_get_size(input), i;
    duckdb_vector in = duckdb_data_chunk_get_vector(input, arg);
    const duckdb_string_t *text = (const duckdb_string_t *)duckdb_vector_get_data(in);
    const uint64_t *in_valid = duckdb_vector_get_validity(in);
    for (i = 0; i < rows; i++) {
        const uint8_t *p;
        int64_t n;
        if (!row_valid(in_valid, i)) {
            if (null_step != NULL)
                null_step(c, i);
            else
                null_row(c, i);
            continue;
        }
        row_text(&text[i], &p, &n);
        if (step(c, i, p, n) < 0)
            break;
    }
    /* (after a failed row too: the pending rows are whole, and freed) */
    if (c->text.v != NULL)
        text_flush(&c->text);
    text_free(&c->text);
    scratch_free(&c->sc);
}

/* ---- options: the arguments after the URL ---------------------------------
 *
 * SQL hands a function's options over as vectors as long as the URLs (a
 * literal repeated): each is read from row 0, and must be the same in every
 * row (a function's options are the function's, not a row's). */

static int option_error(call_t *c, const char *what, const char *why)
{
    char msg[160];
    snprintf(msg, sizeof msg, "argument '%s' %s", what, why);
    duckdb_scalar_function_set_error(c->info, msg);
    return -1;
}

/* The vector of argument arg, its rows' validity; -1 (failed) when row 0 is
 * NULL or a row's validity differs from row 0's. */
static int option_vector(call_t *c, duckdb_data_chunk input, idx_t arg, const char *what,
                         duckdb_vector *v)
{
    idx_t rows = duckdb_data_chunk_get_size(input), i;
    const uint64_t *valid;
    *v = duckdb_data_chunk_get_vector(input, arg);
    valid = duckdb_vector_get_validity(*v);
    for (i = 0; i < rows; i++)
        if (!row_valid(valid, i))
            return option_error(c, what, "must not be NULL");
    return 0;
}

/* A BOOLEAN option: 0 or 1 into *out. */
static int option_bool(call_t *c, duckdb_data_chunk input, idx_t arg, const char *what, int *out)
{
    idx_t rows = duckdb_data_chunk_get_size(input), i;
    duckdb_vector v;
    const bool *b;
    if (rows == 0)
        return 0;
    if (option_vector(c, input, arg, what, &v) < 0)
        return -1;
    b = (const bool *)duckdb_vector_get_data(v);
    for (i = 1; i < rows; i++)
        if (b[i] != b[0])
            return option_error(c, what, "must be the same in every row");
    *out = b[0] ? 1 : 0;
    return 0;
}

/* An INTEGER option. */
static int option_int(call_t *c, duckdb_data_chunk input, idx_t arg, const char *what, int32_t *out)
{
    idx_t rows = duckdb_data_chunk_get_size(input), i;
    duckdb_vector v;
    const int32_t *x;
    if (rows == 0)
        return 0;
    if (option_vector(c, input, arg, what, &v) < 0)
        return -1;
    x = (const int32_t *)duckdb_vector_get_data(v);
    for (i = 1; i < rows; i++)
        if (x[i] != x[0])
            return option_error(c, what, "must be the same in every row");
    *out = x[0];
    return 0;
}

static inline int same_text(const duckdb_string_t *a, const duckdb_string_t *b)
{
    const uint8_t *p, *q;
    int64_t n, m;
    row_text(a, &p, &n);
    row_text(b, &q, &m);
    return n == m && memcmp(p, q, (size_t)n) == 0;
}

/* A VARCHAR option: its bytes (in the vector's memory). */
static int option_text(call_t *c, duckdb_data_chunk input, idx_t arg, const char *what,
                       const uint8_t **p, int64_t *n)
{
    idx_t rows = duckdb_data_chunk_get_size(input), i;
    duckdb_vector v;
    const duckdb_string_t *t;
    if (rows == 0)
        return 0;
    if (option_vector(c, input, arg, what, &v) < 0)
        return -1;
    t = (const duckdb_string_t *)duckdb_vector_get_data(v);
    for (i = 1; i < rows; i++)
        if (!same_text(&t[i], &t[0]))
            return option_error(c, what, "must be the same in every row");
    row_text(&t[0], p, n);
    return 0;
}

/* An ABNF rule's number by its name and RFC; -1 (failed) when none. */
static int option_rule(call_t *c, const uint8_t *name, int64_t n, int32_t rfc)
{
    char msg[160];
    int k = fu_rule_named(name, n, rfc);
    if (k >= 0)
        return k;
    if (rfc != 3986 && rfc != 2396)
        snprintf(msg, sizeof msg, "rfc must be 3986 or 2396, not %d", (int)rfc);
    else
        snprintf(msg, sizeof msg, "unknown rule '%.*s' for RFC %d", (int)(n < 64 ? n : 64),
                 (const char *)name, (int)rfc);
    duckdb_scalar_function_set_error(c->info, msg);
    return -1;
}

/* canonicalize's and fingerprint's options: sort_query, drop_fragment,
 * drop_params (a VARCHAR[]; each a name, or a prefix before a final '*')
 * and preset (only NULL: the w3lib preset is the Arrow path's). */
typedef struct {
    int sort_query, drop_fragment, nrules;
    fu_drop_rule_t *rules;
    ptrdiff_t longest;
    uint8_t *name; /* fu_canon_key's scratch: longest + 5 bytes */
} canon_opts_t;

static void canon_opts_free(canon_opts_t *o)
{
    free(o->rules);
    free(o->name);
}

/* A VARCHAR[] option: its count of texts and the texts themselves (*names
 * from *first on, in the vector's memory); -1 (failed) when a row's list
 * differs from row 0's or holds a NULL. */
static int option_list(call_t *c, duckdb_data_chunk input, idx_t arg, const char *what,
                       const duckdb_string_t **names, idx_t *first, idx_t *count)
{
    idx_t rows = duckdb_data_chunk_get_size(input), i, k;
    duckdb_vector v, child;
    const duckdb_list_entry *e;
    const uint64_t *valid;
    *count = 0;
    if (rows == 0)
        return 0;
    if (option_vector(c, input, arg, what, &v) < 0)
        return -1;
    e = (const duckdb_list_entry *)duckdb_vector_get_data(v);
    child = duckdb_list_vector_get_child(v);
    *names = (const duckdb_string_t *)duckdb_vector_get_data(child);
    valid = duckdb_vector_get_validity(child);
    for (i = 0; i < rows; i++) {
        if (e[i].length != e[0].length)
            return option_error(c, what, "must be the same in every row");
        /* (a NULL's string is not to be read: DuckDB leaves it as it was) */
        for (k = 0; k < e[i].length; k++)
            if (!row_valid(valid, e[i].offset + k))
                return option_error(c, what, "must hold no NULL");
        for (k = 0; i > 0 && k < e[0].length; k++)
            if (!same_text(&(*names)[e[i].offset + k], &(*names)[e[0].offset + k]))
                return option_error(c, what, "must be the same in every row");
    }
    *first = e[0].offset;
    *count = e[0].length;
    return 0;
}

static int canon_options(call_t *c, duckdb_data_chunk input, canon_opts_t *o)
{
    idx_t args = duckdb_data_chunk_get_column_count(input);
    idx_t rows = duckdb_data_chunk_get_size(input), i;
    memset(o, 0, sizeof *o);
    o->sort_query = o->drop_fragment = 1;
    if (args > 1 && option_bool(c, input, 1, "sort_query", &o->sort_query) < 0)
        return -1;
    if (args > 2 && option_bool(c, input, 2, "drop_fragment", &o->drop_fragment) < 0)
        return -1;
    if (args > 3 && rows > 0) {
        const duckdb_string_t *names = NULL;
        idx_t first = 0, count = 0, k;
        if (option_list(c, input, 3, "drop_params", &names, &first, &count) < 0)
            return -1;
        o->rules = (fu_drop_rule_t *)calloc((size_t)count + 1, sizeof(fu_drop_rule_t));
        if (o->rules == NULL)
            return out_of_memory(c);
        for (k = 0; k < count; k++) {
            fu_drop_rule_t *r = &o->rules[k];
            const uint8_t *p;
            int64_t n;
            row_text(&names[first + k], &p, &n);
            r->prefix = n > 0 && p[n - 1] == '*';
            r->ptr = p;
            r->size = n - (r->prefix ? 1 : 0);
            if (r->size > o->longest)
                o->longest = r->size;
        }
        o->nrules = (int)count;
    }
    if (args > 4 && rows > 0) {
        duckdb_vector v = duckdb_data_chunk_get_vector(input, 4);
        const uint64_t *valid = duckdb_vector_get_validity(v);
        for (i = 0; i < rows; i++)
            if (row_valid(valid, i))
                return option_error(c, "preset",
                                    "is the Arrow path's (fasturi.duckdb.register on a connection"
                                    " without the extension): here it must be NULL");
    }
    o->name = (uint8_t *)malloc((size_t)o->longest + 5);
    return o->name == NULL ? out_of_memory(c) : 0;
}

/* ---- uri_scheme .. uri_fragment ------------------------------------------ */

typedef struct {
    call_t c;
    int authority, f; /* f: the component's index among FU_F_COUNT */
} components_t;

/* head: a component of the scheme or authority, which needs no scan of
 * the rest but its ASCII check (a constant in each of the row steps below) */
static FU_ALWAYS_INLINE int component(call_t *c, idx_t i, const uint8_t *p, int64_t n, int head)
{
    components_t *self = (components_t *)c;
    ptrdiff_t lo[FU_F_COUNT], hi[FU_F_COUNT];
    fu_split_t s;
    fu_authority_t a;
    int f = self->f, ascii;
    ascii = head ? fu_split_head_ascii_1(p, n, &s) : fu_split_ascii_1(p, n, &s);
    memset(&a, 0, sizeof a);
    if (self->authority && s.auth_start >= 0)
        fu_authority_1(p, s.auth_start, s.auth_end, &a);
    if (!is_utf8(p, n, ascii))
        return fail_utf8(c->info, i);
    fu_split_ranges(n, &s, &a, self->authority, lo, hi);
    if (lo[f] < 0)
        return null_row(c, i);
    return put_text(&c->text, i, p + lo[f], hi[f] - lo[f]) < 0 ? out_of_memory(c) : 0;
}

static int head_row(call_t *c, idx_t i, const uint8_t *p, int64_t n)
{
    return component(c, i, p, n, 1);
}

static int rest_row(call_t *c, idx_t i, const uint8_t *p, int64_t n)
{
    return component(c, i, p, n, 0);
}

static void components_fn(duckdb_function_info info, duckdb_data_chunk input, duckdb_vector out)
{
    components_t self;
    call_init(&self.c, info, out);
    self.authority = self.c.op == OP_USERINFO || self.c.op == OP_HOST || self.c.op == OP_PORT;
    self.f = self.c.op - OP_SCHEME;
    if (self.c.op <= OP_PORT)
        each_row(&self.c, input, 0, head_row, NULL);
    else
        each_row(&self.c, input, 0, rest_row, NULL);
}

/* ---- uri_split ------------------------------------------------------------ */

typedef struct {
    call_t c;
    duckdb_vector child[8];
    uint64_t *child_valid[8];
    texts_t child_text[8];
} split_call_t;

static void split_null(call_t *c, idx_t i)
{
    split_call_t *self = (split_call_t *)c;
    int k;
    null_row(c, i);
    for (k = 0; k < 8; k++)
        set_null(self->child[k], &self->child_valid[k], i);
}

static int split_row(call_t *c, idx_t i, const uint8_t *p, int64_t n)
{
    split_call_t *self = (split_call_t *)c;
    ptrdiff_t lo[FU_F_COUNT], hi[FU_F_COUNT];
    fu_split_t s;
    fu_authority_t a;
    int k;
    if (!is_utf8(p, n, fu_split_row_1(p, n, 1, &s, &a)))
        return fail_utf8(c->info, i);
    fu_split_ranges(n, &s, &a, 1, lo, hi);
    for (k = 0; k < 8; k++) {
        if (lo[k] < 0)
            set_null(self->child[k], &self->child_valid[k], i);
        else if (put_text(&self->child_text[k], i, p + lo[k], hi[k] - lo[k]) < 0)
            return out_of_memory(c);
    }
    return 0;
}

static void split_fn(duckdb_function_info info, duckdb_data_chunk input, duckdb_vector out)
{
    split_call_t self;
    int k;
    call_init(&self.c, info, out);
    for (k = 0; k < 8; k++) {
        self.child[k] = duckdb_struct_vector_get_child(out, (idx_t)k);
        self.child_valid[k] = NULL;
        text_init(&self.child_text[k], self.child[k]);
    }
    each_row(&self.c, input, 0, split_row, split_null);
    for (k = 0; k < 8; k++) {
        text_flush(&self.child_text[k]);
        text_free(&self.child_text[k]);
    }
}

/* ---- uri_query_params ----------------------------------------------------- */

typedef struct {
    call_t c;
    duckdb_vector keys, values;
    texts_t key_text, value_text;
    uint64_t *value_valid;
    idx_t total; /* the pairs of the rows so far */
    int mode;    /* FU_FORM_DECODE, or 0: as written */
} query_params_t;

static void query_params_null(call_t *c, idx_t i)
{
    duckdb_list_entry *entries = (duckdb_list_entry *)c->data;
    null_row(c, i);
    entries[i].offset = ((query_params_t *)c)->total;
    entries[i].length = 0;
}

/* The query's '&'-separated fields, empty ones left out, each split at its
 * first '=' into key and value (NULL when there is no '='), form-decoded
 * or as written (fasturi.query_params).  A row without a query gives an
 * empty list. */
static int query_params_row(call_t *c, idx_t i, const uint8_t *p, int64_t n)
{
    query_params_t *self = (query_params_t *)c;
    duckdb_list_entry *entries = (duckdb_list_entry *)c->data;
    idx_t total = self->total, count = 0;
    ptrdiff_t qa, qend, pos, m;
    const uint8_t *text;
    fu_qfield_t f;
    if (!is_utf8(p, n, fu_is_ascii(p, n)))
        return fail_utf8(c->info, i);
    entries[i].offset = total;
    if (fu_query_range(p, n, &qa, &qend)) {
        /* room for every field: one more than the query's '&' */
        idx_t most = 1;
        for (pos = qa; pos < qend; pos++)
            most += p[pos] == '&';
        if (duckdb_list_vector_reserve(c->out, total + most) == DuckDBError)
            return out_of_memory(c);
        /* a key or value decoded: room for the longest field, the query */
        if (self->mode && reserve(&c->sc.data, &c->sc.cap, FU_FORM_ROOM((size_t)(qend - qa))) < 0)
            return out_of_memory(c);
        /* (reserving may move the children's memory) */
        self->value_valid = NULL;
        text_refresh(&self->key_text);
        text_refresh(&self->value_text);
        for (pos = qa; fu_query_next(p, &pos, qend, &f);) {
            m = fu_query_key(p, &f, self->mode, c->sc.data, &text);
            if (put_text(&self->key_text, total + count, text, m) < 0)
                return out_of_memory(c);
            m = fu_query_value(p, &f, self->mode, c->sc.data, &text);
            if (m < 0)
                set_null(self->values, &self->value_valid, total + count);
            else if (put_text(&self->value_text, total + count, text, m) < 0)
                return out_of_memory(c);
            count++;
        }
    }
    entries[i].length = count;
    self->total = total += count;
    if (duckdb_list_vector_set_size(c->out, total) == DuckDBError)
        return out_of_memory(c);
    return 0;
}

static void query_params_fn(duckdb_function_info info, duckdb_data_chunk input, duckdb_vector out)
{
    query_params_t self;
    duckdb_vector pairs = duckdb_list_vector_get_child(out);
    int decode = 1;
    call_init(&self.c, info, out);
    if (duckdb_data_chunk_get_column_count(input) > 1
        && option_bool(&self.c, input, 1, "decode", &decode) < 0)
        return;
    self.keys = duckdb_struct_vector_get_child(pairs, 0);
    self.values = duckdb_struct_vector_get_child(pairs, 1);
    self.value_valid = NULL;
    self.total = 0;
    self.mode = decode ? FU_FORM_DECODE : 0;
    text_init(&self.key_text, self.keys);
    text_init(&self.value_text, self.values);
    each_row(&self.c, input, 0, query_params_row, query_params_null);
    text_refresh(&self.key_text);
    text_refresh(&self.value_text);
    text_flush(&self.key_text);
    text_flush(&self.value_text);
    text_free(&self.key_text);
    text_free(&self.value_text);
}

/* ---- uri_path_hierarchy ----------------------------------------------------- */

/* The path's prefixes ending at each '/' (but a leading one's), then the
 * whole path where it does not end in '/' (fasturi.path_hierarchy); the
 * list's texts in key_text (query_params_t's, its values unused). */
static int path_hierarchy_row(call_t *c, idx_t i, const uint8_t *p, int64_t n)
{
    query_params_t *self = (query_params_t *)c;
    duckdb_list_entry *entries = (duckdb_list_entry *)c->data;
    idx_t total = self->total, count = 0, most = 1;
    ptrdiff_t a, b, at = -1, end, k;
    if (!is_utf8(p, n, fu_is_ascii(p, n)))
        return fail_utf8(c->info, i);
    entries[i].offset = total;
    fu_path_range(p, n, &a, &b);
    for (k = a; k < b; k++) /* room for every level: one more than the path's '/' */
        most += p[k] == '/';
    if (duckdb_list_vector_reserve(c->out, total + most) == DuckDBError)
        return out_of_memory(c);
    text_refresh(&self->key_text); /* (reserving may move the child's memory) */
    while ((end = fu_path_level_next(p, a, b, &at)) >= 0) {
        if (put_text(&self->key_text, total + count, p + a, end - a) < 0)
            return out_of_memory(c);
        count++;
    }
    entries[i].length = count;
    self->total = total += count;
    if (duckdb_list_vector_set_size(c->out, total) == DuckDBError)
        return out_of_memory(c);
    return 0;
}

static void path_hierarchy_fn(duckdb_function_info info, duckdb_data_chunk input, duckdb_vector out)
{
    query_params_t self;
    call_init(&self.c, info, out);
    self.keys = duckdb_list_vector_get_child(out);
    self.total = 0;
    text_init(&self.key_text, self.keys);
    each_row(&self.c, input, 0, path_hierarchy_row, query_params_null);
    text_refresh(&self.key_text);
    text_flush(&self.key_text);
    text_free(&self.key_text);
}

/* ---- uri_normalize, uri_canonicalize, uri_fingerprint --------------------- */

typedef struct {
    call_t c;
    int scheme_based;
    canon_opts_t o;
} text_call_t;

/* canonicalize's key of the row, in sc->data; its length, or -1 when out
 * of memory. */
static int64_t canon_key(scratch_t *sc, const canon_opts_t *o, const uint8_t *p, int64_t n)
{
    ptrdiff_t m;
    if (reserve(&sc->more, &sc->more_cap, (size_t)n + FU_NORMALIZE_EXTRA) < 0)
        return -1;
    m = fu_normalize_1(p, n, 1, sc->more);
    if (reserve(&sc->data, &sc->cap, (size_t)m + 1) < 0)
        return -1;
    return fu_canon_key(sc->more, m, o->sort_query, o->drop_fragment, o->rules, o->nrules,
                        o->longest, o->name, &sc->fields, &sc->fields_cap, sc->data);
}

static int text_row(call_t *c, idx_t i, const uint8_t *p, int64_t n)
{
    text_call_t *self = (text_call_t *)c;
    scratch_t *sc = &c->sc;
    int64_t m;
    if (!is_utf8(p, n, fu_is_ascii(p, n)))
        return fail_utf8(c->info, i);
    if (c->op == OP_NORMALIZE) {
        if (reserve(&sc->data, &sc->cap, (size_t)n + FU_NORMALIZE_EXTRA) < 0)
            return out_of_memory(c);
        m = fu_normalize_1(p, n, self->scheme_based, sc->data);
    } else {
        m = canon_key(sc, &self->o, p, n);
        if (m < 0)
            return out_of_memory(c);
        if (c->op == OP_FINGERPRINT) {
            ((uint64_t *)c->data)[i] = fu_xxh64(sc->data, (size_t)m, 0);
            return 0;
        }
    }
    return put_text(&c->text, i, sc->data, m) < 0 ? out_of_memory(c) : 0;
}

static void text_fn(duckdb_function_info info, duckdb_data_chunk input, duckdb_vector out)
{
    text_call_t self;
    int rc;
    call_init(&self.c, info, out);
    self.scheme_based = 1;
    memset(&self.o, 0, sizeof self.o);
    if (self.c.op == OP_NORMALIZE)
        rc = duckdb_data_chunk_get_column_count(input) > 1
                 ? option_bool(&self.c, input, 1, "scheme_based", &self.scheme_based)
                 : 0;
    else
        rc = canon_options(&self.c, input, &self.o);
    if (rc == 0)
        each_row(&self.c, input, 0, text_row, NULL);
    canon_opts_free(&self.o);
}

/* ---- uri_is_valid ---------------------------------------------------------- */

static void is_valid_null(call_t *c, idx_t i)
{
    null_row(c, i);
    ((bool *)c->data)[i] = false;
}

typedef struct {
    call_t c;
    int rule;
} is_valid_call_t;

static int is_valid_row(call_t *c, idx_t i, const uint8_t *p, int64_t n)
{
    int rule = ((is_valid_call_t *)c)->rule;
    bool *bits = (bool *)c->data;
    scratch_t *sc = &c->sc;
    int64_t count = 0;
    if (fu_is_ascii(p, n)) {
        bits[i] = fu_rule_check(rule, p, n) < 0;
        return 0;
    }
    /* as the kernels: the code points' RFC 3987 classes, one byte each */
    if (reserve_wide(sc, (size_t)n) < 0 || reserve(&sc->data, &sc->cap, (size_t)n) < 0)
        return out_of_memory(c);
    if (!fu_utf8_decode(p, n, sc->wide, &count))
        return fail_utf8(c->info, i);
    fu_classify_4(sc->wide, count, sc->data);
    bits[i] = fu_rule_check(rule, sc->data, count) < 0;
    return 0;
}

static void is_valid_fn(duckdb_function_info info, duckdb_data_chunk input, duckdb_vector out)
{
    is_valid_call_t self;
    idx_t args = duckdb_data_chunk_get_column_count(input);
    const uint8_t *name = (const uint8_t *)"URI-reference";
    int64_t n = 13;
    int32_t rfc = 3986;
    call_init(&self.c, info, out);
    if (args > 1 && option_text(&self.c, input, 1, "rule", &name, &n) < 0)
        return;
    if (args > 2 && option_int(&self.c, input, 2, "rfc", &rfc) < 0)
        return;
    self.rule = option_rule(&self.c, name, n, rfc);
    if (self.rule >= 0)
        each_row(&self.c, input, 0, is_valid_row, is_valid_null);
}

/* ---- uri_resolve(base, ref) ------------------------------------------------ */

typedef struct {
    call_t c;
    const duckdb_string_t *bases;
    const uint64_t *base_valid;
    /* the last base split: a page's links share it */
    const uint8_t *last;
    int64_t nlast;
    fu_split_t parts;
    int strict, rfc;
} resolve_call_t;

/* The loop runs over the references (argument 1): in the kernels' order,
 * the reference, then its base. */
static int resolve_row(call_t *c, idx_t i, const uint8_t *p, int64_t n)
{
    resolve_call_t *self = (resolve_call_t *)c;
    const uint8_t *b;
    int64_t nb, m;
    if (!fu_utf8_valid(p, n))
        return fail_utf8(c->info, i);
    if (!row_valid(self->base_valid, i))
        return null_row(c, i);
    row_text(&self->bases[i], &b, &nb);
    if (self->last == NULL || nb != self->nlast || memcmp(b, self->last, (size_t)nb) != 0) {
        if (!fu_utf8_valid(b, nb))
            return fail_utf8(c->info, i);
        fu_split_1(b, nb, &self->parts);
        self->last = b;
        self->nlast = nb;
    }
    if (self->parts.scheme_end < 0)
        return null_row(c, i);
    if (reserve(&c->sc.data, &c->sc.cap, (size_t)(nb + n) + FU_RESOLVE_EXTRA) < 0)
        return out_of_memory(c);
    m = fu_resolve_1(b, nb, &self->parts, p, n, self->strict, self->rfc, c->sc.data);
    return put_text(&c->text, i, c->sc.data, m) < 0 ? out_of_memory(c) : 0;
}

static void resolve_fn(duckdb_function_info info, duckdb_data_chunk input, duckdb_vector out)
{
    resolve_call_t self;
    duckdb_vector vb = duckdb_data_chunk_get_vector(input, 0);
    call_init(&self.c, info, out);
    self.bases = (const duckdb_string_t *)duckdb_vector_get_data(vb);
    self.base_valid = duckdb_vector_get_validity(vb);
    self.last = NULL;
    self.nlast = -1;
    memset(&self.parts, 0, sizeof self.parts);
    self.strict = 1;
    self.rfc = FU_RESOLVE_3986;
    if (duckdb_data_chunk_get_column_count(input) > 2
        && option_bool(&self.c, input, 2, "strict", &self.strict) < 0)
        return;
    if (duckdb_data_chunk_get_column_count(input) > 3) {
        int32_t rfc = 3986;
        if (option_int(&self.c, input, 3, "rfc", &rfc) < 0)
            return;
        if (rfc != 3986 && rfc != 2396) {
            option_error(&self.c, "rfc", "must be 3986 or 2396");
            return;
        }
        self.rfc = rfc == 2396 ? FU_RESOLVE_2396 : FU_RESOLVE_3986;
    }
    each_row(&self.c, input, 1, resolve_row, NULL);
}

/* ---- uri_registrable_domain, uri_public_suffix ------------------------------ */

/* The Public Suffix List fasturi.duckdb hands the extension
 * (fasturi_load_public_suffix_list below; fasturi_psl_table.h): a
 * fu_psl_table_t *, read and set atomically. */
static int64_t psl_current;

static const fu_psl_table_t *psl_get(void)
{
    return (const fu_psl_table_t *)(intptr_t)fu_shared_get(&psl_current);
}

typedef struct {
    call_t c;
    const fu_psl_table_t *table;
    int shift; /* 0: the ICANN section's flags; 4 (private): the whole list's */
    fu_psl_scratch_t ps;
} psl_call_t;

static void no_psl(duckdb_function_info info)
{
    duckdb_scalar_function_set_error(
        info, "fasturi: no Public Suffix List loaded (fasturi.duckdb.connect() loads the"
              " publicsuffixlist package's, or call fasturi_load_public_suffix_list)");
}

static int psl_row(call_t *c, idx_t i, const uint8_t *p, int64_t n)
{
    psl_call_t *self = (psl_call_t *)c;
    const uint8_t *at;
    int64_t m;
    int got;
    if (!fu_utf8_valid(p, n))
        return fail_utf8(c->info, i);
    got = fu_psl_answer(self->table, self->shift,
                        c->op == OP_REGISTRABLE_DOMAIN ? FU_PSL_DOMAIN : FU_PSL_SUFFIX, p, n,
                        &self->ps, &at, &m);
    if (got < 0)
        return out_of_memory(c);
    if (got == 0)
        return null_row(c, i);
    return put_text(&c->text, i, at, m) < 0 ? out_of_memory(c) : 0;
}

static void psl_fn(duckdb_function_info info, duckdb_data_chunk input, duckdb_vector out)
{
    psl_call_t self;
    const fu_psl_table_t *table = psl_get();
    if (table == NULL) {
        no_psl(info);
        return;
    }
    call_init(&self.c, info, out);
    self.table = table;
    self.shift = 0;
    memset(&self.ps, 0, sizeof self.ps);
    if (duckdb_data_chunk_get_column_count(input) > 1) {
        int private_ = 0;
        if (option_bool(&self.c, input, 1, "private", &private_) < 0)
            return;
        self.shift = private_ ? 4 : 0;
    }
    each_row(&self.c, input, 0, psl_row, NULL);
    fu_psl_scratch_free(&self.ps);
}

/* ---- uri_query_param, uri_path_extension, uri_remove_params, uri_subdomain --
 *
 * fasturi_parts.h's, as fasturi.arrow's kernels run them (uri_subdomain
 * on the list uri_registrable_domain reads). */

typedef struct {
    call_t c;
    const uint8_t *name; /* query_param: the key, and how it is compared */
    int64_t nname;
    int mode;
    fu_glob_t *globs; /* remove_params */
    int nglobs;
    const fu_psl_table_t *table; /* subdomain */
    int shift;
    fu_psl_scratch_t ps;
} parts_call_t;

static int parts_row(call_t *c, idx_t i, const uint8_t *p, int64_t n)
{
    parts_call_t *self = (parts_call_t *)c;
    scratch_t *sc = &c->sc;
    const uint8_t *at;
    ptrdiff_t from = 0;
    int64_t m;
    int got;
    if (!is_utf8(p, n, fu_is_ascii(p, n)))
        return fail_utf8(c->info, i);
    switch (c->op) {
    case OP_PATH_EXTENSION:
        m = fu_path_extension_1(p, n, &from);
        at = p + from;
        break;
    case OP_QUERY_PARAM:
        if (reserve(&sc->data, &sc->cap, FU_FORM_ROOM((size_t)n)) < 0)
            return out_of_memory(c);
        m = fu_query_param_1(p, n, self->name, self->nname, self->mode, sc->data, &at);
        break;
    case OP_REMOVE_PARAMS:
        if (reserve(&sc->data, &sc->cap, FU_FORM_ROOM((size_t)n)) < 0
            || reserve(&sc->more, &sc->more_cap, (size_t)n + 1) < 0)
            return out_of_memory(c);
        m = fu_remove_params_1(p, n, self->globs, self->nglobs, 0, sc->data, sc->more);
        at = sc->more;
        if (m < 0) { /* no field removed: the row as it is */
            at = p;
            m = n;
        }
        break;
    default: /* OP_SUBDOMAIN */
        got = fu_psl_answer(self->table, self->shift, FU_PSL_SUBDOMAIN, p, n, &self->ps, &at, &m);
        if (got < 0)
            return out_of_memory(c);
        m = got ? m : -1;
        break;
    }
    if (m < 0)
        return null_row(c, i);
    return put_text(&c->text, i, at, m) < 0 ? out_of_memory(c) : 0;
}

static void parts_fn(duckdb_function_info info, duckdb_data_chunk input, duckdb_vector out)
{
    parts_call_t self;
    idx_t args = duckdb_data_chunk_get_column_count(input);
    memset(&self, 0, sizeof self);
    call_init(&self.c, info, out);
    if (self.c.op == OP_QUERY_PARAM) {
        int decode = 1;
        if (option_text(&self.c, input, 1, "name", &self.name, &self.nname) < 0)
            return;
        if (args > 2 && option_bool(&self.c, input, 2, "decode", &decode) < 0)
            return;
        self.mode = decode ? FU_FORM_DECODE : 0;
    } else if (self.c.op == OP_REMOVE_PARAMS) {
        const duckdb_string_t *names = NULL;
        idx_t first = 0, count = 0, k;
        if (option_list(&self.c, input, 1, "patterns", &names, &first, &count) < 0)
            return;
        self.globs = (fu_glob_t *)calloc((size_t)count + 1, sizeof(fu_glob_t));
        if (self.globs == NULL) {
            out_of_memory(&self.c);
            return;
        }
        for (k = 0; k < count; k++) {
            const uint8_t *g;
            int64_t n;
            row_text(&names[first + k], &g, &n);
            self.globs[k].p = g;
            self.globs[k].n = n;
        }
        self.nglobs = (int)count;
    } else if (self.c.op == OP_SUBDOMAIN) {
        int private_ = 0;
        self.table = psl_get();
        if (self.table == NULL) {
            no_psl(info);
            return;
        }
        if (args > 1 && option_bool(&self.c, input, 1, "private", &private_) < 0)
            return;
        self.shift = private_ ? 4 : 0;
    }
    each_row(&self.c, input, 0, parts_row, NULL);
    free(self.globs);
    fu_psl_scratch_free(&self.ps);
}

/* fasturi_load_public_suffix_list(keys, version): the keys of _psl_c's
 * table (fasturi_psl_table.h); makes it the list every
 * uri_registrable_domain and uri_public_suffix of the process reads.
 * Returns the version. */
static void load_psl_fn(duckdb_function_info info, duckdb_data_chunk input, duckdb_vector out)
{
    idx_t rows = duckdb_data_chunk_get_size(input), i;
    duckdb_vector vk = duckdb_data_chunk_get_vector(input, 0);
    duckdb_vector vv = duckdb_data_chunk_get_vector(input, 1);
    const duckdb_string_t *keys = (const duckdb_string_t *)duckdb_vector_get_data(vk);
    const duckdb_string_t *versions = (const duckdb_string_t *)duckdb_vector_get_data(vv);
    uint64_t *kv = duckdb_vector_get_validity(vk), *vvv = duckdb_vector_get_validity(vv);
    for (i = 0; i < rows; i++) {
        const uint8_t *p, *v;
        int64_t n, nv;
        fu_psl_table_t *table;
        if (!row_valid(kv, i) || !row_valid(vvv, i)) {
            duckdb_scalar_function_set_error(info, "fasturi_load_public_suffix_list: NULL");
            return;
        }
        row_text(&keys[i], &p, &n);
        row_text(&versions[i], &v, &nv);
        table = fu_psl_table_build(p, n, v, nv);
        if (table == NULL) {
            duckdb_scalar_function_set_error(
                info, "fasturi_load_public_suffix_list: not a table fasturi.duckdb wrote");
            return;
        }
        /* (the table it replaces stays: a running function may read it) */
        fu_shared_swap(&psl_current, (int64_t)(intptr_t)table);
        duckdb_vector_assign_string_element_len(out, i, table->version, (idx_t)nv);
    }
}

static void psl_version_fn(duckdb_function_info info, duckdb_data_chunk input, duckdb_vector out)
{
    const fu_psl_table_t *table = psl_get();
    uint64_t *valid = NULL;
    idx_t rows = duckdb_data_chunk_get_size(input), i;
    (void)info;
    for (i = 0; i < rows; i++) {
        if (table == NULL)
            set_null(out, &valid, i);
        else
            duckdb_vector_assign_string_element(out, i, table->version);
    }
}

/* ---- registration ------------------------------------------------------------ */

/* name(args[0, k)) for every k from least to the count of args: one
 * function set, each overload the same C function, which reads the options
 * given.  volatile: evaluated for every row, never folded into a constant
 * when the query is planned (the Public Suffix List functions change
 * state). */
static int add_set(duckdb_connection con, const char *name, const duckdb_logical_type *args,
                   int least, int most, duckdb_logical_type returns, duckdb_scalar_function_t fn,
                   int op, int volatile_)
{
    duckdb_scalar_function_set set = duckdb_create_scalar_function_set(name);
    int k, j, bad = 0;
    for (k = least; k <= most; k++) {
        duckdb_scalar_function f = duckdb_create_scalar_function();
        duckdb_scalar_function_set_name(f, name);
        for (j = 0; j < k; j++)
            duckdb_scalar_function_add_parameter(f, args[j]);
        duckdb_scalar_function_set_return_type(f, returns);
        duckdb_scalar_function_set_function(f, fn);
        duckdb_scalar_function_set_extra_info(f, (void *)(intptr_t)op, NULL);
        /* NULL rows reach the function (an option's NULL is an error, not
         * a NULL result; a NULL preset is the default) */
        duckdb_scalar_function_set_special_handling(f);
        if (volatile_)
            duckdb_scalar_function_set_volatile(f);
        bad |= duckdb_add_scalar_function_to_set(set, f) != DuckDBSuccess;
        duckdb_destroy_scalar_function(&f);
    }
    bad |= duckdb_register_scalar_function_set(con, set) != DuckDBSuccess;
    duckdb_destroy_scalar_function_set(&set);
    return bad ? -1 : 0;
}

/* The argument types (V VARCHAR, B BOOLEAN, I INTEGER, L VARCHAR[]) of
 * every overload: the first `least` are required. */
static int add(duckdb_connection con, const char *name, const char *args, int least,
               duckdb_logical_type returns, duckdb_scalar_function_t fn, int op)
{
    duckdb_logical_type types[8], text = duckdb_create_logical_type(DUCKDB_TYPE_VARCHAR);
    int k, n = (int)strlen(args), rc;
    for (k = 0; k < n; k++) {
        switch (args[k]) {
        case 'B': types[k] = duckdb_create_logical_type(DUCKDB_TYPE_BOOLEAN); break;
        case 'I': types[k] = duckdb_create_logical_type(DUCKDB_TYPE_INTEGER); break;
        case 'L': types[k] = duckdb_create_list_type(text); break;
        default: types[k] = duckdb_create_logical_type(DUCKDB_TYPE_VARCHAR); break;
        }
    }
    rc = add_set(con, name, types, least, n, returns, fn, op, 0);
    for (k = 0; k < n; k++)
        duckdb_destroy_logical_type(&types[k]);
    duckdb_destroy_logical_type(&text);
    return rc;
}

static int add_typed(duckdb_connection con, const char *name, const char *args, int least,
                     duckdb_type returns, duckdb_scalar_function_t fn, int op)
{
    duckdb_logical_type t = duckdb_create_logical_type(returns);
    int rc = add(con, name, args, least, t, fn, op);
    duckdb_destroy_logical_type(&t);
    return rc;
}

/* Every function with its parameters in fasturi.arrow.FUNCTIONS' order
 * (split's fields excepted: its struct holds every field). */
static int register_all(duckdb_connection con)
{
    static const char *const names[8] = { "uri_scheme", "uri_authority", "uri_userinfo",
                                          "uri_host",   "uri_port",      "uri_path",
                                          "uri_query",  "uri_fragment" };
    duckdb_logical_type text = duckdb_create_logical_type(DUCKDB_TYPE_VARCHAR);
    duckdb_logical_type types[8];
    const char *kv[2] = { "key", "value" };
    duckdb_logical_type split, pair, params, levels;
    int k, bad = 0;
    for (k = 0; k < 8; k++) {
        types[k] = text;
        bad |= add_typed(con, names[k], "V", 1, DUCKDB_TYPE_VARCHAR, components_fn, OP_SCHEME + k);
    }
    bad |= add_typed(con, "uri_normalize", "VB", 1, DUCKDB_TYPE_VARCHAR, text_fn, OP_NORMALIZE);
    bad |= add_typed(con, "uri_canonicalize", "VBBLV", 1, DUCKDB_TYPE_VARCHAR, text_fn,
                     OP_CANONICALIZE);
    bad |=
        add_typed(con, "uri_fingerprint", "VBBLV", 1, DUCKDB_TYPE_UBIGINT, text_fn, OP_FINGERPRINT);
    bad |= add_typed(con, "uri_is_valid", "VVI", 1, DUCKDB_TYPE_BOOLEAN, is_valid_fn, OP_IS_VALID);
    bad |= add_typed(con, "uri_resolve", "VVBI", 2, DUCKDB_TYPE_VARCHAR, resolve_fn, OP_RESOLVE);
    bad |= add_typed(con, "uri_registrable_domain", "VB", 1, DUCKDB_TYPE_VARCHAR, psl_fn,
                     OP_REGISTRABLE_DOMAIN);
    bad |=
        add_typed(con, "uri_public_suffix", "VB", 1, DUCKDB_TYPE_VARCHAR, psl_fn, OP_PUBLIC_SUFFIX);
    bad |=
        add_typed(con, "uri_query_param", "VVB", 2, DUCKDB_TYPE_VARCHAR, parts_fn, OP_QUERY_PARAM);
    bad |= add_typed(con, "uri_remove_params", "VL", 2, DUCKDB_TYPE_VARCHAR, parts_fn,
                     OP_REMOVE_PARAMS);
    bad |= add_typed(con, "uri_path_extension", "V", 1, DUCKDB_TYPE_VARCHAR, parts_fn,
                     OP_PATH_EXTENSION);
    bad |= add_typed(con, "uri_subdomain", "VB", 1, DUCKDB_TYPE_VARCHAR, parts_fn, OP_SUBDOMAIN);
    bad |= add_set(con, "fasturi_load_public_suffix_list", types, 2, 2, text, load_psl_fn, 0, 1);
    bad |=
        add_set(con, "fasturi_public_suffix_list_version", types, 0, 0, text, psl_version_fn, 0, 1);
    split = duckdb_create_struct_type(types, SPLIT_FIELDS, 8);
    bad |= add(con, "uri_split", "V", 1, split, split_fn, OP_SPLIT);
    pair = duckdb_create_struct_type(types, kv, 2);
    params = duckdb_create_list_type(pair);
    bad |= add(con, "uri_query_params", "VB", 1, params, query_params_fn, OP_QUERY_PARAMS);
    levels = duckdb_create_list_type(text);
    bad |= add(con, "uri_path_hierarchy", "V", 1, levels, path_hierarchy_fn, OP_PATH_HIERARCHY);
    duckdb_destroy_logical_type(&levels);
    duckdb_destroy_logical_type(&params);
    duckdb_destroy_logical_type(&pair);
    duckdb_destroy_logical_type(&split);
    duckdb_destroy_logical_type(&text);
    return bad;
}

DUCKDB_EXTENSION_ENTRYPOINT(duckdb_connection connection, duckdb_extension_info info,
                            struct duckdb_extension_access *access)
{
    if (register_all(connection) != 0) {
        access->set_error(info, "fasturi: could not register the uri_* functions");
        return false;
    }
    return true;
}
