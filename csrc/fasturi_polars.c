/* fasturi_polars.c: fasturi.polars's uri namespace as a polars expression
 * plugin, over the same C scanners the column kernels run: no Python inside.
 * setup.py links it as fasturi/fasturi.polars_plugin; fasturi.polars hands
 * its path to polars.plugins.register_plugin_function.
 *
 * The ABI is polars-ffi's version 0.1, which polars looks up by name:
 *
 *   uint32_t _polars_plugin_get_version(void)            major << 16 | minor
 *   const char *_polars_plugin_get_last_error_message(void)
 *   void _polars_plugin_field_NAME(const ArrowSchema *args, size_t n,
 *                                  ArrowSchema *out, const uint8_t *kwargs,
 *                                  size_t kwargs_len)
 *   void _polars_plugin_NAME(const SeriesExport *args, size_t n,
 *                            const uint8_t *kwargs, size_t kwargs_len,
 *                            SeriesExport *out, const CallerContext *context)
 *
 * A field function gets the arguments' schemas (borrowed) and writes the
 * result's; the function gets the arguments as Series (owned: it releases
 * every chunk and every Series) and writes the result as a Series whose
 * chunks polars moves out.  Either fails by leaving `out` as it was (its
 * private_data NULL: polars reads a schema or Series whose private_data is
 * NULL as a failure) after writing the reason where
 * _polars_plugin_get_last_error_message finds it, on the failing thread.
 * polars looks every symbol up without checking, so every NAME fasturi.polars
 * registers is exported here.
 *
 * Options do not come as keyword arguments (polars pickles those) but as
 * literal arguments, one row each: a Boolean, an Int32, a String, a list of
 * Strings; split's fields are the field names of a one-row Struct, which
 * the field function sees too.  A literal argument arrives as a one-row
 * Series; any one-row argument is read for every row.
 *
 * polars calls from any of its threads at once, on chunks of any length,
 * sliced (a non-zero offset) or not: every call keeps its memory to itself,
 * and nothing here is written after the library is loaded but the failing
 * thread's message and fasturi_mem.h's table of kept blocks (under its
 * lock).  Results are those of fasturi.arrow's kernels, row for
 * row: a null in, a null out; a row that is not UTF-8 fails the call with
 * "row N is not valid UTF-8" (N counted in the Series polars handed over).
 * Text results are string views: split and the components point into the
 * input's own buffers (the result keeps the input chunk alive), the others
 * into buffers of their own.  Every scanner reads only [0, length) of a row.
 */
#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#endif
/* A query's result holds every morsel's views (1.6 MB a field for polars'
 * 100,000-row morsels) until it is dropped: hundreds of them, which malloc
 * hands back to the system when they go and faults in again, page by page,
 * in the next query (a third of a split's time); fasturi_mem.h keeps them
 * for the next call instead. */
#define FU_BLOCK_MIN ((size_t)1 << 20)
#define FU_BLOCKS 512

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fasturi_arrow.h"
#include "fasturi_canon.h"
#include "fasturi_codec.h"
#include "fasturi_dots.h"
#include "fasturi_parts.h"
#include "fasturi_rules.h"
#include "fasturi_psl.h"
#include "fasturi_scan.h"
#include "fasturi_shared.h"
#include "fasturi_xxh64.h"

/* Written by setup.py from the building Python's own str.lower (see
 * csrc/gen_lower.py), for fasturi_psl_table.h. */
#include "fasturi_lower_unicode.h"

#include "fasturi_psl_table.h"

#if defined(__linux__)
#include <sched.h>
#endif
#if !defined(_WIN32)
#include <pthread.h>
#include <unistd.h>
#endif

#if defined(_WIN32)
#define FU_EXPORT __declspec(dllexport)
#define FU_THREAD_LOCAL __declspec(thread)
#else
#define FU_EXPORT __attribute__((visibility("default")))
#define FU_THREAD_LOCAL __thread
#endif

/* polars-ffi's SeriesExport: a Series as one schema and its chunks. */
typedef struct fu_series {
    struct ArrowSchema *field;
    struct ArrowArray **arrays;
    size_t len;
    void (*release)(struct fu_series *);
    void *private_data;
} fu_series_t;

/* polars-ffi's CallerContext.  Bit 0: polars runs this call in parallel
 * with others, and the plugin is to start no threads of its own (polars 2.1
 * never sets it; see PART_ROWS). */
typedef struct {
    uint64_t bitflags;
} fu_context_t;

/* What a function computes.  The components first, in split's order. */
enum {
    OP_SCHEME = FU_F_SCHEME,
    OP_AUTHORITY = FU_F_AUTHORITY,
    OP_USERINFO = FU_F_USERINFO,
    OP_HOST = FU_F_HOST,
    OP_PORT = FU_F_PORT,
    OP_PATH = FU_F_PATH,
    OP_QUERY = FU_F_QUERY,
    OP_FRAGMENT = FU_F_FRAGMENT,
    OP_SPLIT = FU_F_COUNT,
    OP_NORMALIZE,
    OP_CANONICALIZE,
    OP_IS_VALID,
    OP_ERROR_POSITION,
    OP_PERCENT_DECODE,
    OP_RESOLVE,
    OP_FINGERPRINT,
    OP_REGISTRABLE_DOMAIN,
    OP_PUBLIC_SUFFIX,
    OP_LOAD_PSL,
    OP_QUERY_PARAM,
    OP_REMOVE_PARAMS,
    OP_PATH_EXTENSION,
    OP_SUBDOMAIN,
};

#define N_FIELDS FU_F_COUNT

static const char *const FIELD_NAMES[N_FIELDS] = { "scheme", "authority", "userinfo", "host",
                                                   "port",   "path",      "query",    "fragment" };

/* Each function's name, its arguments and their Arrow formats: 's' a
 * string column (the first is the URL or reference column), 'b' a Boolean,
 * 'i' an Int32, 'l' a list of strings, 't' a Struct. */
static const struct {
    const char *name;
    const char *args;
} OPS[] = {
    [OP_SCHEME] = { "scheme", "s" },
    [OP_AUTHORITY] = { "authority", "s" },
    [OP_USERINFO] = { "userinfo", "s" },
    [OP_HOST] = { "host", "s" },
    [OP_PORT] = { "port", "s" },
    [OP_PATH] = { "path", "s" },
    [OP_QUERY] = { "query", "s" },
    [OP_FRAGMENT] = { "fragment", "s" },
    [OP_SPLIT] = { "split", "st" },
    [OP_NORMALIZE] = { "normalize", "sb" },
    [OP_CANONICALIZE] = { "canonicalize", "sbbl" },
    [OP_IS_VALID] = { "is_valid", "ssi" },
    [OP_ERROR_POSITION] = { "error_position", "ssi" },
    [OP_PERCENT_DECODE] = { "percent_decode", "s" },
    [OP_RESOLVE] = { "resolve", "ssbi" },
    [OP_FINGERPRINT] = { "fingerprint", "sbbl" },
    /* (the last argument: the list's token, as load_public_suffix_list had it) */
    [OP_REGISTRABLE_DOMAIN] = { "registrable_domain", "sbs" },
    [OP_PUBLIC_SUFFIX] = { "public_suffix", "sbs" },
    /* (the keys of fasturi._psl.keys, the token): the token */
    [OP_LOAD_PSL] = { "load_public_suffix_list", "ss" },
    [OP_QUERY_PARAM] = { "query_param", "ssb" },
    [OP_REMOVE_PARAMS] = { "remove_params", "sl" },
    [OP_PATH_EXTENSION] = { "path_extension", "s" },
    [OP_SUBDOMAIN] = { "subdomain", "sbs" },
};

/* ---- the Public Suffix List ----------------------------------------------
 *
 * fasturi.polars hands the plugin the list fasturi's scalar functions use
 * (load_public_suffix_list, run once from Python before an expression that
 * needs it is made), under a token that names it; the expressions carry
 * the token, and refuse to run on another list. */
static int64_t psl_current; /* a fu_psl_table_t *, read and set atomically */

