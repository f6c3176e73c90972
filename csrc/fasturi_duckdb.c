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
#include "fasturi_rules.h"
#include "fasturi_scan.h"
#include "fasturi_xxh64.h"

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

static inline int row_valid(uint64_t *validity, idx_t i)
{
    return validity == NULL || duckdb_validity_row_is_valid(validity, i);
}

static inline int is_utf8(const uint8_t *p, int64_t n, int ascii)
{
    return ascii || fu_utf8_decode(p, n, NULL, NULL);
}

static void fail_utf8(duckdb_function_info info, idx_t row)
{
    char msg[64];
    snprintf(msg, sizeof msg, "row %llu is not valid UTF-8", (unsigned long long)row);
    duckdb_scalar_function_set_error(info, msg);
}

static inline void set_null(duckdb_vector out, uint64_t **validity, idx_t i)
{
    if (*validity == NULL) {
        duckdb_vector_ensure_validity_writable(out);
        *validity = duckdb_vector_get_validity(out);
    }
    duckdb_validity_set_row_invalid(*validity, i);
}

/* Component `op` of a row split into s and a: [*lo, *hi), or 0 when it is
 * undefined (a NULL). */
static inline int component(int op, int64_t n, const fu_split_t *s, const fu_authority_t *a,
                            int64_t *lo, int64_t *hi)
{
    switch (op) {
    case OP_SCHEME:
        *lo = 0;
        *hi = s->scheme_end;
        return s->scheme_end >= 0;
    case OP_AUTHORITY:
        *lo = s->auth_start;
        *hi = s->auth_end;
        return s->auth_start >= 0;
    case OP_USERINFO:
        *lo = s->auth_start;
        *hi = a->userinfo_end;
        return s->auth_start >= 0 && a->userinfo_end >= 0;
    case OP_HOST:
        *lo = a->host_start;
        *hi = a->host_end;
        return s->auth_start >= 0;
    case OP_PORT:
        *lo = a->port_start;
        *hi = s->auth_end;
        return s->auth_start >= 0 && a->port_start >= 0;
    case OP_PATH:
        *lo = s->path_start;
        *hi = s->path_end;
        return 1;
    case OP_QUERY:
        *lo = s->query_start;
        *hi = s->query_end;
        return s->query_start >= 0;
    default: /* OP_FRAGMENT */
        *lo = s->frag_start;
        *hi = n;
        return s->frag_start >= 0;
    }
}

/* ---- uri_scheme .. uri_fragment ------------------------------------------ */

static void components_fn(duckdb_function_info info, duckdb_data_chunk input, duckdb_vector out)
{
    int op = (int)(intptr_t)duckdb_scalar_function_get_extra_info(info);
    idx_t rows = duckdb_data_chunk_get_size(input), i;
    duckdb_vector in = duckdb_data_chunk_get_vector(input, 0);
    const duckdb_string_t *text = (const duckdb_string_t *)duckdb_vector_get_data(in);
    uint64_t *in_valid = duckdb_vector_get_validity(in);
    uint64_t *out_valid = NULL;
    int authority = op == OP_USERINFO || op == OP_HOST || op == OP_PORT;
    for (i = 0; i < rows; i++) {
        const uint8_t *p;
        int64_t n, lo, hi;
        fu_split_t s;
        fu_authority_t a;
        if (!row_valid(in_valid, i)) {
            set_null(out, &out_valid, i);
            continue;
        }
        row_text(&text[i], &p, &n);
        if (!is_utf8(p, n, fu_split_row_1(p, n, authority, &s, &a))) {
            fail_utf8(info, i);
            return;
        }
        if (component(op, n, &s, &a, &lo, &hi))
            duckdb_vector_assign_string_element_len(out, i, (const char *)p + lo, (idx_t)(hi - lo));
        else
            set_null(out, &out_valid, i);
    }
}

/* ---- uri_split ------------------------------------------------------------ */

static void split_fn(duckdb_function_info info, duckdb_data_chunk input, duckdb_vector out)
{
    idx_t rows = duckdb_data_chunk_get_size(input), i;
    duckdb_vector in = duckdb_data_chunk_get_vector(input, 0);
    const duckdb_string_t *text = (const duckdb_string_t *)duckdb_vector_get_data(in);
    uint64_t *in_valid = duckdb_vector_get_validity(in);
    uint64_t *out_valid = NULL;
    duckdb_vector child[8];
    uint64_t *child_valid[8];
    int k;
    for (k = 0; k < 8; k++) {
        child[k] = duckdb_struct_vector_get_child(out, (idx_t)k);
        child_valid[k] = NULL;
    }
    for (i = 0; i < rows; i++) {
        const uint8_t *p;
        int64_t n, lo, hi;
        fu_split_t s;
        fu_authority_t a;
        if (!row_valid(in_valid, i)) {
            set_null(out, &out_valid, i);
            for (k = 0; k < 8; k++)
                set_null(child[k], &child_valid[k], i);
            continue;
        }
        row_text(&text[i], &p, &n);
        if (!is_utf8(p, n, fu_split_row_1(p, n, 1, &s, &a))) {
            fail_utf8(info, i);
            return;
        }
        for (k = 0; k < 8; k++) {
            if (component(OP_SCHEME + k, n, &s, &a, &lo, &hi))
                duckdb_vector_assign_string_element_len(child[k], i, (const char *)p + lo,
                                                        (idx_t)(hi - lo));
            else
                set_null(child[k], &child_valid[k], i);
        }
    }
}

