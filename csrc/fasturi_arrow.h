/* Arrow columns without an Arrow library: the C Data Interface structs,
 * reading string / large_string / string_view arrays row by row, UTF-8
 * checks, and the buffers the column kernels write their results into.
 *
 * The interface carries no buffer sizes, so an offset past the end of a
 * producer's data buffer cannot be seen; what can be checked is: offsets
 * never go backwards or below zero, and a view stays inside the variadic
 * buffer it names (whose sizes the interface does give).  A row failing
 * either is reported as corrupt, never read.
 *
 * Plain C99, no Python.h; nothing here holds state shared between calls, so
 * the kernels may run it on several threads at once.
 */
#ifndef FASTURI_ARROW_H
#define FASTURI_ARROW_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fasturi_base.h"
#include "fasturi_mem.h"

/* ---- the ABI, as the Arrow C Data Interface specification fixes it ---- */
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

#endif /* ARROW_C_DATA_INTERFACE */

/* ---- reading a string column ------------------------------------------ */

#define FU_COL_STRING 1 /* "u": int32 offsets */
#define FU_COL_LARGE 2  /* "U": int64 offsets */
#define FU_COL_VIEW 3   /* "vu": 16-byte views, variadic data buffers */

#define FU_ROW_NULL 0
#define FU_ROW_VALUE 1
#define FU_ROW_CORRUPT -1

typedef struct {
    int type;
    int64_t length;
    int64_t offset; /* of the array's first row in its buffers (slices) */
    const uint8_t *validity;
    const int32_t *off32;
    const int64_t *off64;
    const uint8_t *data;
    const uint8_t *views;
    const uint8_t *const *vbufs;
    const int64_t *vsizes;
    int64_t nvbufs;
} fu_col_t;

/* Reads the schema's format and the array's buffers into c.  Returns 0, or
 * -1 with *why set (an unsupported format, or buffers missing). */
static inline int fu_col_open(const struct ArrowSchema *schema, const struct ArrowArray *array,
                              fu_col_t *c, const char **why)
{
    const char *f = schema->format;
    memset(c, 0, sizeof(*c));
    if (array->release == NULL) {
        *why = "the array was already released";
        return -1;
    }
    if (array->length < 0 || array->offset < 0) {
        *why = "negative length or offset";
        return -1;
    }
    c->length = array->length;
    c->offset = array->offset;
    if (strcmp(f, "u") == 0 || strcmp(f, "U") == 0) {
        if (array->n_buffers != 3) {
            *why = "a string array must have 3 buffers";
            return -1;
        }
        c->type = f[0] == 'u' ? FU_COL_STRING : FU_COL_LARGE;
        c->validity = (const uint8_t *)array->buffers[0];
        if (c->type == FU_COL_STRING)
            c->off32 = (const int32_t *)array->buffers[1];
        else
            c->off64 = (const int64_t *)array->buffers[1];
        c->data = (const uint8_t *)array->buffers[2];
        if (c->length > 0 && array->buffers[1] == NULL) {
            *why = "missing offsets buffer";
            return -1;
        }
        return 0;
    }
    if (strcmp(f, "vu") == 0) {
        if (array->n_buffers < 3) {
            *why = "a string_view array must have at least 3 buffers";
            return -1;
        }
        c->type = FU_COL_VIEW;
        c->validity = (const uint8_t *)array->buffers[0];
        c->views = (const uint8_t *)array->buffers[1];
        c->nvbufs = array->n_buffers - 3;
        c->vbufs = (const uint8_t *const *)(array->buffers + 2);
        c->vsizes = (const int64_t *)array->buffers[array->n_buffers - 1];
        if (c->length > 0 && c->views == NULL) {
            *why = "missing views buffer";
            return -1;
        }
        return 0;
    }
    *why = "not a string, large_string or string_view array";
    return -1;
}

static inline int fu_col_valid(const fu_col_t *c, int64_t i)
{
    int64_t j = c->offset + i;
    return c->validity == NULL || ((c->validity[j >> 3] >> (j & 7)) & 1);
}

