/* ThreadSanitizer harness for the C that threads share without the GIL.
 *
 * The claim that the column kernels (src/fasturi/_arrow_c.pyx on
 * _workers.py's threads), the csrc/ helpers and the tables swapped under
 * readers are free-threading safe is checked here, in plain C, built with
 * -fsanitize=thread (see .ci/sanitize --tsan): ThreadSanitizer reports a
 * race that a free-threaded interpreter (.ci/free-threaded) only sometimes
 * hits.
 *
 *   gcc -fsanitize=thread -O1 -g -pthread -I csrc .ci/tsan_harness.c
 *   TSAN_OPTIONS=halt_on_error=1:exitcode=66 ./a.out [URLS.txt] [-n ROWS]
 *       [-r ROUNDS] [-c CALLERS] [-p POOL] [-s SWAPS] [-v]
 *
 * URLS.txt: one URL a line (the corpus, ../shared/corpus/urls.txt), its
 * first ROWS lines (default 30000; -1 for all) among the built-in hostile
 * rows (empty, NUL bytes, malformed escapes, escapes that decode to no
 * UTF-8, IP literals, non-ASCII, a query of 20000 fields, one row of
 * megabytes); without it, the built-in rows alone.  ROUNDS (default 1):
 * how many times each caller runs every case; CALLERS (2) threads issue
 * calls at once on one pool of POOL (3) threads; -v times each case.
 *
 * It does what a kernel call does, the way _arrow_c.pyx does it (its Job,
 * Range, _prepare, _run, _split_row, _one_row, _take, _join, _gather and
 * _execute are mirrored here function for function):
 *   - SHARED, read-only: the Arrow columns the rows are read from (string,
 *     large_string and string_view arrays over one data buffer, sliced,
 *     with nulls), a column of bases, the Public Suffix List table (built
 *     in C with fu_psl_insert, then only read), canonicalize's drop rules,
 *     a percent-encoding action table;
 *   - SHARED, written by every thread, each its own rows: the offsets,
 *     validity bitmaps, string views, bit/int/u64 values of the result
 *     (ranges are whole 64-row blocks, so no byte of a bitmap is shared);
 *   - SHARED atomics (fasturi_shared.h): ranges and join pieces taken and
 *     done, the call's stage, a call's reference count (the pool task that
 *     "holds its call"), and fasturi_mem.h's lock over its table of blocks;
 *   - SHARED across calls: fasturi_mem.h's kept blocks (results of 4 MiB or
 *     more are mapped, grown with mremap, released and handed to the next
 *     call of about their size by whichever thread asks first);
 *   - PER THREAD (per range): output buffers (fu_buf_reserve / fu_grow),
 *     scratch (normalize's, canonicalize's field array and name buffer,
 *     RFC 3987 widening, surt's padded copies), resolve's last split base.
 * Threads: a pool of P threads (default 3) that take tasks from a queue, as
 * _workers.py's executor does, and C callers (default 2) that issue calls
 * at once, each taking whatever ranges or pieces no pool thread has (the
 * calling thread's part in _execute).  threads= cycles 2, 4, 7, 3, so some
 * calls have more ranges than there are threads and some tasks start after
 * their call is over.
 *
 * The per-row C helpers driven: fu_col_row, fu_col_text_end, fu_col_bytes,
 * fu_col_row_buffer, fu_view_set, fu_is_ascii, fu_utf8_decode,
 * fu_utf8_valid, fu_split_row_1, fu_split_1, fu_authority_1, fu_stop_1,
 * fu_copy, fu_copy_over, fu_normalize_1 (fu_pct_norm_1, dot segments),
 * fu_canon_key, fu_xxh64, fu_resolve_1, fu_pct_decode_1, fu_pct_encode_1,
 * fu_rule_check, fu_classify_4, fu_psl_host_range (fu_host_type),
 * fu_psl_lookup (fu_lower_ascii, fu_psl_step, fu_psl_find),
 * fu_surt_copy_to_stop, fu_surt_plain_host, fu_surt_escape_lower,
 * fu_surt_reverse_labels, fu_surt_escape_plain_path, fu_w3_plain,
 * fu_buf_reserve, fu_alloc, fu_grow, fu_release.  (surt's and w3lib's row
 * drivers are Cython, with Python fallbacks: here their C helpers are run
 * on each row's parts.)
 *
 * Every call's result, row by row (a hash of each row's outputs, and where
 * the first failing row is), must equal the one a single thread gave before
 * the threads started: a wrong answer fails the run as a race report does.
 *
 * Then the tables that readers use without a lock while another thread
 * swaps them for new ones and frees the old (fasturi_shared.h's
 * fu_guard_t), one phase each of guarded(): the Public Suffix List, as
 * _psl_c.pyx swaps it (load_public_suffix_list), SWAPS times (default 500)
 * under three readers looking hosts up; every answer must be one of the two
 * lists' it alternates between.
 * Exit status: 0 clean, 1 a mismatch or a failed self-check (and TSan's
 * exitcode, 66 in .ci/sanitize, on a report).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fasturi_arrow.h"
#include "fasturi_canon.h"
#include "fasturi_codec.h"
#include "fasturi_dots.h"
#include "fasturi_pct.h"
#include "fasturi_psl.h"
#include "fasturi_rules.h"
#include "fasturi_scan.h"
#include "fasturi_shared.h"
#include "fasturi_surt.h"
#include "fasturi_w3lib.h"
#include "fasturi_xxh64.h"

/* ---- as _arrow_c.pyx ------------------------------------------------------ */

enum {
    OP_SPLIT,       /* all eight fields, copied */
    OP_SPLIT_VIEWS, /* host, path, query as string views into the column */
    OP_NORMALIZE,
    OP_CANONICALIZE,
    OP_FINGERPRINT,
    OP_RESOLVE_ONE,
    OP_RESOLVE_EACH,
    OP_DECODE,
    OP_IS_VALID,
    OP_POSITION, /* an RFC 3987 rule: non-ASCII rows are widened */
    OP_DOMAIN,
    OP_SURT,   /* surt's C helpers over each row's parts */
    OP_W3LIB,  /* fu_w3_plain over each row's path */
    OP_ENCODE, /* the percent codec with a shared action table */
    NOPS
};
static const char *op_names[NOPS] = {
    "split",       "split_views",    "normalize",          "canonicalize",
    "fingerprint", "resolve_one",    "resolve_each",       "percent_decode",
    "is_valid",    "error_position", "registrable_domain", "surt",
    "w3lib",       "percent_encode",
};

enum { BAD_NONE = 0, BAD_UTF8, BAD_CORRUPT, BAD_DECODE, BAD_MEMORY, BAD_PYTHON, BAD_OVERFLOW };
enum { F_SCHEME = 0, F_AUTHORITY, F_USERINFO, F_HOST, F_PORT, F_PATH, F_QUERY, F_FRAGMENT };
enum { MAX_TEXT = 8 };
enum { STAGE_WORK = 0, STAGE_JOIN = 1, STAGE_DONE = 2 };
enum { BLOCK = 64, MIN_RANGE = 2048, SAMPLE = 256 };

typedef struct {
    /* read-only once the threads start */
    int op;
    fu_col_t col;
    const uint8_t *text_end;
    fu_col_t bases;
    const uint8_t *base;
    int64_t nbase;
    fu_split_t base_parts;
    int base_absolute;
    int ntext;
    int large;
    void *offsets[MAX_TEXT];
    int fields[MAX_TEXT];
    int split_authority;
    uint8_t *views[MAX_TEXT];
    int scheme_based, sort_query, drop_fragment, strict;
    int mode, rule, errors;
    const fu_drop_rule_t *rules;
    int nrules;
    ptrdiff_t longest;
    const uint8_t *pct_table;
    /* results every range writes its own rows of */
    uint8_t *valid[MAX_TEXT];
    uint8_t *row_valid;
    uint8_t *bits;
    int32_t *ints;
    uint64_t *u64;
    const fu_psl_t *psl;
    int psl_depth, psl_shift, psl_domain;
    uint8_t *joined[MAX_TEXT];
    int64_t ranges_taken, ranges_done, pieces_taken, pieces_done, stage;
} Job;

typedef struct {
    int64_t start, end;
    fu_buf_t out[MAX_TEXT];
    int64_t room, text;
    int64_t at[MAX_TEXT];
    int64_t nulls[MAX_TEXT];
    int64_t row_nulls;
    int bad;
    int64_t bad_row;
    fu_buf_t tmp;
    uint32_t *wide;
    int64_t wide_cap;
    fu_field_t *fields;
    ptrdiff_t fields_cap;
    uint8_t *name;
    const uint8_t *last_base;
    int64_t last_nbase;
    fu_split_t last_parts;
    uint8_t pad[64];
} Range;

typedef struct {
    Job job;
    Range *ranges;
    int nranges;
    int64_t length;
    int64_t refs; /* the caller and each task submitted (fu_shared_add) */
} Call;