/* ---- uri_query_params ----------------------------------------------------- */

/* The query's '&'-separated fields, empty ones left out, each split at its
 * first '=' into key and value (NULL when there is no '='), both as
 * written.  A row without a query gives an empty list. */
static void query_params_fn(duckdb_function_info info, duckdb_data_chunk input, duckdb_vector out)
{
    idx_t rows = duckdb_data_chunk_get_size(input), i, total = 0;
    duckdb_vector in = duckdb_data_chunk_get_vector(input, 0);
    const duckdb_string_t *text = (const duckdb_string_t *)duckdb_vector_get_data(in);
    uint64_t *in_valid = duckdb_vector_get_validity(in);
    uint64_t *out_valid = NULL, *value_valid = NULL;
    duckdb_list_entry *entries = (duckdb_list_entry *)duckdb_vector_get_data(out);
    duckdb_vector pairs = duckdb_list_vector_get_child(out);
    duckdb_vector keys = duckdb_struct_vector_get_child(pairs, 0);
    duckdb_vector values = duckdb_struct_vector_get_child(pairs, 1);
    for (i = 0; i < rows; i++) {
        const uint8_t *p;
        int64_t n, pos, end, eq;
        fu_split_t s;
        idx_t count = 0;
        if (!row_valid(in_valid, i)) {
            set_null(out, &out_valid, i);
            entries[i].offset = total;
            entries[i].length = 0;
            continue;
        }
        row_text(&text[i], &p, &n);
        if (!is_utf8(p, n, fu_split_ascii_1(p, n, &s))) {
            fail_utf8(info, i);
            return;
        }
        entries[i].offset = total;
        if (s.query_start >= 0) {
            /* room for every field: one more than the query's '&' */
            idx_t most = 1;
            for (pos = s.query_start; pos < s.query_end; pos++)
                most += p[pos] == '&';
            if (duckdb_list_vector_reserve(out, total + most) == DuckDBError) {
                duckdb_scalar_function_set_error(info, "out of memory");
                return;
            }
            /* (reserving may move the children's memory) */
            value_valid = NULL;
            for (pos = s.query_start; pos <= s.query_end; pos = end + 1) {
                const uint8_t *amp =
                    (const uint8_t *)memchr(p + pos, '&', (size_t)(s.query_end - pos));
                const uint8_t *sep;
                end = amp ? amp - p : s.query_end;
                if (end == pos)
                    continue;
                sep = (const uint8_t *)memchr(p + pos, '=', (size_t)(end - pos));
                eq = sep ? sep - p : end;
                duckdb_vector_assign_string_element_len(keys, total + count, (const char *)p + pos,
                                                        (idx_t)(eq - pos));
                if (sep)
                    duckdb_vector_assign_string_element_len(
                        values, total + count, (const char *)p + eq + 1, (idx_t)(end - eq - 1));
                else
                    set_null(values, &value_valid, total + count);
                count++;
            }
        }
        entries[i].length = count;
        total += count;
        if (duckdb_list_vector_set_size(out, total) == DuckDBError) {
            duckdb_scalar_function_set_error(info, "out of memory");
            return;
        }
    }
}

/* ---- uri_normalize, uri_canonicalize, uri_fingerprint --------------------- */

/* canonicalize's key (default options) of the row, in sc->data; its
 * length, or -1 when out of memory. */
static int64_t canon_key(scratch_t *sc, const uint8_t *p, int64_t n)
{
    uint8_t name[8]; /* (the drop rules' scratch: there are none) */
    ptrdiff_t m;
    if (reserve(&sc->more, &sc->more_cap, (size_t)n + FU_NORMALIZE_EXTRA) < 0)
        return -1;
    m = fu_normalize_1(p, n, 1, sc->more);
    if (reserve(&sc->data, &sc->cap, (size_t)m + 1) < 0)
        return -1;
    return fu_canon_key(sc->more, m, 1, 1, NULL, 0, 0, name, &sc->fields, &sc->fields_cap,
                        sc->data);
}