/* Row i: FU_ROW_NULL, or FU_ROW_VALUE with its bytes in (*p, *n), or
 * FU_ROW_CORRUPT when its offsets or view cannot be right. */
static inline int fu_col_row(const fu_col_t *c, int64_t i, const uint8_t **p, int64_t *n)
{
    int64_t j = c->offset + i, a, b;
    if (!fu_col_valid(c, i))
        return FU_ROW_NULL;
    if (c->type == FU_COL_VIEW) {
        const uint8_t *v = c->views + 16 * j;
        int32_t len, idx, off;
        memcpy(&len, v, 4);
        if (len < 0)
            return FU_ROW_CORRUPT;
        if (len <= 12) {
            *p = v + 4;
            *n = len;
            return FU_ROW_VALUE;
        }
        memcpy(&idx, v + 8, 4);
        memcpy(&off, v + 12, 4);
        if (idx < 0 || idx >= c->nvbufs || off < 0 || c->vsizes == NULL
            || (int64_t)off + len > c->vsizes[idx] || c->vbufs[idx] == NULL)
            return FU_ROW_CORRUPT;
        *p = c->vbufs[idx] + off;
        *n = len;
        return FU_ROW_VALUE;
    }
    if (c->type == FU_COL_STRING) {
        a = c->off32[j];
        b = c->off32[j + 1];
    } else {
        a = c->off64[j];
        b = c->off64[j + 1];
    }
    if (a < 0 || b < a)
        return FU_ROW_CORRUPT;
    *p = b > a ? c->data + a : (const uint8_t *)"";
    if (b > a && c->data == NULL)
        return FU_ROW_CORRUPT;
    *n = b - a;
    return FU_ROW_VALUE;
}

/* ---- UTF-8 ---------------------------------------------------------------- */

/* Are all n bytes ASCII?  With SSE2 64 at a time, the last partial block
 * of 16 as the overlapping last 16; else sixteen at a time. */
static inline int fu_is_ascii(const uint8_t *s, int64_t n)
{
    uint64_t acc = 0, w0, w1;
    int64_t i = 0;
#if FU_SSE2
    if (n >= 16) {
        __m128i v = _mm_setzero_si128();
        for (; i + 64 <= n; i += 64)
            v = _mm_or_si128(
                v, _mm_or_si128(
                       _mm_or_si128(_mm_loadu_si128((const __m128i *)(const void *)(s + i)),
                                    _mm_loadu_si128((const __m128i *)(const void *)(s + i + 16))),
                       _mm_or_si128(_mm_loadu_si128((const __m128i *)(const void *)(s + i + 32)),
                                    _mm_loadu_si128((const __m128i *)(const void *)(s + i + 48)))));
        for (; i + 16 <= n; i += 16)
            v = _mm_or_si128(v, _mm_loadu_si128((const __m128i *)(const void *)(s + i)));
        if (i < n)
            v = _mm_or_si128(v, _mm_loadu_si128((const __m128i *)(const void *)(s + n - 16)));
        return _mm_movemask_epi8(v) == 0;
    }
#endif
    for (; i + 16 <= n; i += 16) {
        memcpy(&w0, s + i, 8);
        memcpy(&w1, s + i + 8, 8);
        acc |= w0 | w1;
    }
    if (i + 8 <= n) {
        memcpy(&w0, s + i, 8);
        acc |= w0;
        i += 8;
    }
    if (i < n) { /* the last 1-7 bytes, read as the tail of the last 8 */
        if (n >= 8) {
            memcpy(&w0, s + n - 8, 8);
            acc |= w0;
        } else {
            for (; i < n; i++)
                acc |= s[i];
        }
    }
    return (acc & 0x8080808080808080ull) == 0;
}

/* Well-formed UTF-8 (RFC 3629: no overlongs, surrogates or values past
 * U+10FFFF)?  When out is not NULL, the code points are written there. */