static const fu_psl_table_t *psl_get(void)
{
    return (const fu_psl_table_t *)(intptr_t)fu_shared_get(&psl_current);
}

/* ---- errors --------------------------------------------------------------- */

static FU_THREAD_LOCAL char last_error[512];

static void fail(const char *fmt, ...)
{
    va_list ap;
    int k = snprintf(last_error, sizeof last_error, "fasturi: ");
    va_start(ap, fmt);
    vsnprintf(last_error + k, sizeof last_error - (size_t)k, fmt, ap);
    va_end(ap);
}

FU_EXPORT uint32_t _polars_plugin_get_version(void) { return 0u << 16 | 1u; }

FU_EXPORT const char *_polars_plugin_get_last_error_message(void) { return last_error; }

/* ---- arguments ------------------------------------------------------------ */

static int is_string_format(const char *f)
{
    return strcmp(f, "vu") == 0 || strcmp(f, "u") == 0 || strcmp(f, "U") == 0;
}

/* A column of strings, or of nulls alone (polars' Null type, format "n":
 * what a column of None becomes), whose rows give nulls as the Python path's
 * do. */
static int is_column_format(const char *f) { return is_string_format(f) || strcmp(f, "n") == 0; }

static int format_fits(char want, const struct ArrowSchema *s)
{
    const char *f = s->format;
    switch (want) {
    case 's': return is_column_format(f);
    case 'b': return strcmp(f, "b") == 0;
    case 'i': return strcmp(f, "i") == 0;
    case 'l':
        return (strcmp(f, "+l") == 0 || strcmp(f, "+L") == 0) && s->n_children == 1
               && is_string_format(s->children[0]->format);
    case 't': return strcmp(f, "+s") == 0;
    default: return 0;
    }
}

/* split's fields, by the names of its Struct argument's fields: their
 * count, or -1 (failed) when one is no field. */
static int split_fields(const struct ArrowSchema *spec, int *fields)
{
    int64_t k;
    int j;
    if (spec->n_children < 1 || spec->n_children > N_FIELDS) {
        fail("split takes 1 to 8 fields, not %lld", (long long)spec->n_children);
        return -1;
    }
    for (k = 0; k < spec->n_children; k++) {
        const char *name = spec->children[k]->name ? spec->children[k]->name : "";
        for (j = 0; j < N_FIELDS && strcmp(name, FIELD_NAMES[j]) != 0; j++)
            ;
        if (j == N_FIELDS) {
            fail("unknown field '%s'", name);
            return -1;
        }
        fields[k] = j;
    }
    return (int)spec->n_children;
}

/* Whether the arguments' schemas are what op takes; else failed. */
static int check_args(int op, const struct ArrowSchema *const *args, size_t n)
{
    const char *want = OPS[op].args;
    size_t k;
    if (n != strlen(want)) {
        fail("uri.%s takes %zu arguments, not %zu", OPS[op].name, strlen(want), n);
        return -1;
    }
    for (k = 0; k < n; k++) {
        if (!format_fits(want[k], args[k])) {
            if (want[k] == 's')
                fail("uri.%s needs a String column, not one of Arrow format '%s'", OPS[op].name,
                     args[k]->format);
            else
                fail("uri.%s: argument %zu has Arrow format '%s'", OPS[op].name, k,
                     args[k]->format);
            return -1;
        }
    }
    return 0;
}

/* The result's schema, named as the first argument. */
static int result_schema(int op, const struct ArrowSchema *const *args, struct ArrowSchema *out)
{
    const char *name = args[0]->name ? args[0]->name : "";
    int fields[N_FIELDS], nf, k;
    if (op == OP_SPLIT) {
        nf = split_fields(args[1], fields);
        if (nf < 0)
            return -1;
        if (fu_schema_init(out, "+s", NULL, nf) < 0)
            goto oom;
        for (k = 0; k < nf; k++)
            if (fu_schema_init(out->children[k], "vu", FIELD_NAMES[fields[k]], 0) < 0)
                goto oom;
    } else {
        const char *format = op == OP_IS_VALID         ? "b"
                             : op == OP_ERROR_POSITION ? "i"
                             : op == OP_FINGERPRINT    ? "L"
                                                       : "vu";
        if (fu_schema_init(out, format, NULL, 0) < 0)
            goto oom;
    }
    if (fu_schema_name(out, name, strlen(name)) < 0)
        goto oom;
    return 0;
oom:
    if (out->release != NULL)
        out->release(out);
    fail("out of memory");
    return -1;
}

static void field_of(int op, const struct ArrowSchema *args, size_t n, struct ArrowSchema *out)
{
    const struct ArrowSchema *ptrs[4] = { NULL, NULL, NULL, NULL };
    struct ArrowSchema result;
    size_t k;
    if (n > 4) {
        check_args(op, NULL, n);
        return;
    }
    for (k = 0; k < n; k++)
        ptrs[k] = &args[k];
    if (check_args(op, ptrs, n) < 0 || result_schema(op, ptrs, &result) < 0)
        return;
    *out = result;
}

/* ---- reading a Series ----------------------------------------------------- */

/* A Series read row by row from its first row on, across its chunks; a
 * one-row Series gives its row for every row. */
typedef struct {
    const fu_series_t *s;
    int64_t length;
    size_t chunk;
    int64_t start, end; /* the open chunk's rows, counted in the Series */
    fu_col_t col;
    uint8_t *zeros; /* open_chunk's */
} reader_t;

static int64_t series_length(const fu_series_t *s)
{
    int64_t total = 0;
    size_t k;
    for (k = 0; k < s->len; k++)
        total += s->arrays[k]->length;
    return total;
}

/* A chunk as fu_col_t.  A Null column's chunk reads as string rows every
 * one null: its validity is *zeros, an all-zero bitmap made here (the
 * caller frees it).  0, or -1 (failed). */
static int open_chunk(const struct ArrowSchema *schema, const struct ArrowArray *array, fu_col_t *c,
                      uint8_t **zeros)
{
    const char *why;
    if (strcmp(schema->format, "n") == 0) {
        free(*zeros);
        *zeros = (uint8_t *)calloc((size_t)(array->length / 8 + 1), 1);
        if (*zeros == NULL) {
            fail("out of memory");
            return -1;
        }
        memset(c, 0, sizeof *c);
        c->type = FU_COL_VIEW;
        c->length = array->length;
        c->validity = *zeros;
        return 0;
    }
    if (fu_col_open(schema, array, c, &why) < 0) {
        fail("%s", why);
        return -1;
    }
    return 0;
}

static void reader_init(reader_t *r, const fu_series_t *s)
{
    memset(r, 0, sizeof *r);
    r->s = s;
    r->length = series_length(s);
    r->chunk = (size_t)-1;
}

/* Row i of the Series, as fu_col_row; -2 (failed) when a chunk cannot be
 * read. */
static int reader_row(reader_t *r, int64_t i, const uint8_t **p, int64_t *n)
{
    if (r->length == 1)
        i = 0;
    while (r->chunk == (size_t)-1 || i >= r->end) {
        r->chunk += 1; /* (from (size_t)-1: the first chunk) */
        if (r->chunk >= r->s->len) {
            fail("an argument has fewer rows than the column");
            return -2;
        }
        r->start = r->chunk == 0 ? 0 : r->end;
        r->end = r->start + r->s->arrays[r->chunk]->length;
        if (open_chunk(r->s->field, r->s->arrays[r->chunk], &r->col, &r->zeros) < 0)
            return -2;
    }
    return fu_col_row(&r->col, i - r->start, p, n);
}

/* A literal argument's first chunk with a row in it, or NULL. */
static const struct ArrowArray *literal_chunk(const fu_series_t *s)
{
    size_t k;
    for (k = 0; k < s->len; k++)
        if (s->arrays[k]->length > 0)
            return s->arrays[k];
    return NULL;
}

static int literal_valid(const struct ArrowArray *a)
{
    const uint8_t *v = (const uint8_t *)a->buffers[0];
    return a->null_count == 0 || v == NULL || (v[a->offset >> 3] >> (a->offset & 7) & 1);
}