static void set_bit(uint8_t *b, int64_t i) { b[i >> 3] |= (uint8_t)(1 << (i & 7)); }
static void clear_bit(uint8_t *b, int64_t i) { b[i >> 3] &= (uint8_t) ~(1 << (i & 7)); }
static int get_bit(const uint8_t *b, int64_t i) { return (b[i >> 3] >> (i & 7)) & 1; }

static int end_row(Job *job, int k, int64_t i, int64_t at)
{
    if (job->large)
        ((int64_t *)job->offsets[k])[i + 1] = at;
    else if (at > 0x7FFFFFFF)
        return BAD_OVERFLOW;
    else
        ((int32_t *)job->offsets[k])[i + 1] = (int32_t)at;
    return BAD_NONE;
}

static int text_row(Job *job, Range *r, int k, int64_t i, const uint8_t *p, int64_t n)
{
    if (n > 0) {
        if (fu_buf_reserve(&r->out[k], n) < 0)
            return BAD_MEMORY;
        fu_copy(r->out[k].data + r->out[k].len, p, n);
        r->out[k].len += n;
    }
    return end_row(job, k, i, r->out[k].len);
}

static int null_row(Job *job, Range *r, int k, int64_t i)
{
    clear_bit(job->valid[k], i);
    r->nulls[k] += 1;
    if (job->views[k] != NULL) {
        memset(job->views[k] + 16 * i, 0, 16);
        return BAD_NONE;
    }
    return end_row(job, k, i, r->out[k].len);
}

static int widen(Range *r, const uint8_t *p, int64_t n, int64_t *count)
{
    uint32_t *w;
    if (n > r->wide_cap) {
        w = (uint32_t *)realloc(r->wide, (size_t)n * sizeof(uint32_t));
        if (w == NULL)
            return -1;
        r->wide = w;
        r->wide_cap = n;
    }
    if (r->tmp.cap < n) {
        r->tmp.len = 0;
        if (fu_buf_reserve(&r->tmp, n) < 0)
            return -1;
    }
    fu_utf8_decode(p, n, r->wide, count);
    fu_classify_4(r->wide, *count, r->tmp.data);
    return 0;
}

static ptrdiff_t check_rule(Job *job, Range *r, const uint8_t *p, int64_t n, int ascii)
{
    int64_t count = 0;
    if (ascii)
        return fu_rule_check(job->rule, p, n);
    if (widen(r, p, n, &count) < 0)
        return -2;
    return fu_rule_check(job->rule, r->tmp.data, count);
}

static void field_ranges(Job *job, int64_t n, fu_split_t *s, fu_authority_t *a, int64_t *lo,
                         int64_t *hi)
{
    lo[F_SCHEME] = s->scheme_end >= 0 ? 0 : -1, hi[F_SCHEME] = s->scheme_end;
    lo[F_AUTHORITY] = s->auth_start, hi[F_AUTHORITY] = s->auth_end;
    lo[F_PATH] = s->path_start, hi[F_PATH] = s->path_end;
    lo[F_QUERY] = s->query_start, hi[F_QUERY] = s->query_end;
    lo[F_FRAGMENT] = s->frag_start, hi[F_FRAGMENT] = n;
    if (!job->split_authority)
        return;
    lo[F_HOST] = a->host_start, hi[F_HOST] = a->host_end;
    lo[F_USERINFO] = s->auth_start, hi[F_USERINFO] = a->userinfo_end;
    lo[F_PORT] = a->port_start, hi[F_PORT] = s->auth_end;
    if (s->auth_start < 0)
        lo[F_HOST] = lo[F_USERINFO] = lo[F_PORT] = -1;
    else if (a->userinfo_end < 0)
        lo[F_USERINFO] = -1;
}

static int make_room(Job *job, Range *r, int64_t n)
{
    r->room = INT64_MAX;
    for (int k = 0; k < job->ntext; k++) {
        if (fu_buf_reserve(&r->out[k], n) < 0)
            return -1;
        if (r->out[k].cap - r->out[k].len < r->room)
            r->room = r->out[k].cap - r->out[k].len;
    }
    return 0;
}

static int split_row(Job *job, Range *r, int64_t i, const uint8_t *p, int64_t n)
{
    fu_split_t s;
    fu_authority_t a;
    int32_t idx;
    const uint8_t *base;
    int64_t lo[MAX_TEXT], hi[MAX_TEXT];
    int over = n > 0 && job->text_end != NULL && job->text_end - p >= n + 64;
    if (!fu_split_row_1(p, n, job->split_authority, &s, &a) && !fu_utf8_decode(p, n, NULL, NULL))
        return BAD_UTF8;
    field_ranges(job, n, &s, &a, lo, hi);
    if (job->views[0] != NULL) {
        fu_col_row_buffer(&job->col, i, n, &idx, &base);
        for (int k = 0; k < job->ntext; k++) {
            int f = job->fields[k];
            if (lo[f] >= 0)
                fu_view_set(job->views[k] + 16 * i, p + lo[f], hi[f] - lo[f], idx, base);
            else
                null_row(job, r, k, i);
        }
        return BAD_NONE;
    }
    if (r->room < n + 64 && make_room(job, r, n + 64) < 0)
        return BAD_MEMORY;
    r->room -= n;
    r->text += n;
    for (int k = 0; k < job->ntext; k++) {
        int f = job->fields[k];
        fu_buf_t *o = &r->out[k];
        if (lo[f] >= 0) {
            if (over)
                fu_copy_over(o->data + o->len, p + lo[f], hi[f] - lo[f]);
            else
                fu_copy(o->data + o->len, p + lo[f], hi[f] - lo[f]);
            o->len += hi[f] - lo[f];
        } else {
            clear_bit(job->valid[k], i);
            r->nulls[k] += 1;
        }
        if (job->large)
            ((int64_t *)job->offsets[k])[i + 1] = o->len;
        else
            ((int32_t *)job->offsets[k])[i + 1] = (int32_t)o->len;
    }
    if (r->text > 0x7FFFFFFF && !job->large)
        for (int k = 0; k < job->ntext; k++)
            if (r->out[k].len > 0x7FFFFFFF)
                return BAD_OVERFLOW;
    return BAD_NONE;
}

static int reserve_split(Job *job, Range *r, int64_t until)
{
    int64_t share[MAX_TEXT] = { 0 }, lo[MAX_TEXT], hi[MAX_TEXT];
    int64_t i, n, total, sampled = 0, rows;
    const uint8_t *p;
    fu_split_t s;
    fu_authority_t a;
    int64_t stop = r->end < r->start + SAMPLE ? r->end : r->start + SAMPLE;
    for (i = r->start; i < stop; i++) {
        if (fu_col_row(&job->col, i, &p, &n) != FU_ROW_VALUE)
            continue;
        sampled += n;
        fu_split_row_1(p, n, job->split_authority, &s, &a);
        field_ranges(job, n, &s, &a, lo, hi);
        for (int k = 0; k < job->ntext; k++)
            if (lo[job->fields[k]] >= 0)
                share[k] += hi[job->fields[k]] - lo[job->fields[k]];
    }
    total = fu_col_bytes(&job->col, r->start, until);
    rows = until - r->start;
    for (int k = 0; k < job->ntext; k++) {
        n = sampled == 0 ? total / job->ntext : (total * share[k] / sampled) * 9 / 8;
        if (fu_buf_reserve(&r->out[k], n + 16 * rows / SAMPLE + 64) < 0)
            return -1;
    }
    return 0;
}

/* ---- registrable_domain: fasturi_psl.h's steps, as _arrow_c.pyx --------- */

static int domain_row(Job *job, Range *r, int64_t i, const uint8_t *p, int64_t n, int ascii)
{
    ptrdiff_t a, b, size, suffix_at, domain_at, at;
    int bad;
    if (!fu_psl_host_range(p, n, &a, &b))
        return null_row(job, r, 0, i);
    size = b - a;
    if (!ascii && !fu_is_ascii(p + a, size))
        return null_row(job, r, 0, i); /* (the kernel asks Python: str.lower) */
    r->tmp.len = 0;
    if (fu_buf_reserve(&r->tmp, size) < 0)
        return BAD_MEMORY;
    if (fu_psl_lookup(job->psl, job->psl_depth, p + a, size, r->tmp.data, job->psl_shift,
                      &suffix_at, &domain_at)
        < 0)
        return null_row(job, r, 0, i);
    at = job->psl_domain ? domain_at : suffix_at;
    if (at < 0)
        return null_row(job, r, 0, i);
    bad = text_row(job, r, 0, i, r->tmp.data + at, size - at);
    set_bit(job->valid[0], i);
    return bad;
}

/* ---- surt and w3lib: their C helpers over the row's parts ---------------- */