static inline int fu_utf8_decode(const uint8_t *s, int64_t n, uint32_t *out, int64_t *count)
{
    int64_t i = 0, k = 0;
    while (i < n) {
        uint32_t c = s[i], cp;
        int len;
        if (c < 0x80) {
            cp = c;
            len = 1;
        } else if (c >= 0xC2 && c <= 0xDF) {
            cp = c & 0x1F;
            len = 2;
        } else if (c >= 0xE0 && c <= 0xEF) {
            cp = c & 0x0F;
            len = 3;
        } else if (c >= 0xF0 && c <= 0xF4) {
            cp = c & 0x07;
            len = 4;
        } else {
            return 0;
        }
        if (i + len > n)
            return 0;
        for (int j = 1; j < len; j++) {
            uint32_t d = s[i + j];
            if ((d & 0xC0) != 0x80)
                return 0;
            cp = (cp << 6) | (d & 0x3F);
        }
        if ((len == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF)))
            || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)))
            return 0;
        if (out != NULL)
            out[k] = cp;
        k++;
        i += len;
    }
    if (count != NULL)
        *count = k;
    return 1;
}

static inline int fu_utf8_valid(const uint8_t *s, int64_t n)
{
    return fu_is_ascii(s, n) || fu_utf8_decode(s, n, NULL, NULL);
}

/* ---- result buffers ------------------------------------------------------ */

typedef struct {
    uint8_t *data;
    int64_t len, cap;
} fu_buf_t;

/* fu_buf_reserve's growth: to want bytes at least, and by half again, so
 * that a result's peak stays near its final size. */
static inline int fu_buf_grow(fu_buf_t *b, int64_t want)
{
    int64_t cap = b->cap + b->cap / 2;
    uint8_t *p;
    if (cap < want)
        cap = want;
    if (cap < 64)
        cap = 64;
    p = (uint8_t *)fu_grow(b->data, (size_t)cap);
    if (p == NULL)
        return -1;
    b->data = p;
    b->cap = cap;
    return 0;
}

/* Room for `more` bytes past len; 0, or -1 when out of memory.  Every row
 * of a kernel asks, and nearly always there is room: that test is inline. */
static FU_ALWAYS_INLINE int fu_buf_reserve(fu_buf_t *b, int64_t more)
{
    return b->len + more <= b->cap ? 0 : fu_buf_grow(b, b->len + more);
}

/* Copies n bytes 16 at a time: reads and writes up to 64 bytes past s + n
 * and d + n, for callers that know both are there.  Field lengths vary row
 * by row, and fu_copy's choice of how to copy was mispredicted on most. */
static inline void fu_copy_over(uint8_t *d, const uint8_t *s, int64_t n)
{
    memcpy(d, s, 32);
    memcpy(d + 32, s + 32, 32);
    for (int64_t i = 64; i < n; i += 16)
        memcpy(d + i, s + i, 16);
}

/* The end of the text a string or large_string column's rows lie in, as
 * far as it can be known (the C Data Interface gives no buffer sizes): the
 * end of its last row that is there, or NULL. */
static inline const uint8_t *fu_col_text_end(const fu_col_t *c)
{
    const uint8_t *p, *end = NULL;
    int64_t i, n;
    if (c->type == FU_COL_VIEW)
        return NULL;
    for (i = c->length - 1; i >= 0 && i >= c->length - 64 && end == NULL; i--)
        if (fu_col_row(c, i, &p, &n) == FU_ROW_VALUE && n > 0)
            end = p + n;
    return end;
}

/* Bytes held by rows [a, b): what a result of the same size needs. */
static inline int64_t fu_col_bytes(const fu_col_t *c, int64_t a, int64_t b)
{
    int64_t total = 0, i;
    int32_t len;
    if (a >= b)
        return 0;
    if (c->type == FU_COL_STRING)
        return (int64_t)c->off32[c->offset + b] - c->off32[c->offset + a];
    if (c->type == FU_COL_LARGE)
        return c->off64[c->offset + b] - c->off64[c->offset + a];
    for (i = a; i < b; i++) {
        memcpy(&len, c->views + 16 * (c->offset + i), 4);
        total += len > 0 ? len : 0;
    }
    return total;
}