/* A Boolean literal's value: 0 or 1, or -1 (failed) when it has none. */
static int literal_bool(const fu_series_t *s, const char *what)
{
    const struct ArrowArray *a = literal_chunk(s);
    const uint8_t *bits;
    if (a == NULL || !literal_valid(a) || a->n_buffers < 2 || a->buffers[1] == NULL) {
        fail("%s must be True or False", what);
        return -1;
    }
    bits = (const uint8_t *)a->buffers[1];
    return bits[a->offset >> 3] >> (a->offset & 7) & 1;
}

static int literal_int(const fu_series_t *s, const char *what, int32_t *value)
{
    const struct ArrowArray *a = literal_chunk(s);
    if (a == NULL || !literal_valid(a) || a->n_buffers < 2 || a->buffers[1] == NULL) {
        fail("%s must be an integer", what);
        return -1;
    }
    memcpy(value, (const int32_t *)a->buffers[1] + a->offset, sizeof *value);
    return 0;
}

/* A String literal's bytes; -1 (failed) when it has none. */
static int literal_text(const fu_series_t *s, const char *what, const uint8_t **p, int64_t *n)
{
    reader_t r;
    int got;
    reader_init(&r, s);
    got = r.length < 1 ? FU_ROW_NULL : reader_row(&r, 0, p, n);
    free(r.zeros);
    if (got != FU_ROW_VALUE) {
        fail("%s must be a string", what);
        return -1;
    }
    return 0;
}

/* ---- options -------------------------------------------------------------- */

typedef struct {
    int op;
    int fields[N_FIELDS], nfields; /* split */
    int authority;                 /* split, components: the authority's parts are wanted */
    int scheme_based, sort_query, drop_fragment, strict, rfc, rule;
    fu_drop_rule_t *rules; /* canonicalize's drop_params, into rule_text */
    int nrules;
    ptrdiff_t longest;
    uint8_t *rule_text;
    const fu_psl_table_t *psl; /* registrable_domain, public_suffix, subdomain */
    int shift;                 /* their flags: 0, the ICANN section's; 4, the whole list's */
    const uint8_t *name;       /* query_param: the key (the literal's bytes) */
    int64_t nname;
    int form_mode;    /* query_param: FU_FORM_DECODE, or 0 (as written) */
    fu_glob_t *globs; /* remove_params' patterns, into rule_text */
    int nglobs;
} job_t;

static void job_free(job_t *job)
{
    free(job->rules);
    free(job->rule_text);
    free(job->globs);
}

/* The strings of a list literal's one row, copied into job->rule_text
 * (texts[k] their starts, lens[k] their lengths, both allocated here);
 * their count, or -1 (failed, saying `what` must be a list of strings). */
static int64_t read_texts(job_t *job, const fu_series_t *s, const char *what,
                          const uint8_t ***texts, int64_t **lens)
{
    const struct ArrowArray *a = literal_chunk(s), *child;
    const struct ArrowSchema *child_schema = s->field->children[0];
    int64_t lo, hi, i, total = 0, at = 0;
    fu_col_t col;
    const char *why;
    *texts = NULL;
    *lens = NULL;
    if (a == NULL || !literal_valid(a) || a->n_children != 1 || a->buffers[1] == NULL)
        goto bad;
    if (strcmp(s->field->format, "+l") == 0) {
        lo = ((const int32_t *)a->buffers[1])[a->offset];
        hi = ((const int32_t *)a->buffers[1])[a->offset + 1];
    } else {
        lo = ((const int64_t *)a->buffers[1])[a->offset];
        hi = ((const int64_t *)a->buffers[1])[a->offset + 1];
    }
    child = a->children[0];
    if (lo < 0 || hi < lo || hi > child->length || fu_col_open(child_schema, child, &col, &why) < 0)
        goto bad;
    for (i = lo; i < hi; i++) {
        const uint8_t *p = NULL;
        int64_t n = 0;
        if (fu_col_row(&col, i, &p, &n) != FU_ROW_VALUE)
            goto bad;
        total += n;
    }
    *texts = (const uint8_t **)calloc((size_t)(hi - lo) + 1, sizeof **texts);
    *lens = (int64_t *)calloc((size_t)(hi - lo) + 1, sizeof **lens);
    job->rule_text = (uint8_t *)malloc((size_t)total + 1);
    if (*texts == NULL || *lens == NULL || job->rule_text == NULL) {
        fail("out of memory");
        return -1;
    }
    for (i = lo; i < hi; i++) {
        const uint8_t *p = NULL; /* each row was read above: a value */
        int64_t n = 0;
        fu_col_row(&col, i, &p, &n);
        memcpy(job->rule_text + at, p, (size_t)n);
        (*texts)[i - lo] = job->rule_text + at;
        (*lens)[i - lo] = n;
        at += n;
    }
    return hi - lo;
bad:
    fail("%s must be a list of strings", what);
    return -1;
}

/* canonicalize's drop_params: the strings of the list literal's one row
 * (a trailing '*' makes a name a prefix). */
static int read_drop_params(job_t *job, const fu_series_t *s)
{
    const uint8_t **texts;
    int64_t *lens, count = read_texts(job, s, "drop_params", &texts, &lens), k;
    int rc = 0;
    if (count > 0) {
        job->rules = (fu_drop_rule_t *)calloc((size_t)count, sizeof(fu_drop_rule_t));
        if (job->rules == NULL) {
            fail("out of memory");
            rc = -1;
        }
    }
    for (k = 0; rc == 0 && k < count; k++) {
        fu_drop_rule_t *rule = &job->rules[k];
        rule->prefix = lens[k] > 0 && texts[k][lens[k] - 1] == '*';
        rule->ptr = texts[k];
        rule->size = lens[k] - (rule->prefix ? 1 : 0);
        if (rule->size > job->longest)
            job->longest = rule->size;
    }
    if (rc == 0 && count > 0)
        job->nrules = (int)count;
    free(texts);
    free(lens);
    return count < 0 ? -1 : rc;
}

/* remove_params' patterns: the globs of the list literal's one row. */
static int read_globs(job_t *job, const fu_series_t *s)
{
    const uint8_t **texts;
    int64_t *lens, count = read_texts(job, s, "patterns", &texts, &lens), k;
    int rc = 0;
    if (count >= 0) {
        job->globs = (fu_glob_t *)calloc((size_t)count + 1, sizeof(fu_glob_t));
        if (job->globs == NULL) {
            fail("out of memory");
            rc = -1;
        }
    }
    for (k = 0; rc == 0 && k < count; k++) {
        job->globs[k].p = texts[k];
        job->globs[k].n = lens[k];
    }
    if (rc == 0 && count > 0)
        job->nglobs = (int)count;
    free(texts);
    free(lens);
    return count < 0 ? -1 : rc;
}

/* The Public Suffix List the expression was made with (its token): the
 * one loaded, else failed. */
static int read_psl(job_t *job, const fu_series_t *token)
{
    const uint8_t *p;
    int64_t n;
    if (literal_text(token, "the list's token", &p, &n) < 0)
        return -1;
    job->psl = psl_get();
    if (job->psl == NULL || (int64_t)strlen(job->psl->version) != n
        || memcmp(job->psl->version, p, (size_t)n) != 0) {
        fail("uri.%s: the Public Suffix List it was made with is not the one loaded"
             " (make the expression again after fasturi.load_public_suffix_list)",
             OPS[job->op].name);
        return -1;
    }
    return 0;
}

/* An ABNF rule's number by its name, among RFC 3986's (with RFC 3987's) or
 * RFC 2396's; -1 (failed) when there is none. */
static int rule_id(const uint8_t *name, int64_t n, int rfc)
{
    int k = fu_rule_named(name, n, rfc);
    if (k == -2)
        fail("rfc must be 3986 or 2396, not %d", rfc);
    else if (k < 0)
        fail("unknown rule '%.*s' for RFC %d", (int)(n < 64 ? n : 64), (const char *)name, rfc);
    return k < 0 ? -1 : k;
}