static int surt_row(Job *job, Range *r, int64_t i, const uint8_t *p, int64_t n)
{
    unsigned high = 0;
    uint8_t *t, *h, *o;
    ptrdiff_t m, hl, j = 0, x;
    fu_split_t s;
    fu_authority_t a;
    /* scratch: the row's copy (and 32 bytes of padding), a host (3n + 32) */
    r->tmp.len = 0;
    if (fu_buf_reserve(&r->tmp, 4 * n + 128) < 0 || fu_buf_reserve(&r->out[0], 3 * n + 64) < 0)
        return BAD_MEMORY;
    t = r->tmp.data;
    h = t + n + 32;
    m = fu_surt_copy_to_stop(p, n, t, &high);
    if (high && !fu_utf8_decode(p, n, NULL, NULL))
        return BAD_UTF8;
    memset(t + m, 0, 32); /* (read 16 past the end, never looked at) */
    o = r->out[0].data + r->out[0].len;
    fu_split_1(t, m, &s);
    if (s.auth_start >= 0) {
        fu_authority_1(t, s.auth_start, s.auth_end, &a);
        hl = fu_surt_plain_host(t + a.host_start, a.host_end - a.host_start, h);
        if (hl < 0)
            hl = fu_surt_escape_lower(t + a.host_start, a.host_end - a.host_start, h);
        memset(h + hl, 0, 16);
        j = fu_surt_reverse_labels(h, hl, o);
        o[j++] = ')';
    }
    x = fu_surt_escape_plain_path(t + s.path_start, s.path_end - s.path_start, o + j);
    if (x < 0)
        x = fu_surt_escape_lower(t + s.path_start, s.path_end - s.path_start, o + j);
    j += x;
    if (s.query_start >= 0) {
        o[j++] = '?';
        j += fu_surt_escape_lower(t + s.query_start, s.query_end - s.query_start, o + j);
    }
    r->out[0].len += j;
    set_bit(job->valid[0], i);
    return end_row(job, 0, i, r->out[0].len);
}

static int w3lib_row(Job *job, Range *r, int64_t i, const uint8_t *p, int64_t n)
{
    fu_split_t s;
    ptrdiff_t last = -2, kept, pn;
    int dots = 0, w;
    char head[64];
    fu_split_1(p, n, &s);
    pn = s.path_end - s.path_start;
    kept = fu_w3_plain(p + s.path_start, pn, &last, &dots);
    w = snprintf(head, sizeof head, "%td/%td/%d|", kept, last, dots);
    if (fu_buf_reserve(&r->out[0], w + kept) < 0)
        return BAD_MEMORY;
    memcpy(r->out[0].data + r->out[0].len, head, (size_t)w);
    r->out[0].len += w;
    set_bit(job->valid[0], i);
    return text_row(job, r, 0, i, p + s.path_start, kept);
}

/* ---- a row, a range ------------------------------------------------------ */

static ptrdiff_t canon_key(Job *job, Range *r, const uint8_t *p, int64_t n)
{
    ptrdiff_t m;
    fu_buf_t *o = &r->out[0];
    r->tmp.len = 0;
    if (fu_buf_reserve(&r->tmp, n + FU_NORMALIZE_EXTRA) < 0)
        return -1;
    m = fu_normalize_1(p, n, 1, r->tmp.data);
    if (fu_buf_reserve(o, m) < 0)
        return -1;
    return fu_canon_key(r->tmp.data, m, job->sort_query, job->drop_fragment, job->rules,
                        job->nrules, job->longest, r->name, &r->fields, &r->fields_cap,
                        o->data + o->len);
}

static int one_row(Job *job, Range *r, int64_t i, const uint8_t *p, int64_t n, int ascii)
{
    ptrdiff_t m;
    fu_split_t bs;
    const uint8_t *b;
    int64_t nb;
    int got;
    uint32_t high;
    fu_buf_t *o = &r->out[0];
    switch (job->op) {
    case OP_DOMAIN: return domain_row(job, r, i, p, n, ascii);
    case OP_W3LIB: return w3lib_row(job, r, i, p, n);
    case OP_NORMALIZE:
        if (fu_buf_reserve(o, n + FU_NORMALIZE_EXTRA) < 0)
            return BAD_MEMORY;
        o->len += fu_normalize_1(p, n, job->scheme_based, o->data + o->len);
        break;
    case OP_CANONICALIZE:
        m = canon_key(job, r, p, n);
        if (m < 0)
            return BAD_MEMORY;
        o->len += m;
        break;
    case OP_FINGERPRINT:
        m = canon_key(job, r, p, n);
        if (m < 0)
            return BAD_MEMORY;
        job->u64[i] = fu_xxh64(o->data + o->len, (size_t)m, 0);
        set_bit(job->valid[0], i);
        return BAD_NONE;
    case OP_RESOLVE_ONE:
        if (!job->base_absolute)
            return null_row(job, r, 0, i);
        if (fu_buf_reserve(o, job->nbase + n + FU_RESOLVE_EXTRA) < 0)
            return BAD_MEMORY;
        o->len += fu_resolve_1(job->base, job->nbase, &job->base_parts, p, n, job->strict,
                               job->mode, o->data + o->len);
        break;
    case OP_RESOLVE_EACH:
        got = fu_col_row(&job->bases, i, &b, &nb);
        if (got == FU_ROW_CORRUPT)
            return BAD_CORRUPT;
        if (got == FU_ROW_NULL)
            return null_row(job, r, 0, i);
        if (r->last_base == NULL || nb != r->last_nbase
            || memcmp(b, r->last_base, (size_t)nb) != 0) {
            if (!fu_utf8_valid(b, nb))
                return BAD_UTF8;
            fu_split_1(b, nb, &r->last_parts);
            r->last_base = b, r->last_nbase = nb;
        }
        bs = r->last_parts;
        if (bs.scheme_end < 0)
            return null_row(job, r, 0, i);
        if (fu_buf_reserve(o, nb + n + FU_RESOLVE_EXTRA) < 0)
            return BAD_MEMORY;
        o->len += fu_resolve_1(b, nb, &bs, p, n, job->strict, job->mode, o->data + o->len);
        break;
    case OP_DECODE:
        if (fu_buf_reserve(o, n) < 0)
            return BAD_MEMORY;
        high = 0;
        m = fu_pct_decode_1(p, n, 0, o->data + o->len, &high);
        if (high & 0x80 && !fu_utf8_decode(o->data + o->len, m, NULL, NULL)) {
            if (job->errors == 0)
                return BAD_DECODE;
            /* (errors="replace"/"ignore" take the GIL for Python's decoder:
             * here the row is null) */
            return null_row(job, r, 0, i);
        }
        o->len += m;
        break;
    case OP_ENCODE:
        if (fu_buf_reserve(o, 3 * n) < 0)
            return BAD_MEMORY;
        o->len = fu_pct_encode_1(p, n, job->pct_table, o->data + o->len) - o->data;
        break;
    case OP_IS_VALID:
        m = check_rule(job, r, p, n, ascii);
        if (m == -2)
            return BAD_MEMORY;
        if (m < 0)
            set_bit(job->bits, i);
        set_bit(job->valid[0], i);
        return BAD_NONE;
    case OP_POSITION:
        m = check_rule(job, r, p, n, ascii);
        if (m == -2)
            return BAD_MEMORY;
        if (m < 0) {
            r->nulls[0] += 1;
        } else {
            job->ints[i] = (int32_t)m;
            set_bit(job->valid[0], i);
        }
        return BAD_NONE;
    }
    set_bit(job->valid[0], i);
    return end_row(job, 0, i, o->len);
}

static void run_range(Job *job, Range *r)
{
    int64_t i, n;
    const uint8_t *p;
    int got, bad, ascii;
    for (i = r->start; i < r->end; i++) {
        got = fu_col_row(&job->col, i, &p, &n);
        if (got == FU_ROW_CORRUPT) {
            bad = BAD_CORRUPT;
        } else if (got == FU_ROW_NULL) {
            r->row_nulls += 1;
            if (job->row_valid != NULL)
                clear_bit(job->row_valid, i);
            if (job->ntext == 0)
                r->nulls[0] += 1;
            bad = BAD_NONE;
            for (int k = 0; k < job->ntext; k++)
                bad |= null_row(job, r, k, i);
            if (bad == BAD_NONE)
                continue;
        } else if (job->op == OP_SPLIT || job->op == OP_SPLIT_VIEWS) {
            bad = split_row(job, r, i, p, n);
        } else if (job->op == OP_SURT) {
            bad = surt_row(job, r, i, p, n);
        } else {
            ascii = fu_is_ascii(p, n);
            if (!ascii && !fu_utf8_decode(p, n, NULL, NULL))
                bad = BAD_UTF8;
            else
                bad = one_row(job, r, i, p, n, ascii);
        }
        if (bad != BAD_NONE) {
            r->bad = bad;
            r->bad_row = i;
            return;
        }
    }
}

/* ---- the threads' shares ------------------------------------------------- */