/* ---- exporting results -------------------------------------------------- */

/* What an exported array owns: its buffers (malloc'd), its children, and
 * (moved into `keep`) the input its children's views point into. */
typedef struct {
    const void *buffers[3];
    struct ArrowArray keep;
    struct ArrowArray *children;
    struct ArrowArray *child_ptrs[1]; /* n_children of them */
} fu_array_priv_t;

static void fu_array_release(struct ArrowArray *a)
{
    fu_array_priv_t *priv = (fu_array_priv_t *)a->private_data;
    int64_t i;
    for (i = 0; i < a->n_buffers; i++)
        fu_release((void *)priv->buffers[i]);
    for (i = 0; i < a->n_children; i++)
        if (priv->children[i].release != NULL)
            priv->children[i].release(&priv->children[i]);
    if (priv->keep.release != NULL)
        priv->keep.release(&priv->keep);
    free(priv->children);
    free(priv);
    a->release = NULL;
}

/* a takes over `input` (whose release is cleared: it is moved), to release
 * once its children no longer point into it. */
static inline void fu_array_keep(struct ArrowArray *a, struct ArrowArray *input)
{
    fu_array_priv_t *priv = (fu_array_priv_t *)a->private_data;
    priv->keep = *input;
    input->release = NULL;
}

/* Fills a as an array of `length` rows owning the given malloc'd buffers
 * (taken even on failure) and room for n_children children, which the
 * caller fills through a->children.  0, or -1 when out of memory. */
static inline int fu_array_init(struct ArrowArray *a, int64_t length, int64_t null_count,
                                int64_t n_buffers, void *b0, void *b1, void *b2, int64_t n_children)
{
    size_t extra = n_children > 1 ? (size_t)(n_children - 1) : 0;
    fu_array_priv_t *priv =
        (fu_array_priv_t *)calloc(1, sizeof(fu_array_priv_t) + extra * sizeof(struct ArrowArray *));
    struct ArrowArray *kids = NULL;
    if (priv != NULL && n_children > 0) {
        kids = (struct ArrowArray *)calloc((size_t)n_children, sizeof(struct ArrowArray));
        if (kids == NULL) {
            free(priv);
            priv = NULL;
        }
    }
    if (priv == NULL) {
        fu_release(b0);
        fu_release(b1);
        fu_release(b2);
        a->release = NULL;
        return -1;
    }
    priv->buffers[0] = b0;
    priv->buffers[1] = b1;
    priv->buffers[2] = b2;
    priv->children = kids;
    for (int64_t i = 0; i < n_children; i++)
        priv->child_ptrs[i] = &kids[i];
    a->length = length;
    a->null_count = null_count;
    a->offset = 0;
    a->n_buffers = n_buffers;
    a->n_children = n_children;
    a->buffers = priv->buffers;
    a->children = n_children > 0 ? priv->child_ptrs : NULL;
    a->dictionary = NULL;
    a->release = fu_array_release;
    a->private_data = priv;
    return 0;
}

/* ---- string views into the input ---------------------------------------- */

/* The 16-byte view of the n bytes at p: inline when n <= 12, else their
 * first four bytes and where they lie (variadic buffer idx, which starts
 * at base). */
static inline void fu_view_set(uint8_t *v, const uint8_t *p, int64_t n, int32_t idx,
                               const uint8_t *base)
{
    int32_t len = (int32_t)n, at;
    memset(v, 0, 16);
    memcpy(v, &len, 4);
    if (n <= 12) {
        fu_copy(v + 4, p, n);
    } else {
        at = (int32_t)(p - base);
        memcpy(v + 4, p, 4);
        memcpy(v + 8, &idx, 4);
        memcpy(v + 12, &at, 4);
    }
}