static int read_options(job_t *job, const fu_series_t *in)
{
    const uint8_t *p;
    int64_t n;
    int32_t rfc;
    int k;
    switch (job->op) {
    case OP_SPLIT:
        job->nfields = split_fields(in[1].field, job->fields);
        if (job->nfields < 0)
            return -1;
        for (k = 0; k < job->nfields; k++)
            job->authority |= job->fields[k] == OP_USERINFO || job->fields[k] == OP_HOST
                              || job->fields[k] == OP_PORT;
        return 0;
    case OP_NORMALIZE:
        job->scheme_based = literal_bool(&in[1], "scheme_based");
        return job->scheme_based;
    case OP_CANONICALIZE:
    case OP_FINGERPRINT:
        job->sort_query = literal_bool(&in[1], "sort_query");
        job->drop_fragment = literal_bool(&in[2], "drop_fragment");
        if (job->sort_query < 0 || job->drop_fragment < 0)
            return -1;
        return read_drop_params(job, &in[3]);
    case OP_IS_VALID:
    case OP_ERROR_POSITION:
        if (literal_text(&in[1], "rule", &p, &n) < 0 || literal_int(&in[2], "rfc", &rfc) < 0)
            return -1;
        job->rule = rule_id(p, n, rfc);
        return job->rule;
    case OP_REGISTRABLE_DOMAIN:
    case OP_PUBLIC_SUFFIX:
    case OP_SUBDOMAIN: {
        int private_ = literal_bool(&in[1], "private");
        if (private_ < 0)
            return -1;
        job->shift = private_ ? 4 : 0;
        return read_psl(job, &in[2]);
    }
    case OP_QUERY_PARAM: {
        int decode;
        if (literal_text(&in[1], "name", &job->name, &job->nname) < 0
            || (decode = literal_bool(&in[2], "decode")) < 0)
            return -1;
        job->form_mode = decode ? FU_FORM_DECODE : 0;
        return 0;
    }
    case OP_REMOVE_PARAMS: return read_globs(job, &in[1]);
    case OP_LOAD_PSL: {
        const uint8_t *token;
        int64_t ntoken;
        fu_psl_table_t *table;
        if (literal_text(&in[0], "keys", &p, &n) < 0
            || literal_text(&in[1], "the list's token", &token, &ntoken) < 0)
            return -1;
        table = fu_psl_table_build(p, n, token, ntoken);
        if (table == NULL) {
            fail("load_public_suffix_list: not the keys fasturi.polars hands over");
            return -1;
        }
        /* (the table it replaces stays: a running expression may read it) */
        fu_shared_swap(&psl_current, (int64_t)(intptr_t)table);
        job->psl = table;
        return 0;
    }
    case OP_RESOLVE:
        job->strict = literal_bool(&in[2], "strict");
        if (job->strict < 0 || literal_int(&in[3], "rfc", &rfc) < 0)
            return -1;
        if (rfc != 3986 && rfc != 2396) {
            fail("rfc must be 3986 or 2396, not %d", rfc);
            return -1;
        }
        job->rfc = rfc == 2396 ? FU_RESOLVE_2396 : FU_RESOLVE_3986;
        return 0;
    default: /* the components, percent_decode */
        job->authority = job->op == OP_USERINFO || job->op == OP_HOST || job->op == OP_PORT;
        return 0;
    }
}

/* ---- text results --------------------------------------------------------- */

/* A string_view result being written: a view a row, a validity bitmap
 * (every row valid until cleared), and, for text of its own, buffers of at
 * most INT32_MAX bytes (a view addresses its bytes with an int32 offset). */
typedef struct {
    uint8_t *views;
    uint8_t *valid;
    int64_t nulls;
    uint8_t **bufs; /* the full buffers, then `cur` */
    int64_t *sizes;
    int64_t nbufs, bufs_cap;
    fu_buf_t cur;
} text_out_t;

static inline void clear_bit(uint8_t *bitmap, int64_t i)
{
    bitmap[i >> 3] &= (uint8_t) ~(1u << (i & 7));
}

static inline void set_bit(uint8_t *bitmap, int64_t i)
{
    bitmap[i >> 3] |= (uint8_t)(1u << (i & 7));
}

static uint8_t *bitmap_new(int64_t rows, int ones)
{
    size_t size = (size_t)(rows + 63) / 64 * 8 + 8;
    uint8_t *b = (uint8_t *)fu_alloc(size);
    if (b != NULL)
        memset(b, ones ? 0xFF : 0, size);
    return b;
}

static int text_init(text_out_t *t, int64_t rows)
{
    memset(t, 0, sizeof *t);
    /* (fu_alloc: a large result's memory comes from blocks a released one
     * left, not fresh pages faulted in one by one) */
    t->views = (uint8_t *)fu_alloc((size_t)(rows > 0 ? rows : 1) * 16);
    t->valid = bitmap_new(rows, 1);
    return t->views != NULL && t->valid != NULL ? 0 : -1;
}

static void text_free(text_out_t *t)
{
    int64_t k;
    fu_release(t->views);
    fu_release(t->valid);
    for (k = 0; k < t->nbufs; k++)
        fu_release(t->bufs[k]);
    fu_release(t->cur.data);
    free(t->bufs);
    free(t->sizes);
    memset(t, 0, sizeof *t);
}

static inline void text_null(text_out_t *t, int64_t i)
{
    memset(t->views + 16 * i, 0, 16);
    clear_bit(t->valid, i);
    t->nulls += 1;
}

/* The full current buffer set aside, a new one begun. */
static int text_next_buffer(text_out_t *t)
{
    if (t->nbufs == t->bufs_cap) {
        int64_t cap = t->bufs_cap ? 2 * t->bufs_cap : 4;
        uint8_t **b = (uint8_t **)realloc(t->bufs, (size_t)cap * sizeof *b);
        int64_t *s;
        if (b == NULL)
            return -1;
        t->bufs = b;
        s = (int64_t *)realloc(t->sizes, (size_t)(cap + 1) * sizeof *s);
        if (s == NULL)
            return -1;
        t->sizes = s;
        t->bufs_cap = cap;
    }
    t->bufs[t->nbufs] = t->cur.data;
    t->sizes[t->nbufs] = t->cur.len;
    t->nbufs += 1;
    memset(&t->cur, 0, sizeof t->cur);
    return 0;
}

/* Room for `bound` bytes at the end of the current buffer: 0, -1 when out
 * of memory, -2 when no buffer can hold them. */
static int text_room(text_out_t *t, int64_t bound)
{
    if (bound > INT32_MAX)
        return -2;
    if (t->cur.len + bound > INT32_MAX && text_next_buffer(t) < 0)
        return -1;
    return fu_buf_reserve(&t->cur, bound);
}

static inline uint8_t *text_end(text_out_t *t) { return t->cur.data + t->cur.len; }

/* Row i is the m bytes just written at text_end(t) (inline in its view
 * when 12 or fewer, and then not kept in the buffer). */
static inline void text_take(text_out_t *t, int64_t i, int64_t m)
{
    fu_view_set(t->views + 16 * i, text_end(t), m, (int32_t)t->nbufs, t->cur.data);
    if (m > 12)
        t->cur.len += m;
}

/* Row i is n bytes at p, copied. */
static int text_copy(text_out_t *t, int64_t i, const uint8_t *p, int64_t n)
{
    if (n > 12) {
        int bad = text_room(t, n);
        if (bad < 0)
            return bad;
        memcpy(text_end(t), p, (size_t)n);
    } else {
        fu_view_set(t->views + 16 * i, p, n, 0, NULL);
        return 0;
    }
    text_take(t, i, n);
    return 0;
}

/* t as the string_view array a of `rows` rows with its own text; t is
 * emptied (a owns what it held, even on failure). */
