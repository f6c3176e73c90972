/* ThreadSanitizer harness for the polars plugin (csrc/fasturi_polars.c).
 *
 * polars calls the plugin from any of its threads at once, and a call of
 * 262,144 rows or more is cut over threads of the plugin's own: both are
 * driven here, in plain C built with -fsanitize=thread (see .ci/sanitize
 * --tsan), with the plugin compiled into the harness:
 *
 *   gcc -fsanitize=thread -O1 -g -pthread -I csrc .ci/tsan_polars.c
 *   TSAN_OPTIONS=halt_on_error=1:exitcode=66 ./a.out [URLS.txt] [-c CALLERS]
 *
 * URLS.txt: one URL a line (the corpus), repeated with nulls and hostile
 * rows among them to 300,000 rows; without it, built-in rows.  The rows are
 * one string column and one string_view column over shared, read-only
 * buffers, the second sliced.  Each function is called once with
 * CallerContext's parallel bit set (one thread: the reference), then by
 * CALLERS threads (default 2) at once without it (each call cut into parts
 * on threads of its own); every result must equal the reference, row for
 * row.  Exit status: 0, 1 for a wrong answer, 66 for a ThreadSanitizer
 * report.
 */
#define _GNU_SOURCE
#include "../csrc/fasturi_polars.c"

#include <pthread.h>

#define ROWS 300000

static const char *BUILT_IN[] = {
    "http://example.com/a/b?c=d#e",
    "HTTP://User:Pw@Example.COM:80/./x/../y?q#F",
    "",
    "mailto:someone@example.org",
    "https://caf\xc3\xa9.example/\xc3\xbc?q=%ff%41",
    "//host.example:8080",
    "a b%zz",
    "http://[::1]:8080/p?x=1&utm_source=z",
    "urn:isbn:0451450523",
    "https://averyveryverylonghostname.example.org/path/to/something/long?x=1&y=2#frag",
};

/* The shared input: rows as a string column (offsets, data) and as string
 * views into the same data. */
static uint8_t *g_data, *g_valid, *g_views;
static int32_t *g_offsets;
static int64_t g_rows, g_sizes[1];
static const void *g_str_buffers[3], *g_view_buffers[4];

/* Row i: a built-in row every fifth, else the file's lines in turn. */
static const char *row_source(char **lines, size_t nlines, int64_t i)
{
    if (nlines > 0 && i % 5 != 0)
        return lines[(size_t)i % nlines];
    return BUILT_IN[i % (int64_t)(sizeof BUILT_IN / sizeof *BUILT_IN)];
}

static void build(const char *path)
{
    char **lines = NULL;
    size_t nlines = 0, cap = 0, total = 0;
    int64_t i;
    FILE *f = path ? fopen(path, "rb") : NULL;
    char buf[65536];
    if (path && f == NULL) {
        perror(path);
        exit(2);
    }
    while (f && fgets(buf, sizeof buf, f) && nlines < 100000) {
        size_t n = strcspn(buf, "\n");
        buf[n] = 0;
        if (nlines == cap) {
            cap = cap ? 2 * cap : 1024;
            lines = (char **)realloc(lines, cap * sizeof *lines);
        }
        lines[nlines++] = strdup(buf);
    }
    if (f)
        fclose(f);
    g_rows = ROWS;
    g_offsets = (int32_t *)malloc((size_t)(g_rows + 1) * 4);
    g_valid = (uint8_t *)calloc((size_t)g_rows / 8 + 1, 1);
    for (i = 0; i < g_rows; i++)
        total += strlen(row_source(lines, nlines, i));
    g_data = (uint8_t *)malloc(total + 1);
    g_views = (uint8_t *)calloc((size_t)g_rows, 16);
    total = 0;
    for (i = 0; i < g_rows; i++) {
        const char *s = row_source(lines, nlines, i);
        size_t n = strlen(s);
        g_offsets[i] = (int32_t)total;
        memcpy(g_data + total, s, n);
        if (i % 97 != 13)
            g_valid[i >> 3] |= (uint8_t)(1 << (i & 7));
        fu_view_set(g_views + 16 * i, g_data + total, (int64_t)n, 0, g_data);
        total += n;
    }
    g_offsets[g_rows] = (int32_t)total;
    g_sizes[0] = (int64_t)total;
    g_str_buffers[0] = g_valid;
    g_str_buffers[1] = g_offsets;
    g_str_buffers[2] = g_data;
    g_view_buffers[0] = g_valid;
    g_view_buffers[1] = g_views;
    g_view_buffers[2] = g_data;
    g_view_buffers[3] = g_sizes;
}