/* Which of the buffers fu_view_array_init() hands on holds row i (n bytes,
 * as fu_col_row() read it): its index and start.  (A view row of 12 bytes
 * or fewer is inline, and so is every part of it: none is needed.) */
static inline void fu_col_row_buffer(const fu_col_t *c, int64_t i, int64_t n, int32_t *idx,
                                     const uint8_t **base)
{
    if (c->type == FU_COL_VIEW && n <= 12) {
        *idx = 0;
        *base = NULL;
    } else if (c->type == FU_COL_VIEW) {
        memcpy(idx, c->views + 16 * (c->offset + i) + 8, 4);
        *base = c->vbufs[*idx];
    } else {
        *idx = 0;
        *base = c->data;
    }
}

/* Can views address every byte of c's text (int32 offsets)? */
static inline int fu_col_viewable(const fu_col_t *c)
{
    if (c->type == FU_COL_LARGE)
        return c->length == 0 || c->off64[c->offset + c->length] <= INT32_MAX;
    return 1;
}

/* What a string_view array owns: `nowned` malloc'd buffers (validity,
 * views, variadic sizes, and any text of its own), and (moved into `keep`)
 * the input whose buffers its views may point into. */
typedef struct {
    struct ArrowArray keep;
    int64_t nowned;
    void **owned; /* nowned of them, after buffers in the same block */
    const void *buffers[1];
} fu_view_priv_t;

static void fu_view_release(struct ArrowArray *a)
{
    fu_view_priv_t *priv = (fu_view_priv_t *)a->private_data;
    for (int64_t i = 0; i < priv->nowned; i++)
        fu_release(priv->owned[i]);
    if (priv->keep.release != NULL)
        priv->keep.release(&priv->keep);
    free(priv);
    a->release = NULL;
}

/* Room for n_buffers buffers and nowned owned pointers; NULL when out of
 * memory. */
static inline fu_view_priv_t *fu_view_priv_new(int64_t n_buffers, int64_t nowned)
{
    fu_view_priv_t *priv = (fu_view_priv_t *)calloc(
        1, sizeof(fu_view_priv_t) + (size_t)(n_buffers + nowned) * sizeof(void *));
    if (priv != NULL) {
        priv->nowned = nowned;
        priv->owned = (void **)(priv->buffers + n_buffers);
    }
    return priv;
}

static inline void fu_view_array_fill(struct ArrowArray *a, int64_t length, int64_t null_count,
                                      int64_t n_buffers, fu_view_priv_t *priv)
{
    a->length = length;
    a->null_count = null_count;
    a->offset = 0;
    a->n_buffers = n_buffers;
    a->n_children = 0;
    a->buffers = priv->buffers;
    a->children = NULL;
    a->dictionary = NULL;
    a->release = fu_view_release;
    a->private_data = priv;
}

/* priv's buffers: validity, views, bufs[0, nbufs), then sizes; it owns
 * validity, views and sizes, and every bufs[k] too when `own`. */
static inline void fu_view_priv_set(fu_view_priv_t *priv, void *validity, void *views,
                                    int64_t nbufs, const uint8_t *const *bufs, int64_t *sizes,
                                    int own)
{
    priv->owned[0] = validity;
    priv->owned[1] = views;
    priv->owned[2] = sizes;
    priv->buffers[0] = validity;
    priv->buffers[1] = views;
    for (int64_t i = 0; i < nbufs; i++) {
        priv->buffers[2 + i] = bufs[i];
        if (own)
            priv->owned[3 + i] = (void *)bufs[i];
    }
    priv->buffers[2 + nbufs] = sizes;
}

/* Fills a as a string_view array of `length` rows owning `validity` and
 * `views` (malloc'd, taken even on failure) whose views point into c's data
 * buffers, which it hands on as its variadic buffers without owning them:
 * the caller keeps c's array alive as long as a (fu_array_keep on a parent,
 * or fu_view_array_keep on a itself).  0, or -1 when out of memory. */
