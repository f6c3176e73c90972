# The one place csrc/ is declared to Cython.  Headers are found through
# setup.py's include_dirs.  Each section belongs to one header.

from libc.stdint cimport int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t

# ---- fasturi_chars.h (generated) ----
cdef extern from "fasturi_chars.h" nogil:
    const uint32_t fu_char_class[256]
    uint32_t FU_ALPHA, FU_DIGIT, FU_HEXDIG, FU_UNRESERVED, FU_GEN_DELIM
    uint32_t FU_SUB_DELIM, FU_SCHEME, FU_PCHAR, FU_SEGNC, FU_QUERY
    uint32_t FU_USERINFO, FU_REGNAME, FU_IPVFUTURE
    uint32_t FU_U2396, FU_R2396, FU_URIC2396, FU_PCHAR2396, FU_REGNAME2396
    uint32_t FU_USERINFO2396, FU_URICNS2396, FU_C0SPACE, FU_CTL
    uint32_t FU_END_AUTH, FU_END_PATH
    bint FU_IS(uint8_t c, uint32_t mask)

# ---- fasturi_base.h (what every scanner shares) ----
cdef extern from "fasturi_base.h" nogil:
    int fu_hexval(uint32_t c)
    Py_ssize_t fu_find_byte(const uint8_t *s, Py_ssize_t i, Py_ssize_t b, uint8_t c)
    bint fu_is_hex(uint32_t c)
    bint fu_lower_ascii(const uint8_t *s, size_t n, uint8_t *out)
    const char fu_hex_upper[16]
    const char fu_hex_lower[16]
    void fu_copy(uint8_t *d, const uint8_t *s, int64_t n)

# ---- fasturi_scan.h (split, authority, dot segments) ----
cdef extern from "fasturi_scan.h" nogil:
    ctypedef struct fu_split_t:
        Py_ssize_t scheme_end, auth_start, auth_end, path_start, path_end
        Py_ssize_t query_start, query_end, frag_start
    ctypedef struct fu_authority_t:
        Py_ssize_t userinfo_end, host_start, host_end, port_start
    Py_ssize_t fu_stop_1(const uint8_t *s, Py_ssize_t i, Py_ssize_t n, uint8_t a, uint8_t b,
                         uint8_t c, uint8_t d)
    void fu_split_1(const uint8_t *s, Py_ssize_t n, fu_split_t *o)
    bint fu_split_row_1(const uint8_t *s, Py_ssize_t n, bint authority, fu_split_t *o,
                        fu_authority_t *a)
    void fu_split_2(const uint16_t *s, Py_ssize_t n, fu_split_t *o)
    void fu_split_4(const uint32_t *s, Py_ssize_t n, fu_split_t *o)
    void fu_authority_1(const uint8_t *s, Py_ssize_t a, Py_ssize_t b, fu_authority_t *o)
    void fu_authority_2(const uint16_t *s, Py_ssize_t a, Py_ssize_t b, fu_authority_t *o)
    void fu_authority_4(const uint32_t *s, Py_ssize_t a, Py_ssize_t b, fu_authority_t *o)

