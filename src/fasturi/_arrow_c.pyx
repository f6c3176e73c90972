"""Column kernels, compiled: the twin of _arrow_py.

A kernel reads one Arrow chunk straight from its C Data Interface buffers,
runs the core's C scanners on each row's UTF-8 bytes with the GIL released,
and writes the result's Arrow buffers itself: no Python object per row.
The scanners key on ASCII delimiters only, so on UTF-8 they give the UTF-8
of what they give on the row's str; the one exception, RFC 3987's
character classes, is met by widening a non-ASCII row to code points.

``threads`` > 1 cuts the rows into ranges of whole 64-row blocks (so no two
threads write one byte of a bitmap), each written into its own buffers by
whichever of the call's threads takes it first; then the first range's
buffer, sized for every row, takes the others' text, copied in equal pieces
by the same threads: the result is the same as one thread's.  The threads
are the pool's (_workers) and the calling one, which takes any range or
piece no pool thread has, so a call never waits for a thread to start.
Every kernel keeps its state in the call: nothing is shared between calls.
"""

from cpython.pycapsule cimport PyCapsule_Destructor, PyCapsule_GetPointer, PyCapsule_New
from libc.stdint cimport INT64_MAX, int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memchr, memcmp, memcpy, memset

from fasturi._csrc cimport (
    ArrowArray,
    ArrowSchema,
    fu_alloc,
    fu_grow,
    fu_release,
    fu_array_init,
    fu_array_keep,
    fu_buf_reserve,
    fu_buf_t,
    fu_canon_key,
    fu_col_bytes,
    fu_col_open,
    fu_col_row,
    fu_col_row_buffer,
    fu_col_t,
    fu_col_text_end,
    fu_col_viewable,
    FU_COL_VIEW,
    fu_copy,
    fu_copy_over,
    fu_audit_scope,
    fu_tsv_copy_plain,
    fu_tsv_escape,
    fu_drop_rule_t,
    fu_field_t,
    fu_is_ascii,
    FU_ROW_CORRUPT,
    FU_ROW_NULL,
    FU_ROW_VALUE,
    fu_schema_init,
    fu_shared_add,
    fu_shared_set,
    fu_shared_wait_change,
    fu_shared_wait_reach,
    fu_utf8_decode,
    fu_utf8_valid,
    fu_view_array_init,
    fu_view_set,
    FU_NORMALIZE_EXTRA,
    FU_RESOLVE_2396,
    FU_RESOLVE_3986,
    FU_RESOLVE_EXTRA,
    fu_authority_t,
    fu_classify_4,
    fu_normalize_1,
    fu_pct_decode_1,
    fu_resolve_1,
    fu_rule_check,
    fu_psl_host_range,
    fu_psl_lookup,
    fu_psl_t,
    fu_split_1,
    fu_split_row_1,
    fu_xxh64,
    fu_split_t,
    FU_WW_BLOB,
    FU_WW_FAIL,
    FU_WW_FTP,
    FU_WW_HOST,
    FU_WW_HTTP,
    FU_WW_HTTPS,
    FU_WW_OK,
    fu_ww_init,
    fu_ww_host_alone,
    fu_ww_idna,
    FU_IDNA_PERCENT,
    fu_ww_parse_given,
    fu_ww_parse_rest,
    fu_ww_room,
    fu_ww_set,
    fu_ww_set_room,
    fu_ww_url,
    FU_WW_SET_HREF,
    FU_FORM_DECODE,
    fu_glob_t,
    fu_list_schema_init,
    fu_path_extension_1,
    fu_path_level_next,
    fu_path_range,
    fu_qfield_t,
    fu_query_key,
    fu_query_next,
    fu_query_param_1,
    fu_query_range,
    fu_query_value,
    fu_remove_params_1,
    fu_strs_array_init,
    fu_strs_free,
    fu_strs_init,
    fu_strs_join_part,
    fu_strs_push,
    fu_strs_push_null,
    fu_strs_t,
    fu_subdomain_1,
)
from fasturi._capi cimport (
    PyBytes_AS_STRING,
    PyBytes_FromStringAndSize,
    PyUnicode_DATA,
    PyUnicode_GET_LENGTH,
    PyUnicode_IS_ASCII,
    PyUnicode_AsUTF8AndSize,
    PyUnicode_DecodeUTF8,
)
from fasturi._idna_c cimport idna_to_ascii
from fasturi._psl_c cimport _Table, _current
from fasturi._rules_c cimport _rule_id
from fasturi._surt_c cimport MEM as _surt_mem
from fasturi._surt_c cimport _surt_error, _surt_key
from fasturi._w3lib_c cimport _fast as _w3lib_fast
from fasturi._w3lib_c cimport key_str as _w3lib_key

from fasturi import _parts_c, _psl_c, _whatwg_c, _workers
from fasturi._types import ArrowColumn, InvalidURL, invalid_utf8, row_decode_error, row_refused

__all__ = [
    "audit_escapes",
    "audit_suspects",
    "canonicalize",
    "canonicalize_w3lib",
    "error_position",
    "fingerprint",
    "is_valid",
    "join_lines",
    "join_tsv",
    "lines",
    "normalize",
    "path_extension",
    "path_hierarchy",
    "percent_decode",
    "public_suffix",
    "query_param",
    "query_params",
    "registrable_domain",
    "remove_params",
    "resolve_each",
    "resolve_one",
    "split",
    "subdomain",
    "surt",
    "valid_rows",
    "whatwg_can_parse",
    "whatwg_href",
    "whatwg_replace",
    "whatwg_search_params",
    "whatwg_split",
]


# What a kernel computes.
cdef enum:
    OP_SPLIT = 1
    OP_NORMALIZE
    OP_CANONICALIZE
    OP_IS_VALID
    OP_POSITION
    OP_RESOLVE_ONE
    OP_RESOLVE_EACH
    OP_DECODE
    OP_DOMAIN  # registrable_domain and public_suffix
    OP_FINGERPRINT  # fingerprint without a preset: the canonical key, hashed
    OP_W3LIB  # canonicalize(preset="w3lib")
    OP_W3LIB_FINGERPRINT  # fingerprint(preset="w3lib")
    OP_SURT
    OP_WW_HREF  # fasturi.whatwg's column forms
    OP_WW_CAN_PARSE
    OP_WW_SPLIT
    OP_WW_REPLACE
    OP_AUDIT  # audit_suspects: the rows audit() could find something in
    OP_WW_PARAMS  # whatwg_search_params (its own section, at the end)
    OP_QUERY_PARAM  # the parts of a URI a log analyst reads (fasturi_parts.h)
    OP_REMOVE_PARAMS
    OP_PATH_EXTENSION
    OP_SUBDOMAIN
    OP_QUERY_PARAMS  # (list results from here on: a row's elements in items)
    OP_PATH_HIERARCHY

# Why a range stopped early.
cdef enum:
    BAD_NONE = 0
    BAD_UTF8
    BAD_CORRUPT
    BAD_DECODE
    BAD_MEMORY
    BAD_PYTHON  # an exception raised by Python code (errors= decoding)
    BAD_OVERFLOW  # more text than int32 offsets can address

# split's fields, in FIELDS order.
cdef enum:
    F_SCHEME = 0
    F_AUTHORITY
    F_USERINFO
    F_HOST
    F_PORT
    F_PATH
    F_QUERY
    F_FRAGMENT
    SPLIT_FIELDS = 8

# whatwg_split's getters, in WHATWG_FIELDS order.
cdef enum:
    W_HREF = 0
    W_ORIGIN
    W_PROTOCOL
    W_USERNAME
    W_PASSWORD
    W_HOST
    W_HOSTNAME
    W_PORT
    W_PATHNAME
    W_SEARCH
    W_HASH
    MAX_TEXT = 11  # the most text outputs a kernel writes (whatwg_split's)

cdef enum:
    STAGE_WORK = 0  # ranges are being run
    STAGE_JOIN = 1  # the join's pieces are being copied
    STAGE_DONE = 2  # nothing is left to take

cdef enum:
    BLOCK = 64  # rows per bitmap word: the unit a range is cut in
    MIN_RANGE = 2048  # fewer rows per thread cost more to start than they save
    SAMPLE = 256  # rows split to size split's buffers

_FIELD_CODES = {
    "scheme": F_SCHEME,
    "authority": F_AUTHORITY,
    "userinfo": F_USERINFO,
    "host": F_HOST,
    "port": F_PORT,
    "path": F_PATH,
    "query": F_QUERY,
    "fragment": F_FRAGMENT,
}
_ERRORS_CODES = {"strict": 0, "replace": 1, "ignore": 2}


ctypedef struct Job:
    # read-only once the threads start
    int op
    fu_col_t col
    const uint8_t *text_end  # split: col's text ends here (or NULL: unknown)
    fu_col_t bases  # OP_RESOLVE_EACH
    const uint8_t *base  # OP_RESOLVE_ONE: the base's UTF-8
    int64_t nbase
    fu_split_t base_parts
    bint base_absolute
    int ntext  # text outputs: split's fields, else 1 (0 for bool/int32)
    bint large  # text outputs have int64 offsets (large_string)
    # per text output, length + 1 offsets: each range writes its rows'
    # offsets into its own rows' slots, counted from its own first byte
    void *offsets[MAX_TEXT]
    int fields[MAX_TEXT]
    bint split_authority  # split: a field of the authority's parts is asked for
    uint8_t *views[MAX_TEXT]  # split into string views (pointing into col), per field
    bint scheme_based, sort_query, drop_fragment, strict
    int mode, rule, errors
    fu_drop_rule_t *rules
    int nrules
    Py_ssize_t longest
    # results every range writes its own rows of
    uint8_t *valid[MAX_TEXT]  # per text output; for bool/int32 outputs valid[0]
    uint8_t *row_valid  # split: the struct's own validity
    uint8_t *bits  # is_valid's values
    int32_t *ints  # error_position's values
    uint64_t *u64  # fingerprint's values
    const fu_psl_t *psl  # OP_DOMAIN: the list (the call keeps its table)
    int psl_depth, psl_shift
    bint psl_domain  # the registrable domain, else the public suffix
    bint w3lib_keep_fragment  # OP_W3LIB*
    bint keep_refused  # a row refused (its ValueError in py_errors) is null, not the end
    void *py_errors  # OP_W3LIB*, OP_SURT: a dict, row -> the exception of a row refused
    # OP_WW_*: the base's href (NULL: no base) and its record, for the C
    # parser; ww_base_fails: every row fails, as the base does
    const uint8_t *ww_base
    fu_ww_url ww_b
    bint ww_base_fails
    # OP_WW_REPLACE: the setters (FU_WW_SET_*) and their values' UTF-8
    int ww_nset
    int ww_set[10]
    const uint8_t *ww_val[10]
    int64_t ww_val_len[10]
    # OP_QUERY_PARAM*: the name's UTF-8 and FU_FORM_DECODE or 0;
    # OP_REMOVE_PARAMS: the globs (pointing into the call's `keep`)
    const uint8_t *name
    int64_t nname
    int form_mode
    fu_glob_t *globs
    int nglobs
    # per text output, when several ranges ran: their text joined in row
    # order (list results: keys' text, values' text, keys' offsets, values'
    # offsets, values' validity)
    uint8_t *joined[MAX_TEXT]
    # the call's threads' counters (fasturi_shared.h): ranges and pieces of
    # the join taken and done, and the stage
    int64_t ranges_taken, ranges_done, pieces_taken, pieces_done, stage


ctypedef struct Range:
    int64_t start, end
    fu_buf_t out[MAX_TEXT]
    int64_t room  # split: every out[k] has room for this many more bytes
    int64_t text  # split: the bytes of the rows split into out
    int64_t at[MAX_TEXT]  # where out[k] goes in job.joined[k]
    int64_t nulls[MAX_TEXT]
    int64_t row_nulls
    int bad
    int64_t bad_row
    # scratch
    fu_buf_t tmp
    fu_buf_t tmp2  # whatwg_replace: the URL after a setter, the one before in tmp
    uint32_t *wide
    int64_t wide_cap
    fu_field_t *fields
    Py_ssize_t fields_cap
    uint8_t *name  # canonicalize: a field's decoded name
    # list results: the range's elements (keys, and values for pairs)
    fu_strs_t items[2]
    # resolve against a column: the last base split (a page's links share it)
    const uint8_t *last_base
    int64_t last_nbase
    fu_split_t last_parts
    # Ranges lie side by side, each written by its own thread row after row:
    # 64 bytes apart, the last fields of one and the first of the next are
    # never in one cache line (sharing one cost resolve a third of its time
    # on some calls)
    uint8_t pad[64]


cdef inline void _set(uint8_t *bitmap, int64_t i) noexcept nogil:
    bitmap[i >> 3] |= <uint8_t>(1 << (i & 7))


cdef inline void _clear(uint8_t *bitmap, int64_t i) noexcept nogil:
    bitmap[i >> 3] &= <uint8_t>~(1 << (i & 7))


cdef inline int _end(Job *job, int k, int64_t i, int64_t at) noexcept nogil:
    # Row i of text output k ends at byte `at` of its range's buffer.
    if job.large:
        (<int64_t *>job.offsets[k])[i + 1] = at
    elif at > 0x7FFFFFFF:
        return BAD_OVERFLOW
    else:
        (<int32_t *>job.offsets[k])[i + 1] = <int32_t>at
    return BAD_NONE


cdef inline int _text(Job *job, Range *r, int k, int64_t i, const uint8_t *p,
                      int64_t n) noexcept nogil:
    # Appends row i's text to output k.
    if n > 0:
        if fu_buf_reserve(&r.out[k], n) < 0:
            return BAD_MEMORY
        fu_copy(r.out[k].data + r.out[k].len, p, n)
        r.out[k].len += n
    return _end(job, k, i, r.out[k].len)


cdef inline int _null(Job *job, Range *r, int k, int64_t i) noexcept nogil:
    # (split's bitmaps start all valid: clearing is how its nulls are marked)
    _clear(job.valid[k], i)
    r.nulls[k] += 1
    if job.views[k] != NULL:
        memset(job.views[k] + 16 * i, 0, 16)
        return BAD_NONE
    return _end(job, k, i, r.out[k].len)


cdef inline void _valid(Job *job, int k, int64_t i) noexcept nogil:
    _set(job.valid[k], i)


cdef int _widen(Range *r, const uint8_t *p, int64_t n, int64_t *count) noexcept nogil:
    # The row's code points into r.wide, their classes into r.tmp.
    cdef uint32_t *w
    if n > r.wide_cap:
        w = <uint32_t *>realloc(r.wide, <size_t>n * sizeof(uint32_t))
        if w == NULL:
            return -1
        r.wide = w
        r.wide_cap = n
    if r.tmp.cap < n:
        r.tmp.len = 0
        if fu_buf_reserve(&r.tmp, n) < 0:
            return -1
    fu_utf8_decode(p, n, r.wide, count)
    fu_classify_4(r.wide, count[0], r.tmp.data)
    return 0