static void gather(Job *job, Range *ranges, int nr, int j)
{
    for (int k = 0; k < job->ntext; k++) {
        int64_t first, total, lo, hi, a, b, at;
        if (job->joined[k] == NULL)
            continue;
        first = ranges[1].at[k];
        total = ranges[nr - 1].at[k] + ranges[nr - 1].out[k].len;
        lo = first + (total - first) * j / nr;
        hi = first + (total - first) * (j + 1) / nr;
        for (int q = 1; q < nr; q++) {
            a = lo > ranges[q].at[k] ? lo : ranges[q].at[k];
            b = ranges[q].at[k] + ranges[q].out[k].len;
            b = hi < b ? hi : b;
            if (a < b)
                memcpy(job->joined[k] + a, ranges[q].out[k].data + (a - ranges[q].at[k]),
                       (size_t)(b - a));
        }
        at = ranges[j].at[k];
        if (at == 0)
            continue;
        for (int64_t i = ranges[j].start + 1; i < ranges[j].end + 1; i++) {
            if (job->large)
                ((int64_t *)job->offsets[k])[i] += at;
            else
                ((int32_t *)job->offsets[k])[i] += (int32_t)at;
        }
    }
}

typedef void (*unit_fn)(Job *, Range *, int, int);

static void range_unit(Job *job, Range *ranges, int nr, int j)
{
    (void)nr;
    run_range(job, &ranges[j]);
}

static void take(Job *job, Range *ranges, int nr, int64_t *taken, int64_t *done, unit_fn unit)
{
    for (;;) {
        int64_t j = fu_shared_add(taken, 1);
        if (j >= nr)
            return;
        unit(job, ranges, nr, (int)j);
        fu_shared_add(done, 1);
    }
}

static void take_ranges(Job *job, Range *ranges, int nr)
{
    take(job, ranges, nr, &job->ranges_taken, &job->ranges_done, range_unit);
}

static void take_pieces(Job *job, Range *ranges, int nr)
{
    take(job, ranges, nr, &job->pieces_taken, &job->pieces_done, gather);
}

static void call_free(Call *call)
{
    for (int j = 0; j < call->nranges; j++) {
        Range *r = &call->ranges[j];
        for (int k = 0; k < MAX_TEXT; k++)
            fu_release(r->out[k].data);
        fu_release(r->tmp.data);
        free(r->wide);
        free(r->fields);
        free(r->name);
    }
    free(call->ranges);
    for (int k = 0; k < MAX_TEXT; k++) {
        fu_release(call->job.joined[k]);
        fu_release(call->job.valid[k]);
        fu_release(call->job.offsets[k]);
        fu_release(call->job.views[k]);
    }
    fu_release(call->job.row_valid);
    fu_release(call->job.bits);
    fu_release(call->job.ints);
    fu_release(call->job.u64);
    free(call);
}

static void call_drop(Call *call)
{
    if (fu_shared_add(&call->refs, -1) == 1)
        call_free(call);
}

/* A pool thread's part: _Call.help. */
static void call_help(Call *call)
{
    take_ranges(&call->job, call->ranges, call->nranges);
    if (fu_shared_wait_change(&call->job.stage, STAGE_WORK) == STAGE_JOIN)
        take_pieces(&call->job, call->ranges, call->nranges);
    call_drop(call);
}

/* ---- the pool (_workers.py: an executor's queue) ------------------------- */

typedef struct Task {
    Call *call;
    struct Task *next;
} Task;

static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t pool_cond = PTHREAD_COND_INITIALIZER;
static Task *pool_head, *pool_tail;
static int pool_closing;

static void pool_submit(Call *call)
{
    Task *t = (Task *)malloc(sizeof(Task));
    if (t == NULL) {
        call_drop(call);
        return;
    }
    t->call = call;
    t->next = NULL;
    pthread_mutex_lock(&pool_lock);
    if (pool_tail)
        pool_tail->next = t;
    else
        pool_head = t;
    pool_tail = t;
    pthread_cond_signal(&pool_cond);
    pthread_mutex_unlock(&pool_lock);
}

static void *pool_main(void *arg)
{
    (void)arg;
    for (;;) {
        Task *t;
        pthread_mutex_lock(&pool_lock);
        while (pool_head == NULL && !pool_closing)
            pthread_cond_wait(&pool_cond, &pool_lock);
        t = pool_head;
        if (t == NULL) {
            pthread_mutex_unlock(&pool_lock);
            return NULL;
        }
        pool_head = t->next;
        if (pool_head == NULL)
            pool_tail = NULL;
        pthread_mutex_unlock(&pool_lock);
        call_help(t->call);
        free(t);
    }
}

/* ---- a call: _prepare, _execute, _join ----------------------------------- */

typedef struct {
    int op;
    const fu_col_t *col;
    int large;
    int threads;
} Spec;

/* A Public Suffix List table, built in C as _psl_c._build does. */
typedef struct {
    fu_psl_t t;
    int depth;
    size_t keys_len;
    uint8_t keys[4096];
    fu_psl_slot_t slots[256];
} PslTable;

/* shared, read-only once the threads start */
static fu_col_t g_bases;
static PslTable g_list;
static fu_drop_rule_t g_rules[3];
static uint8_t g_pct_table[256];
static const char g_base[] = "http://a/b/c/d;p?q";

static uint8_t *bitmap(int64_t length, int ones)
{
    size_t size = (size_t)((length + 63) / 64 * 8 + 8);
    uint8_t *b = (uint8_t *)(ones ? malloc(size) : calloc(size, 1));
    if (b && ones)
        memset(b, 0xFF, size);
    return b;
}

static void die(const char *what)
{
    fprintf(stderr, "tsan_harness: %s\n", what);
    exit(1);
}

static Call *prepare(const Spec *spec)
{
    Call *call = (Call *)calloc(1, sizeof(Call));
    Job *job;
    int64_t length, per, start, until, size, extra = 0;
    int nr, k, views = spec->op == OP_SPLIT_VIEWS;
    if (call == NULL)
        die("out of memory");
    job = &call->job;
    job->op = spec->op;
    job->col = *spec->col;
    length = call->length = job->col.length;
    call->refs = 1;
    switch (spec->op) {
    case OP_SPLIT:
        job->ntext = 8;
        for (k = 0; k < 8; k++)
            job->fields[k] = k;
        job->split_authority = 1;
        break;
    case OP_SPLIT_VIEWS:
        job->ntext = 3;
        job->fields[0] = F_HOST, job->fields[1] = F_PATH, job->fields[2] = F_QUERY;
        job->split_authority = 1;
        break;
    case OP_FINGERPRINT:
    case OP_IS_VALID:
    case OP_POSITION: job->ntext = 0; break;
    default: job->ntext = 1;
    }
    if (spec->op == OP_NORMALIZE || spec->op == OP_CANONICALIZE)
        extra = FU_NORMALIZE_EXTRA;
    if (spec->op == OP_RESOLVE_ONE)
        extra = (int64_t)strlen(g_base) + FU_RESOLVE_EXTRA;
    if (spec->op == OP_RESOLVE_EACH)
        extra = 64;
    job->large = spec->large;
    if (spec->op == OP_SPLIT)
        job->text_end = fu_col_text_end(&job->col);
    for (k = 0; k < (job->ntext ? job->ntext : 1); k++)
        if ((job->valid[k] = bitmap(length, job->split_authority)) == NULL)
            die("out of memory");
    if (job->split_authority && (job->row_valid = bitmap(length, 1)) == NULL)
        die("out of memory");
    for (k = 0; k < (views ? job->ntext : 0); k++)
        if ((job->views[k] = (uint8_t *)fu_alloc((size_t)(length > 1 ? length : 1) * 16)) == NULL)
            die("out of memory");
    for (k = 0; k < (views ? 0 : job->ntext); k++) {
        job->offsets[k] = fu_alloc((size_t)(length + 1) * (job->large ? 8 : 4));
        if (job->offsets[k] == NULL)
            die("out of memory");
        if (job->large)
            ((int64_t *)job->offsets[k])[0] = 0;
        else
            ((int32_t *)job->offsets[k])[0] = 0;
    }
    /* the options */
    job->scheme_based = 1;
    job->sort_query = 1;
    job->drop_fragment = 1;
    job->strict = 1;
    job->mode = FU_RESOLVE_3986;
    job->rule = spec->op == OP_POSITION ? FU_R_IRI_REFERENCE : FU_R_URI_REFERENCE;
    job->bases = g_bases;
    job->base = (const uint8_t *)g_base;
    job->nbase = (int64_t)strlen(g_base);
    fu_split_1(job->base, job->nbase, &job->base_parts);
    job->base_absolute = job->base_parts.scheme_end >= 0;
    job->psl = &g_list.t;
    job->psl_depth = g_list.depth;
    job->psl_domain = 1;
    job->psl_shift = 4; /* the whole list's flags (private=True) */
    job->errors = 1;    /* (a row whose escapes are no UTF-8 is null, not an error) */
    job->pct_table = g_pct_table;
    if (spec->op == OP_IS_VALID && (job->bits = bitmap(length, 0)) == NULL)
        die("out of memory");
    if (spec->op == OP_POSITION
        && (job->ints = (int32_t *)calloc((size_t)length + 1, sizeof(int32_t))) == NULL)
        die("out of memory");
    if (spec->op == OP_FINGERPRINT
        && (job->u64 = (uint64_t *)calloc((size_t)length + 1, sizeof(uint64_t))) == NULL)
        die("out of memory");
    /* ranges of whole blocks, at least MIN_RANGE rows each */
    nr = spec->threads;
    if (length / MIN_RANGE < nr)
        nr = (int)(length / MIN_RANGE > 1 ? length / MIN_RANGE : 1);
    per = ((length + nr - 1) / nr + BLOCK - 1) / BLOCK * BLOCK;
    if ((call->ranges = (Range *)calloc((size_t)nr, sizeof(Range))) == NULL)
        die("out of memory");
    call->nranges = nr;
    start = 0;
    for (int j = 0; j < nr; j++) {
        Range *r = &call->ranges[j];
        r->start = start < length ? start : length;
        r->end = start + per < length ? start + per : length;
        start += per;
        until = j == 0 ? length : r->end;
        if (views)
            continue;
        if (spec->op == OP_SPLIT) {
            if (reserve_split(job, r, until) < 0)
                die("out of memory");
            continue;
        }
        size = fu_col_bytes(&job->col, r->start, until) + extra * (until - r->start);
        for (k = 0; k < job->ntext; k++)
            if (fu_buf_reserve(&r->out[k], size) < 0)
                die("out of memory");
    }
    if (spec->op == OP_CANONICALIZE || spec->op == OP_FINGERPRINT) {
        job->rules = g_rules;
        job->nrules = 3;
        for (k = 0; k < 3; k++)
            if (g_rules[k].size > job->longest)
                job->longest = g_rules[k].size;
        for (int j = 0; j < nr; j++)
            if ((call->ranges[j].name = (uint8_t *)malloc((size_t)job->longest + 5)) == NULL)
                die("out of memory");
    }
    return call;
}