# ---- fasturi_codec.h (the percent codec of both APIs) ----
cdef extern from "fasturi_codec.h" nogil:
    uint8_t FU_PCT_ESCAPE, FU_PCT_COPY, FU_PCT_PLUS
    void fu_pct_table_init(uint8_t *t)
    void fu_pct_table_add(uint8_t *t, uint32_t c)
    Py_ssize_t fu_pct_span_bytes(const uint8_t *s, Py_ssize_t n, const uint8_t *t)
    bint fu_pct_quote_keeps(const uint8_t *s, Py_ssize_t n, const uint8_t *slash_table, bint headed)
    Py_ssize_t fu_pct_encode_len_bytes(const uint8_t *s, Py_ssize_t n, const uint8_t *t)
    uint8_t *fu_pct_encode_bytes(const uint8_t *s, Py_ssize_t n, const uint8_t *t, uint8_t *o)
    Py_ssize_t fu_pct_span_1(const uint8_t *s, Py_ssize_t n, const uint8_t *t)
    Py_ssize_t fu_pct_span_2(const uint16_t *s, Py_ssize_t n, const uint8_t *t)
    Py_ssize_t fu_pct_span_4(const uint32_t *s, Py_ssize_t n, const uint8_t *t)
    Py_ssize_t fu_pct_encode_len_1(const uint8_t *s, Py_ssize_t n, const uint8_t *t)
    Py_ssize_t fu_pct_encode_len_2(const uint16_t *s, Py_ssize_t n, const uint8_t *t)
    Py_ssize_t fu_pct_encode_len_4(const uint32_t *s, Py_ssize_t n, const uint8_t *t)
    uint8_t *fu_pct_encode_1(const uint8_t *s, Py_ssize_t n, const uint8_t *t, uint8_t *o)
    uint8_t *fu_pct_encode_2(const uint16_t *s, Py_ssize_t n, const uint8_t *t, uint8_t *o)
    uint8_t *fu_pct_encode_4(const uint32_t *s, Py_ssize_t n, const uint8_t *t, uint8_t *o)
    Py_ssize_t fu_pct_decode_1(const uint8_t *s, Py_ssize_t n, int plus, uint8_t *o,
                               uint32_t *high)
    Py_ssize_t fu_pct_decode_2(const uint16_t *s, Py_ssize_t n, int plus, uint8_t *o,
                               uint32_t *high)
    Py_ssize_t fu_pct_decode_4(const uint32_t *s, Py_ssize_t n, int plus, uint8_t *o,
                               uint32_t *high)
    Py_ssize_t fu_pct_count(const uint8_t *s, Py_ssize_t n)

# ---- fasturi_urlencoded.h (the URL Standard's urlencoded format) ----
cdef extern from "fasturi_urlencoded.h" nogil:
    void fu_ue_table_init(uint8_t *t)
    ctypedef struct fu_ue_enc_t:
        pass
    void fu_ue_enc_init(fu_ue_enc_t *e)
    Py_ssize_t fu_ue_encode_len_1(const fu_ue_enc_t *e, const uint8_t *s, Py_ssize_t n)
    uint8_t *fu_ue_encode_1(const fu_ue_enc_t *e, const uint8_t *s, Py_ssize_t n, uint8_t *o,
                            const uint8_t *end)
    bint fu_ue_next(const uint8_t *s, Py_ssize_t n, Py_ssize_t *i, Py_ssize_t *a, Py_ssize_t *eq,
                    Py_ssize_t *end)
    Py_ssize_t fu_utf8_repair(const uint8_t *s, Py_ssize_t n, uint8_t *o)

# ---- fasturi_pct.h (percent-encoding normalization) ----
cdef extern from "fasturi_pct.h" nogil:
    int FU_NORM_PLAIN, FU_NORM_LOWER, FU_NORM_HOST
    Py_ssize_t fu_pct_norm_1(const uint8_t *s, Py_ssize_t a, Py_ssize_t b, uint8_t *out, int mode)
    Py_ssize_t fu_pct_norm_2(const uint16_t *s, Py_ssize_t a, Py_ssize_t b, uint16_t *out, int mode)
    Py_ssize_t fu_pct_norm_4(const uint32_t *s, Py_ssize_t a, Py_ssize_t b, uint32_t *out, int mode)

# ---- fasturi_dots.h (dot segments, resolution, normalization) ----
cdef extern from "fasturi_dots.h" nogil:
    int FU_RESOLVE_3986, FU_RESOLVE_2396, FU_RESOLVE_EXTRA, FU_NORMALIZE_EXTRA
    Py_ssize_t fu_dots_1(uint8_t *s, Py_ssize_t n)
    Py_ssize_t fu_dots_2(uint16_t *s, Py_ssize_t n)
    Py_ssize_t fu_dots_4(uint32_t *s, Py_ssize_t n)
    Py_ssize_t fu_dots2396_1(uint8_t *s, Py_ssize_t n)
    Py_ssize_t fu_dots2396_2(uint16_t *s, Py_ssize_t n)
    Py_ssize_t fu_dots2396_4(uint32_t *s, Py_ssize_t n)
    Py_ssize_t fu_resolve_1(const uint8_t *base, Py_ssize_t nb, const fu_split_t *b,
                            const uint8_t *ref, Py_ssize_t nr, int strict, int rfc,
                            uint8_t *out)
    Py_ssize_t fu_resolve_2(const uint16_t *base, Py_ssize_t nb, const fu_split_t *b,
                            const uint16_t *ref, Py_ssize_t nr, int strict, int rfc,
                            uint16_t *out)
    Py_ssize_t fu_resolve_4(const uint32_t *base, Py_ssize_t nb, const fu_split_t *b,
                            const uint32_t *ref, Py_ssize_t nr, int strict, int rfc,
                            uint32_t *out)
    Py_ssize_t fu_normalize_1(const uint8_t *s, Py_ssize_t n, int scheme_based, uint8_t *out)
    Py_ssize_t fu_normalize_2(const uint16_t *s, Py_ssize_t n, int scheme_based, uint16_t *out)
    Py_ssize_t fu_normalize_4(const uint32_t *s, Py_ssize_t n, int scheme_based, uint32_t *out)