static int text_export_own(text_out_t *t, struct ArrowArray *a, int64_t rows)
{
    int rc;
    if (t->cur.len > 0 && text_next_buffer(t) < 0)
        return -1;
    if (t->sizes == NULL && (t->sizes = (int64_t *)malloc(sizeof(int64_t))) == NULL)
        return -1;
    fu_release(t->cur.data); /* (an empty buffer: none of the views points into it) */
    rc = fu_view_array_own(a, rows, t->nulls, t->valid, t->views, t->nbufs, t->bufs, t->sizes);
    free(t->bufs);
    memset(t, 0, sizeof *t);
    return rc;
}

/* t as the string_view array a of `rows` rows whose views point into the
 * input chunk read as c; t is emptied. */
static int text_export_views(text_out_t *t, struct ArrowArray *a, int64_t rows, const fu_col_t *c)
{
    int rc = fu_view_array_init(a, rows, t->nulls, t->valid, t->views, c);
    t->views = NULL;
    t->valid = NULL;
    text_free(t);
    return rc;
}

/* ---- one chunk ------------------------------------------------------------- */

/* Scratch memory of one call. */
typedef struct {
    fu_buf_t tmp;
    uint32_t *wide;
    int64_t wide_cap;
    uint8_t *name; /* canonicalize: a field's decoded name */
    fu_field_t *fields;
    ptrdiff_t fields_cap;
    /* resolve: the last base split (a page's links share it) */
    const uint8_t *last_base;
    int64_t last_nbase;
    fu_split_t last_parts;
    fu_psl_scratch_t psl;
} scratch_t;

static void scratch_free(scratch_t *sc)
{
    fu_psl_scratch_free(&sc->psl);
    fu_release(sc->tmp.data);
    free(sc->wide);
    free(sc->name);
    free(sc->fields);
}

static int row_error(int got, int64_t row)
{
    if (got == FU_ROW_CORRUPT)
        fail("row %lld has offsets outside its Arrow buffers", (long long)row);
    else
        fail("row %lld is not valid UTF-8", (long long)row);
    return -1;
}

/* Rows [from, to) of one chunk of the first argument (c, its first row
 * `row0` in the Series) split into the components of `fields`, into t[]
 * (views into the chunk's buffers when `views`, else copies); a struct's
 * own null rows into struct_valid when not NULL.  0, or -1 (failed). */
static int split_rows(const job_t *job, const fu_col_t *c, int64_t row0, int64_t from, int64_t to,
                      const int *fields, int nf, text_out_t *t, uint8_t *struct_valid,
                      int64_t *struct_nulls, int views)
{
    int64_t i;
    ptrdiff_t lo[N_FIELDS], hi[N_FIELDS];
    int k, f, got;
    for (i = from; i < to; i++) {
        const uint8_t *p, *base = NULL;
        int64_t n;
        int32_t idx = 0;
        fu_split_t s;
        fu_authority_t a;
        got = fu_col_row(c, i, &p, &n);
        if (got == FU_ROW_NULL) {
            if (struct_valid != NULL) {
                clear_bit(struct_valid, i);
                *struct_nulls += 1;
            }
            for (k = 0; k < nf; k++)
                text_null(&t[k], i);
            continue;
        }
        if (got == FU_ROW_CORRUPT)
            return row_error(got, row0 + i);
        if (!fu_split_row_1(p, n, job->authority, &s, &a) && !fu_utf8_decode(p, n, NULL, NULL))
            return row_error(got, row0 + i);
        fu_split_ranges(n, &s, &a, job->authority, lo, hi);
        if (views) {
            fu_col_row_buffer(c, i, n, &idx, &base);
            for (k = 0; k < nf; k++) {
                f = fields[k];
                if (lo[f] < 0)
                    text_null(&t[k], i);
                else
                    fu_view_set(t[k].views + 16 * i, p + lo[f], hi[f] - lo[f], idx, base);
            }
            continue;
        }
        for (k = 0; k < nf; k++) {
            f = fields[k];
            if (lo[f] < 0) {
                text_null(&t[k], i);
            } else if (text_copy(&t[k], i, p + lo[f], hi[f] - lo[f]) < 0) {
                fail("out of memory");
                return -1;
            }
        }
    }
    return 0;
}

/* The row's code points' RFC 3987 classes into sc->tmp: their count, or -1
 * when out of memory. */
static int64_t widen(scratch_t *sc, const uint8_t *p, int64_t n)
{
    int64_t count = 0;
    if (n > sc->wide_cap) {
        uint32_t *w = (uint32_t *)realloc(sc->wide, (size_t)n * sizeof(uint32_t));
        if (w == NULL)
            return -1;
        sc->wide = w;
        sc->wide_cap = n;
    }
    sc->tmp.len = 0;
    if (fu_buf_reserve(&sc->tmp, n) < 0)
        return -1;
    fu_utf8_decode(p, n, sc->wide, &count);
    fu_classify_4(sc->wide, count, sc->tmp.data);
    return count;
}

/* is_valid and error_position of rows [from, to) of one chunk: the values
 * and validity. */
static int check_rows(const job_t *job, scratch_t *sc, const fu_col_t *c, int64_t row0,
                      int64_t from, int64_t to, uint8_t *values, uint8_t *valid, int64_t *nulls)
{
    int64_t i;
    for (i = from; i < to; i++) {
        const uint8_t *p;
        int64_t n, count;
        ptrdiff_t at;
        int got = fu_col_row(c, i, &p, &n);
        if (got == FU_ROW_NULL) {
            clear_bit(valid, i);
            *nulls += 1;
            continue;
        }
        if (got == FU_ROW_CORRUPT)
            return row_error(got, row0 + i);
        if (fu_is_ascii(p, n)) {
            at = fu_rule_check(job->rule, p, n);
        } else {
            if (!fu_utf8_decode(p, n, NULL, NULL))
                return row_error(got, row0 + i);
            count = widen(sc, p, n);
            if (count < 0) {
                fail("out of memory");
                return -1;
            }
            at = fu_rule_check(job->rule, sc->tmp.data, count);
        }
        if (job->op == OP_IS_VALID) {
            if (at < 0)
                set_bit(values, i);
        } else if (at < 0) {
            clear_bit(valid, i);
            *nulls += 1;
        } else {
            ((int32_t *)values)[i] = (int32_t)at;
        }
    }
    return 0;
}

/* One row of normalize, canonicalize, percent_decode or resolve (not null,
 * UTF-8), written as row i of t.  0, or -1 (failed). */