static int first_failure(Call *call, int64_t *row)
{
    for (int j = 0; j < call->nranges; j++)
        if (call->ranges[j].bad != BAD_NONE) {
            *row = call->ranges[j].bad_row;
            return call->ranges[j].bad;
        }
    return BAD_NONE;
}

static void join(Call *call)
{
    int any_text = 0;
    if (call->nranges == 1)
        return;
    for (int k = 0; k < call->job.ntext; k++) {
        int64_t total = 0;
        fu_buf_t *head;
        if (call->job.views[k] != NULL)
            continue;
        for (int j = 0; j < call->nranges; j++) {
            call->ranges[j].at[k] = total;
            total += call->ranges[j].out[k].len;
        }
        head = &call->ranges[0].out[k];
        if (fu_buf_reserve(head, total - head->len + 1) < 0)
            die("out of memory");
        call->job.joined[k] = head->data;
        head->data = NULL;
        any_text = 1;
    }
    if (any_text) {
        fu_shared_set(&call->job.stage, STAGE_JOIN);
        take_pieces(&call->job, call->ranges, call->nranges);
        fu_shared_wait_reach(&call->job.pieces_done, call->nranges);
    }
}

/* What a call gave, row by row: a hash of each row's outputs. */
typedef struct {
    int bad;
    int64_t bad_row;
    int64_t length;
    uint64_t *rows;
} Result;

static uint64_t mix(uint64_t h, uint64_t v) { return (h ^ v) * 0x100000001B3ULL + 0x9E37; }

/* The text outputs as _text_array exports them: the joined buffer (or the
 * one range's) cut to size with fu_grow, then read back row by row. */
static void collect(Call *call, Result *res)
{
    Job *job = &call->job;
    int64_t length = call->length;
    uint8_t *data[MAX_TEXT] = { 0 };
    res->length = length;
    res->bad = first_failure(call, &res->bad_row);
    if (res->bad != BAD_NONE)
        return;
    for (int k = 0; k < job->ntext; k++) {
        uint8_t **slot = call->nranges > 1 ? &job->joined[k] : &call->ranges[0].out[k].data;
        int64_t total = 0;
        void *p;
        if (job->views[k] != NULL)
            continue;
        for (int j = 0; j < call->nranges; j++)
            total += call->ranges[j].out[k].len;
        p = fu_grow(*slot, (size_t)(total ? total : 1));
        if (p != NULL)
            *slot = (uint8_t *)p;
        data[k] = *slot;
    }
    res->rows = (uint64_t *)malloc((size_t)(length > 0 ? length : 1) * sizeof(uint64_t));
    if (res->rows == NULL)
        die("out of memory");
    for (int64_t i = 0; i < length; i++) {
        uint64_t h = 0xCBF29CE484222325ULL;
        if (job->row_valid)
            h = mix(h, (uint64_t)get_bit(job->row_valid, i));
        for (int k = 0; k < (job->ntext ? job->ntext : 1); k++) {
            int v = get_bit(job->valid[k], i);
            h = mix(h, (uint64_t)v + 7 * (uint64_t)k);
            if (k >= job->ntext) { /* bool, int32, uint64 values */
                if (job->bits)
                    h = mix(h, (uint64_t)get_bit(job->bits, i));
                if (job->ints && v)
                    h = mix(h, (uint64_t)(uint32_t)job->ints[i]);
                if (job->u64 && v)
                    h = mix(h, job->u64[i]);
            } else if (job->views[k] != NULL) {
                h = mix(h, fu_xxh64(job->views[k] + 16 * i, 16, 0));
            } else {
                int64_t a, b;
                if (job->large)
                    a = ((int64_t *)job->offsets[k])[i], b = ((int64_t *)job->offsets[k])[i + 1];
                else
                    a = ((int32_t *)job->offsets[k])[i], b = ((int32_t *)job->offsets[k])[i + 1];
                h = mix(h, (uint64_t)(b - a));
                if (a < 0 || b < a)
                    h = mix(h, 0xBAD); /* (never: would be a bug) */
                else
                    h = mix(h, fu_xxh64(data[k] + a, (size_t)(b - a), 0));
            }
        }
        res->rows[i] = h;
    }
}

/* One kernel call on `threads` threads: _execute. */
static void execute(const Spec *spec, Result *res, int use_pool)
{
    Call *call = prepare(spec);
    if (use_pool && call->nranges > 1) {
        for (int t = 0; t < call->nranges - 1; t++) {
            fu_shared_add(&call->refs, 1); /* (a task holds its call) */
            pool_submit(call);
        }
    }
    take_ranges(&call->job, call->ranges, call->nranges);
    fu_shared_wait_reach(&call->job.ranges_done, call->nranges);
    memset(res, 0, sizeof *res);
    if (first_failure(call, &res->bad_row) == BAD_NONE)
        join(call);
    fu_shared_set(&call->job.stage, STAGE_DONE);
    collect(call, res);
    call_drop(call);
}

/* ---- the input ----------------------------------------------------------- */

typedef struct {
    const uint8_t **p;
    int64_t *n;
    int64_t count, cap;
} Rows;

static void add_row(Rows *rows, const void *p, int64_t n)
{
    if (rows->count == rows->cap) {
        rows->cap = rows->cap ? 2 * rows->cap : 1024;
        rows->p = (const uint8_t **)realloc(rows->p, (size_t)rows->cap * sizeof *rows->p);
        rows->n = (int64_t *)realloc(rows->n, (size_t)rows->cap * sizeof *rows->n);
        if (!rows->p || !rows->n)
            die("out of memory");
    }
    rows->p[rows->count] = (const uint8_t *)p;
    rows->n[rows->count++] = n;
}

#define ROW(s) add_row(rows, s, (int64_t)sizeof(s) - 1)

/* Valid UTF-8, each hostile in its way. */
static void hostile_rows(Rows *rows)
{
    ROW("");
    ROW("\0");
    ROW("http://a\0b/\0?\0#\0");
    ROW("%");
    ROW("%%%");
    ROW("%zz%4");
    ROW("%e2%82%ac%41%7e%2F");
    ROW("%ff%fe"); /* decodes to bytes that are no UTF-8 */
    ROW("http://[::1]:80/");
    ROW("http://[v7.x]/");
    ROW("http://[fe80::1%25eth0]:8080/p");
    ROW("HTTP://User:Pw@WWW.Example.CO.UK:0080/a/./b/../c/%7euser?b=2&a=1&utm_source=x&a=0#Frag");
    ROW("http://www.example.com./");
    ROW("http://.example.com/");
    ROW("http://a..b.com/");
    ROW("http://foo.bar.kawasaki.jp/");
    ROW("http://city.kawasaki.jp/");
    ROW("http://sub.user.github.io/");
    ROW("http://1.2.3.4/x");
    ROW("//");
    ROW("?");
    ROW("#");
    ROW(":");
    ROW("a:");
    ROW("mailto:x@y.example");
    ROW("../../../g;x?y#s");
    ROW("/./g/.");
    ROW("http://m\xc3\xbcnchen.de/\xc3\xa4?\xc3\xb6#\xc3\xbc");
    ROW("http://xn--mnchen-3ya.de/");
    ROW("http://example.com/\xf0\x9f\x98\x80/\xef\xbf\xbf");
    ROW("\t\r\nhttp://x/\t#\r");
    ROW("http://example.com/(S(abc))/x;jsessionid=0123456789ABCDEF0123456789ABCDEF?b&a");
    ROW("http://example.com/path with spaces/\"<>`{|}^[\\]");
}