static inline int fu_view_array_init(struct ArrowArray *a, int64_t length, int64_t null_count,
                                     void *validity, void *views, const fu_col_t *c)
{
    int64_t m = c->type == FU_COL_VIEW ? c->nvbufs : 1, i;
    fu_view_priv_t *priv = fu_view_priv_new(m + 3, 3);
    int64_t *sizes = (int64_t *)malloc((size_t)(m > 0 ? m : 1) * sizeof(int64_t));
    if (priv == NULL || sizes == NULL) {
        free(priv);
        free(sizes);
        fu_release(validity);
        fu_release(views);
        a->release = NULL;
        return -1;
    }
    if (c->type == FU_COL_VIEW) {
        for (i = 0; i < m; i++)
            sizes[i] = c->vsizes[i];
    } else {
        sizes[0] = c->length == 0             ? 0
                   : c->type == FU_COL_STRING ? c->off32[c->offset + c->length]
                                              : c->off64[c->offset + c->length];
    }
    fu_view_priv_set(priv, validity, views, m, c->type == FU_COL_VIEW ? c->vbufs : &c->data, sizes,
                     0);
    fu_view_array_fill(a, length, null_count, m + 3, priv);
    return 0;
}

/* a (from fu_view_array_init) takes over `input` (moved: its release is
 * cleared), to release with itself. */
static inline void fu_view_array_keep(struct ArrowArray *a, struct ArrowArray *input)
{
    fu_view_priv_t *priv = (fu_view_priv_t *)a->private_data;
    priv->keep = *input;
    input->release = NULL;
}

/* Fills a as a string_view array of `length` rows whose views point into
 * its own text: the nbufs buffers bufs[] of sizes[] bytes.  It owns
 * validity, views, every bufs[k] and sizes (all malloc'd, taken even on
 * failure; bufs itself stays the caller's).  0, or -1 when out of memory. */
static inline int fu_view_array_own(struct ArrowArray *a, int64_t length, int64_t null_count,
                                    void *validity, void *views, int64_t nbufs, uint8_t **bufs,
                                    int64_t *sizes)
{
    fu_view_priv_t *priv = fu_view_priv_new(nbufs + 3, nbufs + 3);
    if (priv == NULL) {
        fu_release(validity);
        fu_release(views);
        for (int64_t i = 0; i < nbufs; i++)
            fu_release(bufs[i]);
        fu_release(sizes);
        a->release = NULL;
        return -1;
    }
    fu_view_priv_set(priv, validity, views, nbufs, (const uint8_t *const *)bufs, sizes, 1);
    fu_view_array_fill(a, length, null_count, nbufs + 3, priv);
    return 0;
}

/* A schema: format and name are static strings (or the name a copy it
 * owns, fu_schema_name), children as given. */
typedef struct {
    struct ArrowSchema *children;
    char *name;
    struct ArrowSchema *child_ptrs[1];
} fu_schema_priv_t;

static void fu_schema_release(struct ArrowSchema *s)
{
    fu_schema_priv_t *priv = (fu_schema_priv_t *)s->private_data;
    for (int64_t i = 0; i < s->n_children; i++)
        if (priv->children[i].release != NULL)
            priv->children[i].release(&priv->children[i]);
    free(priv->children);
    free(priv->name);
    free(priv);
    s->release = NULL;
}

static inline int fu_schema_init(struct ArrowSchema *s, const char *format, const char *name,
                                 int64_t n_children)
{
    size_t extra = n_children > 1 ? (size_t)(n_children - 1) : 0;
    fu_schema_priv_t *priv = (fu_schema_priv_t *)calloc(
        1, sizeof(fu_schema_priv_t) + extra * sizeof(struct ArrowSchema *));
    struct ArrowSchema *kids = NULL;
    if (priv != NULL && n_children > 0) {
        kids = (struct ArrowSchema *)calloc((size_t)n_children, sizeof(struct ArrowSchema));
        if (kids == NULL) {
            free(priv);
            priv = NULL;
        }
    }
    if (priv == NULL) {
        s->release = NULL;
        return -1;
    }
    priv->children = kids;
    for (int64_t i = 0; i < n_children; i++)
        priv->child_ptrs[i] = &kids[i];
    s->format = format;
    s->name = name;
    s->metadata = NULL;
    s->flags = ARROW_FLAG_NULLABLE;
    s->n_children = n_children;
    s->children = n_children > 0 ? priv->child_ptrs : NULL;
    s->dictionary = NULL;
    s->release = fu_schema_release;
    s->private_data = priv;
    return 0;
}