# ---- fasturi_rules.h (ABNF matchers) ----
cdef extern from "fasturi_rules.h" nogil:
    int FU_R_COUNT, FU_R_3986_END, FU_R_URI_REFERENCE
    int FU_HOST_NONE, FU_HOST_IPV6, FU_HOST_IPVFUTURE, FU_HOST_IPV4, FU_HOST_REG_NAME
    const char *fu_rule_names[]
    uint8_t fu_code_class(uint32_t c)
    void fu_classify_1(const uint8_t *src, Py_ssize_t n, uint8_t *dst)
    void fu_classify_2(const uint16_t *src, Py_ssize_t n, uint8_t *dst)
    void fu_classify_4(const uint32_t *src, Py_ssize_t n, uint8_t *dst)
    Py_ssize_t fu_rule_check(int rule, const uint8_t *s, Py_ssize_t n)
    int fu_host_type(const uint8_t *s, Py_ssize_t n)

# ---- fasturi_parse.h (urllib.parse helpers) ----
cdef extern from "fasturi_parse.h" nogil:
    ctypedef struct fu_usplit_t:
        Py_ssize_t scheme_end, netloc_start, netloc_end, path_start, path_end
        Py_ssize_t query_start, query_end, frag_start
        int flags
    int FU_US_SLOW, FU_US_OPEN_BR, FU_US_CLOSE_BR, FU_US_NETLOC_WIDE
    int FU_US_WIDE, FU_US_SCHEME_UPPER, FU_US_SEMICOLON
    void fu_usplit_1(const uint8_t *s, Py_ssize_t n, int alpha_first, int allow_frag,
                     fu_usplit_t *o)
    void fu_usplit_2(const uint16_t *s, Py_ssize_t n, int alpha_first, int allow_frag,
                     fu_usplit_t *o)
    void fu_usplit_4(const uint32_t *s, Py_ssize_t n, int alpha_first, int allow_frag,
                     fu_usplit_t *o)
    Py_ssize_t fu_params_1(const uint8_t *s, Py_ssize_t start, Py_ssize_t end)
    Py_ssize_t fu_params_2(const uint16_t *s, Py_ssize_t start, Py_ssize_t end)
    Py_ssize_t fu_params_4(const uint32_t *s, Py_ssize_t start, Py_ssize_t end)
    Py_ssize_t fu_count_1(const uint8_t *s, Py_ssize_t start, Py_ssize_t end, uint32_t unit)
    Py_ssize_t fu_count_2(const uint16_t *s, Py_ssize_t start, Py_ssize_t end, uint32_t unit)
    Py_ssize_t fu_count_4(const uint32_t *s, Py_ssize_t start, Py_ssize_t end, uint32_t unit)

# ---- fasturi_quote.h (urllib.parse quote family, beyond the codec) ----
cdef extern from "fasturi_quote.h" nogil:
    uint32_t FU_QS_PCT, FU_QS_PLUS, FU_QS_WIDE
    Py_ssize_t fu_q_ascii_end_1(const uint8_t *s, Py_ssize_t i, Py_ssize_t n)
    Py_ssize_t fu_q_ascii_end_2(const uint16_t *s, Py_ssize_t i, Py_ssize_t n)
    Py_ssize_t fu_q_ascii_end_4(const uint32_t *s, Py_ssize_t i, Py_ssize_t n)
    Py_ssize_t fu_q_nonascii_end_1(const uint8_t *s, Py_ssize_t i, Py_ssize_t n)
    Py_ssize_t fu_q_nonascii_end_2(const uint16_t *s, Py_ssize_t i, Py_ssize_t n)
    Py_ssize_t fu_q_nonascii_end_4(const uint32_t *s, Py_ssize_t i, Py_ssize_t n)
    Py_ssize_t fu_qs_field_1(const uint8_t *s, Py_ssize_t i, Py_ssize_t n, uint32_t sep,
                             Py_ssize_t *eq, uint32_t *flags)
    Py_ssize_t fu_qs_field_2(const uint16_t *s, Py_ssize_t i, Py_ssize_t n, uint32_t sep,
                             Py_ssize_t *eq, uint32_t *flags)
    Py_ssize_t fu_qs_field_4(const uint32_t *s, Py_ssize_t i, Py_ssize_t n, uint32_t sep,
                             Py_ssize_t *eq, uint32_t *flags)
    void fu_q_narrow_1(const uint8_t *s, Py_ssize_t n, int plus, uint8_t *o)
    void fu_q_narrow_2(const uint16_t *s, Py_ssize_t n, int plus, uint8_t *o)
    void fu_q_narrow_4(const uint32_t *s, Py_ssize_t n, int plus, uint8_t *o)