static int text_row(const job_t *job, scratch_t *sc, reader_t *bases, int64_t row, text_out_t *t,
                    int64_t i, const uint8_t *p, int64_t n)
{
    int64_t m, nb = 0;
    const uint8_t *b = NULL;
    uint32_t high = 0;
    int bad = 0, got;
    switch (job->op) {
    case OP_NORMALIZE:
        bad = text_room(t, n + FU_NORMALIZE_EXTRA);
        if (bad < 0)
            break;
        m = fu_normalize_1(p, n, job->scheme_based, text_end(t));
        text_take(t, i, m);
        return 0;
    case OP_CANONICALIZE:
        sc->tmp.len = 0;
        if (fu_buf_reserve(&sc->tmp, n + FU_NORMALIZE_EXTRA) < 0) {
            bad = -1;
            break;
        }
        m = fu_normalize_1(p, n, 1, sc->tmp.data);
        bad = text_room(t, m + 1);
        if (bad < 0)
            break;
        m = fu_canon_key(sc->tmp.data, m, job->sort_query, job->drop_fragment, job->rules,
                         job->nrules, job->longest, sc->name, &sc->fields, &sc->fields_cap,
                         text_end(t));
        if (m < 0) {
            bad = -1;
            break;
        }
        text_take(t, i, m);
        return 0;
    case OP_PERCENT_DECODE:
        bad = text_room(t, n);
        if (bad < 0)
            break;
        m = fu_pct_decode_1(p, n, 0, text_end(t), &high);
        if (high & 0x80 && !fu_utf8_decode(text_end(t), m, NULL, NULL)) {
            fail("'utf-8' codec can't decode the percent-decoded bytes of row %lld",
                 (long long)row);
            return -1;
        }
        text_take(t, i, m);
        return 0;
    case OP_PATH_EXTENSION: {
        ptrdiff_t at = 0;
        m = fu_path_extension_1(p, n, &at);
        if (m < 0) {
            text_null(t, i);
            return 0;
        }
        bad = text_copy(t, i, p + at, m);
        if (bad < 0)
            break;
        return 0;
    }
    case OP_QUERY_PARAM: {
        const uint8_t *at;
        sc->tmp.len = 0;
        if (fu_buf_reserve(&sc->tmp, FU_FORM_ROOM(n)) < 0) {
            bad = -1;
            break;
        }
        m = fu_query_param_1(p, n, job->name, job->nname, job->form_mode, sc->tmp.data, &at);
        if (m < 0) {
            text_null(t, i);
            return 0;
        }
        bad = text_copy(t, i, at, m);
        if (bad < 0)
            break;
        return 0;
    }
    case OP_REMOVE_PARAMS:
        sc->tmp.len = 0;
        if (fu_buf_reserve(&sc->tmp, FU_FORM_ROOM(n)) < 0) {
            bad = -1;
            break;
        }
        bad = text_room(t, n + 1);
        if (bad < 0)
            break;
        m = fu_remove_params_1(p, n, job->globs, job->nglobs, 0, sc->tmp.data, text_end(t));
        if (m < 0) { /* no field removed: the row as it is */
            bad = text_copy(t, i, p, n);
            if (bad < 0)
                break;
            return 0;
        }
        text_take(t, i, m);
        return 0;
    case OP_REGISTRABLE_DOMAIN:
    case OP_PUBLIC_SUFFIX:
    case OP_SUBDOMAIN: {
        const uint8_t *at;
        got = fu_psl_answer(job->psl, job->shift,
                            job->op == OP_REGISTRABLE_DOMAIN ? FU_PSL_DOMAIN
                            : job->op == OP_SUBDOMAIN        ? FU_PSL_SUBDOMAIN
                                                             : FU_PSL_SUFFIX,
                            p, n, &sc->psl, &at, &m);
        if (got < 0) {
            bad = -1;
            break;
        }
        if (got == 0) {
            text_null(t, i);
            return 0;
        }
        bad = text_copy(t, i, at, m);
        if (bad < 0)
            break;
        return 0;
    }
    case OP_LOAD_PSL: /* (loaded by read_options) the list's token */
        m = (int64_t)strlen(job->psl->version);
        bad = text_room(t, m);
        if (bad < 0)
            break;
        memcpy(text_end(t), job->psl->version, (size_t)m);
        text_take(t, i, m);
        return 0;
    default: /* OP_RESOLVE */
        got = reader_row(bases, row, &b, &nb);
        if (got == -2)
            return -1;
        if (got == FU_ROW_CORRUPT)
            return row_error(got, row);
        if (got == FU_ROW_NULL) {
            text_null(t, i);
            return 0;
        }
        if (sc->last_base == NULL || nb != sc->last_nbase
            || memcmp(b, sc->last_base, (size_t)nb) != 0) {
            if (!fu_utf8_valid(b, nb))
                return row_error(FU_ROW_VALUE, row);
            fu_split_1(b, nb, &sc->last_parts);
            sc->last_base = b;
            sc->last_nbase = nb;
        }
        if (sc->last_parts.scheme_end < 0) {
            text_null(t, i);
            return 0;
        }
        bad = text_room(t, nb + n + FU_RESOLVE_EXTRA);
        if (bad < 0)
            break;
        m = fu_resolve_1(b, nb, &sc->last_parts, p, n, job->strict, job->rfc, text_end(t));
        text_take(t, i, m);
        return 0;
    }
    if (bad == -2)
        fail("row %lld: the result is too long for a string view", (long long)row);
    else
        fail("out of memory");
    return -1;
}

/* Rows [from, to) of the result's chunk that starts at row0 of the Series,
 * for an operation with text of its own, the first argument read from
 * `urls`. */
static int text_rows(const job_t *job, scratch_t *sc, reader_t *urls, reader_t *bases, int64_t row0,
                     int64_t from, int64_t to, text_out_t *t)
{
    int64_t i;
    for (i = from; i < to; i++) {
        const uint8_t *p;
        int64_t n;
        int got = reader_row(urls, row0 + i, &p, &n);
        if (got == -2)
            return -1;
        if (got == FU_ROW_NULL) {
            text_null(t, i);
            continue;
        }
        if (got == FU_ROW_CORRUPT || !fu_utf8_valid(p, n))
            return row_error(got, row0 + i);
        if (text_row(job, sc, bases, row0 + i, t, i, p, n) < 0)
            return -1;
    }
    return 0;
}

/* fingerprint of rows [from, to) of one chunk: XXH64 of canonicalize's
 * key (canonicalize's options), the values and validity. */
static int fingerprint_rows(const job_t *job, scratch_t *sc, const fu_col_t *c, int64_t row0,
                            int64_t from, int64_t to, uint64_t *values, uint8_t *valid,
                            int64_t *nulls)
{
    int64_t i, m;
    fu_buf_t key;
    memset(&key, 0, sizeof key);
    for (i = from; i < to; i++) {
        const uint8_t *p;
        int64_t n;
        int got = fu_col_row(c, i, &p, &n);
        if (got == FU_ROW_NULL) {
            clear_bit(valid, i);
            *nulls += 1;
            continue;
        }
        if (got == FU_ROW_CORRUPT || !fu_utf8_valid(p, n)) {
            free(key.data);
            return row_error(got, row0 + i);
        }
        sc->tmp.len = 0;
        if (fu_buf_reserve(&sc->tmp, n + FU_NORMALIZE_EXTRA) < 0)
            goto oom;
        m = fu_normalize_1(p, n, 1, sc->tmp.data);
        key.len = 0;
        if (fu_buf_reserve(&key, m + 1) < 0)
            goto oom;
        m = fu_canon_key(sc->tmp.data, m, job->sort_query, job->drop_fragment, job->rules,
                         job->nrules, job->longest, sc->name, &sc->fields, &sc->fields_cap,
                         key.data);
        if (m < 0)
            goto oom;
        values[i] = fu_xxh64(key.data, (size_t)m, 0);
    }
    free(key.data);
    return 0;
oom:
    free(key.data);
    fail("out of memory");
    return -1;
}

/* ---- the call ---------------------------------------------------------------- */

/* What the result Series owns until polars takes its chunks. */
typedef struct {
    struct ArrowSchema schema;
    struct ArrowArray *chunks;
    struct ArrowArray **ptrs;
    size_t n;
} result_t;

/* polars has moved the chunks out (copied the structs, never to be released
 * here); their memory and the schema go. */
static void result_release(fu_series_t *e)
{
    result_t *r = (result_t *)e->private_data;
    if (r->schema.release != NULL)
        r->schema.release(&r->schema);
    free(r->chunks);
    free(r->ptrs);
    free(r);
    e->release = NULL;
}

/* A result given up before polars saw it: everything it holds. */
static void result_free(result_t *r)
{
    size_t k;
    for (k = 0; k < r->n; k++)
        if (r->chunks[k].release != NULL)
            r->chunks[k].release(&r->chunks[k]);
    if (r->schema.release != NULL)
        r->schema.release(&r->schema);
    free(r->chunks);
    free(r->ptrs);
    free(r);
}

/* ---- a chunk's rows on several threads ------------------------------------ */

/* polars' in-memory engine hands a whole column to one call (its streaming
 * engine cuts morsels of some 100,000 rows and calls on each of its
 * threads), and leaves CallerContext's "parallel" bit unset, which allows a
 * plugin threads of its own.  A call of at least 2 * PART_ROWS rows is cut
 * into parts of whole 64-row blocks (no two parts write one byte of a
 * bitmap), one a thread, as many threads as polars runs
 * (POLARS_MAX_THREADS, else the CPUs this process may use). */
#define PART_ROWS 131072
#define MAX_PARTS 64