cdef Py_ssize_t _check(Job *job, Range *r, const uint8_t *p, int64_t n,
                       bint ascii) noexcept nogil:
    # -1 when the row matches the rule, else the error position in code
    # points; -2 when out of memory.
    cdef int64_t count = 0
    if ascii:
        return fu_rule_check(job.rule, p, n)
    if _widen(r, p, n, &count) < 0:
        return -2
    return fu_rule_check(job.rule, r.tmp.data, count)


cdef inline void _ranges(Job *job, int64_t n, fu_split_t *s, fu_authority_t *a, int64_t *lo,
                         int64_t *hi) noexcept nogil:
    # Every field's byte range [lo, hi) of a row split into s and a, by
    # field code; lo is -1 where the component is undefined (a null).
    lo[F_SCHEME], hi[F_SCHEME] = (0 if s.scheme_end >= 0 else -1), s.scheme_end
    lo[F_AUTHORITY], hi[F_AUTHORITY] = s.auth_start, s.auth_end
    lo[F_PATH], hi[F_PATH] = s.path_start, s.path_end
    lo[F_QUERY], hi[F_QUERY] = s.query_start, s.query_end
    lo[F_FRAGMENT], hi[F_FRAGMENT] = s.frag_start, n
    if not job.split_authority:
        return
    lo[F_HOST], hi[F_HOST] = a.host_start, a.host_end
    lo[F_USERINFO], hi[F_USERINFO] = s.auth_start, a.userinfo_end
    lo[F_PORT], hi[F_PORT] = a.port_start, s.auth_end
    if s.auth_start < 0:
        lo[F_HOST] = lo[F_USERINFO] = lo[F_PORT] = -1
    elif a.userinfo_end < 0:
        lo[F_USERINFO] = -1


cdef int _split_row(Job *job, Range *r, int64_t i, const uint8_t *p, int64_t n) noexcept nogil:
    cdef fu_split_t s
    cdef fu_authority_t a
    cdef int k, f
    cdef int32_t idx
    cdef const uint8_t *base
    cdef int64_t lo[MAX_TEXT]
    cdef int64_t hi[MAX_TEXT]
    cdef fu_buf_t *o
    # (fu_copy_over may read 64 bytes past the row: where the text goes on;
    # an empty row's p is no place in the column's text)
    cdef bint over = n > 0 and job.text_end != NULL and job.text_end - p >= n + 64
    if (not fu_split_row_1(p, n, job.split_authority, &s, &a)
            and not fu_utf8_decode(p, n, NULL, NULL)):
        return BAD_UTF8
    _ranges(job, n, &s, &a, lo, hi)
    if job.views[0] != NULL:
        fu_col_row_buffer(&job.col, i, n, &idx, &base)
        for k in range(job.ntext):
            f = job.fields[k]
            if lo[f] >= 0:
                fu_view_set(job.views[k] + 16 * i, p + lo[f], hi[f] - lo[f], idx, base)
            else:
                _null(job, r, k, i)
        return BAD_NONE
    # A row's fields are parts of it: room for the whole row in every
    # buffer is room for any field, checked once a row, not once a field;
    # and the 64 bytes more fu_copy_over may write.  Likewise no field's
    # text passes what int32 offsets address before the rows' text does.
    if r.room < n + 64 and _make_room(job, r, n + 64) < 0:
        return BAD_MEMORY
    r.room -= n
    r.text += n
    for k in range(job.ntext):
        f = job.fields[k]
        o = &r.out[k]
        if lo[f] >= 0:
            if over:
                fu_copy_over(o.data + o.len, p + lo[f], hi[f] - lo[f])
            else:
                fu_copy(o.data + o.len, p + lo[f], hi[f] - lo[f])
            o.len += hi[f] - lo[f]
        else:
            _clear(job.valid[k], i)
            r.nulls[k] += 1
        if job.large:
            (<int64_t *>job.offsets[k])[i + 1] = o.len
        else:
            (<int32_t *>job.offsets[k])[i + 1] = <int32_t>o.len
    if r.text > 0x7FFFFFFF and not job.large:
        for k in range(job.ntext):
            if r.out[k].len > 0x7FFFFFFF:
                return BAD_OVERFLOW
    return BAD_NONE


cdef int _make_room(Job *job, Range *r, int64_t n) noexcept nogil:
    cdef int k
    r.room = INT64_MAX
    for k in range(job.ntext):
        if fu_buf_reserve(&r.out[k], n) < 0:
            return -1
        r.room = min(r.room, r.out[k].cap - r.out[k].len)
    return 0