/* Two big rows, once each: in the first range, whose buffers are sized
 * for every row (4 MiB and more: fasturi_mem.h's mapped blocks). */
static void big_rows(Rows *rows, int64_t corpus_bytes)
{
    static uint8_t *huge, *many;
    size_t i, m;
    /* huge: 3 MiB, escapes and dot segments all along (results of 4 MiB
     * and more: fasturi_mem.h's mapped blocks, grown with mremap) */
    {
        /* (big enough for the column's text to pass 4 MiB) */
        m = corpus_bytes < (9 << 19) - (1 << 20) ? (size_t)((9 << 19) - corpus_bytes)
                                                 : (size_t)1 << 20;
        if ((huge = (uint8_t *)malloc(m)) == NULL)
            die("out of memory");
        memcpy(huge, "http://Host.Example.COM/", 24);
        for (i = 24; i < m; i++)
            huge[i] = "a%41/./b/../%7e%zz?&=#"[i % 22];
        add_row(rows, huge, (int64_t)m);
        /* a query of 20000 fields for canonicalize to sort */
        m = 20000 * 8 + 20;
        if ((many = (uint8_t *)malloc(m)) == NULL)
            die("out of memory");
        memcpy(many, "http://q.example/?", 18);
        for (i = 0; i < 20000; i++)
            snprintf((char *)many + 18 + 8 * i, 9, "%c%05zu=&", 'a' + (int)(i * 7 % 26),
                     (i * 7919) % 100000);
        add_row(rows, many, 18 + 8 * 20000 - 1);
    }
}

/* Not UTF-8 (the failing column's). */
static const char *const invalid_rows[] = {
    "\xff", "http://a/\xc3", "http://\xed\xa0\x80/", "\xc0\xaf", "x\xf4\x90\x80\x80",
};

/* The data, offsets and validity of one column over rows (`skip` rows
 * first, left out of the slice, and every 97th row null). */
typedef struct {
    uint8_t *data;
    int32_t *off32;
    int64_t *off64;
    uint8_t *views;
    uint8_t *validity;
    int64_t vsize;
    const void *buffers[4];
    struct ArrowArray arr[3];
    struct ArrowSchema sch[3];
    fu_col_t col[3]; /* string, large_string, string_view */
} Column;

static void no_release(struct ArrowArray *a) { (void)a; }

static void build_column(Column *c, const Rows *rows, int skip)
{
    int64_t total = 0, n = rows->count + skip, at = 0;
    const char *why = NULL;
    static const char *formats[3] = { "u", "U", "vu" };
    for (int64_t i = 0; i < rows->count; i++)
        total += rows->n[i];
    /* (64 bytes of slack: fu_copy_over reads past a row where the column
     * goes on, and the kernel's text_end says where that is) */
    c->data = (uint8_t *)malloc((size_t)total + 64);
    c->off32 = (int32_t *)malloc((size_t)(n + 1) * 4);
    c->off64 = (int64_t *)malloc((size_t)(n + 1) * 8);
    c->views = (uint8_t *)calloc((size_t)n, 16);
    c->validity = (uint8_t *)calloc((size_t)(n + 8) / 8 + 8, 1);
    if (!c->data || !c->off32 || !c->off64 || !c->views || !c->validity)
        die("out of memory");
    memset(c->data + total, '!', 64);
    for (int64_t i = 0; i < skip; i++) {
        c->off32[i] = 0, c->off64[i] = 0;
        set_bit(c->validity, i);
    }
    for (int64_t i = 0; i < rows->count; i++) {
        int64_t j = skip + i;
        c->off32[j] = (int32_t)at, c->off64[j] = at;
        memcpy(c->data + at, rows->p[i], (size_t)rows->n[i]);
        if (i % 97 != 13)
            set_bit(c->validity, j);
        fu_view_set(c->views + 16 * j, c->data + at, rows->n[i], 0, c->data);
        at += rows->n[i];
    }
    c->off32[n] = (int32_t)at, c->off64[n] = at;
    c->vsize = total;
    for (int t = 0; t < 3; t++) {
        struct ArrowArray *a = &c->arr[t];
        const void **b = (const void **)calloc(4, sizeof(void *));
        if (b == NULL)
            die("out of memory");
        b[0] = c->validity;
        if (t < 2) {
            b[1] = t == 0 ? (const void *)c->off32 : (const void *)c->off64;
            b[2] = c->data;
            a->n_buffers = 3;
        } else {
            b[1] = c->views;
            b[2] = c->data;
            b[3] = &c->vsize;
            a->n_buffers = 4;
        }
        a->length = rows->count;
        a->offset = skip;
        a->null_count = -1;
        a->buffers = b;
        a->release = no_release;
        c->sch[t].format = formats[t];
        if (fu_col_open(&c->sch[t], a, &c->col[t], &why) < 0)
            die(why);
    }
}

static void read_lines(Rows *rows, const char *path, int64_t limit)
{
    FILE *f = fopen(path, "rb");
    char *line = NULL;
    size_t cap = 0;
    ssize_t got;
    if (f == NULL) {
        fprintf(stderr, "tsan_harness: %s: %s (the built-in rows only)\n", path, strerror(errno));
        return;
    }
    while ((limit < 0 || rows->count < limit) && (got = getline(&line, &cap, f)) >= 0) {
        char *copy;
        while (got > 0 && (line[got - 1] == '\n' || line[got - 1] == '\r'))
            got--;
        if ((copy = (char *)malloc((size_t)got + 1)) == NULL)
            die("out of memory");
        memcpy(copy, line, (size_t)got);
        add_row(rows, copy, got);
    }
    free(line);
    fclose(f);
}

/* ---- the Public Suffix List table, built in C (as _psl_c._build) --------- */

/* rule, and whether it is in the ICANN section */
static const struct {
    const char *rule;
    int icann;
} psl_rules[] = {
    { "com", 1 },
    { "net", 1 },
    { "org", 1 },
    { "uk", 1 },
    { "co.uk", 1 },
    { "ac.uk", 1 },
    { "jp", 1 },
    { "*.kawasaki.jp", 1 },
    { "!city.kawasaki.jp", 1 },
    { "de", 1 },
    { "io", 1 },
    { "github.io", 0 },
    { "blogspot.com", 0 },
    { "*.compute.amazonaws.com", 0 },
    { "rs", 1 },
    { "edu", 1 },
    { "gov", 1 },
    { "ck", 1 },
    { "*.ck", 1 },
    { "!www.ck", 1 },
};

static void psl_add(PslTable *l, const char *key, size_t len, uint8_t flags)
{
    uint64_t h = fu_psl_hash((const uint8_t *)key, len);
    size_t i = fu_psl_slot_of(h, l->t.mask);
    for (;; i = (i + 1) & l->t.mask) {
        fu_psl_slot_t *e = &l->slots[i];
        if (e->flags == 0)
            break;
        if (e->len == len && memcmp(l->keys + e->off, key, len) == 0) {
            e->flags |= flags;
            return;
        }
    }
    if (l->keys_len + len > sizeof l->keys)
        die("PSL keys overflow");
    memcpy(l->keys + l->keys_len, key, len);
    fu_psl_insert(&l->t, (uint32_t)l->keys_len, (uint32_t)len, flags);
    l->keys_len += len;
}

static void psl_add_rule(PslTable *l, const char *core, int icann)
{
    int kind = FU_PSL_EXACT, labels = 1;
    uint8_t flags, longer;
    if (core[0] == '!')
        core += 1, kind = FU_PSL_EXCEPT;
    else if (core[0] == '*' && core[1] == '.')
        core += 2, kind = FU_PSL_WILD;
    flags = (uint8_t)((icann ? kind : 0) | kind << 4);
    longer = (uint8_t)((icann ? FU_PSL_LONGER : 0) | FU_PSL_LONGER << 4);
    psl_add(l, core, strlen(core), flags);
    for (const char *d = strchr(core, '.'); d; d = strchr(d + 1, '.')) {
        psl_add(l, d + 1, strlen(d + 1), longer);
        labels++;
    }
    if (labels > l->depth)
        l->depth = labels;
}

/* psl_rules into l (zeroed), and `extra` (a rule, or NULL) */
static void psl_build(PslTable *l, const char *extra)
{
    l->t.slots = l->slots;
    l->t.mask = sizeof l->slots / sizeof l->slots[0] - 1;
    l->t.keys = l->keys;
    for (size_t r = 0; r < sizeof psl_rules / sizeof psl_rules[0]; r++)
        psl_add_rule(l, psl_rules[r].rule, psl_rules[r].icann);
    if (extra != NULL)
        psl_add_rule(l, extra, 1);
}