static int cpus(void)
{
    const char *given = getenv("POLARS_MAX_THREADS");
    long n = given != NULL ? strtol(given, NULL, 10) : 0;
#if defined(__linux__)
    cpu_set_t set;
    if (n <= 0 && sched_getaffinity(0, sizeof set, &set) == 0)
        n = CPU_COUNT(&set);
#endif
#if !defined(_WIN32)
    if (n <= 0)
        n = sysconf(_SC_NPROCESSORS_ONLN);
#endif
    return n < 1 ? 1 : n > MAX_PARTS ? MAX_PARTS : (int)n;
}

/* One part: rows [from, to) of a chunk, written into the chunk's views,
 * bitmaps and values, its own text (for the text operations) into t[]'s
 * buffers; its failure's message kept here (the message is per thread). */
typedef struct {
    const job_t *job;
    const fu_series_t *in;
    const fu_col_t *c;
    int64_t row0, from, to;
    int views;
    text_out_t t[N_FIELDS];
    uint8_t *valid, *values;
    int64_t nulls;
    int failed;
    char error[sizeof last_error];
} part_t;

static void run_part(part_t *q)
{
    const job_t *job = q->job;
    scratch_t sc;
    reader_t urls, bases;
    int nf = job->op == OP_SPLIT ? job->nfields : 1, rc = 0;
    memset(&sc, 0, sizeof sc);
    reader_init(&urls, &q->in[0]);
    memset(&bases, 0, sizeof bases);
    if (job->op == OP_RESOLVE)
        reader_init(&bases, &q->in[1]);
    if (job->longest > 0 && (sc.name = (uint8_t *)malloc((size_t)job->longest + 5)) == NULL) {
        fail("out of memory");
        rc = -1;
    } else if (job->op == OP_FINGERPRINT) {
        rc = fingerprint_rows(job, &sc, q->c, q->row0, q->from, q->to, (uint64_t *)q->values,
                              q->valid, &q->nulls);
    } else if (job->op == OP_IS_VALID || job->op == OP_ERROR_POSITION) {
        rc = check_rows(job, &sc, q->c, q->row0, q->from, q->to, q->values, q->valid, &q->nulls);
    } else if (job->op > OP_SPLIT) {
        rc = text_rows(job, &sc, &urls, &bases, q->row0, q->from, q->to, &q->t[0]);
    } else {
        rc = split_rows(job, q->c, q->row0, q->from, q->to,
                        job->op == OP_SPLIT ? job->fields : &job->op, nf, q->t, q->valid, &q->nulls,
                        q->views);
    }
    scratch_free(&sc);
    free(urls.zeros);
    free(bases.zeros);
    if (rc < 0) {
        q->failed = 1;
        memcpy(q->error, last_error, sizeof q->error);
    }
}

#if defined(_WIN32)
#define FU_PARTS 0 /* (one thread: no pthreads) */
#else
#define FU_PARTS 1

static void *part_thread(void *q)
{
    run_part((part_t *)q);
    return NULL;
}
#endif

/* The parts' text set aside into the chunk's t (which holds the views and
 * validity they share): each part's buffers after the ones before it, its
 * views' buffer numbers moved by as many (none where the views point into
 * the input: no part has buffers of its own then), and its null count.  0,
 * or -1 when out of memory. */
static int join_text(text_out_t *t, part_t *parts, int nparts, int k)
{
    int j;
    for (j = 0; j < nparts; j++) {
        text_out_t *u = &parts[j].t[k];
        int64_t i, b, base = t->nbufs;
        if (u->cur.len > 0 && text_next_buffer(u) < 0)
            return -1;
        for (i = parts[j].from; base > 0 && i < parts[j].to; i++) {
            uint8_t *v = t->views + 16 * i;
            int32_t len, idx;
            memcpy(&len, v, 4);
            if (len > 12) {
                memcpy(&idx, v + 8, 4);
                idx += (int32_t)base;
                memcpy(v + 8, &idx, 4);
            }
        }
        for (b = 0; b < u->nbufs; b++) {
            t->cur.data = u->bufs[b];
            t->cur.len = u->sizes[b];
            u->bufs[b] = NULL;
            if (text_next_buffer(t) < 0) {
                u->bufs[b] = t->cur.data;
                memset(&t->cur, 0, sizeof t->cur);
                return -1;
            }
        }
        u->nbufs = 0;
        t->nulls += u->nulls;
    }
    return 0;
}

/* A part's own text, freed (not the views and validity it shares). */
static void part_free(part_t *q, int nf)
{
    int k;
    for (k = 0; k < nf; k++) {
        q->t[k].views = NULL;
        q->t[k].valid = NULL;
        text_free(&q->t[k]);
    }
}

/* Chunk k of the result: `rows` rows from row0 on.  c is the first
 * argument's chunk when the result follows its chunks (else NULL: a one-row
 * first argument, against a longer base), and `input` its array, which a
 * result pointing into it takes over; `parallel`, CallerContext's bit 0. */
static int result_chunk(const job_t *job, const fu_series_t *in, const fu_col_t *c,
                        struct ArrowArray *input, int64_t row0, int64_t rows, int parallel,
                        struct ArrowArray *out)
{
    text_out_t t[N_FIELDS];
    part_t *parts = NULL;
#if FU_PARTS
    pthread_t threads[MAX_PARTS];
    int started[MAX_PARTS];
#endif
    uint8_t *valid = NULL, *values = NULL;
    int64_t nulls = 0, per;
    int j, k, nparts = 1, nf = job->op == OP_SPLIT ? job->nfields : 1;
    /* (results of fixed width: a value a row) */
    int check = job->op == OP_IS_VALID || job->op == OP_ERROR_POSITION || job->op == OP_FINGERPRINT;
    /* split and the components: views into the chunk where they can
     * address it (not a large_string's text past 2 GiB) */
    int views = job->op <= OP_SPLIT && fu_col_viewable(c);
    memset(t, 0, sizeof t);
    if (check) {
        valid = bitmap_new(rows, 1);
        values = job->op == OP_IS_VALID
                     ? bitmap_new(rows, 0)
                     : (uint8_t *)calloc((size_t)(rows > 0 ? rows : 1),
                                         job->op == OP_FINGERPRINT ? 8 : 4);
        if (valid == NULL || values == NULL)
            goto oom;
    } else {
        for (k = 0; k < nf; k++)
            if (text_init(&t[k], rows) < 0)
                goto oom;
        if (job->op == OP_SPLIT && (valid = bitmap_new(rows, 1)) == NULL)
            goto oom;
    }
    if (rows >= 2 * PART_ROWS && FU_PARTS && !parallel) {
        nparts = cpus();
        if (nparts > rows / PART_ROWS)
            nparts = (int)(rows / PART_ROWS);
    }
    per = (rows / nparts + 63) / 64 * 64;
    parts = (part_t *)calloc((size_t)nparts, sizeof *parts);
    if (parts == NULL) {
        nparts = 0;
        goto oom;
    }
    for (j = 0; j < nparts; j++) {
        part_t *q = &parts[j];
        q->job = job;
        q->in = in;
        q->c = c;
        q->row0 = row0;
        q->from = j * per < rows ? j * per : rows;
        q->to = j == nparts - 1 || (j + 1) * per > rows ? rows : (j + 1) * per;
        q->views = views;
        q->valid = valid;
        q->values = values;
        for (k = 0; k < nf; k++) {
            q->t[k].views = t[k].views;
            q->t[k].valid = t[k].valid;
        }
    }
#if FU_PARTS
    /* (the calling thread runs the first part, and any a thread could not
     * be started for) */
    for (j = 1; j < nparts; j++)
        started[j] = pthread_create(&threads[j], NULL, part_thread, &parts[j]) == 0;
    run_part(&parts[0]);
    for (j = 1; j < nparts; j++) {
        if (started[j])
            pthread_join(threads[j], NULL);
        else
            run_part(&parts[j]);
    }
#else
    run_part(&parts[0]);
#endif
    for (j = 0; j < nparts; j++) {
        if (parts[j].failed) { /* the first failing row's message, as one thread gives */
            memcpy(last_error, parts[j].error, sizeof last_error);
            goto bad;
        }
        nulls += parts[j].nulls;
    }
    for (k = 0; k < nf && !check; k++)
        if (join_text(&t[k], parts, nparts, k) < 0)
            goto oom;
    for (j = 0; j < nparts; j++)
        part_free(&parts[j], nf);
    free(parts);
    if (check) {
        if (fu_array_init(out, rows, nulls, 2, valid, values, NULL, 0) < 0) {
            fail("out of memory");
            return -1;
        }
        return 0;
    }
    if (job->op > OP_SPLIT) {
        if (text_export_own(&t[0], out, rows) < 0)
            goto oom;
        return 0;
    }
    if (job->op == OP_SPLIT) {
        if (fu_array_init(out, rows, nulls, 1, valid, NULL, NULL, nf) < 0) {
            valid = NULL;
            goto oom;
        }
        valid = NULL;
        for (k = 0; k < nf; k++)
            if ((views ? text_export_views(&t[k], out->children[k], rows, c)
                       : text_export_own(&t[k], out->children[k], rows))
                < 0)
                goto oom_out;
        if (views && input != NULL)
            fu_array_keep(out, input);
        return 0;
    }
    if ((views ? text_export_views(&t[0], out, rows, c) : text_export_own(&t[0], out, rows)) < 0)
        goto oom;
    if (views && input != NULL)
        fu_view_array_keep(out, input);
    return 0;
oom_out:
    for (k = 0; k < nf; k++)
        text_free(&t[k]);
    out->release(out);
    fail("out of memory");
    return -1;
oom:
    fail("out of memory");
bad:
    for (j = 0; j < nparts && parts != NULL; j++)
        part_free(&parts[j], nf);
    free(parts);
    for (k = 0; k < nf; k++)
        text_free(&t[k]);
    fu_release(valid);
    fu_release(values);
    return -1;
}