cdef int _reserve_split(Job *job, Range *r, int64_t until) noexcept nogil:
    # Each field's buffer sized by its share of the text in the range's
    # first rows, for rows up to `until`, so that none has to grow (a copy)
    # while the others sit on room they never use (a fresh mapping, faulted
    # in page by page).
    cdef int64_t share[MAX_TEXT]
    cdef int64_t lo[MAX_TEXT]
    cdef int64_t hi[MAX_TEXT]
    cdef int64_t i, n, total, sampled = 0, rows = r.end - r.start
    cdef const uint8_t *p
    cdef fu_split_t s
    cdef fu_authority_t a
    cdef int k
    memset(share, 0, sizeof(share))
    for i in range(r.start, min(r.end, r.start + SAMPLE)):
        if fu_col_row(&job.col, i, &p, &n) != FU_ROW_VALUE:
            continue
        sampled += n
        fu_split_row_1(p, n, job.split_authority, &s, &a)
        _ranges(job, n, &s, &a, lo, hi)
        for k in range(job.ntext):
            if lo[job.fields[k]] >= 0:
                share[k] += hi[job.fields[k]] - lo[job.fields[k]]
    total = fu_col_bytes(&job.col, r.start, until)
    rows = until - r.start
    for k in range(job.ntext):
        # an eighth more than the sample's share, and room for odd rows
        n = total // job.ntext if sampled == 0 else (total * share[k] // sampled) * 9 // 8
        if fu_buf_reserve(&r.out[k], n + 16 * rows // SAMPLE + 64) < 0:
            return -1
    return 0


cdef int _decode_with(Range *r, const uint8_t *p, int64_t n, int errors) noexcept with gil:
    # A row whose escapes are not UTF-8, decoded as bytes.decode does with
    # errors "replace" or "ignore" (rare: Python's own rules, exactly).
    cdef bytes text
    try:
        text = (<bytes>p[:n]).decode("utf-8", "replace" if errors == 1 else "ignore").encode()
    except BaseException:
        return -1
    if fu_buf_reserve(&r.out[0], len(text)) < 0:
        return -1
    memcpy(r.out[0].data + r.out[0].len, <const char *>text, <size_t>len(text))
    r.out[0].len += len(text)
    return 0


cdef int _str_text(Job *job, Range *r, int64_t i, object value) noexcept:
    # Row i's text is the str `value` a scalar function gave (GIL held).
    cdef Py_ssize_t size
    cdef const char *utf8
    cdef int bad
    try:
        utf8 = PyUnicode_AsUTF8AndSize(value, &size)
    except BaseException:
        return BAD_PYTHON
    bad = _text(job, r, 0, i, <const uint8_t *>utf8, size)
    _valid(job, 0, i)
    return bad


cdef int _domain_wide(Job *job, Range *r, int64_t i, const uint8_t *p,
                      int64_t n) noexcept with gil:
    # A host with non-ASCII bytes: str.lower folds its case, so the scalar
    # function answers for the row (rare).
    try:
        text = PyUnicode_DecodeUTF8(<const char *>p, n, NULL)
        find = _psl_c.registrable_domain if job.psl_domain else _psl_c.public_suffix
        value = find(text, private=job.psl_shift != 0)
    except BaseException:
        return BAD_PYTHON
    if value is None:
        return _null(job, r, 0, i)
    return _str_text(job, r, i, value)


cdef int _domain_row(Job *job, Range *r, int64_t i, const uint8_t *p, int64_t n,
                     bint ascii) noexcept nogil:
    # registrable_domain / public_suffix of one row, as _psl_c's _answer
    # does it for an ASCII host
    cdef Py_ssize_t a, b, size, suffix_at, domain_at, at
    cdef int bad
    if not fu_psl_host_range(p, n, &a, &b):
        return _null(job, r, 0, i)
    size = b - a
    if not ascii and not fu_is_ascii(p + a, size):
        return _domain_wide(job, r, i, p, n)
    r.tmp.len = 0
    if fu_buf_reserve(&r.tmp, size) < 0:
        return BAD_MEMORY
    if fu_psl_lookup(job.psl, job.psl_depth, p + a, size, r.tmp.data, job.psl_shift,
                     &suffix_at, &domain_at) < 0:
        return _null(job, r, 0, i)
    at = domain_at if job.psl_domain else suffix_at
    if at < 0:
        return _null(job, r, 0, i)
    bad = _text(job, r, 0, i, r.tmp.data + at, size - at)
    _valid(job, 0, i)
    return bad


cdef Py_ssize_t _key(Job *job, Range *r, const uint8_t *p, int64_t n) noexcept nogil:
    # canonicalize's key of the row, written at out[0]'s end (not counted
    # in its length); its length, or -1 when out of memory.
    cdef Py_ssize_t m
    cdef fu_buf_t *o = &r.out[0]
    r.tmp.len = 0
    if fu_buf_reserve(&r.tmp, n + FU_NORMALIZE_EXTRA) < 0:
        return -1
    m = fu_normalize_1(p, n, True, r.tmp.data)
    if fu_buf_reserve(o, m) < 0:
        return -1
    return fu_canon_key(r.tmp.data, m, job.sort_query, job.drop_fragment, job.rules,
                        job.nrules, job.longest, r.name, &r.fields, &r.fields_cap,
                        o.data + o.len)


cdef int _one_row(Job *job, Range *r, int64_t i, const uint8_t *p, int64_t n,
                  bint ascii) noexcept nogil:
    # Row i (not null, valid UTF-8, ascii or not) of every operation but
    # split.  0, or the BAD_ reason.
    cdef Py_ssize_t m
    cdef fu_split_t bs
    cdef const uint8_t *b
    cdef int64_t nb
    cdef int got
    cdef uint32_t high
    cdef fu_buf_t *o = &r.out[0]
    if job.op >= OP_QUERY_PARAM:
        return _parts_row(job, r, i, p, n)
    if OP_WW_HREF <= job.op <= OP_WW_REPLACE:
        return _ww_row(job, r, i, p, n, False)
    if job.op == OP_DOMAIN:
        return _domain_row(job, r, i, p, n, ascii)
    if job.op == OP_W3LIB or job.op == OP_W3LIB_FINGERPRINT:
        return _w3lib_row(job, r, i, p, n, ascii)
    if job.op == OP_NORMALIZE:
        if fu_buf_reserve(o, n + FU_NORMALIZE_EXTRA) < 0:
            return BAD_MEMORY
        o.len += fu_normalize_1(p, n, job.scheme_based, o.data + o.len)
    elif job.op == OP_CANONICALIZE:
        m = _key(job, r, p, n)
        if m < 0:
            return BAD_MEMORY
        o.len += m
    elif job.op == OP_FINGERPRINT:
        # the key written past out[0]'s end as scratch, then its XXH64 as
        # the row's value (out[0] stays empty)
        m = _key(job, r, p, n)
        if m < 0:
            return BAD_MEMORY
        job.u64[i] = fu_xxh64(o.data + o.len, <size_t>m, 0)
        _set(job.valid[0], i)
        return BAD_NONE
    elif job.op == OP_RESOLVE_ONE:
        if not job.base_absolute:
            return _null(job, r, 0, i)
        if fu_buf_reserve(o, job.nbase + n + FU_RESOLVE_EXTRA) < 0:
            return BAD_MEMORY
        o.len += fu_resolve_1(job.base, job.nbase, &job.base_parts, p, n, job.strict,
                              job.mode, o.data + o.len)
    elif job.op == OP_RESOLVE_EACH:
        got = fu_col_row(&job.bases, i, &b, &nb)
        if got == FU_ROW_CORRUPT:
            return BAD_CORRUPT
        if got == FU_ROW_NULL:
            return _null(job, r, 0, i)
        if r.last_base == NULL or nb != r.last_nbase or memcmp(b, r.last_base, <size_t>nb) != 0:
            if not fu_utf8_valid(b, nb):
                return BAD_UTF8
            fu_split_1(b, nb, &r.last_parts)
            r.last_base, r.last_nbase = b, nb
        bs = r.last_parts
        if bs.scheme_end < 0:
            return _null(job, r, 0, i)
        if fu_buf_reserve(o, nb + n + FU_RESOLVE_EXTRA) < 0:
            return BAD_MEMORY
        o.len += fu_resolve_1(b, nb, &bs, p, n, job.strict, job.mode, o.data + o.len)
    elif job.op == OP_DECODE:
        if fu_buf_reserve(o, n) < 0:
            return BAD_MEMORY
        high = 0
        m = fu_pct_decode_1(p, n, 0, o.data + o.len, &high)
        if high & 0x80 and not fu_utf8_decode(o.data + o.len, m, NULL, NULL):
            if job.errors == 0:
                return BAD_DECODE
            if _decode_with(r, o.data + o.len, m, job.errors) < 0:
                return BAD_PYTHON
        else:
            o.len += m
    elif job.op == OP_IS_VALID:
        m = _check(job, r, p, n, ascii)
        if m == -2:
            return BAD_MEMORY
        if m < 0:
            _set(job.bits, i)
        _set(job.valid[0], i)
        return BAD_NONE
    elif job.op == OP_AUDIT:
        m = _check(job, r, p, n, ascii)
        if m == -2:
            return BAD_MEMORY
        if m >= 0:  # invalid: audit() says where
            _set(job.bits, i)
            return BAD_NONE
        m = fu_audit_scope(p, n)
        if m != FU_AUDIT_NOTHING:  # may have findings
            _set(job.bits, i)
        if m == FU_AUDIT_ESCAPES:  # all of them from fu_audit_escapes (audit_suspects)
            _set(job.valid[0], i)
        return BAD_NONE
    else:  # OP_POSITION
        m = _check(job, r, p, n, ascii)
        if m == -2:
            return BAD_MEMORY
        if m < 0:
            r.nulls[0] += 1
        else:
            job.ints[i] = <int32_t>m
            _set(job.valid[0], i)
        return BAD_NONE
    _set(job.valid[0], i)
    return _end(job, 0, i, o.len)


cdef void _run(Job *job, Range *r) noexcept nogil:
    cdef int64_t i, n
    cdef const uint8_t *p
    cdef int got, k, bad
    cdef bint ascii
    if job.op == OP_WW_HREF:
        _ww_href_run(job, r)
        return
    if job.op == OP_WW_PARAMS:
        _sp_run(job, r)
        return
    if job.op >= OP_QUERY_PARAMS:
        _list_run(job, r)
        return
    for i in range(r.start, r.end):
        got = fu_col_row(&job.col, i, &p, &n)
        if got == FU_ROW_CORRUPT:
            bad = BAD_CORRUPT
        elif got == FU_ROW_NULL:
            r.row_nulls += 1
            if job.row_valid != NULL:
                _clear(job.row_valid, i)
            if job.ntext == 0:
                r.nulls[0] += 1
            bad = BAD_NONE
            for k in range(job.ntext):
                bad |= _null(job, r, k, i)
            if bad == BAD_NONE:
                continue
        elif job.op == OP_SPLIT:
            bad = _split_row(job, r, i, p, n)
        elif job.op == OP_SURT:  # (its copy of the row tells whether to check UTF-8)
            bad = _surt_row(job, r, i, p, n)
        elif OP_WW_HREF <= job.op <= OP_WW_REPLACE:  # (it checks UTF-8 where it must)
            bad = _ww_row(job, r, i, p, n, False)
        else:
            ascii = fu_is_ascii(p, n)
            if not ascii and not fu_utf8_decode(p, n, NULL, NULL):
                bad = BAD_UTF8
            else:
                bad = _one_row(job, r, i, p, n, ascii)
        if bad != BAD_NONE:
            r.bad = bad
            r.bad_row = i
            return


cdef class _Call:
    """One kernel call: its job, its ranges and every buffer they own until
    the result is exported (or the call fails and frees them)."""

    cdef Job job
    cdef Range *ranges
    cdef int nranges
    cdef object keep  # Python objects whose memory the job points into
    cdef int64_t length

    def __cinit__(self):
        memset(&self.job, 0, sizeof(Job))
        self.ranges = NULL
        self.nranges = 0

    def __dealloc__(self):
        cdef int k, j
        cdef Range *r
        for j in range(self.nranges):
            r = &self.ranges[j]
            for k in range(MAX_TEXT):
                fu_release(r.out[k].data)
            fu_release(r.tmp.data)
            fu_release(r.tmp2.data)
            free(r.wide)
            free(r.fields)
            free(r.name)
            fu_strs_free(&r.items[0])
            fu_strs_free(&r.items[1])
        free(self.ranges)
        for k in range(MAX_TEXT):
            fu_release(self.job.joined[k])
            fu_release(self.job.valid[k])
            fu_release(self.job.offsets[k])
        fu_release(self.job.row_valid)
        for k in range(MAX_TEXT):
            fu_release(self.job.views[k])
        fu_release(self.job.bits)
        fu_release(self.job.ints)
        fu_release(self.job.u64)
        free(self.job.rules)
        free(self.job.globs)

    def help(self):
        # A pool thread's part: ranges while any is left; then, once the
        # calling thread has planned the join, pieces of it.
        with nogil:
            _take_ranges(&self.job, self.ranges, self.nranges)
            if fu_shared_wait_change(&self.job.stage, STAGE_WORK) == STAGE_JOIN:
                _take_pieces(&self.job, self.ranges, self.nranges)


cdef fu_col_t _open(object col) except *:
    cdef fu_col_t c
    cdef const char *why = NULL
    cdef ArrowSchema *s = <ArrowSchema *>PyCapsule_GetPointer(col.schema, "arrow_schema")
    cdef ArrowArray *a = <ArrowArray *>PyCapsule_GetPointer(col.array, "arrow_array")
    if fu_col_open(s, a, &c, &why) < 0:
        raise TypeError(f"cannot read the column: {why.decode()}")
    return c


cdef uint8_t *_bitmap(int64_t length, bint ones=False) except NULL:
    # Every bit 0, or (split's, whose rows are mostly valid) every bit 1.
    cdef size_t size = <size_t>((length + 63) // 64 * 8 + 8)
    cdef uint8_t *b = <uint8_t *>(malloc(size) if ones else calloc(size, 1))
    if b == NULL:
        raise MemoryError()
    if ones:
        memset(b, 0xFF, size)
    return b


cdef _Call _prepare(int op, object col, int threads, int ntext, int64_t extra,
                    fields=(), bint views=False):
    """The call, its job's input and result bitmaps, and its ranges.

    A large_string column gives large_string text, any other string; with
    `views` (split only), string views into the column instead.
    """
    cdef _Call call = _Call.__new__(_Call)
    cdef int64_t length, per, start, until, size
    cdef int j, k, nr
    cdef Range *r
    call.job.op = op
    call.job.col = _open(col)
    length = call.job.col.length
    call.length = length
    call.job.ntext = ntext
    for k, name in enumerate(fields):  # split's
        call.job.fields[k] = _FIELD_CODES[name]
        if call.job.fields[k] in (F_USERINFO, F_HOST, F_PORT):
            call.job.split_authority = True
    call.job.large = _large(col)
    if op == OP_SPLIT and not views:
        call.job.text_end = fu_col_text_end(&call.job.col)
    for k in range(ntext if ntext else 1):
        call.job.valid[k] = _bitmap(length, op == OP_SPLIT)
    if op == OP_SPLIT:
        call.job.row_valid = _bitmap(length, True)
    for k in range(ntext if views else 0):
        call.job.views[k] = <uint8_t *>fu_alloc(<size_t>max(length, 1) * 16)
        if call.job.views[k] == NULL:
            raise MemoryError()
    for k in range(0 if views else ntext):
        # (every row writes its own end: only the first start needs a value)
        call.job.offsets[k] = fu_alloc(<size_t>(length + 1) * (8 if call.job.large else 4))
        if call.job.offsets[k] == NULL:
            raise MemoryError()
        if call.job.large:
            (<int64_t *>call.job.offsets[k])[0] = 0
        else:
            (<int32_t *>call.job.offsets[k])[0] = 0
    # ranges of whole blocks, at least MIN_RANGE rows each
    nr = threads
    if length // MIN_RANGE < nr:
        nr = <int>max(1, length // MIN_RANGE)
    per = ((length + nr - 1) // nr + BLOCK - 1) // BLOCK * BLOCK
    call.ranges = <Range *>calloc(<size_t>nr, sizeof(Range))
    if call.ranges == NULL:
        raise MemoryError()
    call.nranges = nr
    start = 0
    for j in range(nr):
        r = &call.ranges[j]
        r.start = min(start, length)
        r.end = min(start + per, length)
        start += per
        # Room for the likely result up front (growing copies it): as many
        # bytes as the rows hold, plus `extra` a row; the first range's for
        # every row, as the others' text joins it there.  Cut to size at the
        # end.
        until = length if j == 0 else r.end
        if views:
            continue
        if op == OP_SPLIT:
            if _reserve_split(&call.job, r, until) < 0:
                raise MemoryError()
            continue
        size = fu_col_bytes(&call.job.col, r.start, until) + extra * (until - r.start)
        for k in range(ntext):
            if fu_buf_reserve(&r.out[k], size) < 0:
                raise MemoryError()
    return call


cdef void _gather(Job *job, Range *ranges, int nr, int j) noexcept nogil:
    # Piece j of nr of the text after the first range's, copied into the
    # joined buffers (the first range's own): the pieces are equal whatever
    # the ranges hold.  And range j's offsets, counted from its first byte,
    # counted from the joined buffer's.
    cdef int k, q
    cdef int64_t i, at, first, total, lo, hi, a, b
    cdef int64_t *o64
    cdef int32_t *o32
    if job.op >= OP_QUERY_PARAMS:
        _gather_list(job, ranges, nr, j)
        return
    for k in range(job.ntext):
        if job.joined[k] == NULL:
            continue
        first = ranges[1].at[k]
        total = ranges[nr - 1].at[k] + ranges[nr - 1].out[k].len
        lo = first + (total - first) * j // nr
        hi = first + (total - first) * (j + 1) // nr
        for q in range(1, nr):
            a = max(lo, ranges[q].at[k])
            b = min(hi, ranges[q].at[k] + ranges[q].out[k].len)
            if a < b:
                memcpy(job.joined[k] + a, ranges[q].out[k].data + (a - ranges[q].at[k]),
                       <size_t>(b - a))
        at = ranges[j].at[k]
        if at == 0:
            continue
        o64 = <int64_t *>job.offsets[k]
        o32 = <int32_t *>job.offsets[k]
        for i in range(ranges[j].start + 1, ranges[j].end + 1):
            if job.large:
                o64[i] += at
            else:
                o32[i] += <int32_t>at


ctypedef void (*_Unit)(Job *, Range *, int, int) noexcept nogil


cdef void _range_unit(Job *job, Range *ranges, int nr, int j) noexcept nogil:
    _run(job, &ranges[j])


cdef void _take(Job *job, Range *ranges, int nr, int64_t *taken, int64_t *done,
                _Unit unit) noexcept nogil:
    # Units 0 to nr - 1 (the ranges, or the join's pieces), each run by the
    # thread that takes it first, counted in `done` once run.
    cdef int64_t j
    while True:
        j = fu_shared_add(taken, 1)
        if j >= nr:
            return
        unit(job, ranges, nr, <int>j)
        fu_shared_add(done, 1)


cdef inline void _take_ranges(Job *job, Range *ranges, int nr) noexcept nogil:
    _take(job, ranges, nr, &job.ranges_taken, &job.ranges_done, _range_unit)


cdef inline void _take_pieces(Job *job, Range *ranges, int nr) noexcept nogil:
    _take(job, ranges, nr, &job.pieces_taken, &job.pieces_done, _gather)


cdef int _join(_Call call) except -1:
    # Several ranges' text outputs: each range's place in the joined buffer,
    # the first range's (sized for all of them), is where the ranges before
    # it end; then every thread copies its piece of the rest in.
    cdef int j, k
    cdef int64_t total
    cdef bint any_text = False
    cdef fu_buf_t *head
    if call.nranges == 1:
        return 0
    if call.job.op >= OP_QUERY_PARAMS:
        return _join_list(call)
    for k in range(call.job.ntext):
        if call.job.views[k] != NULL:
            continue
        total = 0
        for j in range(call.nranges):
            call.ranges[j].at[k] = total
            total += call.ranges[j].out[k].len
        if not call.job.large and total > 0x7FFFFFFF:
            raise _too_long()
        head = &call.ranges[0].out[k]
        if fu_buf_reserve(head, total - head.len + 1) < 0:
            raise MemoryError()
        call.job.joined[k] = head.data
        head.data = NULL
        any_text = True
    if any_text:
        fu_shared_set(&call.job.stage, STAGE_JOIN)
        with nogil:
            _take_pieces(&call.job, call.ranges, call.nranges)
            fu_shared_wait_reach(&call.job.pieces_done, call.nranges)
    return 0


cdef _execute(_Call call, int64_t row0, object col):
    try:  # (whatever is raised, the helpers started are let go)
        if call.nranges > 1:
            _workers.start(call.help, call.nranges - 1)
        with nogil:
            _take_ranges(&call.job, call.ranges, call.nranges)
            fu_shared_wait_reach(&call.job.ranges_done, call.nranges)
        _raise_first_failure(call, row0)
        _join(call)
    finally:
        fu_shared_set(&call.job.stage, STAGE_DONE)  # (the helpers waiting go)


cdef int _raise_first_failure(_Call call, int64_t row0) except -1:
    cdef int j
    cdef Range *r
    cdef const uint8_t *p
    cdef int64_t n
    for j in range(call.nranges):  # the first failing row, in row order
        r = &call.ranges[j]
        if r.bad == BAD_NONE:
            continue
        if r.bad == BAD_UTF8:
            raise invalid_utf8(row0 + r.bad_row)
        if r.bad == BAD_CORRUPT:
            raise ValueError(f"row {row0 + r.bad_row} has offsets outside its Arrow buffers")
        if r.bad == BAD_DECODE:
            fu_col_row(&call.job.col, r.bad_row, &p, &n)
            raise row_decode_error(row0 + r.bad_row, _decoded(p, n))
        if r.bad == BAD_OVERFLOW:
            raise _too_long()
        if r.bad == BAD_PYTHON:
            raise RuntimeError(f"row {row0 + r.bad_row} could not be decoded")
        raise MemoryError()
    return 0


cdef bytes _decoded(const uint8_t *p, int64_t n):
    cdef bytearray out = bytearray(n)
    cdef uint8_t *o = <uint8_t *><char *>out
    cdef uint32_t high = 0
    cdef Py_ssize_t m = fu_pct_decode_1(p, n, 0, o, &high)
    return bytes(out[:m])


# ---- exporting ---------------------------------------------------------------

cdef void _free_schema(object capsule) noexcept:
    cdef ArrowSchema *s = <ArrowSchema *>PyCapsule_GetPointer(capsule, "arrow_schema")
    if s.release != NULL:
        s.release(s)
    free(s)


cdef void _free_array(object capsule) noexcept:
    cdef ArrowArray *a = <ArrowArray *>PyCapsule_GetPointer(capsule, "arrow_array")
    if a.release != NULL:
        a.release(a)
    free(a)


cdef object _capsules(ArrowSchema *s, ArrowArray *a):
    # Owns s and a from here, released or not.
    try:
        schema = PyCapsule_New(s, "arrow_schema", <PyCapsule_Destructor>_free_schema)
    except BaseException:
        if s.release != NULL:
            s.release(s)
        free(s)
        if a.release != NULL:
            a.release(a)
        free(a)
        raise
    try:
        array = PyCapsule_New(a, "arrow_array", <PyCapsule_Destructor>_free_array)
    except BaseException:
        if a.release != NULL:
            a.release(a)
        free(a)
        raise
    return ArrowColumn(schema, array)


cdef uint8_t *_take_bitmap(uint8_t **slot, int64_t nulls):
    # The bitmap to export: none when no row is null.
    cdef uint8_t *b = slot[0]
    slot[0] = NULL
    if nulls == 0:
        free(b)
        return NULL
    return b


cdef object _too_long():
    return ValueError(
        "the result holds more than 2 GiB of text in one chunk: pass a large_string column"
    )


cdef int _text_array(_Call call, int k, ArrowArray *out) except -1:
    """Text output k as one array (moving its buffers into out): the joined
    text of several ranges, or the one range's, cut to size."""
    cdef int j
    cdef int64_t nulls = 0, total = 0
    cdef uint8_t **slot = &call.job.joined[k] if call.nranges > 1 else &call.ranges[0].out[k].data
    cdef void *data
    cdef void *offsets = call.job.offsets[k]
    for j in range(call.nranges):
        nulls += call.ranges[j].nulls[k]
        total += call.ranges[j].out[k].len
    data = fu_grow(slot[0], <size_t>(total if total else 1))
    if data == NULL:  # a shrink that failed: the block as it is
        data = slot[0]
    slot[0] = NULL
    call.job.offsets[k] = NULL
    if fu_array_init(out, call.length, nulls, 3, _take_bitmap(&call.job.valid[k], nulls),
                     offsets, data, 0) < 0:
        raise MemoryError()
    return 0


cdef object _text_result(_Call call):
    cdef ArrowSchema *s = <ArrowSchema *>calloc(1, sizeof(ArrowSchema))
    cdef ArrowArray *a = <ArrowArray *>calloc(1, sizeof(ArrowArray))
    if s == NULL or a == NULL or fu_schema_init(s, b"U" if call.job.large else b"u", b"", 0) < 0:
        free(s)
        free(a)
        raise MemoryError()
    try:
        _text_array(call, 0, a)
    except BaseException:
        s.release(s)
        free(s)
        free(a)
        raise
    return _capsules(s, a)


cdef bint _large(object col) except -1:
    cdef ArrowSchema *s = <ArrowSchema *>PyCapsule_GetPointer(col.schema, "arrow_schema")
    return s.format[0] == b"U" and s.format[1] == 0


cdef int _check_threads(int threads) except -1:
    if threads < 1:
        raise ValueError(f"threads must be at least 1, not {threads}")
    return threads


cdef object _struct_capsules(_Call call, int nf, ArrowSchema **ps, ArrowArray **pa):
    """A struct array of nf children over call's rows (null where a row is),
    as capsules that own it; *ps and *pa get it, its children left to fill."""
    cdef int64_t row_nulls = 0
    cdef int j
    cdef ArrowSchema *s
    cdef ArrowArray *a
    for j in range(call.nranges):
        row_nulls += call.ranges[j].row_nulls
    s = <ArrowSchema *>calloc(1, sizeof(ArrowSchema))
    a = <ArrowArray *>calloc(1, sizeof(ArrowArray))
    if s == NULL or a == NULL:
        free(s)
        free(a)
        raise MemoryError()
    if fu_schema_init(s, b"+s", b"", nf) < 0:
        free(s)
        free(a)
        raise MemoryError()
    if fu_array_init(a, call.length, row_nulls, 1, _take_bitmap(&call.job.row_valid, row_nulls),
                     NULL, NULL, nf) < 0:
        s.release(s)
        free(s)
        free(a)
        raise MemoryError()
    result = _capsules(s, a)  # owns s and a (and their children) from here
    ps[0] = s
    pa[0] = a
    return result


# ---- the kernels ---------------------------------------------------------------

def split(col, Py_ssize_t row0, int threads, fields, views=None):
    """The struct of `fields`; its children are string views into `col`
    (which the result then owns: `col` is moved) when `views`, or by default
    when `col` is itself string_view; else copies, as every other kernel's."""
    cdef int nf = len(fields), k
    cdef bint large = _large(col)
    cdef _Call call
    cdef ArrowSchema *s
    cdef ArrowArray *a
    cdef int64_t nulls
    cdef int j
    cdef fu_col_t c
    if nf < 1 or nf > SPLIT_FIELDS:
        raise ValueError("split() needs 1 to 8 fields")
    c = _open(col)
    if views is None:
        views = c.type == FU_COL_VIEW
    views = views and fu_col_viewable(&c)
    call = _prepare(OP_SPLIT, col, _check_threads(threads), nf, 0, fields, views)
    _execute(call, row0, col)
    result = _struct_capsules(call, nf, &s, &a)
    for k in range(nf):
        # The names live as long as the module: _FIELD_NAMES holds them.
        if fu_schema_init(s.children[k], b"vu" if views else b"U" if large else b"u",
                          _FIELD_NAMES[fields[k]], 0) < 0:
            raise MemoryError()
        if not views:
            _text_array(call, k, a.children[k])
            continue
        nulls = 0
        for j in range(call.nranges):
            nulls += call.ranges[j].nulls[k]
        view = call.job.views[k]
        call.job.views[k] = NULL
        if fu_view_array_init(a.children[k], call.length, nulls,
                              _take_bitmap(&call.job.valid[k], nulls), view, &call.job.col) < 0:
            raise MemoryError()
    if views:
        fu_array_keep(a, <ArrowArray *>PyCapsule_GetPointer(col.array, "arrow_array"))
    return result


cdef dict _FIELD_NAMES = {}
for _name in _FIELD_CODES:
    _FIELD_NAMES[_name] = _name.encode()


def normalize(col, Py_ssize_t row0, int threads, bint scheme_based):
    cdef _Call call = _prepare(OP_NORMALIZE, col, _check_threads(threads), 1, FU_NORMALIZE_EXTRA)
    call.job.scheme_based = scheme_based
    _execute(call, row0, col)
    return _text_result(call)


cdef int _drop_rules(_Call call, bint sort_query, bint drop_fragment, drop_params) except -1:
    """The canonical key's options into the job (canonicalize, fingerprint)."""
    cdef int k
    cdef bytes name
    call.job.sort_query = sort_query
    call.job.drop_fragment = drop_fragment
    names = [p.encode("utf-8", "surrogatepass") for p in drop_params]
    call.keep = names
    if names:
        call.job.rules = <fu_drop_rule_t *>calloc(len(names), sizeof(fu_drop_rule_t))
        if call.job.rules == NULL:
            raise MemoryError()
        for k in range(len(names)):
            name = names[k]
            call.job.rules[k].prefix = len(name) > 0 and name[len(name) - 1] == 42  # "*"
            call.job.rules[k].ptr = <const uint8_t *><const char *>name
            call.job.rules[k].size = len(name) - (1 if call.job.rules[k].prefix else 0)
            call.job.longest = max(call.job.longest, call.job.rules[k].size)
        call.job.nrules = len(names)
        for k in range(call.nranges):
            call.ranges[k].name = <uint8_t *>malloc(<size_t>(call.job.longest + 5))
            if call.ranges[k].name == NULL:
                raise MemoryError()
    return 0


def canonicalize(col, Py_ssize_t row0, int threads, bint sort_query, bint drop_fragment,
                 drop_params):
    cdef _Call call
    call = _prepare(OP_CANONICALIZE, col, _check_threads(threads), 1, FU_NORMALIZE_EXTRA)
    _drop_rules(call, sort_query, drop_fragment, drop_params)
    _execute(call, row0, col)
    return _text_result(call)


cdef object _rule_result(_Call call, bint bools):
    cdef ArrowSchema *s = <ArrowSchema *>calloc(1, sizeof(ArrowSchema))
    cdef ArrowArray *a = <ArrowArray *>calloc(1, sizeof(ArrowArray))
    cdef int64_t nulls = 0
    cdef int j
    cdef void *values
    for j in range(call.nranges):
        nulls += call.ranges[j].nulls[0]
    if s == NULL or a == NULL or fu_schema_init(s, b"b" if bools else b"i", b"", 0) < 0:
        free(s)
        free(a)
        raise MemoryError()
    if bools:
        values = call.job.bits
        call.job.bits = NULL
    else:
        values = call.job.ints
        call.job.ints = NULL
    if fu_array_init(a, call.length, nulls, 2, _take_bitmap(&call.job.valid[0], nulls), values,
                     NULL, 0) < 0:
        s.release(s)
        free(s)
        free(a)
        raise MemoryError()
    return _capsules(s, a)


def is_valid(col, Py_ssize_t row0, int threads, rule, rfc):
    cdef _Call call = _prepare(OP_IS_VALID, col, _check_threads(threads), 0, 0)
    call.job.rule = _rule_id("is_valid", "", rule, rfc)
    call.job.bits = _bitmap(call.length)
    _execute(call, row0, col)
    return _rule_result(call, True)


def error_position(col, Py_ssize_t row0, int threads, rule, rfc):
    cdef _Call call = _prepare(OP_POSITION, col, _check_threads(threads), 0, 0)
    call.job.rule = _rule_id("error_position", "", rule, rfc)
    call.job.ints = <int32_t *>calloc(<size_t>(call.length + 1), sizeof(int32_t))
    if call.job.ints == NULL:
        raise MemoryError()
    _execute(call, row0, col)
    return _rule_result(call, False)


def resolve_one(col, Py_ssize_t row0, int threads, str base, bint strict, int rfc):
    cdef bytes b = base.encode("utf-8")
    cdef _Call call = _prepare(OP_RESOLVE_ONE, col, _check_threads(threads), 1,
                               len(b) + FU_RESOLVE_EXTRA)
    call.keep = b
    call.job.base = <const uint8_t *><const char *>b
    call.job.nbase = len(b)
    fu_split_1(call.job.base, call.job.nbase, &call.job.base_parts)
    call.job.base_absolute = call.job.base_parts.scheme_end >= 0
    call.job.strict = strict
    call.job.mode = FU_RESOLVE_2396 if rfc == 2396 else FU_RESOLVE_3986
    _execute(call, row0, col)
    return _text_result(call)


def resolve_each(bases, col, Py_ssize_t row0, int threads, bint strict, int rfc):
    cdef _Call call = _prepare(OP_RESOLVE_EACH, col, _check_threads(threads), 1, 64)
    call.job.bases = _open(bases)
    call.keep = bases
    if call.job.bases.length != call.length:
        raise ValueError("resolve_each() needs as many bases as references")
    call.job.strict = strict
    call.job.mode = FU_RESOLVE_2396 if rfc == 2396 else FU_RESOLVE_3986
    _execute(call, row0, col)
    return _text_result(call)


def percent_decode(col, Py_ssize_t row0, int threads, errors):
    cdef _Call call = _prepare(OP_DECODE, col, _check_threads(threads), 1, 0)
    call.job.errors = _ERRORS_CODES[errors]
    _execute(call, row0, col)
    return _text_result(call)


# ---- text streams (the command line) ----------------------------------------

def lines(bytes block):
    """The lines of ``block`` (each ending at "\\n", or at the end; a "\\r"
    before the "\\n" dropped) as a string column, and the lines that are not
    UTF-8, left out of it: ``(column, count, [(index, start, end), ...],
    starts)``, ``starts`` where each line begins in ``block``, then its
    length."""
    cdef const uint8_t *s = <const uint8_t *>PyBytes_AS_STRING(block)
    cdef int64_t n = len(block), a = 0, b, e, count = 0, rows = 0, kept = 0
    cdef const uint8_t *nl
    cdef bint large = n > 0x7FFFFFFF
    cdef fu_buf_t data
    cdef void *offsets = NULL
    cdef list bad = []
    cdef ArrowSchema *sch
    cdef ArrowArray *arr
    memset(&data, 0, sizeof(data))
    # one pass to count, one to fill: the offsets are allocated once
    while a < n:
        nl = <const uint8_t *>memchr(s + a, 10, <size_t>(n - a))
        a = (nl - s + 1) if nl != NULL else n
        rows += 1
    starts = PyBytes_FromStringAndSize(NULL, 8 * (rows + 1))
    cdef int64_t *at = <int64_t *>PyBytes_AS_STRING(starts)
    offsets = calloc(<size_t>(rows + 1), 8 if large else 4)
    if offsets == NULL or fu_buf_reserve(&data, n) < 0:
        free(offsets)
        fu_release(data.data)
        raise MemoryError()
    a = 0
    with nogil:
        while a < n:
            at[count] = a
            nl = <const uint8_t *>memchr(s + a, 10, <size_t>(n - a))
            if nl != NULL:
                e = nl - s
                b = e + 1
                if e > a and s[e - 1] == 13:  # "\r\n"
                    e -= 1
            else:
                e = b = n
            if fu_utf8_valid(s + a, e - a):
                fu_copy(data.data + data.len, s + a, e - a)
                data.len += e - a
                kept += 1
                if large:
                    (<int64_t *>offsets)[kept] = data.len
                else:
                    (<int32_t *>offsets)[kept] = <int32_t>data.len
            else:
                with gil:
                    bad.append((count, a, e))
            count += 1
            a = b
        at[count] = n
    sch = <ArrowSchema *>calloc(1, sizeof(ArrowSchema))
    arr = <ArrowArray *>calloc(1, sizeof(ArrowArray))
    if sch == NULL or arr == NULL or fu_schema_init(sch, b"U" if large else b"u", b"", 0) < 0:
        free(sch)
        free(arr)
        free(offsets)
        fu_release(data.data)
        raise MemoryError()
    if fu_array_init(arr, kept, 0, 3, NULL, offsets, data.data, 0) < 0:
        sch.release(sch)
        free(sch)
        free(arr)
        raise MemoryError()
    return _capsules(sch, arr), count, bad, memoryview(starts).cast("q")


cdef fu_col_t _child(object col, int k, int64_t *offset) except *:
    # Child k of a struct column, as a column of the struct's rows.
    cdef const char *why = NULL
    cdef fu_col_t c
    cdef ArrowSchema *s = <ArrowSchema *>PyCapsule_GetPointer(col.schema, "arrow_schema")
    cdef ArrowArray *a = <ArrowArray *>PyCapsule_GetPointer(col.array, "arrow_array")
    if k >= s.n_children or k >= a.n_children:
        raise TypeError("not a struct column of that many fields")
    if fu_col_open(s.children[k], a.children[k], &c, &why) < 0:
        raise TypeError(f"cannot read the column: {why.decode()}")
    offset[0] = a.offset
    return c


cdef int64_t _tsv_size(fu_col_t *c, int64_t row0, int64_t rows, bint exact) noexcept nogil:
    # the bytes of rows of c as TSV fields, each with a separator: exact, or
    # as they would be if none needed escaping
    cdef int64_t i, n, total = 0
    cdef const uint8_t *p
    for i in range(row0, row0 + rows):
        if fu_col_row(c, i, &p, &n) != FU_ROW_VALUE:
            total += 3
        else:
            total += (fu_tsv_escape(NULL, p, n) if exact else n) + 1
    return total


cdef inline uint8_t *_tsv_field(uint8_t *o, fu_col_t *c, int64_t i, bint exact) noexcept nogil:
    # row i of c as one TSV field at o, escaped (fasturi_cli.h), or \\N for a
    # null; the field's end.  Not exact: o has room for the row as it is, and
    # a row that escaping makes longer gives NULL.
    cdef const uint8_t *p
    cdef uint8_t *end
    cdef int64_t n
    if fu_col_row(c, i, &p, &n) != FU_ROW_VALUE:
        o[0] = 92
        o[1] = 78  # \\N
        return o + 2
    if not exact:
        end = fu_tsv_copy_plain(o, p, n)
        if end != NULL:
            return end
        if fu_tsv_escape(NULL, p, n) != n:
            return NULL
    return o + fu_tsv_escape(o, p, n)


def join_lines(col):
    """The rows of a column as TSV bytes, each followed by "\\n": a string
    column's text escaped (fasturi_cli.h), a null row "\\N"; a uint64
    column's values in decimal."""
    cdef ArrowSchema *s = <ArrowSchema *>PyCapsule_GetPointer(col.schema, "arrow_schema")
    cdef ArrowArray *a = <ArrowArray *>PyCapsule_GetPointer(col.array, "arrow_array")
    if s.format[0] == 76 and s.format[1] == 0:  # "L"
        return _join_uint64(a)
    cdef fu_col_t c = _open(col)
    cdef int64_t i
    cdef uint8_t *o
    cdef int exact
    for exact in range(2):  # the exact sizes only when a row needs them
        out = PyBytes_FromStringAndSize(NULL, _tsv_size(&c, 0, c.length, exact))
        o = <uint8_t *>PyBytes_AS_STRING(out)
        with nogil:
            for i in range(c.length):
                o = _tsv_field(o, &c, i, exact)
                if o == NULL:
                    break
                o[0] = 10
                o += 1
        if o != NULL:
            return out


cdef bytes _join_uint64(ArrowArray *a):
    cdef const uint64_t *v = <const uint64_t *>a.buffers[1] + a.offset
    cdef const uint8_t *valid = <const uint8_t *>a.buffers[0]
    cdef int64_t i, j
    cdef uint64_t x
    cdef uint8_t digits[20]
    cdef int k
    out = bytearray(21 * a.length)  # room for the longest, cut to what was written
    cdef uint8_t *start = <uint8_t *><char *>out
    cdef uint8_t *o = start
    with nogil:
        for i in range(a.length):
            j = a.offset + i
            if valid != NULL and not (valid[j >> 3] >> (j & 7)) & 1:
                o[0] = 92
                o[1] = 78  # \\N
                o += 2
            else:
                x = v[i]
                k = 20
                while True:
                    k -= 1
                    digits[k] = 48 + <uint8_t>(x % 10)
                    x //= 10
                    if x == 0:
                        break
                memcpy(o, &digits[k], <size_t>(20 - k))
                o += 20 - k
            o[0] = 10
            o += 1
    del out[o - start:]
    return bytes(out)


def join_tsv(col, int nfields):
    """The rows of a struct column of strings as TSV bytes: each field
    escaped as join_lines escapes a row, a null field "\\N", each row
    ending in "\\n"."""
    cdef fu_col_t kids[MAX_TEXT]
    cdef int64_t base[MAX_TEXT]
    cdef int64_t rows = 0, i, total = 0
    cdef int k
    if nfields < 1 or nfields > SPLIT_FIELDS:
        raise ValueError("join_tsv() takes 1 to 8 fields")
    for k in range(nfields):
        kids[k] = _child(col, k, &base[k])
    rows = (<ArrowArray *>PyCapsule_GetPointer(col.array, "arrow_array")).length
    cdef uint8_t *o
    cdef int exact
    for exact in range(2):  # the exact sizes only when a row needs them
        total = 0
        for k in range(nfields):
            total += _tsv_size(&kids[k], base[k], rows, exact)
        out = PyBytes_FromStringAndSize(NULL, total)
        o = <uint8_t *>PyBytes_AS_STRING(out)
        with nogil:
            for i in range(rows):
                for k in range(nfields):
                    o = _tsv_field(o, &kids[k], base[k] + i, exact)
                    if o == NULL:
                        break
                    o[0] = 9 if k + 1 < nfields else 10
                    o += 1
                if o == NULL:
                    break
        if o != NULL:
            return out


def valid_rows(col):
    """The numbers of the rows of a column that are not null."""
    cdef ArrowArray *a = <ArrowArray *>PyCapsule_GetPointer(col.array, "arrow_array")
    cdef const uint8_t *valid = <const uint8_t *>a.buffers[0]
    cdef int64_t i, j
    if valid == NULL:
        return list(range(a.length))
    cdef list rows = []
    for i in range(a.length):
        j = a.offset + i
        if (valid[j >> 3] >> (j & 7)) & 1:
            rows.append(i)
    return rows


def audit_suspects(col, Py_ssize_t row0, int threads, list known=None):
    """The rows of a string column in which audit() could find something:
    those that are not valid URI-references, and those fu_audit_scope()
    does not rule out (fasturi_cli.h).  Given a list ``known``, a pair for
    each of those rows is appended to it: its text, and its audit_escapes()
    (found from its bytes, which were checked already)."""
    cdef _Call call = _prepare(OP_AUDIT, col, _check_threads(threads), 0, 0)
    call.job.rule = _rule_id("audit_suspects", "", "URI-reference", 3986)
    call.job.bits = _bitmap(call.length)
    _execute(call, row0, col)
    cdef const uint8_t *bits = call.job.bits
    cdef const uint8_t *escapes = call.job.valid[0]  # (OP_AUDIT's use of it)
    cdef int64_t i, n = 0
    cdef const uint8_t *p = NULL
    rows = [i for i in range(call.length) if (bits[i >> 3] >> (i & 7)) & 1]
    if known is not None:
        for i in rows:
            fu_col_row(&call.job.col, i, &p, &n)
            text = PyUnicode_DecodeUTF8(<const char *>p, n, NULL)
            facts = _escape_facts(p, n) if (escapes[i >> 3] >> (i & 7)) & 1 else None
            known.append((text, facts))
    return rows


cdef extern from "fasturi_cli.h" nogil:
    ctypedef struct fu_audit_escapes_t:
        int64_t control_at, controls, delimiter_at, delimiters
        int64_t segment_at, segment_end, segments
        int dots
    enum:
        FU_AUDIT_NOTHING, FU_AUDIT_ESCAPES
    void fu_audit_escapes(const uint8_t *p, int64_t n, fu_audit_escapes_t *f)


cdef int _URI_REFERENCE = _rule_id("audit_escapes", "", "URI-reference", 3986)


cdef tuple _escape_facts(const uint8_t *p, int64_t n):
    cdef fu_audit_escapes_t f
    fu_audit_escapes(p, n, &f)
    return (f.control_at, f.controls, f.delimiter_at, f.delimiters,
            f.segment_at, f.segment_end, f.segments, f.dots)


def audit_escapes(str text):
    """The facts of audit(text) (_audit.EscapeFacts) where text is a valid
    URI-reference whose findings fu_audit_scope() puts in its
    FU_AUDIT_ESCAPES (fasturi_cli.h), else None: what the command line
    formats instead of running audit() on the line."""
    # (a valid reference is ASCII, whose str holds its bytes)
    if not PyUnicode_IS_ASCII(text):
        return None
    cdef const uint8_t *p = <const uint8_t *>PyUnicode_DATA(text)
    cdef int64_t n = PyUnicode_GET_LENGTH(text)
    if fu_rule_check(_URI_REFERENCE, p, n) >= 0 or fu_audit_scope(p, n) != FU_AUDIT_ESCAPES:
        return None
    return _escape_facts(p, n)


# ---- the crawler tools (docs/reference.md §4) ------------------------------------------
# They run as the other kernels do, on `threads`, without the GIL; the rows
# their C leaves aside take the GIL for the Python code that answers them
# (the list's Unicode case folding; w3lib's IDNA and odd URLs; surt's IDNA
# and session-ID patterns).  A row the scalar function refuses raises its
# exception, named by the row (_execute_naming).


cdef int _w3lib_row(Job *job, Range *r, int64_t i, const uint8_t *p, int64_t n,
                    bint ascii) noexcept nogil:
    # canonicalize(preset="w3lib") / its fingerprint of one row, as
    # _w3lib_c.key_str does it
    cdef Py_ssize_t m
    cdef const uint8_t *key
    cdef int bad
    r.tmp.len = 0
    if fu_buf_reserve(&r.tmp, 48 * n + 256) < 0:
        return BAD_MEMORY
    m = _w3lib_fast(p, n, ascii, job.w3lib_keep_fragment, r.tmp.data)
    if m < 0:
        return _w3lib_wide(job, r, i, p, n)
    key = r.tmp.data + n + 8
    if job.op == OP_W3LIB_FINGERPRINT:
        job.u64[i] = fu_xxh64(key, <size_t>m, 0)
        _valid(job, 0, i)
        return BAD_NONE
    bad = _text(job, r, 0, i, key, m)
    _valid(job, 0, i)
    return bad


cdef int _w3lib_wide(Job *job, Range *r, int64_t i, const uint8_t *p,
                     int64_t n) noexcept with gil:
    # A row whose authority is _w3lib.netloc's (rare): key_str, with the
    # GIL; the ValueError of a row it refuses is kept for _run_w3lib to
    # raise.
    cdef bytes raw
    try:
        try:
            value = _w3lib_key(PyUnicode_DecodeUTF8(<const char *>p, n, NULL),
                               job.w3lib_keep_fragment)
        except ValueError as exc:
            return _refused(job, r, i, exc)
        if job.op == OP_W3LIB_FINGERPRINT:
            raw = (<str>value).encode("utf-8", "surrogatepass")
            job.u64[i] = fu_xxh64(<const uint8_t *>PyBytes_AS_STRING(raw), <size_t>len(raw), 0)
            _valid(job, 0, i)
            return BAD_NONE
    except BaseException:
        return BAD_PYTHON
    return _str_text(job, r, i, value)


cdef int _refused(Job *job, Range *r, int64_t i, object exc) noexcept with gil:
    # row i refused by the scalar function's Python code: the end of its
    # range, or with keep_refused (a ValueError) a null row
    (<dict>job.py_errors)[i] = exc
    if not job.keep_refused or not isinstance(exc, ValueError):
        return BAD_PYTHON
    if job.op == OP_W3LIB_FINGERPRINT:  # a uint64 column: no text, no offsets
        r.nulls[0] += 1
        return BAD_NONE
    return _null(job, r, 0, i)


cdef int _surt_row(Job *job, Range *r, int64_t i, const uint8_t *p, int64_t n) noexcept nogil:
    cdef const uint8_t *key
    cdef Py_ssize_t size
    cdef uint8_t *heap = NULL
    cdef int rc, bad
    cdef bint wide
    cdef uint8_t *dest
    r.tmp.len = 0
    if fu_buf_reserve(&r.tmp, _surt_mem(n)) < 0 or fu_buf_reserve(&r.out[0], 4 * n + 64) < 0:
        return BAD_MEMORY
    dest = r.out[0].data + r.out[0].len  # most keys are written in place
    rc = _surt_key(p, n, r.tmp.data, dest, &key, &size, &heap, &wide)
    if wide and not fu_utf8_decode(p, n, NULL, NULL):
        bad = BAD_UTF8
    elif rc:
        bad = _surt_refused(job, r, i, rc, key, size)
    elif key == dest:
        r.out[0].len += size
        bad = _end(job, 0, i, r.out[0].len)
        _valid(job, 0, i)
    else:
        bad = _text(job, r, 0, i, key, size)
        _valid(job, 0, i)
    if heap != NULL:
        free(heap)
    return bad


cdef int _surt_refused(Job *job, Range *r, int64_t i, int rc, const uint8_t *key,
                       Py_ssize_t size) noexcept with gil:
    try:
        exc = _surt_error(rc, key, size)
    except BaseException:
        return BAD_PYTHON
    return _refused(job, r, i, exc)


cdef _execute_naming(_Call call, int64_t row0, object col, dict refused):
    # _execute; a row refused by a scalar function's Python code raises its
    # exception, a ValueError named by the row; or, given a dict `refused`,
    # is null and its ValueError goes there under its row number
    cdef dict errors = {}
    call.job.py_errors = <void *>errors
    call.job.keep_refused = refused is not None
    try:
        _execute(call, row0, col)
        if refused is not None:
            refused.update({row0 + row: exc for row, exc in errors.items()})
    except RuntimeError:
        if not errors:
            raise
        # the first failing row is a refused one (each range stops at its
        # first; the earliest range's is the smallest)
        row = min(errors)
        exc = errors[row]
        if not isinstance(exc, ValueError):
            raise exc
        raise row_refused(row0 + row, exc) from exc


cdef object _psl_kernel(object col, Py_ssize_t row0, int threads, bint private, bint domain):
    cdef _Table table = _current()
    cdef _Call call = _prepare(OP_DOMAIN, col, _check_threads(threads), 1, 0)
    call.keep = table
    call.job.psl = &table.t
    call.job.psl_depth = table.depth
    call.job.psl_shift = 4 if private else 0  # the flags' whole-list nibble
    call.job.psl_domain = domain
    _execute(call, row0, col)
    return _text_result(call)


def registrable_domain(col, Py_ssize_t row0, int threads, bint private):
    return _psl_kernel(col, row0, threads, private, True)


def public_suffix(col, Py_ssize_t row0, int threads, bint private):
    return _psl_kernel(col, row0, threads, private, False)


def surt(col, Py_ssize_t row0, int threads, dict refused=None):
    cdef _Call call = _prepare(OP_SURT, col, _check_threads(threads), 1, 0)
    _execute_naming(call, row0, col, refused)
    return _text_result(call)


def canonicalize_w3lib(col, Py_ssize_t row0, int threads, bint keep_fragment,
                       dict refused=None):
    cdef _Call call = _prepare(OP_W3LIB, col, _check_threads(threads), 1, 0)
    call.job.w3lib_keep_fragment = keep_fragment
    _execute_naming(call, row0, col, refused)
    return _text_result(call)


def fingerprint(col, Py_ssize_t row0, int threads, bint sort_query, bint drop_fragment,
                drop_params, preset, dict refused=None):
    cdef _Call call
    cdef ArrowSchema *s
    cdef ArrowArray *a
    cdef int64_t nulls = 0
    cdef int j
    _check_threads(threads)
    # in C on every thread, as canonicalize (the preset is checked by the
    # caller: "w3lib" is the one there is)
    if preset is None:
        call = _prepare(OP_FINGERPRINT, col, threads, 0, 0)
        _drop_rules(call, sort_query, drop_fragment, drop_params)
    else:
        call = _prepare(OP_W3LIB_FINGERPRINT, col, threads, 0, 0)
    call.job.u64 = <uint64_t *>calloc(<size_t>(call.length + 1), sizeof(uint64_t))
    if call.job.u64 == NULL:
        raise MemoryError()
    if preset is None:
        _execute(call, row0, col)
    else:
        call.job.w3lib_keep_fragment = not drop_fragment
        _execute_naming(call, row0, col, refused)
    for j in range(call.nranges):
        nulls += call.ranges[j].nulls[0]
    s = <ArrowSchema *>calloc(1, sizeof(ArrowSchema))
    a = <ArrowArray *>calloc(1, sizeof(ArrowArray))
    if s == NULL or a == NULL or fu_schema_init(s, b"L", b"", 0) < 0:
        free(s)
        free(a)
        raise MemoryError()
    values = <void *>call.job.u64
    call.job.u64 = NULL
    if fu_array_init(a, call.length, nulls, 2, _take_bitmap(&call.job.valid[0], nulls), values,
                     NULL, 0) < 0:  # (the buffers are freed by it)
        s.release(s)
        free(s)
        free(a)
        raise MemoryError()
    return _capsules(s, a)


# ---- WHATWG URLs (fasturi.whatwg's column forms) ----------------------------------
# Each row by csrc/fasturi_whatwg.h, every input in C with the GIL released,
# domain to ASCII (UTS #46) by _idna_c's C (fu_ww_idna).
cdef extern from "fasturi_whatwg.h" nogil:
    int fu_ww_same(const uint8_t *s, Py_ssize_t n, uint8_t *out, fu_ww_url *u)

cdef extern from * nogil:
    """
    /* fu_ww_same_rows over the rows [i, end) of a column with int32
       offsets (else it takes none: returns i) into o, their ends and
       validity bits in ends and valid */
    static inline int64_t fu_ww_col_rows(const fu_col_t *c, int64_t i, int64_t end, fu_buf_t *o,
                                         int32_t *ends, uint8_t *valid)
    {
        if (c->type != FU_COL_STRING)
            return i;
        return fu_ww_same_rows(c->data, c->off32 + c->offset, c->validity, c->offset, i, end,
                               o->data, &o->len, o->cap, ends, valid);
    }
    """
    int64_t fu_ww_col_rows(const fu_col_t *c, int64_t i, int64_t end, fu_buf_t *o,
                           int32_t *ends, uint8_t *valid)

fu_ww_init()

_WW_FIELD_CODES = {
    "href": W_HREF,
    "origin": W_ORIGIN,
    "protocol": W_PROTOCOL,
    "username": W_USERNAME,
    "password": W_PASSWORD,
    "host": W_HOST,
    "hostname": W_HOSTNAME,
    "port": W_PORT,
    "pathname": W_PATHNAME,
    "search": W_SEARCH,
    "hash": W_HASH,
}
cdef tuple _WW_GETTERS = tuple(_WW_FIELD_CODES)
cdef dict _WW_FIELD_NAMES = {name: name.encode() for name in _WW_FIELD_CODES}


cdef void _ww_part(fu_ww_url *u, int field, int64_t *lo, int64_t *hi) noexcept nogil:
    # Where a getter's value lies in the href (lo == hi: ""); not origin.
    cdef int64_t end
    lo[0] = hi[0] = 0
    if field == W_HREF:
        hi[0] = u.len
    elif field == W_PROTOCOL:
        hi[0] = u.scheme_end + 1
    elif field == W_USERNAME:
        lo[0], hi[0] = u.user_start, u.user_end
    elif field == W_PASSWORD:
        lo[0], hi[0] = u.pass_start, u.pass_end
    elif field == W_HOST:
        if u.host_start >= 0:
            lo[0], hi[0] = u.host_start, u.path_start
    elif field == W_HOSTNAME:
        if u.host_start >= 0:
            lo[0], hi[0] = u.host_start, u.host_end
    elif field == W_PORT:
        if u.port >= 0:
            lo[0], hi[0] = u.host_end + 1, u.path_start
    elif field == W_PATHNAME:
        lo[0], hi[0] = u.path_start, u.path_end
    elif field == W_SEARCH:
        end = u.frag_start if u.frag_start >= 0 else u.len
        if u.query_start >= 0 and end - u.query_start > 1:
            lo[0], hi[0] = u.query_start, end
    elif field == W_HASH:
        if u.frag_start >= 0 and u.len - u.frag_start > 1:
            lo[0], hi[0] = u.frag_start, u.len


cdef inline int _append(Range *r, int k, const uint8_t *p, int64_t n) noexcept nogil:
    if n > 0:
        if fu_buf_reserve(&r.out[k], n) < 0:
            return BAD_MEMORY
        fu_copy(r.out[k].data + r.out[k].len, p, n)
        r.out[k].len += n
    return BAD_NONE


cdef int _ww_fail(Job *job, Range *r, int64_t i) noexcept nogil:
    # A row that fails to parse: null, False for can_parse.
    cdef int k, bad = BAD_NONE
    if job.op == OP_WW_CAN_PARSE:
        _set(job.valid[0], i)
        return BAD_NONE
    if job.op == OP_WW_SPLIT:
        _clear(job.row_valid, i)
        r.row_nulls += 1
    for k in range(job.ntext):
        bad |= _null(job, r, k, i)
    return bad


cdef Py_ssize_t _ww_idna(const uint8_t *s, Py_ssize_t n, uint8_t *out,
                         Py_ssize_t cap) noexcept nogil:
    # domain to ASCII of a host state's buffer (_idna_c's, where the
    # Unicode tables are linked)
    return idna_to_ascii(s, n, FU_IDNA_PERCENT, out, cap)


fu_ww_idna = _ww_idna

# _ww_parse's result for a row that stops the range (WW_BAD + BAD_*).
DEF WW_BAD = 100


cdef Py_ssize_t _ww_host(fu_ww_url *u, uint8_t **host) noexcept nogil:
    # The host the C parser leaves to the caller (a domain beyond ASCII
    # whose ASCII form is longer than its room), serialized on its own into
    # a malloc'd *host: its length; -1 where the host parser fails it; -2
    # where memory fails.
    cdef Py_ssize_t n = 0
    cdef int rc = fu_ww_host_alone(u.need, u.need_len, host, &n, u)
    if rc == FU_WW_OK:
        return n
    return -1 if rc == FU_WW_FAIL else -2


cdef int _ww_parse(const uint8_t *p, int64_t n, const uint8_t *base, fu_ww_url *b,
                   fu_buf_t *o, fu_ww_url *u) noexcept nogil:
    # A row parsed into o at its end (o.len untouched), fu_ww_same having
    # said no: FU_WW_OK, FU_WW_FAIL, or WW_BAD + BAD_* (memory, Python).
    cdef Py_ssize_t room = fu_ww_room(n, b.len if base != NULL else 0), hlen
    cdef uint8_t *host = NULL
    cdef int got
    if fu_buf_reserve(o, room) < 0:
        return WW_BAD + BAD_MEMORY
    got = fu_ww_parse_rest(p, n, base, b, o.data + o.len, u)
    if got != FU_WW_HOST:
        return got
    hlen = _ww_host(u, &host)
    if hlen == -2:
        return WW_BAD + BAD_MEMORY
    if hlen < 0:
        return FU_WW_FAIL
    if fu_buf_reserve(o, room + hlen) < 0:
        free(host)
        return WW_BAD + BAD_MEMORY
    got = fu_ww_parse_given(p, n, base, b, host, hlen, o.data + o.len, u)
    free(host)
    return got


cdef int _ww_origin(Range *r, int k, const uint8_t *href, fu_ww_url *u) noexcept nogil:
    # The serialization of the URL's origin, appended to r.out[k].
    cdef fu_buf_t inner
    cdef fu_ww_url v
    cdef int bad, got
    if FU_WW_HTTP <= u.scheme <= FU_WW_FTP:
        if u.host_start == u.scheme_end + 3:  # no userinfo between
            return _append(r, k, href, u.path_start)
        bad = _append(r, k, href, u.scheme_end + 3)
        return bad | _append(r, k, href + u.host_start, u.path_start - u.host_start)
    if u.scheme == FU_WW_BLOB:
        # the origin of the URL its path holds, if an HTTP(S) one
        inner.data = NULL
        inner.len = inner.cap = 0
        got = _ww_parse(href + u.path_start, u.path_end - u.path_start, NULL, &v, &inner, &v)
        if got >= WW_BAD:
            free(inner.data)
            return got - WW_BAD
        if got == FU_WW_OK and (v.scheme == FU_WW_HTTP or v.scheme == FU_WW_HTTPS):
            bad = _ww_origin(r, k, inner.data, &v)
            free(inner.data)
            return bad
        free(inner.data)
    return _append(r, k, <const uint8_t *><const char *>b"null", 4)


cdef int _ww_row(Job *job, Range *r, int64_t i, const uint8_t *p, int64_t n,
                 bint tried) noexcept nogil:
    # (tried: fu_ww_same did not take the row)
    cdef fu_ww_url u
    cdef fu_buf_t *o
    cdef uint8_t *dest
    cdef int64_t lo, hi
    cdef int k, f, bad, got = 0
    if job.ww_base_fails:
        if not fu_is_ascii(p, n) and not fu_utf8_decode(p, n, NULL, NULL):
            return BAD_UTF8
        return _ww_fail(job, r, i)
    # the href written in place (whatwg_href), or in r.tmp
    o = &r.out[0] if job.op == OP_WW_HREF else &r.tmp
    if job.op != OP_WW_HREF:
        r.tmp.len = 0
    # Most rows are URLs written as the URL Standard writes them (taken
    # whatever the base: each is absolute, with "//"): fu_ww_same proves
    # it in one pass and copies the row, ASCII only.  The others are
    # checked for UTF-8 here, then parsed.
    if not tried:
        if fu_buf_reserve(o, n + 1) < 0:  # (fu_ww_same writes n + 1 bytes at most)
            return BAD_MEMORY
        got = fu_ww_same(p, n, o.data + o.len, &u)
    if not got:
        if not fu_is_ascii(p, n) and not fu_utf8_decode(p, n, NULL, NULL):
            return BAD_UTF8
        got = _ww_parse(p, n, job.ww_base, &job.ww_b, o, &u)
        if got >= WW_BAD:
            return got - WW_BAD
    if got != FU_WW_OK:  # (a failure)
        return _ww_fail(job, r, i)
    dest = o.data + o.len
    if job.op == OP_WW_HREF:
        r.out[0].len += u.len
        _valid(job, 0, i)
        return _end(job, 0, i, r.out[0].len)
    if job.op == OP_WW_CAN_PARSE:
        _set(job.bits, i)
        _set(job.valid[0], i)
        return BAD_NONE
    if job.op == OP_WW_REPLACE:
        return _ww_replace(job, r, i, &u)
    for k in range(job.ntext):
        f = job.fields[k]
        if f != W_ORIGIN:
            _ww_part(&u, f, &lo, &hi)
            bad = _append(r, k, dest + lo, hi - lo)
        else:
            bad = _ww_origin(r, k, dest, &u)
        if bad == BAD_NONE:
            bad = _end(job, k, i, r.out[k].len)
        if bad != BAD_NONE:
            return bad
        _valid(job, k, i)
    return BAD_NONE


cdef int _ww_replace(Job *job, Range *r, int64_t i, fu_ww_url *u) noexcept nogil:
    # whatwg_replace's row, parsed into r.tmp (its record *u): the setters
    # applied in order, each from one of r.tmp, r.tmp2 into the other; null
    # where the href setter fails.
    cdef fu_buf_t *src = &r.tmp
    cdef fu_buf_t *dst = &r.tmp2
    cdef fu_buf_t *t
    cdef fu_ww_url nu
    cdef uint8_t *host = NULL
    cdef Py_ssize_t room, hlen
    cdef int k, rc, bad
    for k in range(job.ww_nset):
        room = fu_ww_set_room(u.len, job.ww_val_len[k])
        dst.len = 0
        if fu_buf_reserve(dst, room) < 0:
            return BAD_MEMORY
        nu.given = NULL
        nu.given_len = 0
        rc = fu_ww_set(job.ww_set[k], src.data, u, job.ww_val[k], job.ww_val_len[k], dst.data,
                       &nu)
        if rc == FU_WW_HOST:
            hlen = _ww_host(&nu, &host)
            if hlen == -2:
                return BAD_MEMORY
            if hlen < 0:
                if job.ww_set[k] == FU_WW_SET_HREF:
                    return _ww_fail(job, r, i)
                continue  # (a host setter's failure leaves the URL as it is)
            if fu_buf_reserve(dst, room + 2 * hlen) < 0:
                free(host)
                return BAD_MEMORY
            nu.given = host
            nu.given_len = hlen
            rc = fu_ww_set(job.ww_set[k], src.data, u, job.ww_val[k], job.ww_val_len[k],
                           dst.data, &nu)
            free(host)
        if rc != FU_WW_OK:  # (the href setter's)
            return _ww_fail(job, r, i)
        u[0] = nu
        t = src
        src = dst
        dst = t
    bad = _append(r, 0, src.data, u.len)
    if bad == BAD_NONE:
        bad = _end(job, 0, i, r.out[0].len)
    if bad == BAD_NONE:
        _valid(job, 0, i)
    return bad


cdef void _ww_href_run(Job *job, Range *r) noexcept nogil:
    # _run for OP_WW_HREF: the rows fu_ww_same takes are written in place
    # here (most rows are), by fu_ww_same_rows' loop for a string column
    # (int32 offsets in and out); any other row as _run does it.
    cdef int64_t i, n
    cdef const uint8_t *p
    cdef int got, bad
    cdef fu_ww_url u
    cdef fu_buf_t *o = &r.out[0]
    cdef bint rows = not job.large and not job.ww_base_fails
    i = r.start
    while i < r.end:
        if rows:
            i = fu_ww_col_rows(&job.col, i, r.end, o, <int32_t *>job.offsets[0], job.valid[0])
            if i == r.end:
                break
        got = fu_col_row(&job.col, i, &p, &n)
        if got == FU_ROW_VALUE and not job.ww_base_fails:
            if fu_buf_reserve(o, n + 1) < 0:  # (fu_ww_same writes n + 1 bytes at most)
                bad = BAD_MEMORY
            elif fu_ww_same(p, n, o.data + o.len, &u):
                o.len += u.len
                _set(job.valid[0], i)
                bad = _end(job, 0, i, o.len)
            else:
                bad = _ww_row(job, r, i, p, n, True)
        elif got == FU_ROW_CORRUPT:
            bad = BAD_CORRUPT
        elif got == FU_ROW_NULL:
            r.row_nulls += 1
            bad = _null(job, r, 0, i)
        else:
            bad = _ww_row(job, r, i, p, n, False)
        if bad != BAD_NONE:
            r.bad = bad
            r.bad_row = i
            return
        i += 1


cdef _Call _ww_prepare(int op, object col, int threads, int ntext, object base):
    """The call, its base parsed (by fasturi.whatwg), its href and record
    the C parser's base for every row."""
    cdef _Call call = _prepare(op, col, _check_threads(threads), ntext, 16)
    cdef bytes href
    cdef fu_ww_url *b = &call.job.ww_b
    if base is None:
        return call
    try:
        url = _whatwg_c.parse(base)
    except InvalidURL:
        call.job.ww_base_fails = True
        return call
    href = url.href.encode("ascii")  # (an href is ASCII)
    call.keep = href
    call.job.ww_base = <const uint8_t *><const char *>href
    (b.len, b.scheme_end, b.user_start, b.user_end, b.pass_start, b.pass_end, b.host_start,
     b.host_end, b.path_start, b.path_end, b.query_start, b.frag_start, b.port,
     b.scheme) = _whatwg_c._parts(url)
    return call


def whatwg_href(col, Py_ssize_t row0, int threads, base):
    cdef _Call call = _ww_prepare(OP_WW_HREF, col, threads, 1, base)
    _execute(call, row0, col)
    return _text_result(call)


# The URL class's setters (FU_WW_SET_*), by the attribute they set.
_WW_SETTERS = {
    "href": 0,
    "protocol": 1,
    "username": 2,
    "password": 3,
    "host": 4,
    "hostname": 5,
    "port": 6,
    "pathname": 7,
    "search": 8,
    "hash": 9,
}


def whatwg_replace(col, Py_ssize_t row0, int threads, changes):
    # changes: (setter name, value str) pairs, checked by the caller
    cdef _Call call = _ww_prepare(OP_WW_REPLACE, col, threads, 1, None)
    cdef int k = 0
    cdef bytes utf8
    values = []
    for name, value in changes:
        utf8 = _whatwg_c._usv_utf8(value)
        values.append(utf8)
        call.job.ww_set[k] = _WW_SETTERS[name]
        call.job.ww_val[k] = <const uint8_t *><const char *>utf8
        call.job.ww_val_len[k] = len(utf8)
        k += 1
    call.job.ww_nset = k
    call.keep = values
    _execute(call, row0, col)
    return _text_result(call)


def whatwg_can_parse(col, Py_ssize_t row0, int threads, base):
    cdef _Call call = _ww_prepare(OP_WW_CAN_PARSE, col, threads, 0, base)
    call.job.bits = _bitmap(call.length)
    _execute(call, row0, col)
    return _rule_result(call, True)


def whatwg_split(col, Py_ssize_t row0, int threads, fields, base):
    cdef int nf = len(fields), k
    cdef _Call call
    cdef ArrowSchema *s
    cdef ArrowArray *a
    if nf < 1 or nf > MAX_TEXT:
        raise ValueError("whatwg_split() needs 1 to 11 fields")
    call = _ww_prepare(OP_WW_SPLIT, col, threads, nf, base)
    for k in range(nf):
        call.job.fields[k] = _WW_FIELD_CODES[fields[k]]
    call.job.row_valid = _bitmap(call.length, True)
    _execute(call, row0, col)
    result = _struct_capsules(call, nf, &s, &a)
    for k in range(nf):
        # The names live as long as the module: _WW_FIELD_NAMES holds them.
        if fu_schema_init(s.children[k], b"U" if call.job.large else b"u",
                          _WW_FIELD_NAMES[fields[k]], 0) < 0:
            raise MemoryError()
        _text_array(call, k, a.children[k])
    return result


# ---- WHATWG URLs: the search params column (whatwg_search_params) ------------------
# Each row's URL by the same C path as above (or by fasturi.whatwg, with the
# GIL, where the C path does not take it), then its query's pairs by
# fasturi_urlencoded.h, as URL.search_params reads them.  A range keeps
# its pairs in its own buffers (SP_*, below); once every range is done,
# the calling thread lays them end to end as one list<struct<name, value>>.

from fasturi._csrc cimport fu_ue_next, fu_utf8_repair

# A range's buffers (of Range.out) for this kernel.
cdef enum:
    SP_NAMES = 0  # the names' UTF-8, one after another
    SP_VALUES  # the values'
    SP_NAME_ENDS  # int64 a pair: where its name ends in SP_NAMES
    SP_VALUE_ENDS  # int64 a pair: where its value ends in SP_VALUES
    SP_ROW_ENDS  # int64 a row: the range's pairs up to and with the row's
    SP_SCRATCH  # a piece's decoding, where that is not UTF-8


cdef inline int _push64(fu_buf_t *b, int64_t v) noexcept nogil:
    if fu_buf_reserve(b, 8) < 0:
        return BAD_MEMORY
    memcpy(b.data + b.len, &v, 8)
    b.len += 8
    return BAD_NONE


cdef int _sp_piece(Range *r, int k, const uint8_t *p, Py_ssize_t n) noexcept nogil:
    # A name (k = SP_NAMES) or value (SP_VALUES) appended to out[k]: '+' a
    # space, percent-decoded, then UTF-8 decoded with U+FFFD (as UTF-8).
    cdef fu_buf_t *o = &r.out[k]
    cdef fu_buf_t *scratch = &r.out[SP_SCRATCH]
    cdef uint32_t high = 0
    cdef Py_ssize_t m
    if fu_buf_reserve(o, n) < 0:
        return BAD_MEMORY
    m = fu_pct_decode_1(p, n, 1, o.data + o.len, &high)
    if high & 0x80 and not fu_utf8_decode(o.data + o.len, m, NULL, NULL):
        scratch.len = 0
        if fu_buf_reserve(scratch, m) < 0:
            return BAD_MEMORY
        memcpy(scratch.data, o.data + o.len, <size_t>m)
        if fu_buf_reserve(o, 3 * m) < 0:  # (each byte at most one U+FFFD)
            return BAD_MEMORY
        m = fu_utf8_repair(scratch.data, m, o.data + o.len)
    o.len += m
    return _push64(&r.out[k + 2], o.len)


cdef int _sp_pairs(Job *job, Range *r, int64_t i, const uint8_t *q,
                   Py_ssize_t n) noexcept nogil:
    # Row i's pairs: the urlencoded parse of its query q[0, n).
    cdef Py_ssize_t at = 0, a = 0, eq = 0, end = 0
    cdef int bad
    while fu_ue_next(q, n, &at, &a, &eq, &end):
        bad = _sp_piece(r, SP_NAMES, q + a, eq - a)
        if bad == BAD_NONE:
            bad = _sp_piece(r, SP_VALUES, q + eq + 1, end - eq - 1 if eq < end else 0)
        if bad != BAD_NONE:
            return bad
    _set(job.valid[0], i)
    return _push64(&r.out[SP_ROW_ENDS], r.out[SP_NAME_ENDS].len // 8)


cdef inline int _sp_null(Range *r) noexcept nogil:
    # A null row (or one that fails to parse): no pairs, not valid.
    r.nulls[0] += 1
    return _push64(&r.out[SP_ROW_ENDS], r.out[SP_NAME_ENDS].len // 8)


cdef int _sp_row(Job *job, Range *r, int64_t i, const uint8_t *p, int64_t n) noexcept nogil:
    # As _ww_row: fu_ww_same for a row written as its href, else UTF-8
    # checked and the C parser; the query is the href's, after its "?".
    cdef fu_ww_url u
    cdef int got
    cdef int64_t end
    if job.ww_base_fails:
        if not fu_is_ascii(p, n) and not fu_utf8_decode(p, n, NULL, NULL):
            return BAD_UTF8
        return _sp_null(r)
    r.tmp.len = 0
    if fu_buf_reserve(&r.tmp, n + 1) < 0:  # (fu_ww_same writes n + 1 bytes at most)
        return BAD_MEMORY
    got = fu_ww_same(p, n, r.tmp.data, &u)
    if not got:
        if not fu_is_ascii(p, n) and not fu_utf8_decode(p, n, NULL, NULL):
            return BAD_UTF8
        got = _ww_parse(p, n, job.ww_base, &job.ww_b, &r.tmp, &u)
        if got >= WW_BAD:
            return got - WW_BAD
        if got != FU_WW_OK:
            return _sp_null(r)
    if u.query_start < 0:
        return _sp_pairs(job, r, i, r.tmp.data, 0)
    end = u.frag_start if u.frag_start >= 0 else u.len
    return _sp_pairs(job, r, i, r.tmp.data + u.query_start + 1, end - u.query_start - 1)


cdef void _sp_run(Job *job, Range *r) noexcept nogil:
    cdef int64_t i, n
    cdef const uint8_t *p
    cdef int got, bad
    for i in range(r.start, r.end):
        got = fu_col_row(&job.col, i, &p, &n)
        if got == FU_ROW_CORRUPT:
            bad = BAD_CORRUPT
        elif got == FU_ROW_NULL:
            bad = _sp_null(r)
        else:
            bad = _sp_row(job, r, i, p, n)
        if bad != BAD_NONE:
            r.bad = bad
            r.bad_row = i
            return


cdef inline void _put_offset(void *offsets, bint large, int64_t k, int64_t v) noexcept nogil:
    if large:
        (<int64_t *>offsets)[k] = v
    else:
        (<int32_t *>offsets)[k] = <int32_t>v


cdef object _sp_result(_Call call):
    """The ranges' pairs as one list<struct<name, value>> array."""
    cdef Range *r
    cdef int j
    cdef bint large = call.job.large
    cdef int64_t pairs = 0, names = 0, values = 0, nulls = 0, rows, k, npairs
    cdef int64_t at_pair = 0, at_name = 0, at_value = 0
    cdef const int64_t *ends
    cdef void *bufs[5]  # list offsets, name offsets, names, value offsets, values
    cdef int32_t *list_offsets
    cdef ArrowSchema *s
    cdef ArrowArray *a
    cdef ArrowSchema *item_s
    cdef ArrowArray *item_a
    cdef const char *text = b"U" if large else b"u"
    for j in range(call.nranges):
        r = &call.ranges[j]
        pairs += r.out[SP_NAME_ENDS].len // 8
        names += r.out[SP_NAMES].len
        values += r.out[SP_VALUES].len
        nulls += r.nulls[0]
    if pairs > 0x7FFFFFFF or (not large and (names > 0x7FFFFFFF or values > 0x7FFFFFFF)):
        raise _too_long()
    bufs[0] = fu_alloc(<size_t>(call.length + 1) * 4)
    bufs[1] = fu_alloc(<size_t>(pairs + 1) * (8 if large else 4))
    bufs[2] = fu_alloc(<size_t>max(names, 1))
    bufs[3] = fu_alloc(<size_t>(pairs + 1) * (8 if large else 4))
    bufs[4] = fu_alloc(<size_t>max(values, 1))
    try:
        for j in range(5):
            if bufs[j] == NULL:
                raise MemoryError()
        list_offsets = <int32_t *>bufs[0]
        list_offsets[0] = 0
        _put_offset(bufs[1], large, 0, 0)
        _put_offset(bufs[3], large, 0, 0)
        for j in range(call.nranges):
            r = &call.ranges[j]
            npairs = r.out[SP_NAME_ENDS].len // 8
            if r.out[SP_NAMES].len:
                memcpy(<uint8_t *>bufs[2] + at_name, r.out[SP_NAMES].data,
                       <size_t>r.out[SP_NAMES].len)
            if r.out[SP_VALUES].len:
                memcpy(<uint8_t *>bufs[4] + at_value, r.out[SP_VALUES].data,
                       <size_t>r.out[SP_VALUES].len)
            ends = <const int64_t *>r.out[SP_NAME_ENDS].data
            for k in range(npairs):
                _put_offset(bufs[1], large, at_pair + k + 1, at_name + ends[k])
            ends = <const int64_t *>r.out[SP_VALUE_ENDS].data
            for k in range(npairs):
                _put_offset(bufs[3], large, at_pair + k + 1, at_value + ends[k])
            ends = <const int64_t *>r.out[SP_ROW_ENDS].data
            rows = r.end - r.start
            for k in range(rows):
                list_offsets[r.start + k + 1] = <int32_t>(at_pair + ends[k])
            at_pair += npairs
            at_name += r.out[SP_NAMES].len
            at_value += r.out[SP_VALUES].len
        s = <ArrowSchema *>calloc(1, sizeof(ArrowSchema))
        a = <ArrowArray *>calloc(1, sizeof(ArrowArray))
        if s == NULL or a == NULL or fu_schema_init(s, b"+l", b"", 1) < 0:
            free(s)
            free(a)
            raise MemoryError()
        if fu_array_init(a, call.length, nulls, 2, _take_bitmap(&call.job.valid[0], nulls),
                         bufs[0], NULL, 1) < 0:
            bufs[0] = NULL  # (taken, and released, by the failed init)
            s.release(s)
            free(s)
            free(a)
            raise MemoryError()
        bufs[0] = NULL
        result = _capsules(s, a)  # owns s and a (and their children) from here
        item_s, item_a = s.children[0], a.children[0]
        if (fu_schema_init(item_s, b"+s", b"item", 2) < 0
                or fu_schema_init(item_s.children[0], text, b"name", 0) < 0
                or fu_schema_init(item_s.children[1], text, b"value", 0) < 0):
            raise MemoryError()
        if fu_array_init(item_a, pairs, 0, 1, NULL, NULL, NULL, 2) < 0:
            raise MemoryError()
        for j in range(2):
            k = fu_array_init(item_a.children[j], pairs, 0, 3, NULL, bufs[1 + 2 * j],
                              bufs[2 + 2 * j], 0)
            bufs[1 + 2 * j] = bufs[2 + 2 * j] = NULL  # (taken, even by a failed init)
            if k < 0:
                raise MemoryError()
        return result
    finally:
        for j in range(5):
            fu_release(bufs[j])


def whatwg_search_params(col, Py_ssize_t row0, int threads, base):
    cdef _Call call = _ww_prepare(OP_WW_PARAMS, col, threads, 0, base)
    _execute(call, row0, col)
    return _sp_result(call)


# ---- what a log analyst reads out of a URI (fasturi_parts.h) ------------------------
# query_param, remove_params, path_extension and subdomain give a string per
# row, as the other kernels do; query_params and path_hierarchy a list per
# row, whose elements each range grows in its own items (fu_strs_t) and the
# join puts together, range by range on the call's threads.

cdef int _parts_row(Job *job, Range *r, int64_t i, const uint8_t *p, int64_t n) noexcept nogil:
    # query_param, remove_params, path_extension or subdomain of row i
    cdef Py_ssize_t m, at = 0, ha = 0, hb = 0
    cdef const uint8_t *res
    cdef fu_buf_t *o = &r.out[0]
    cdef int bad
    if job.op == OP_PATH_EXTENSION:
        m = fu_path_extension_1(p, n, &at)
        if m < 0:
            return _null(job, r, 0, i)
        bad = _text(job, r, 0, i, p + at, m)
        _valid(job, 0, i)
        return bad
    r.tmp.len = 0
    if fu_buf_reserve(&r.tmp, 4 * n + 4) < 0:  # (FU_FORM_ROOM)
        return BAD_MEMORY
    if job.op == OP_QUERY_PARAM:
        m = fu_query_param_1(p, n, job.name, job.nname, job.form_mode, r.tmp.data, &res)
        if m < 0:
            return _null(job, r, 0, i)
        bad = _text(job, r, 0, i, res, m)
    elif job.op == OP_REMOVE_PARAMS:
        if fu_buf_reserve(o, n) < 0:
            return BAD_MEMORY
        m = fu_remove_params_1(p, n, job.globs, job.nglobs, 0, r.tmp.data, o.data + o.len)
        if m < 0:  # no field removed: the row as it is
            bad = _text(job, r, 0, i, p, n)
        else:
            o.len += m
            bad = _end(job, 0, i, o.len)
    else:  # OP_SUBDOMAIN
        m = fu_subdomain_1(job.psl, job.psl_depth, p, n, job.psl_shift, r.tmp.data, &ha, &hb)
        if m == -2:
            return _subdomain_wide(job, r, i, p, n)
        if m < 0:
            return _null(job, r, 0, i)
        bad = _text(job, r, 0, i, r.tmp.data, m)
    _valid(job, 0, i)
    return bad


cdef int _subdomain_wide(Job *job, Range *r, int64_t i, const uint8_t *p,
                         int64_t n) noexcept with gil:
    # A host with non-ASCII bytes: str.lower folds its case, so the scalar
    # function answers for the row (rare).
    try:
        value = _parts_c.subdomain(PyUnicode_DecodeUTF8(<const char *>p, n, NULL),
                                   private=job.psl_shift != 0)
    except BaseException:
        return BAD_PYTHON
    if value is None:
        return _null(job, r, 0, i)
    return _str_text(job, r, i, value)


cdef int _list_row(Job *job, Range *r, int64_t i, const uint8_t *p, int64_t n) noexcept nogil:
    # query_params or path_hierarchy of row i (valid UTF-8): its elements
    # pushed to the range's items, its end written
    cdef Py_ssize_t a, b, at = -1, end, pos, qend, m
    cdef fu_qfield_t f
    cdef const uint8_t *res
    cdef int got = 0
    if job.op == OP_PATH_HIERARCHY:
        fu_path_range(p, n, &a, &b)
        while got == 0:
            end = fu_path_level_next(p, a, b, &at)
            if end < 0:
                break
            got = fu_strs_push(&r.items[0], p + a, end - a)
    elif fu_query_range(p, n, &pos, &qend):
        r.tmp.len = 0
        if fu_buf_reserve(&r.tmp, 4 * n + 4) < 0:  # (FU_FORM_ROOM)
            return BAD_MEMORY
        while got == 0 and fu_query_next(p, &pos, qend, &f):
            # (the key is pushed before the value is decoded into the same room)
            m = fu_query_key(p, &f, job.form_mode, r.tmp.data, &res)
            got = fu_strs_push(&r.items[0], res, m)
            if got == 0:
                m = fu_query_value(p, &f, job.form_mode, r.tmp.data, &res)
                if m < 0:
                    got = fu_strs_push_null(&r.items[1])
                else:
                    got = fu_strs_push(&r.items[1], res, m)
    if got != 0:
        return BAD_MEMORY if got == -1 else BAD_OVERFLOW
    _set(job.valid[0], i)
    return _end(job, 0, i, r.items[0].count)


cdef void _list_run(Job *job, Range *r) noexcept nogil:
    # _run for the list results: each row's end (job.offsets[0]) counts the
    # range's elements, rebased when the ranges are joined
    cdef int64_t i, n
    cdef const uint8_t *p
    cdef int got, bad
    for i in range(r.start, r.end):
        got = fu_col_row(&job.col, i, &p, &n)
        if got == FU_ROW_CORRUPT:
            bad = BAD_CORRUPT
        elif got == FU_ROW_NULL:
            r.row_nulls += 1
            bad = _end(job, 0, i, r.items[0].count)
        elif not fu_is_ascii(p, n) and not fu_utf8_decode(p, n, NULL, NULL):
            bad = BAD_UTF8
        else:
            bad = _list_row(job, r, i, p, n)
        if bad != BAD_NONE:
            r.bad = bad
            r.bad_row = i
            return


cdef inline int _list_items(Job *job) noexcept nogil:
    return 2 if job.op == OP_QUERY_PARAMS else 1


cdef inline int64_t _list_piece_start(Range *ranges, int nr, int j) noexcept nogil:
    # Where piece j of the join starts: the elements past the first range's
    # (which are in place) cut in nr, each cut a multiple of 8 so that a
    # piece owns whole bytes of the values' validity; piece nr's is the end.
    cdef int64_t first = ranges[0].items[0].count // 8 * 8
    cdef int64_t total = ranges[nr - 1].at[2] + ranges[nr - 1].items[0].count
    if j == 0:
        return first
    if j == nr:
        return total
    return first + (total - first) * j // nr // 8 * 8


cdef void _gather_list(Job *job, Range *ranges, int nr, int j) noexcept nogil:
    # Piece j of the join: the elements [lo, hi) of the column, from the
    # ranges they are in, into the first range's buffers (grown for all);
    # and range j's rows' ends counted from the column's first element.
    cdef int64_t lo = _list_piece_start(ranges, nr, j)
    cdef int64_t hi = _list_piece_start(ranges, nr, j + 1), i, e0, a, c
    cdef int q, k
    cdef Range *r
    for q in range(1, nr):
        r = &ranges[q]
        e0 = r.at[2]
        a = max(lo, e0) - e0
        c = min(hi, e0 + r.items[0].count) - e0
        for k in range(_list_items(job)):
            fu_strs_join_part(&r.items[k], a, c, e0, r.at[k], job.joined[k], job.joined[2 + k],
                              job.joined[4] if k == 1 else NULL)
    r = &ranges[j]
    if r.at[2] == 0:
        return
    for i in range(r.start + 1, r.end + 1):
        if job.large:
            (<int64_t *>job.offsets[0])[i] += r.at[2]
        else:
            (<int32_t *>job.offsets[0])[i] += <int32_t>r.at[2]


cdef int _join_list(_Call call) except -1:
    # Several ranges' elements: where each range's go (at[2] its first
    # element, at[0] and at[1] its keys' and values' first byte); the first
    # range's buffers grown for every element (its own are in place) and
    # taken as the joined ones; then every thread copies pieces of the rest.
    cdef Job *job = &call.job
    cdef int nk = _list_items(job), j, k
    cdef int64_t total = 0, w = 8 if job.large else 4, old
    cdef int64_t text[2]
    cdef Range *r
    cdef fu_strs_t *head
    text[0] = text[1] = 0
    for j in range(call.nranges):
        r = &call.ranges[j]
        r.at[2] = total
        total += r.items[0].count
        for k in range(nk):
            r.at[k] = text[k]
            text[k] += r.items[k].text.len
    if not job.large and max(total, text[0], text[1]) > 0x7FFFFFFF:
        raise _too_long()
    for k in range(nk):
        head = &call.ranges[0].items[k]
        if (fu_buf_reserve(&head.text, text[k] - head.text.len + 1) < 0
                or fu_buf_reserve(&head.offsets, (total + 1) * w - head.offsets.len) < 0):
            raise MemoryError()
        job.joined[k] = head.text.data
        job.joined[2 + k] = head.offsets.data
        head.text.data = head.offsets.data = NULL
        if k == 1:
            old = head.valid.len
            if fu_buf_reserve(&head.valid, total // 8 + 1 - old) < 0:
                raise MemoryError()
            memset(head.valid.data + old, 0, <size_t>(total // 8 + 1 - old))
            job.joined[4] = head.valid.data
            head.valid.data = NULL
    fu_shared_set(&job.stage, STAGE_JOIN)
    with nogil:
        _take_pieces(job, call.ranges, call.nranges)
        fu_shared_wait_reach(&job.pieces_done, call.nranges)
    return 0


cdef void _list_sample(Job *job, Range *r, int64_t *sizes) noexcept nogil:
    # What the range's first rows give: sizes[0] their bytes, [1] their
    # elements, [2] and [3] their keys' and values' bytes as written (the
    # levels' bytes for path_hierarchy)
    cdef int64_t i, n
    cdef Py_ssize_t a, b, at, end, pos, qend
    cdef const uint8_t *p
    cdef fu_qfield_t f
    memset(sizes, 0, 4 * sizeof(int64_t))
    for i in range(r.start, min(r.end, r.start + SAMPLE)):
        if fu_col_row(&job.col, i, &p, &n) != FU_ROW_VALUE:
            continue
        sizes[0] += n
        if job.op == OP_PATH_HIERARCHY:
            fu_path_range(p, n, &a, &b)
            at = -1
            while True:
                end = fu_path_level_next(p, a, b, &at)
                if end < 0:
                    break
                sizes[1] += 1
                sizes[2] += end - a
        elif fu_query_range(p, n, &pos, &qend):
            while fu_query_next(p, &pos, qend, &f):
                sizes[1] += 1
                sizes[2] += (f.eq if f.eq >= 0 else f.end) - f.key
                sizes[3] += f.end - f.eq - 1 if f.eq >= 0 else 0


cdef _Call _list_prepare(int op, object col, int threads):
    """The call of a list kernel: its rows' ends, and each range's items
    sized by the share its first rows' elements take of their bytes, the
    first range's for every row (so that no buffer grows, at the join
    either: a grown one is a fresh mapping to fault in, and not the size
    the next call of the same shape finds kept)."""
    cdef _Call call = _prepare(op, col, _check_threads(threads), 0, 0)
    cdef int nk = 2 if op == OP_QUERY_PARAMS else 1, j, k
    cdef int64_t total, rows, until
    cdef int64_t sizes[4]
    cdef Range *r
    call.job.offsets[0] = fu_alloc(<size_t>(call.length + 1) * (8 if call.job.large else 4))
    if call.job.offsets[0] == NULL:
        raise MemoryError()
    memset(call.job.offsets[0], 0, 8 if call.job.large else 4)
    for j in range(call.nranges):
        r = &call.ranges[j]
        _list_sample(&call.job, r, sizes)
        # the first range's items for every row: the others' join them there
        until = call.length if j == 0 else r.end
        total = fu_col_bytes(&call.job.col, r.start, until)
        rows = until - r.start
        for k in range(nk):
            # an eighth more than the sample's share, and room for odd rows
            if fu_strs_init(&r.items[k], call.job.large, k == 1,
                            _share(total, sizes[2 + k], sizes[0]) + 16 * rows // SAMPLE + 64,
                            _share(total, sizes[1], sizes[0]) + rows // 16 + 16) < 0:
                raise MemoryError()
    return call


cdef inline int64_t _share(int64_t total, int64_t part, int64_t sampled) noexcept nogil:
    # part's share of the sampled bytes, of total bytes, an eighth more
    return 0 if sampled == 0 else <int64_t>(<double>total * part / sampled * 9 / 8)


cdef object _list_result(_Call call):
    """The list column of a list kernel's rows (list<string>, or
    list<struct<key, value>> for query_params; large_list of large_string
    for a large_string column)."""
    cdef Job *job = &call.job
    cdef bint pairs = job.op == OP_QUERY_PARAMS
    cdef int nk = _list_items(job), j, k
    cdef int64_t row_nulls = 0, total = 0
    cdef fu_strs_t items[2]
    cdef ArrowSchema *s = <ArrowSchema *>calloc(1, sizeof(ArrowSchema))
    cdef ArrowArray *a = <ArrowArray *>calloc(1, sizeof(ArrowArray))
    cdef ArrowArray *item
    memset(items, 0, sizeof(items))
    if s == NULL or a == NULL or fu_list_schema_init(s, job.large, pairs) < 0:
        if s != NULL and s.release != NULL:
            s.release(s)
        free(s)
        free(a)
        raise MemoryError()
    for j in range(call.nranges):
        row_nulls += call.ranges[j].row_nulls
        total += call.ranges[j].items[0].count
    # the elements: the one range's, or the joined ones, taken from the call
    for k in range(nk):
        if call.nranges == 1:
            items[k] = call.ranges[0].items[k]
            memset(&call.ranges[0].items[k], 0, sizeof(fu_strs_t))
            continue
        items[k].large = job.large
        items[k].nullable = k == 1
        items[k].count = total
        for j in range(call.nranges):
            items[k].text.len += call.ranges[j].items[k].text.len
            items[k].nulls += call.ranges[j].items[k].nulls
        items[k].text.data = job.joined[k]
        items[k].offsets.data = job.joined[2 + k]
        job.joined[k] = job.joined[2 + k] = NULL
        if k == 1:
            items[k].valid.data = job.joined[4]
            job.joined[4] = NULL
    try:
        if fu_array_init(a, call.length, row_nulls, 2, _take_bitmap(&job.valid[0], row_nulls),
                         job.offsets[0], NULL, 1) < 0:
            job.offsets[0] = NULL
            s.release(s)
            free(s)
            free(a)
            raise MemoryError()
        job.offsets[0] = NULL
        result = _capsules(s, a)  # owns s and a (and their children) from here
        if not pairs:
            if fu_strs_array_init(a.children[0], &items[0]) < 0:
                raise MemoryError()
            return result
        item = a.children[0]
        if fu_array_init(item, total, 0, 1, NULL, NULL, NULL, 2) < 0:
            raise MemoryError()
        for k in range(2):
            if fu_strs_array_init(item.children[k], &items[k]) < 0:
                raise MemoryError()
        return result
    finally:
        fu_strs_free(&items[0])
        fu_strs_free(&items[1])


def query_param(col, Py_ssize_t row0, int threads, str name, bint decode):
    cdef bytes b = name.encode("utf-8", "surrogatepass")
    cdef _Call call = _prepare(OP_QUERY_PARAM, col, _check_threads(threads), 1, 0)
    call.keep = b
    call.job.name = <const uint8_t *><const char *>b
    call.job.nname = len(b)
    call.job.form_mode = FU_FORM_DECODE if decode else 0
    _execute(call, row0, col)
    return _text_result(call)


def query_params(col, Py_ssize_t row0, int threads, bint decode):
    cdef _Call call = _list_prepare(OP_QUERY_PARAMS, col, threads)
    call.job.form_mode = FU_FORM_DECODE if decode else 0
    _execute(call, row0, col)
    return _list_result(call)


def remove_params(col, Py_ssize_t row0, int threads, patterns):
    cdef list encoded = [p.encode("utf-8", "surrogatepass") for p in patterns]
    cdef _Call call = _prepare(OP_REMOVE_PARAMS, col, _check_threads(threads), 1, 0)
    cdef int k
    call.keep = encoded
    call.job.globs = <fu_glob_t *>calloc(max(len(encoded), 1), sizeof(fu_glob_t))
    if call.job.globs == NULL:
        raise MemoryError()
    for k in range(len(encoded)):
        call.job.globs[k].p = <const uint8_t *><const char *>encoded[k]
        call.job.globs[k].n = len(encoded[k])
    call.job.nglobs = len(encoded)
    _execute(call, row0, col)
    return _text_result(call)


def path_extension(col, Py_ssize_t row0, int threads):
    cdef _Call call = _prepare(OP_PATH_EXTENSION, col, _check_threads(threads), 1, 0)
    _execute(call, row0, col)
    return _text_result(call)


def path_hierarchy(col, Py_ssize_t row0, int threads):
    cdef _Call call = _list_prepare(OP_PATH_HIERARCHY, col, threads)
    _execute(call, row0, col)
    return _list_result(call)


def subdomain(col, Py_ssize_t row0, int threads, bint private):
    cdef _Table table = _current()
    cdef _Call call = _prepare(OP_SUBDOMAIN, col, _check_threads(threads), 1, 0)
    call.keep = table
    call.job.psl = &table.t
    call.job.psl_depth = table.depth
    call.job.psl_shift = 4 if private else 0  # the flags' whole-list nibble
    _execute(call, row0, col)
    return _text_result(call)