static void text_fn(duckdb_function_info info, duckdb_data_chunk input, duckdb_vector out)
{
    int op = (int)(intptr_t)duckdb_scalar_function_get_extra_info(info);
    idx_t rows = duckdb_data_chunk_get_size(input), i;
    duckdb_vector in = duckdb_data_chunk_get_vector(input, 0);
    const duckdb_string_t *text = (const duckdb_string_t *)duckdb_vector_get_data(in);
    uint64_t *in_valid = duckdb_vector_get_validity(in);
    uint64_t *out_valid = NULL;
    uint64_t *hashes = op == OP_FINGERPRINT ? (uint64_t *)duckdb_vector_get_data(out) : NULL;
    scratch_t sc;
    memset(&sc, 0, sizeof sc);
    for (i = 0; i < rows; i++) {
        const uint8_t *p;
        int64_t n, m;
        if (!row_valid(in_valid, i)) {
            set_null(out, &out_valid, i);
            continue;
        }
        row_text(&text[i], &p, &n);
        if (!is_utf8(p, n, fu_is_ascii(p, n))) {
            fail_utf8(info, i);
            break;
        }
        if (op == OP_NORMALIZE) {
            if (reserve(&sc.data, &sc.cap, (size_t)n + FU_NORMALIZE_EXTRA) < 0)
                goto oom;
            m = fu_normalize_1(p, n, 1, sc.data);
        } else {
            m = canon_key(&sc, p, n);
            if (m < 0)
                goto oom;
            if (op == OP_FINGERPRINT) {
                hashes[i] = fu_xxh64(sc.data, (size_t)m, 0);
                continue;
            }
        }
        duckdb_vector_assign_string_element_len(out, i, (const char *)sc.data, (idx_t)m);
    }
    scratch_free(&sc);
    return;
oom:
    scratch_free(&sc);
    duckdb_scalar_function_set_error(info, "out of memory");
}

/* ---- uri_is_valid ---------------------------------------------------------- */

static void is_valid_fn(duckdb_function_info info, duckdb_data_chunk input, duckdb_vector out)
{
    idx_t rows = duckdb_data_chunk_get_size(input), i;
    duckdb_vector in = duckdb_data_chunk_get_vector(input, 0);
    const duckdb_string_t *text = (const duckdb_string_t *)duckdb_vector_get_data(in);
    uint64_t *in_valid = duckdb_vector_get_validity(in);
    uint64_t *out_valid = NULL;
    bool *bits = (bool *)duckdb_vector_get_data(out);
    scratch_t sc;
    memset(&sc, 0, sizeof sc);
    for (i = 0; i < rows; i++) {
        const uint8_t *p;
        int64_t n, count = 0;
        if (!row_valid(in_valid, i)) {
            set_null(out, &out_valid, i);
            bits[i] = false;
            continue;
        }
        row_text(&text[i], &p, &n);
        if (fu_is_ascii(p, n)) {
            bits[i] = fu_rule_check(FU_R_URI_REFERENCE, p, n) < 0;
            continue;
        }
        /* as the kernels: the code points' RFC 3987 classes, one byte each */
        if (sc.wide_cap < (size_t)n) {
            uint32_t *w = (uint32_t *)realloc(sc.wide, (size_t)n * sizeof(uint32_t));
            if (w == NULL)
                goto oom;
            sc.wide = w;
            sc.wide_cap = (size_t)n;
        }
        if (reserve(&sc.data, &sc.cap, (size_t)n) < 0)
            goto oom;
        if (!fu_utf8_decode(p, n, sc.wide, &count)) {
            fail_utf8(info, i);
            break;
        }
        fu_classify_4(sc.wide, count, sc.data);
        bits[i] = fu_rule_check(FU_R_URI_REFERENCE, sc.data, count) < 0;
    }
    scratch_free(&sc);
    return;
oom:
    scratch_free(&sc);
    duckdb_scalar_function_set_error(info, "out of memory");
}

/* ---- uri_resolve(base, ref) ------------------------------------------------ */