# ---- fasturi_narrow.h (ASCII runs of wide text as bytes) ----
cdef extern from "fasturi_narrow.h" nogil:
    int fu_narrow_ascii_2(const uint16_t *s, Py_ssize_t n, uint8_t *out)
    int fu_narrow_ascii_4(const uint32_t *s, Py_ssize_t n, uint8_t *out)

# ---- fasturi_extract.h (URIs in running text) ----
cdef extern from "fasturi_extract.h" nogil:
    int FU_EXT_BARE, FU_EXT_WRAPPED, FU_EXT_WWW, FU_EXT_FTP
    ctypedef struct fu_ext_state_t:
        Py_ssize_t pos, floor
        int abbreviated
    ctypedef struct fu_ext_match_t:
        Py_ssize_t start, end
        int kind
    int fu_extract_next_1(const uint8_t *s, Py_ssize_t n, fu_ext_state_t *st, fu_ext_match_t *m)
    int fu_extract_next_2(const uint16_t *s, Py_ssize_t n, fu_ext_state_t *st, fu_ext_match_t *m)
    int fu_extract_next_4(const uint32_t *s, Py_ssize_t n, fu_ext_state_t *st, fu_ext_match_t *m)

# ---- fasturi_arrow.h (Arrow C Data Interface columns) ----
cdef extern from "fasturi_arrow.h" nogil:
    struct ArrowSchema:
        const char *format
        const char *name
        int64_t n_children
        ArrowSchema **children
        void (*release)(ArrowSchema *)
    struct ArrowArray:
        int64_t length
        int64_t null_count
        int64_t offset
        int64_t n_buffers
        int64_t n_children
        const void **buffers
        ArrowArray **children
        void (*release)(ArrowArray *)
    int FU_ROW_NULL, FU_ROW_VALUE, FU_ROW_CORRUPT
    int FU_COL_VIEW
    ctypedef struct fu_col_t:
        int type
        int64_t length
    ctypedef struct fu_buf_t:
        uint8_t *data
        int64_t len, cap
    int fu_col_open(const ArrowSchema *schema, const ArrowArray *array, fu_col_t *c,
                    const char **why)
    int fu_col_row(const fu_col_t *c, int64_t i, const uint8_t **p, int64_t *n)
    int fu_col_valid(const fu_col_t *c, int64_t i)
    int fu_is_ascii(const uint8_t *s, int64_t n)
    int fu_utf8_decode(const uint8_t *s, int64_t n, uint32_t *out, int64_t *count)
    int fu_utf8_valid(const uint8_t *s, int64_t n)
    int fu_buf_reserve(fu_buf_t *b, int64_t more)
    void fu_copy_over(uint8_t *d, const uint8_t *s, int64_t n)
    const uint8_t *fu_col_text_end(const fu_col_t *c)
    int64_t fu_col_bytes(const fu_col_t *c, int64_t a, int64_t b)
    int fu_array_init(ArrowArray *a, int64_t length, int64_t null_count, int64_t n_buffers,
                      void *b0, void *b1, void *b2, int64_t n_children)
    int fu_schema_init(ArrowSchema *s, const char *format, const char *name, int64_t n_children)
    void fu_array_keep(ArrowArray *a, ArrowArray *input)
    void *fu_alloc(size_t size)
    void *fu_grow(void *p, size_t size)
    void fu_release(void *p)
    void fu_view_set(uint8_t *v, const uint8_t *p, int64_t n, int32_t idx, const uint8_t *base)
    void fu_col_row_buffer(const fu_col_t *c, int64_t i, int64_t n, int32_t *idx,
                           const uint8_t **base)
    int fu_col_viewable(const fu_col_t *c)
    int fu_view_array_init(ArrowArray *a, int64_t length, int64_t null_count, void *validity,
                           void *views, const fu_col_t *c)
    ctypedef struct fu_strs_t:
        fu_buf_t text, offsets, valid
        int64_t count, nulls
        int large, nullable
    int fu_strs_init(fu_strs_t *b, int large, int nullable, int64_t text_room,
                     int64_t items_room)
    void fu_strs_free(fu_strs_t *b)
    int fu_strs_push(fu_strs_t *b, const uint8_t *p, int64_t n)
    int fu_strs_push_null(fu_strs_t *b)
    void fu_strs_join_part(const fu_strs_t *b, int64_t a, int64_t c, int64_t e0, int64_t t0,
                           uint8_t *text, void *offsets, uint8_t *valid)
    int fu_list_schema_init(ArrowSchema *s, int large, int pairs)
    int fu_strs_array_init(ArrowArray *a, fu_strs_t *b)