/* ---- tables swapped while threads read them (fasturi_shared.h's fu_guard_t)
 *
 * As _psl_c.pyx swaps the Public Suffix List in use for another while
 * threads look hosts up: readers load the table's pointer and read the
 * table inside the guard, taking no reference; a writer swaps a new table
 * in, waits for the readers that were in at the swap, then overwrites and
 * frees the old one.  A reader still reading it would race with the free
 * (a ThreadSanitizer report) and read the overwritten bytes (a wrong
 * answer).  The tables alternate between the list and the list with
 * example.com a public suffix of its own: each answer must be one of the
 * two lists'.  (Each table a reader finds without a lock is one phase of
 * guarded(): its readers and its writer.)
 */
static int64_t g_list_in_use; /* a PslTable *, read and swapped atomically */
static fu_guard_t g_list_readers;
static int64_t g_swaps_done, g_swap_lookups, g_swap_wrong;
static int nswaps = 500, nreaders = 3;

#define SWAP_EXTRA "example.com"
static const char *const swap_hosts[] = {
    "a.b.example.com",    "www.Example.CO.UK",    "x.a.foo.kawasaki.jp",
    "sub.user.github.io", "www.city.kawasaki.jp", "deep.a.b.c.d.e.example.com",
};
#define NSWAP_HOSTS (sizeof swap_hosts / sizeof swap_hosts[0])
static char swap_want[NSWAP_HOSTS][2][64]; /* each host's registrable domain by each list */

/* host's registrable domain by the table in use, read inside the guard */
static void swap_lookup(const char *host, char *got)
{
    uint8_t out[64];
    ptrdiff_t n = (ptrdiff_t)strlen(host), suffix_at, domain_at;
    int slot = fu_guard_enter(&g_list_readers);
    const PslTable *l = (const PslTable *)(intptr_t)fu_shared_get(&g_list_in_use);
    got[0] = '\0';
    if (fu_psl_lookup(&l->t, l->depth, (const uint8_t *)host, n, out, 4, &suffix_at, &domain_at)
            >= 0
        && domain_at >= 0) {
        memcpy(got, out + domain_at, (size_t)(n - domain_at));
        got[n - domain_at] = '\0';
    }
    fu_guard_leave(&g_list_readers, slot);
}

static void *list_reader_main(void *arg)
{
    int64_t lookups = 0, wrong = 0;
    char got[64];
    (void)arg;
    while (fu_shared_get(&g_swaps_done) < nswaps)
        for (size_t h = 0; h < NSWAP_HOSTS; h++, lookups++) {
            swap_lookup(swap_hosts[h], got);
            if (strcmp(got, swap_want[h][0]) != 0 && strcmp(got, swap_want[h][1]) != 0
                && wrong++ == 0)
                fprintf(stderr, "MISMATCH registrable domain of %s during swaps: '%s'\n",
                        swap_hosts[h], got);
        }
    fu_shared_add(&g_swap_lookups, lookups);
    fu_shared_add(&g_swap_wrong, wrong);
    return NULL;
}

static PslTable *list_new(int variant)
{
    PslTable *l = (PslTable *)calloc(1, sizeof *l);
    if (l == NULL)
        die("out of memory");
    psl_build(l, variant ? SWAP_EXTRA : NULL);
    return l;
}

static void *list_writer_main(void *arg)
{
    (void)arg;
    for (int k = 1; k <= nswaps; k++) {
        PslTable *l = list_new(k % 2);
        PslTable *old = (PslTable *)(intptr_t)fu_shared_swap(&g_list_in_use, (int64_t)(intptr_t)l);
        fu_guard_wait(&g_list_readers);
        memset(old, 0xA5, sizeof *old);
        free(old);
        fu_shared_add(&g_swaps_done, 1);
    }
    return NULL;
}

/* Readers and a writer over each table swapped under readers; 0 when every
 * answer was one of the tables'. */
static int guarded(void)
{
    pthread_t writer, *readers = (pthread_t *)calloc((size_t)nreaders, sizeof(pthread_t));
    struct timespec a, b;
    if (readers == NULL)
        die("out of memory");
    for (int v = 0; v < 2; v++) { /* each list's answers, on one thread */
        g_list_in_use = (int64_t)(intptr_t)list_new(v);
        for (size_t h = 0; h < NSWAP_HOSTS; h++)
            swap_lookup(swap_hosts[h], swap_want[h][v]);
        free((void *)(intptr_t)g_list_in_use);
    }
    if (strcmp(swap_want[0][0], swap_want[0][1]) == 0) {
        fprintf(stderr, "tsan_harness: self-check: the swapped lists give the same answers\n");
        return 1;
    }
    g_list_in_use = (int64_t)(intptr_t)list_new(0);
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (int i = 0; i < nreaders; i++)
        if (pthread_create(&readers[i], NULL, list_reader_main, NULL) != 0)
            die("pthread_create");
    if (pthread_create(&writer, NULL, list_writer_main, NULL) != 0)
        die("pthread_create");
    pthread_join(writer, NULL);
    for (int i = 0; i < nreaders; i++)
        pthread_join(readers[i], NULL);
    clock_gettime(CLOCK_MONOTONIC, &b);
    free((void *)(intptr_t)g_list_in_use);
    free(readers);
    printf("tsan_harness: %d Public Suffix List swaps under %d readers (%lld lookups) in %.1f s, "
           "%lld wrong\n",
           nswaps, nreaders, (long long)g_swap_lookups,
           (double)(b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9, (long long)g_swap_wrong);
    return g_swap_wrong != 0;
}

/* ---- the run ------------------------------------------------------------- */

typedef struct {
    Spec spec;
    Result ref;
    const char *column;
    int failing; /* on the column with rows that are no UTF-8 */
} Case;

static Case *cases;
static int ncases, nrounds = 1, ncallers = 2, npool = 3, verbose;
static int64_t g_mismatches, g_calls;
static const int thread_counts[] = { 2, 4, 7, 3 };

static int compare(const Case *c, const Result *got, int threads)
{
    const Result *want = &c->ref;
    if (got->bad != want->bad || (got->bad && got->bad_row != want->bad_row)) {
        fprintf(stderr,
                "MISMATCH %s on %s, threads=%d: failure %d at row %lld, one thread: %d at row "
                "%lld\n",
                op_names[c->spec.op], c->column, threads, got->bad, (long long)got->bad_row,
                want->bad, (long long)want->bad_row);
        return 1;
    }
    if (got->bad)
        return 0;
    for (int64_t i = 0; i < want->length; i++)
        if (got->rows[i] != want->rows[i]) {
            fprintf(stderr, "MISMATCH %s on %s, threads=%d: row %lld differs from one thread's\n",
                    op_names[c->spec.op], c->column, threads, (long long)i);
            return 1;
        }
    return 0;
}

static void *caller_main(void *arg)
{
    int64_t id = (int64_t)(intptr_t)arg;
    for (int round = 0; round < nrounds; round++)
        for (int i = 0; i < ncases; i++) {
            /* each caller its own order, so different calls overlap */
            Case *c = &cases[(i * (id * 2 + 1) + round * 5 + id * 3) % ncases];
            Spec spec = c->spec;
            Result got;
            spec.threads =
                thread_counts[(i + round + id) % (sizeof thread_counts / sizeof thread_counts[0])];
            execute(&spec, &got, 1);
            if (compare(c, &got, spec.threads))
                fu_shared_add(&g_mismatches, 1);
            fu_shared_add(&g_calls, 1);
            free(got.rows);
        }
    return NULL;
}

/* A few answers known, so that a table or a helper that does nothing is
 * not taken for a pass. */
static void self_check(void)
{
    struct {
        const char *host, *domain;
    } known[] = {
        { "www.example.co.uk", "example.co.uk" },   { "a.b.foo.kawasaki.jp", "b.foo.kawasaki.jp" },
        { "city.kawasaki.jp", "city.kawasaki.jp" }, { "x.sub.user.github.io", "user.github.io" },
        { "WWW.Example.COM", "example.com" },
    };
    uint8_t out[64], norm[128];
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        ptrdiff_t s, d, n = (ptrdiff_t)strlen(known[i].host);
        if (fu_psl_lookup(&g_list.t, g_list.depth, (const uint8_t *)known[i].host, n, out, 4, &s,
                          &d)
                < 0
            || d < 0 || (size_t)(n - d) != strlen(known[i].domain)
            || memcmp(out + d, known[i].domain, (size_t)(n - d)) != 0) {
            fprintf(stderr, "tsan_harness: self-check: registrable domain of %s\n", known[i].host);
            exit(1);
        }
    }
    {
        const char *u = "HTTP://Example.COM:80/a/./b/../%7e?x";
        ptrdiff_t m = fu_normalize_1((const uint8_t *)u, (ptrdiff_t)strlen(u), 1, norm);
        if (m != 24 || memcmp(norm, "http://example.com/a/~?x", 24) != 0) {
            fprintf(stderr, "tsan_harness: self-check: normalize gave %.*s\n", (int)m, norm);
            exit(1);
        }
    }
}