static void resolve_fn(duckdb_function_info info, duckdb_data_chunk input, duckdb_vector out)
{
    idx_t rows = duckdb_data_chunk_get_size(input), i;
    duckdb_vector vb = duckdb_data_chunk_get_vector(input, 0);
    duckdb_vector vr = duckdb_data_chunk_get_vector(input, 1);
    const duckdb_string_t *bases = (const duckdb_string_t *)duckdb_vector_get_data(vb);
    const duckdb_string_t *refs = (const duckdb_string_t *)duckdb_vector_get_data(vr);
    uint64_t *base_valid = duckdb_vector_get_validity(vb);
    uint64_t *ref_valid = duckdb_vector_get_validity(vr);
    uint64_t *out_valid = NULL;
    /* the last base split: a page's links share it */
    const uint8_t *last = NULL;
    int64_t nlast = -1;
    fu_split_t parts;
    scratch_t sc;
    memset(&sc, 0, sizeof sc);
    memset(&parts, 0, sizeof parts);
    for (i = 0; i < rows; i++) {
        const uint8_t *p, *b;
        int64_t n, nb, m;
        /* in the kernels' order: the reference, then its base */
        if (!row_valid(ref_valid, i)) {
            set_null(out, &out_valid, i);
            continue;
        }
        row_text(&refs[i], &p, &n);
        if (!fu_utf8_valid(p, n)) {
            fail_utf8(info, i);
            break;
        }
        if (!row_valid(base_valid, i)) {
            set_null(out, &out_valid, i);
            continue;
        }
        row_text(&bases[i], &b, &nb);
        if (last == NULL || nb != nlast || memcmp(b, last, (size_t)nb) != 0) {
            if (!fu_utf8_valid(b, nb)) {
                fail_utf8(info, i);
                break;
            }
            fu_split_1(b, nb, &parts);
            last = b;
            nlast = nb;
        }
        if (parts.scheme_end < 0) {
            set_null(out, &out_valid, i);
            continue;
        }
        if (reserve(&sc.data, &sc.cap, (size_t)(nb + n) + FU_RESOLVE_EXTRA) < 0) {
            duckdb_scalar_function_set_error(info, "out of memory");
            break;
        }
        m = fu_resolve_1(b, nb, &parts, p, n, 1, FU_RESOLVE_3986, sc.data);
        duckdb_vector_assign_string_element_len(out, i, (const char *)sc.data, (idx_t)m);
    }
    scratch_free(&sc);
}

/* ---- registration ------------------------------------------------------------ */

static int add(duckdb_connection con, const char *name, int nargs, duckdb_logical_type returns,
               duckdb_scalar_function_t fn, int op)
{
    duckdb_scalar_function f = duckdb_create_scalar_function();
    duckdb_logical_type text = duckdb_create_logical_type(DUCKDB_TYPE_VARCHAR);
    int k;
    duckdb_state rc;
    duckdb_scalar_function_set_name(f, name);
    for (k = 0; k < nargs; k++)
        duckdb_scalar_function_add_parameter(f, text);
    duckdb_scalar_function_set_return_type(f, returns);
    duckdb_scalar_function_set_function(f, fn);
    duckdb_scalar_function_set_extra_info(f, (void *)(intptr_t)op, NULL);
    rc = duckdb_register_scalar_function(con, f);
    duckdb_destroy_scalar_function(&f);
    duckdb_destroy_logical_type(&text);
    return rc == DuckDBSuccess ? 0 : -1;
}

static int add_typed(duckdb_connection con, const char *name, int nargs, duckdb_type returns,
                     duckdb_scalar_function_t fn, int op)
{
    duckdb_logical_type t = duckdb_create_logical_type(returns);
    int rc = add(con, name, nargs, t, fn, op);
    duckdb_destroy_logical_type(&t);
    return rc;
}

static int register_all(duckdb_connection con)
{
    static const char *const names[8] = { "uri_scheme", NULL,       NULL,        "uri_host",
                                          "uri_port",   "uri_path", "uri_query", "uri_fragment" };
    duckdb_logical_type text = duckdb_create_logical_type(DUCKDB_TYPE_VARCHAR);
    duckdb_logical_type types[8];
    const char *kv[2] = { "key", "value" };
    duckdb_logical_type split, pair, params;
    int k, bad = 0;
    for (k = 0; k < 8; k++) {
        types[k] = text;
        if (names[k] != NULL)
            bad |= add_typed(con, names[k], 1, DUCKDB_TYPE_VARCHAR, components_fn, OP_SCHEME + k);
    }
    bad |= add_typed(con, "uri_normalize", 1, DUCKDB_TYPE_VARCHAR, text_fn, OP_NORMALIZE);
    bad |= add_typed(con, "uri_canonicalize", 1, DUCKDB_TYPE_VARCHAR, text_fn, OP_CANONICALIZE);
    bad |= add_typed(con, "uri_fingerprint", 1, DUCKDB_TYPE_UBIGINT, text_fn, OP_FINGERPRINT);
    bad |= add_typed(con, "uri_is_valid", 1, DUCKDB_TYPE_BOOLEAN, is_valid_fn, OP_IS_VALID);
    bad |= add_typed(con, "uri_resolve", 2, DUCKDB_TYPE_VARCHAR, resolve_fn, OP_RESOLVE);
    split = duckdb_create_struct_type(types, SPLIT_FIELDS, 8);
    bad |= add(con, "uri_split", 1, split, split_fn, OP_SPLIT);
    pair = duckdb_create_struct_type(types, kv, 2);
    params = duckdb_create_list_type(pair);
    bad |= add(con, "uri_query_params", 1, params, query_params_fn, OP_QUERY_PARAMS);
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