# ---- fasturi_shared.h (atomics; a table readers use without a lock) ----
cdef extern from "fasturi_shared.h" nogil:
    int64_t fu_shared_add(int64_t *p, int64_t v)
    int64_t fu_shared_get(int64_t *p)
    void fu_shared_set(int64_t *p, int64_t v)
    int64_t fu_shared_swap(int64_t *p, int64_t v)
    int64_t fu_shared_wait_change(int64_t *p, int64_t value)
    void fu_shared_wait_reach(int64_t *p, int64_t value)
    ctypedef struct fu_guard_t:
        pass
    int fu_guard_enter(fu_guard_t *g)
    void fu_guard_leave(fu_guard_t *g, int slot)
    void fu_guard_wait(fu_guard_t *g)


# ---- fasturi_canon.h (canonicalize over UTF-8) ----


cdef extern from "fasturi_canon.h" nogil:
    ctypedef struct fu_drop_rule_t:
        const uint8_t *ptr
        Py_ssize_t size
        int prefix
    ctypedef struct fu_field_t:
        Py_ssize_t start, end
    Py_ssize_t fu_canon_key(const uint8_t *t, Py_ssize_t n, int sort_query, int drop_fragment,
                            const fu_drop_rule_t *rules, int nrules, Py_ssize_t longest,
                            uint8_t *scratch, fu_field_t **fields, Py_ssize_t *cap,
                            uint8_t *out)

# ---- fasturi_psl.h (Public Suffix List rule set) ----
cdef extern from "fasturi_psl.h" nogil:
    int FU_PSL_EXACT, FU_PSL_WILD, FU_PSL_EXCEPT, FU_PSL_LONGER
    unsigned long long FU_PSL_HASH0
    int FU_PSL_MAX_DEPTH
    ctypedef struct fu_psl_slot_t:
        uint32_t hash, off
        uint16_t len
        uint8_t flags
    ctypedef struct fu_psl_t:
        fu_psl_slot_t *slots
        size_t mask
        const uint8_t *keys
    unsigned long long fu_psl_step(unsigned long long h, uint8_t c)
    int fu_psl_find(const fu_psl_t *t, unsigned long long h, const uint8_t *s, size_t n)
    void fu_psl_insert(fu_psl_t *t, uint32_t off, uint32_t len, uint8_t flags)
    bint fu_psl_host_range(const uint8_t *s, Py_ssize_t n, Py_ssize_t *start, Py_ssize_t *end)
    int fu_psl_lookup(const fu_psl_t *t, int depth, const uint8_t *h, Py_ssize_t n, uint8_t *out,
                      int shift, Py_ssize_t *suffix_at, Py_ssize_t *domain_at)

# ---- fasturi_xxh64.h (XXH64) ----
cdef extern from "fasturi_xxh64.h" nogil:
    unsigned long long fu_xxh64(const uint8_t *p, size_t n, unsigned long long seed)

# ---- fasturi_w3lib.h (canonicalize(preset="w3lib")'s plain paths) ----
cdef extern from "fasturi_w3lib.h" nogil:
    bint fu_w3_kept(uint8_t c)
    Py_ssize_t fu_w3_plain(const uint8_t *s, Py_ssize_t n, Py_ssize_t *last_slash, int *dots)

