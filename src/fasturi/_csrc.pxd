# The one place csrc/ is declared to Cython.  Headers are found through
# setup.py's include_dirs.  Each section belongs to one header.

from libc.stdint cimport uint8_t, uint16_t, uint32_t

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

# ---- fasturi_scan.h (split, authority, dot segments) ----
cdef extern from "fasturi_scan.h" nogil:
    ctypedef struct fu_split_t:
        Py_ssize_t scheme_end, auth_start, auth_end, path_start, path_end
        Py_ssize_t query_start, query_end, frag_start
    ctypedef struct fu_authority_t:
        Py_ssize_t userinfo_end, host_start, host_end, port_start
    void fu_split_1(const uint8_t *s, Py_ssize_t n, fu_split_t *o)
    void fu_split_2(const uint16_t *s, Py_ssize_t n, fu_split_t *o)
    void fu_split_4(const uint32_t *s, Py_ssize_t n, fu_split_t *o)
    void fu_authority_1(const uint8_t *s, Py_ssize_t a, Py_ssize_t b, fu_authority_t *o)
    void fu_authority_2(const uint16_t *s, Py_ssize_t a, Py_ssize_t b, fu_authority_t *o)
    void fu_authority_4(const uint32_t *s, Py_ssize_t a, Py_ssize_t b, fu_authority_t *o)

# ---- fasturi_pct.h (percent-encoding) ----

# ---- fasturi_rules.h (ABNF matchers) ----

# ---- fasturi_parse.h (urllib.parse helpers) ----