int main(int argc, char **argv)
{
    const char *path = NULL;
    int64_t limit = 30000;
    Rows rows = { 0 }, bad_rows = { 0 }, base_rows = { 0 };
    static Column main_col, bad_col, bases_col;
    pthread_t *pool, *callers;
    struct timespec t0, t1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-r") == 0 && i + 1 < argc)
            nrounds = atoi(argv[++i]);
        else if (strcmp(argv[i], "-c") == 0 && i + 1 < argc)
            ncallers = atoi(argv[++i]);
        else if (strcmp(argv[i], "-p") == 0 && i + 1 < argc)
            npool = atoi(argv[++i]);
        else if (strcmp(argv[i], "-v") == 0)
            verbose = 1;
        else if (strcmp(argv[i], "-n") == 0 && i + 1 < argc)
            limit = atoll(argv[++i]);
        else if (strcmp(argv[i], "-s") == 0 && i + 1 < argc)
            nswaps = atoi(argv[++i]);
        else if (argv[i][0] != '-')
            path = argv[i];
        else {
            fprintf(stderr,
                    "usage: %s [URLS.txt] [-r ROUNDS] [-c CALLERS] [-p POOL] [-n ROWS] [-s SWAPS]"
                    " [-v]\n",
                    argv[0]);
            return 2;
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &t0);
    /* shared tables, built once, read-only from here */
    psl_build(&g_list, NULL);
    fu_pct_table_init(g_pct_table);
    for (const char *s = "/:@!$&'()*+,;="; *s; s++)
        fu_pct_table_add(g_pct_table, (uint8_t)*s);
    g_rules[0] = (fu_drop_rule_t){ (const uint8_t *)"utm_", 4, 1 };
    g_rules[1] = (fu_drop_rule_t){ (const uint8_t *)"jsessionid", 10, 0 };
    g_rules[2] = (fu_drop_rule_t){ (const uint8_t *)"a", 1, 0 };
    self_check();

    /* the main column: the corpus (or none) and the hostile rows among it */
    if (path)
        read_lines(&rows, path, limit);
    {
        int64_t corpus = rows.count, corpus_bytes = 0;
        Rows hostile = { 0 }, big = { 0 };
        hostile_rows(&hostile);
        for (int64_t i = 0; i < corpus; i++)
            corpus_bytes += rows.n[i];
        big_rows(&big, corpus_bytes);
        /* a copy of the hostile rows every 1/8 of the way, and at the end */
        Rows mixed = { 0 };
        for (int64_t i = 0, h = 0; i <= corpus; i++) {
            if (corpus == 0 || i % (corpus / 8 + 1) == 0 || i == corpus)
                for (h = 0; h < hostile.count; h++)
                    add_row(&mixed, hostile.p[h], hostile.n[h]);
            if (i < corpus)
                add_row(&mixed, rows.p[i], rows.n[i]);
            if (i == 50 || (corpus <= 50 && i == corpus))
                for (h = 0; h < big.count; h++)
                    add_row(&mixed, big.p[h], big.n[h]);
        }
        /* (short of rows for several ranges: the built-in ones again) */
        while (mixed.count < 4 * MIN_RANGE + 100)
            for (int64_t h = 0; h < hostile.count; h++)
                if (hostile.n[h] < 4096)
                    add_row(&mixed, hostile.p[h], hostile.n[h]);
        rows = mixed;
    }
    build_column(&main_col, &rows, 3);
    /* the bases of resolve_each: a page's links share their base */
    {
        static const char *const bases[] = {
            "http://a/b/c/d;p?q",         "https://example.com/x/y/",           "", "rel/only",
            "HTTP://Ex.COM/%7e/../a?b#c", "http://m\xc3\xbcnchen.de/\xc3\xa4/",
        };
        for (int64_t i = 0; i < rows.count; i++)
            add_row(&base_rows, bases[(i / 50) % 6], (int64_t)strlen(bases[(i / 50) % 6]));
        build_column(&bases_col, &base_rows, 3);
        g_bases = bases_col.col[0];
    }
    /* the failing column: rows that are no UTF-8 in three ranges */
    for (int64_t i = 0; i < 4 * MIN_RANGE + 200 && i < rows.count; i++) {
        if (i == 2 * MIN_RANGE + 70 || i == 3 * MIN_RANGE + 5 || i == 4 * MIN_RANGE + 150)
            add_row(&bad_rows, invalid_rows[i % 5], (int64_t)strlen(invalid_rows[i % 5]));
        else
            add_row(&bad_rows, rows.p[i], rows.n[i] < 4096 ? rows.n[i] : 10);
    }
    build_column(&bad_col, &bad_rows, 0);

    /* the cases, and their answers on one thread, before any other starts */
    cases = (Case *)calloc(3 * NOPS + NOPS, sizeof(Case));
    if (cases == NULL)
        die("out of memory");
    for (int op = 0; op < NOPS; op++) {
        static const char *names[3] = { "string", "large_string", "string_view" };
        for (int t = 0; t < 3; t++) {
            /* (large_string changes the offsets' width alone, and a
             * string_view column how fu_col_row reads a row: a few
             * operations on each are enough) */
            if (t == 1 && op != OP_SPLIT && op != OP_SPLIT_VIEWS && op != OP_NORMALIZE
                && op != OP_RESOLVE_EACH && op != OP_SURT && op != OP_ENCODE)
                continue;
            if (t == 2 && op != OP_SPLIT_VIEWS && op != OP_NORMALIZE && op != OP_DOMAIN)
                continue;
            cases[ncases].spec = (Spec){ op, &main_col.col[t], t == 1, 1 };
            cases[ncases++].column = names[t];
        }
        cases[ncases].spec = (Spec){ op, &bad_col.col[0], 0, 1 };
        cases[ncases].failing = 1;
        cases[ncases++].column = "string, not UTF-8";
    }
    for (int i = 0; i < ncases; i++) {
        struct timespec a, b;
        clock_gettime(CLOCK_MONOTONIC, &a);
        execute(&cases[i].spec, &cases[i].ref, 0);
        clock_gettime(CLOCK_MONOTONIC, &b);
        if (verbose)
            printf("  %-18s on %-17s %6.3f s\n", op_names[cases[i].spec.op], cases[i].column,
                   (double)(b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9);
    }
    for (int i = 0; i < ncases; i++)
        if (cases[i].failing != (cases[i].ref.bad != BAD_NONE)) {
            /* (every scan that checks UTF-8 must stop at the first bad row) */
            fprintf(stderr, "tsan_harness: self-check: %s on %s: failure %d at row %lld\n",
                    op_names[cases[i].spec.op], cases[i].column, cases[i].ref.bad,
                    (long long)cases[i].ref.bad_row);
            return 1;
        }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("tsan_harness: %lld rows (%lld MiB), %d cases; one thread's answers in %.1f s\n",
           (long long)rows.count, (long long)(main_col.vsize >> 20), ncases,
           (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
    fflush(stdout);

    /* the threads: the pool, and the callers that share it */
    t0 = t1;
    pool = (pthread_t *)calloc((size_t)npool, sizeof(pthread_t));
    callers = (pthread_t *)calloc((size_t)ncallers, sizeof(pthread_t));
    if (!pool || !callers)
        die("out of memory");
    for (int i = 0; i < npool; i++)
        if (pthread_create(&pool[i], NULL, pool_main, NULL) != 0)
            die("pthread_create");
    for (int i = 0; i < ncallers; i++)
        if (pthread_create(&callers[i], NULL, caller_main, (void *)(intptr_t)i) != 0)
            die("pthread_create");
    for (int i = 0; i < ncallers; i++)
        pthread_join(callers[i], NULL);
    pthread_mutex_lock(&pool_lock);
    pool_closing = 1;
    pthread_cond_broadcast(&pool_cond);
    pthread_mutex_unlock(&pool_lock);
    for (int i = 0; i < npool; i++)
        pthread_join(pool[i], NULL);
    clock_gettime(CLOCK_MONOTONIC, &t1);
#ifdef FU_BLOCKS
    {
        /* the results of 4 MiB and more went through fasturi_mem.h's
         * table: blocks released are kept there for the next call */
        int kept = 0;
        for (int i = 0; i < FU_BLOCKS; i++)
            kept += fu_blocks[i].state == FU_BLOCK_KEPT;
        if (kept == 0 || fu_blocks_lock != 0) {
            fprintf(stderr, "tsan_harness: self-check: no block kept by fasturi_mem.h\n");
            return 1;
        }
    }
#endif
    printf("tsan_harness: %lld calls on %d callers + %d pool threads in %.1f s, %lld mismatches\n",
           (long long)g_calls, ncallers, npool,
           (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9,
           (long long)g_mismatches);
    if (guarded() != 0)
        return 1;
    return g_mismatches ? 1 : 0;
}