/* Every chunk and every Series polars handed over, released (a chunk a
 * result took over was moved: its release is cleared). */
static void release_args(const fu_series_t *in, size_t n)
{
    size_t k, j;
    for (k = 0; k < n; k++) {
        fu_series_t *s = (fu_series_t *)&in[k];
        for (j = 0; j < s->len; j++)
            if (s->arrays[j]->release != NULL)
                s->arrays[j]->release(s->arrays[j]);
        if (s->release != NULL)
            s->release(s);
    }
}

static void call(int op, const fu_series_t *in, size_t n, fu_series_t *out, int parallel)
{
    const struct ArrowSchema *schemas[4] = { NULL, NULL, NULL, NULL };
    job_t job;
    reader_t urls, bases;
    result_t *r = NULL;
    const fu_series_t *driver;
    int64_t row0 = 0, total;
    size_t k, chunks;
    uint8_t *zeros = NULL;
    memset(&job, 0, sizeof job);
    memset(&urls, 0, sizeof urls);
    memset(&bases, 0, sizeof bases);
    job.op = op;
    if (n > 4) {
        check_args(op, NULL, n);
        goto done;
    }
    for (k = 0; k < n; k++)
        schemas[k] = in[k].field;
    if (check_args(op, schemas, n) < 0 || read_options(&job, in) < 0)
        goto done;
    reader_init(&urls, &in[0]);
    total = urls.length;
    /* resolve against a base column: a one-row reference column is read
     * for every base, and the result follows the bases' chunks */
    driver = &in[0];
    if (op == OP_RESOLVE) {
        reader_init(&bases, &in[1]);
        if (bases.length != total && total != 1 && bases.length != 1) {
            fail("resolve: %lld references and %lld bases", (long long)total,
                 (long long)bases.length);
            goto done;
        }
        if (total == 1 && bases.length != 1) {
            driver = &in[1];
            total = bases.length;
        }
    }
    chunks = driver->len;
    r = (result_t *)calloc(1, sizeof *r);
    if (r == NULL)
        goto oom;
    r->chunks = (struct ArrowArray *)calloc(chunks > 0 ? chunks : 1, sizeof *r->chunks);
    r->ptrs = (struct ArrowArray **)calloc(chunks > 0 ? chunks : 1, sizeof *r->ptrs);
    if (r->chunks == NULL || r->ptrs == NULL)
        goto oom;
    if (result_schema(op, schemas, &r->schema) < 0)
        goto failed;
    for (k = 0; k < chunks; k++) {
        struct ArrowArray *input = driver->arrays[k];
        fu_col_t c;
        int64_t rows = input->length;
        if (driver == &in[0] && open_chunk(in[0].field, input, &c, &zeros) < 0)
            goto failed;
        if (result_chunk(&job, in, driver == &in[0] ? &c : NULL, input, row0, rows, parallel,
                         &r->chunks[k])
            < 0)
            goto failed;
        r->ptrs[k] = &r->chunks[k];
        r->n = k + 1;
        row0 += rows;
    }
    if (chunks == 0) { /* polars reads one chunk at least: an empty one */
        fu_col_t empty;
        memset(&empty, 0, sizeof empty);
        empty.type = FU_COL_VIEW;
        if (result_chunk(&job, in, &empty, NULL, 0, 0, parallel, &r->chunks[0]) < 0)
            goto failed;
        r->ptrs[0] = &r->chunks[0];
        r->n = 1;
    }
    out->field = &r->schema;
    out->arrays = r->ptrs;
    out->len = r->n;
    out->release = result_release;
    out->private_data = r;
    r = NULL;
    goto done;
oom:
    fail("out of memory");
failed:
    if (r != NULL)
        result_free(r);
done:
    job_free(&job);
    free(zeros);
    release_args(in, n);
}

/* ---- the exported functions -------------------------------------------------- */

#define FU_PLUGIN(NAME, OP)                                                                        \
    FU_EXPORT void _polars_plugin_field_##NAME(const struct ArrowSchema *args, size_t n,           \
                                               struct ArrowSchema *out, const uint8_t *kwargs,     \
                                               size_t kwargs_len)                                  \
    {                                                                                              \
        (void)kwargs, (void)kwargs_len;                                                            \
        field_of(OP, args, n, out);                                                                \
    }                                                                                              \
    FU_EXPORT void _polars_plugin_##NAME(const fu_series_t *args, size_t n, const uint8_t *kwargs, \
                                         size_t kwargs_len, fu_series_t *out,                      \
                                         const fu_context_t *context)                              \
    {                                                                                              \
        (void)kwargs, (void)kwargs_len;                                                            \
        call(OP, args, n, out, context != NULL && (context->bitflags & 1));                        \
    }

FU_PLUGIN(scheme, OP_SCHEME)
FU_PLUGIN(authority, OP_AUTHORITY)
FU_PLUGIN(userinfo, OP_USERINFO)
FU_PLUGIN(host, OP_HOST)
FU_PLUGIN(port, OP_PORT)
FU_PLUGIN(path, OP_PATH)
FU_PLUGIN(query, OP_QUERY)
FU_PLUGIN(fragment, OP_FRAGMENT)
FU_PLUGIN(split, OP_SPLIT)
FU_PLUGIN(normalize, OP_NORMALIZE)
FU_PLUGIN(canonicalize, OP_CANONICALIZE)
FU_PLUGIN(is_valid, OP_IS_VALID)
FU_PLUGIN(error_position, OP_ERROR_POSITION)
FU_PLUGIN(fingerprint, OP_FINGERPRINT)
FU_PLUGIN(registrable_domain, OP_REGISTRABLE_DOMAIN)
FU_PLUGIN(public_suffix, OP_PUBLIC_SUFFIX)
FU_PLUGIN(load_public_suffix_list, OP_LOAD_PSL)
FU_PLUGIN(percent_decode, OP_PERCENT_DECODE)
FU_PLUGIN(resolve, OP_RESOLVE)
FU_PLUGIN(query_param, OP_QUERY_PARAM)
FU_PLUGIN(remove_params, OP_REMOVE_PARAMS)
FU_PLUGIN(path_extension, OP_PATH_EXTENSION)
FU_PLUGIN(subdomain, OP_SUBDOMAIN)