/* ---- a call's arguments, as polars exports them -------------------------- */

static void schema_release(struct ArrowSchema *s) { s->release = NULL; }
static void array_release(struct ArrowArray *a) { a->release = NULL; }
static void series_release(fu_series_t *s)
{
    s->field->release(s->field);
    s->release = NULL;
}

typedef struct {
    struct ArrowSchema schema, child;
    struct ArrowSchema *children[1];
    struct ArrowArray array;
    struct ArrowArray *arrays[1];
    int64_t value; /* a literal's */
    uint8_t bits;
    int32_t offsets[2];
    const void *buffers[3];
} arg_t;

static void arg_schema(arg_t *g, const char *format)
{
    memset(&g->schema, 0, sizeof g->schema);
    g->schema.format = format;
    g->schema.name = "a";
    g->schema.release = schema_release;
}

static void arg_array(arg_t *g, int64_t length, int64_t offset, int64_t n_buffers,
                      const void **buffers)
{
    memset(&g->array, 0, sizeof g->array);
    g->array.length = length;
    g->array.offset = offset;
    g->array.null_count = -1;
    g->array.n_buffers = n_buffers;
    g->array.buffers = buffers;
    g->array.release = array_release;
    g->arrays[0] = &g->array;
}

static fu_series_t series_of(arg_t *g)
{
    fu_series_t s;
    s.field = &g->schema;
    s.arrays = g->arrays;
    s.len = 1;
    s.release = series_release;
    s.private_data = g;
    return s;
}

/* The column: the string one whole, or the view one from row 7 on. */
static fu_series_t column(arg_t *g, int views)
{
    arg_schema(g, views ? "vu" : "u");
    if (views)
        arg_array(g, g_rows - 7, 7, 4, g_view_buffers);
    else
        arg_array(g, g_rows, 0, 3, g_str_buffers);
    return series_of(g);
}

static fu_series_t boolean(arg_t *g, int v)
{
    arg_schema(g, "b");
    g->bits = (uint8_t)v;
    g->buffers[0] = NULL;
    g->buffers[1] = &g->bits;
    arg_array(g, 1, 0, 2, g->buffers);
    g->array.null_count = 0;
    return series_of(g);
}

static fu_series_t int32(arg_t *g, int32_t v)
{
    arg_schema(g, "i");
    memcpy(&g->value, &v, 4);
    g->buffers[0] = NULL;
    g->buffers[1] = &g->value;
    arg_array(g, 1, 0, 2, g->buffers);
    g->array.null_count = 0;
    return series_of(g);
}

static fu_series_t text(arg_t *g, const char *v)
{
    arg_schema(g, "u");
    g->offsets[0] = 0;
    g->offsets[1] = (int32_t)strlen(v);
    g->buffers[0] = NULL;
    g->buffers[1] = g->offsets;
    g->buffers[2] = v;
    arg_array(g, 1, 0, 3, g->buffers);
    g->array.null_count = 0;
    return series_of(g);
}