# ---- fasturi_surt.h (surt's escaping) ----
cdef extern from "fasturi_surt.h" nogil:
    Py_ssize_t fu_surt_copy_to_stop(const uint8_t *s, Py_ssize_t n, uint8_t *o, unsigned *high)
    Py_ssize_t fu_surt_escape_lower(const uint8_t *s, Py_ssize_t n, uint8_t *o)
    Py_ssize_t fu_surt_escape_plain_path(const uint8_t *s, Py_ssize_t n, uint8_t *o)
    Py_ssize_t fu_surt_plain_host(const uint8_t *h, Py_ssize_t n, uint8_t *o)
    Py_ssize_t fu_surt_reverse_labels(const uint8_t *h, Py_ssize_t n, uint8_t *o)

# ---- fasturi_cli.h (the command line's TSV escaping, audit's prefilter) ----
cdef extern from "fasturi_cli.h" nogil:
    int64_t fu_tsv_escape(uint8_t *o, const uint8_t *p, int64_t n)
    uint8_t *fu_tsv_copy_plain(uint8_t *o, const uint8_t *p, int64_t n)
    int fu_audit_scope(const uint8_t *p, int64_t n)

# ---- fasturi_whatwg.h (the URL Standard: parser, host parser, setters) ----
cdef extern from "fasturi_whatwg.h" nogil:
    ctypedef struct fu_ww_url:
        Py_ssize_t len, scheme_end, user_start, user_end, pass_start, pass_end
        Py_ssize_t host_start, host_end, path_start, path_end
        Py_ssize_t query_start, frag_start
        int32_t port
        int scheme
        int error
        const uint8_t *need
        Py_ssize_t need_len
        const uint8_t *given
        Py_ssize_t given_len
    unsigned FU_WW_FRAG, FU_WW_QUERY, FU_WW_SQUERY, FU_WW_PATH, FU_WW_USERINFO
    enum:
        FU_WW_OTHER, FU_WW_HTTP, FU_WW_HTTPS, FU_WW_WS, FU_WW_WSS, FU_WW_FTP, FU_WW_FILE,
        FU_WW_BLOB
    enum:
        FU_WW_OK, FU_WW_FAIL, FU_WW_HOST
    enum:
        FU_WW_E_NONE, FU_WW_E_COUNT
    const uint8_t fu_ww_enc[256]
    const char *fu_ww_error_name(int e)
    const char *fu_ww_error_detail(int e)
    void fu_ww_init()
    Py_ssize_t fu_ww_room(Py_ssize_t n, Py_ssize_t base_len)
    Py_ssize_t fu_ww_usv_room(Py_ssize_t n)
    Py_ssize_t fu_ww_usv_1(const uint8_t *s, Py_ssize_t n, uint8_t *out)
    Py_ssize_t fu_ww_usv_2(const uint16_t *s, Py_ssize_t n, uint8_t *out)
    Py_ssize_t fu_ww_usv_4(const uint32_t *s, Py_ssize_t n, uint8_t *out)
    int fu_ww_utf8_ok(const uint8_t *s, Py_ssize_t n)
    Py_ssize_t fu_ww_utf8_fix(const uint8_t *s, Py_ssize_t n, uint8_t *out)
    int fu_ww_parse(const uint8_t *s, Py_ssize_t n, const uint8_t *base, const fu_ww_url *b,
                    uint8_t *out, fu_ww_url *u)
    int fu_ww_parse_rest(const uint8_t *s, Py_ssize_t n, const uint8_t *base, const fu_ww_url *b,
                         uint8_t *out, fu_ww_url *u)
    enum:
        FU_WW_SET_HREF
    Py_ssize_t fu_ww_set_room(Py_ssize_t hn, Py_ssize_t vn)
    int fu_ww_set(int which, const uint8_t *href, const fu_ww_url *u, const uint8_t *v,
                  Py_ssize_t vn, uint8_t *out, fu_ww_url *nu)
    ctypedef Py_ssize_t (*fu_ww_idna_t)(const uint8_t *s, Py_ssize_t n, uint8_t *out,
                                        Py_ssize_t cap) noexcept nogil
    fu_ww_idna_t fu_ww_idna
    int fu_ww_host(const uint8_t *h, Py_ssize_t n, int opaque, uint8_t *out, Py_ssize_t *po,
                   fu_ww_url *u)
    int fu_ww_host_alone(const uint8_t *h, Py_ssize_t n, uint8_t **host, Py_ssize_t *len,
                         fu_ww_url *u)
    enum:
        FU_WW_IDNA_NOMEM
    int fu_ww_parse_given(const uint8_t *s, Py_ssize_t n, const uint8_t *base, const fu_ww_url *b,
                          const uint8_t *host, Py_ssize_t host_len, uint8_t *out, fu_ww_url *u)