/* s (from fu_schema_init) takes a copy of the n bytes of name as its name:
 * 0, or -1 when out of memory. */
static inline int fu_schema_name(struct ArrowSchema *s, const char *name, size_t n)
{
    fu_schema_priv_t *priv = (fu_schema_priv_t *)s->private_data;
    char *copy = (char *)malloc(n + 1);
    if (copy == NULL)
        return -1;
    memcpy(copy, name, n);
    copy[n] = 0;
    free(priv->name);
    priv->name = copy;
    s->name = copy;
    return 0;
}

/* ---- list results: string elements grown one at a time ------------------- */

/* A string column whose length is not known ahead (the elements of a list
 * result: a row's query fields, its path's levels): text, offsets (int32,
 * or int64 when `large`; the first one 0) and, when `nullable`, a validity
 * bitmap, each grown as elements are pushed.  A kernel's range writes one;
 * fu_strs_join_part puts several ranges' together. */
typedef struct {
    fu_buf_t text, offsets, valid;
    int64_t count, nulls;
    int large, nullable;
} fu_strs_t;

/* Empty, with room for text_room bytes and items_room elements; 0, or -1
 * when out of memory. */
static inline int fu_strs_init(fu_strs_t *b, int large, int nullable, int64_t text_room,
                               int64_t items_room)
{
    memset(b, 0, sizeof(*b));
    b->large = large;
    b->nullable = nullable;
    if (fu_buf_reserve(&b->text, text_room) < 0
        || fu_buf_reserve(&b->offsets, (items_room + 1) * (large ? 8 : 4)) < 0
        || (nullable && fu_buf_reserve(&b->valid, items_room / 8 + 1) < 0))
        return -1;
    memset(b->offsets.data, 0, large ? 8 : 4);
    b->offsets.len = large ? 8 : 4;
    return 0;
}

static inline void fu_strs_free(fu_strs_t *b)
{
    fu_release(b->text.data);
    fu_release(b->offsets.data);
    fu_release(b->valid.data);
    memset(b, 0, sizeof(*b));
}

/* The end of the element being pushed, and its validity bit.  0, -1 when
 * out of memory, -2 when int32 offsets cannot address the text. */
static FU_ALWAYS_INLINE int fu_strs_end(fu_strs_t *b, int valid)
{
    int64_t byte = b->count >> 3;
    if (fu_buf_reserve(&b->offsets, 8) < 0)
        return -1;
    if (b->large) {
        memcpy(b->offsets.data + b->offsets.len, &b->text.len, 8);
        b->offsets.len += 8;
    } else {
        int32_t end = (int32_t)b->text.len;
        if (b->text.len > INT32_MAX)
            return -2;
        memcpy(b->offsets.data + b->offsets.len, &end, 4);
        b->offsets.len += 4;
    }
    if (b->nullable) {
        if (byte >= b->valid.len) {
            if (fu_buf_reserve(&b->valid, 1) < 0)
                return -1;
            b->valid.data[b->valid.len++] = 0;
        }
        if (valid)
            b->valid.data[byte] |= (uint8_t)(1u << (b->count & 7));
        else
            b->nulls++;
    }
    b->count++;
    return 0;
}