/* split's fields: a Struct whose one field is named `name`. */
static fu_series_t fields(arg_t *g, const char *name)
{
    arg_schema(g, "+s");
    memset(&g->child, 0, sizeof g->child);
    g->child.format = "u";
    g->child.name = name;
    g->children[0] = &g->child;
    g->schema.n_children = 1;
    g->schema.children = g->children;
    g->buffers[0] = NULL;
    arg_array(g, 1, 0, 1, g->buffers);
    g->array.null_count = 0;
    return series_of(g);
}

/* ---- the cases ----------------------------------------------------------- */

typedef void (*plugin_fn)(const fu_series_t *, size_t, const uint8_t *, size_t, fu_series_t *,
                          const fu_context_t *);

enum { C_HOST, C_SPLIT, C_NORMALIZE, C_CANON, C_VALID, C_POSITION, C_RESOLVE, C_DECODE, NCASES };
static const char *CASES[NCASES] = { "host",     "split(path)",    "normalize", "canonicalize",
                                     "is_valid", "error_position", "resolve",   "percent_decode" };

/* One call of case k on the column (views or not); the result's Series. */
static fu_series_t run_case(int k, int views, int parallel)
{
    arg_t g[4];
    fu_series_t in[4], out;
    fu_context_t context;
    size_t n = 1;
    plugin_fn fn;
    memset(&out, 0, sizeof out);
    memset(g, 0, sizeof g);
    context.bitflags = (uint64_t)parallel;
    in[0] = column(&g[0], views);
    switch (k) {
    case C_HOST: fn = _polars_plugin_host; break;
    case C_SPLIT:
        fn = _polars_plugin_split;
        in[n++] = fields(&g[1], "path");
        break;
    case C_NORMALIZE:
        fn = _polars_plugin_normalize;
        in[n++] = boolean(&g[1], 1);
        break;
    case C_CANON:
        /* (drop_params is a list literal: canonicalize without any is
         * driven through the other options, an empty list) */
        fn = _polars_plugin_canonicalize;
        in[n++] = boolean(&g[1], 1);
        in[n++] = boolean(&g[2], 1);
        arg_schema(&g[3], "+l");
        memset(&g[3].child, 0, sizeof g[3].child);
        g[3].child.format = "u";
        g[3].children[0] = &g[3].child;
        g[3].schema.n_children = 1;
        g[3].schema.children = g[3].children;
        {
            static const int32_t zeros[2] = { 0, 0 };
            static const void *child_buffers[3] = { NULL, zeros, "" };
            static struct ArrowArray child = {
                0, 0, 0, 3, 0, child_buffers, NULL, NULL, array_release, NULL
            };
            static struct ArrowArray *kids[1] = { &child };
            g[3].buffers[0] = NULL;
            g[3].buffers[1] = zeros;
            arg_array(&g[3], 1, 0, 2, g[3].buffers);
            g[3].array.null_count = 0;
            g[3].array.n_children = 1;
            g[3].array.children = kids;
        }
        in[n++] = series_of(&g[3]);
        break;
    case C_VALID:
    case C_POSITION:
        fn = k == C_VALID ? _polars_plugin_is_valid : _polars_plugin_error_position;
        in[n++] = text(&g[1], "URI-reference");
        in[n++] = int32(&g[2], 3986);
        break;
    case C_RESOLVE:
        fn = _polars_plugin_resolve;
        in[n++] = text(&g[1], "http://a/b/c/d;p?q");
        in[n++] = boolean(&g[2], 1);
        in[n++] = int32(&g[3], 3986);
        break;
    default: fn = _polars_plugin_percent_decode; break;
    }
    fn(in, n, NULL, 0, &out, &context);
    if (out.private_data == NULL) {
        /* the column holds rows whose escapes decode to no UTF-8: refused */
        if (k != C_DECODE)
            fprintf(stderr, "%s failed: %s\n", CASES[k], _polars_plugin_get_last_error_message());
    }
    return out;
}