# ---- fasturi_idna.h (UTS #46 as the URL Standard runs it) ----
cdef extern from "fasturi_idna.h" nogil:
    unsigned FU_IDNA_STRICT, FU_IDNA_PERCENT
    Py_ssize_t FU_IDNA_FAIL, FU_IDNA_NOMEM
    const char *FU_IDNA_UNICODE_VERSION
    Py_ssize_t fu_idna_domain_to_ascii(const uint8_t *s, size_t n, unsigned flags,
                                       uint8_t *out, size_t cap)
    Py_ssize_t fu_idna_domain_to_unicode(const uint8_t *s, size_t n, uint8_t *out, size_t cap)

# ---- fasturi_idna2003.h (Python's idna codec, IDNA 2003) ----
cdef extern from "fasturi_idna2003.h" nogil:
    unsigned FU_IDNA2003_W3LIB
    Py_ssize_t FU_IDNA_PYTHON
    Py_ssize_t fu_idna2003_to_ascii(const uint8_t *s, size_t n, unsigned flags,
                                    uint8_t *out, size_t cap)
    Py_ssize_t fu_idna2003_nfkc_delims(const uint8_t *s, size_t n)

# ---- fasturi_parts.h (query fields, path extension and levels, subdomain) ----
cdef extern from "fasturi_parts.h" nogil:
    int FU_FORM_DECODE, FU_FORM_UNCHECKED
    ctypedef struct fu_qfield_t:
        Py_ssize_t key, eq, end
        int escaped
    ctypedef struct fu_glob_t:
        const uint8_t *p
        Py_ssize_t n
    int fu_utf8_seq(const uint8_t *s, Py_ssize_t n, int *bad)
    Py_ssize_t fu_utf8_replace(const uint8_t *s, Py_ssize_t n, uint8_t *out)
    Py_ssize_t fu_form_decode(const uint8_t *p, Py_ssize_t n, int mode, uint8_t *out,
                              const uint8_t **res)
    bint fu_query_range(const uint8_t *s, Py_ssize_t n, Py_ssize_t *a, Py_ssize_t *b)
    bint fu_query_next(const uint8_t *s, Py_ssize_t *pos, Py_ssize_t qend, fu_qfield_t *f)
    Py_ssize_t fu_query_key(const uint8_t *s, const fu_qfield_t *f, int mode, uint8_t *scratch,
                            const uint8_t **res)
    Py_ssize_t fu_query_value(const uint8_t *s, const fu_qfield_t *f, int mode,
                              uint8_t *scratch, const uint8_t **res)
    Py_ssize_t fu_query_param_1(const uint8_t *s, Py_ssize_t n, const uint8_t *name,
                                Py_ssize_t nn, int mode, uint8_t *out, const uint8_t **res)
    bint fu_glob_match(const fu_glob_t *g, const uint8_t *k, Py_ssize_t kn)
    Py_ssize_t fu_remove_params_1(const uint8_t *s, Py_ssize_t n, const fu_glob_t *globs, int ng,
                                  int unchecked, uint8_t *scratch, uint8_t *out)
    void fu_path_range(const uint8_t *s, Py_ssize_t n, Py_ssize_t *a, Py_ssize_t *b)
    Py_ssize_t fu_path_extension_1(const uint8_t *s, Py_ssize_t n, Py_ssize_t *at)
    Py_ssize_t fu_path_level_next(const uint8_t *s, Py_ssize_t a, Py_ssize_t b, Py_ssize_t *at)
    Py_ssize_t fu_subdomain_host(const fu_psl_t *t, int depth, const uint8_t *h, Py_ssize_t hn,
                                 int shift, uint8_t *out)
    Py_ssize_t fu_subdomain_1(const fu_psl_t *t, int depth, const uint8_t *s, Py_ssize_t n,
                              int shift, uint8_t *out, Py_ssize_t *ha, Py_ssize_t *hb)