/* Appends the element p[0, n): 0, or fu_strs_end's failure. */
static FU_ALWAYS_INLINE int fu_strs_push(fu_strs_t *b, const uint8_t *p, int64_t n)
{
    if (fu_buf_reserve(&b->text, n) < 0)
        return -1;
    fu_copy(b->text.data + b->text.len, p, n);
    b->text.len += n;
    return fu_strs_end(b, 1);
}

/* Appends a null element (b nullable). */
static inline int fu_strs_push_null(fu_strs_t *b) { return fu_strs_end(b, 0); }

/* The element e's validity bit in b. */
static inline int fu_strs_valid(const fu_strs_t *b, int64_t e)
{
    return !b->nullable || ((b->valid.data[e >> 3] >> (e & 7)) & 1);
}

/* Elements [a, c) of b, a range's whose first element is element e0 of
 * the joined column and whose first text byte is its byte t0: their text
 * copied into the joined text, their offsets (rebased) into the joined
 * offsets, and, where b is nullable and `valid` is given, their validity
 * bits set or cleared one by one (the caller owns the bytes they fall in:
 * several parts of one column may be joined on threads at once). */
static inline void fu_strs_join_part(const fu_strs_t *b, int64_t a, int64_t c, int64_t e0,
                                     int64_t t0, uint8_t *text, void *offsets, uint8_t *valid)
{
    int64_t e, lo, hi;
    if (a >= c)
        return;
    if (b->large) {
        const int64_t *src = (const int64_t *)(const void *)b->offsets.data;
        int64_t *dst = (int64_t *)offsets + e0;
        lo = src[a];
        hi = src[c];
        for (e = a + 1; e <= c; e++)
            dst[e] = src[e] + t0;
    } else {
        const int32_t *src = (const int32_t *)(const void *)b->offsets.data;
        int32_t *dst = (int32_t *)offsets + e0;
        lo = src[a];
        hi = src[c];
        for (e = a + 1; e <= c; e++)
            dst[e] = src[e] + (int32_t)t0;
    }
    if (hi > lo)
        memcpy(text + t0 + lo, b->text.data + lo, (size_t)(hi - lo));
    if (valid == NULL || !b->nullable)
        return;
    for (e = a; e < c; e++) {
        uint8_t bit = (uint8_t)(1u << ((e0 + e) & 7)), *byte = &valid[(e0 + e) >> 3];
        *byte = fu_strs_valid(b, e) ? (uint8_t)(*byte | bit) : (uint8_t)(*byte & ~bit);
    }
}

/* Fills s as list<string> (or large_list<large_string>), its elements
 * named "item", or with `pairs` as list<struct<key: string, value:
 * string>>.  0, or -1 when out of memory. */
static inline int fu_list_schema_init(struct ArrowSchema *s, int large, int pairs)
{
    const char *text = large ? "U" : "u";
    struct ArrowSchema *item;
    if (fu_schema_init(s, large ? "+L" : "+l", "", 1) < 0)
        return -1;
    item = s->children[0];
    if (!pairs)
        return fu_schema_init(item, text, "item", 0);
    if (fu_schema_init(item, "+s", "item", 2) < 0
        || fu_schema_init(item->children[0], text, "key", 0) < 0)
        return -1;
    return fu_schema_init(item->children[1], text, "value", 0);
}

/* Fills a as a string array of b's elements, taking b's buffers (b is
 * emptied, the text cut to its size).  0, or -1 when out of memory. */
static inline int fu_strs_array_init(struct ArrowArray *a, fu_strs_t *b)
{
    void *text = fu_grow(b->text.data, (size_t)(b->text.len > 0 ? b->text.len : 1));
    void *valid = b->nulls > 0 ? b->valid.data : NULL;
    int64_t count = b->count, nulls = b->nulls;
    void *offsets = b->offsets.data;
    if (text == NULL) /* a shrink that failed: the block as it is */
        text = b->text.data;
    if (valid == NULL)
        fu_release(b->valid.data);
    memset(b, 0, sizeof(*b));
    return fu_array_init(a, count, nulls, 3, valid, offsets, text, 0);
}

#endif /* FASTURI_ARROW_H */