/* The result's row i as text ("\1" for a null; "b"/"i" results printed). */
static void row_text(const fu_series_t *s, int64_t i, char *buf, size_t cap, const uint8_t **p,
                     int64_t *n)
{
    const struct ArrowArray *a = s->arrays[0];
    const struct ArrowSchema *f = s->field;
    fu_col_t c;
    const char *why;
    if (strcmp(f->format, "+s") == 0) {
        a = a->children[0];
        f = f->children[0];
    }
    if (strcmp(f->format, "b") == 0 || strcmp(f->format, "i") == 0) {
        const uint8_t *v = (const uint8_t *)a->buffers[0];
        int valid = a->null_count == 0 || v == NULL || (v[i >> 3] >> (i & 7) & 1);
        if (f->format[0] == 'b')
            snprintf(buf, cap, "%d",
                     valid ? ((const uint8_t *)a->buffers[1])[i >> 3] >> (i & 7) & 1 : -1);
        else
            snprintf(buf, cap, "%d", valid ? ((const int32_t *)a->buffers[1])[i] : -1);
        *p = (const uint8_t *)buf;
        *n = (int64_t)strlen(buf);
        return;
    }
    if (fu_col_open(f, a, &c, &why) < 0 || fu_col_row(&c, i, p, n) != FU_ROW_VALUE) {
        *p = (const uint8_t *)"\1";
        *n = 1;
    }
}

static void drop(fu_series_t *s)
{
    size_t k;
    if (s->private_data == NULL)
        return;
    for (k = 0; k < s->len; k++)
        s->arrays[k]->release(s->arrays[k]);
    s->release(s);
}

static fu_series_t g_want[NCASES][2];
static int g_wrong;

static void *caller(void *arg)
{
    int k, v;
    (void)arg;
    for (k = 0; k < NCASES; k++) {
        for (v = 0; v < 2; v++) {
            fu_series_t got = run_case(k, v, 0);
            fu_series_t *want = &g_want[k][v];
            int64_t i, rows = want->private_data ? want->arrays[0]->length : 0;
            if ((got.private_data == NULL) != (want->private_data == NULL)
                || (rows && got.arrays[0]->length != rows)) {
                fprintf(stderr, "%s: a thread's result differs\n", CASES[k]);
                g_wrong = 1;
            }
            for (i = 0; i < rows && got.private_data; i++) {
                char b1[32], b2[32];
                const uint8_t *p, *q;
                int64_t n, m;
                row_text(want, i, b1, sizeof b1, &p, &n);
                row_text(&got, i, b2, sizeof b2, &q, &m);
                if (n != m || memcmp(p, q, (size_t)n) != 0) {
                    fprintf(stderr, "%s: row %lld differs\n", CASES[k], (long long)i);
                    g_wrong = 1;
                    break;
                }
            }
            drop(&got);
        }
    }
    return NULL;
}

int main(int argc, char **argv)
{
    const char *path = NULL;
    int callers = 2, i, k, v;
    pthread_t threads[16];
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-c") == 0 && i + 1 < argc)
            callers = atoi(argv[++i]);
        else
            path = argv[i];
    }
    if (callers < 1 || callers > 16)
        callers = 2;
    build(path);
    setenv("POLARS_MAX_THREADS", "3", 1);
    for (k = 0; k < NCASES; k++)
        for (v = 0; v < 2; v++)
            g_want[k][v] = run_case(k, v, 1);
    for (i = 0; i < callers; i++)
        pthread_create(&threads[i], NULL, caller, NULL);
    for (i = 0; i < callers; i++)
        pthread_join(threads[i], NULL);
    for (k = 0; k < NCASES; k++)
        for (v = 0; v < 2; v++)
            drop(&g_want[k][v]);
    printf("tsan_polars: %d callers, %lld rows, %d cases: %s\n", callers, (long long)g_rows, NCASES,
           g_wrong ? "WRONG" : "same as one thread");
    return g_wrong;
}
