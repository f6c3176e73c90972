"""The key of w3lib.url.canonicalize_url, compiled: the twin of _w3lib_py.key.

_w3lib_py's docstring states the steps.  The C here takes every input; an
authority it leaves aside (an IP literal but a plain IPv6 address, a bad
port, a host whose IDNA is the running Python's or that IDNA refuses) is
written by _w3lib.netloc, the step both twins share, and text with a lone
surrogate raises by _w3lib.split and netloc's order.  Non-ASCII hosts go
through IDNA 2003 in C (_idna_c).  The steps fold into two passes:

* path: w3lib quotes the unsafe characters, then decodes every escape but
  %25 %2F %3B %3F and quotes again with "[", "]" and "|" safe.  A
  character quoted by the first pass is decoded by the second (none of
  the four kept escapes is unsafe), so one pass over the text decodes the
  escapes, keeps the four, and quotes what is unsafe in the second pass.
  The ";params" of the last segment are split off in between, so they get
  the first pass only.
* query: the first quoting is undone by the decoding of each field (a
  "%" it writes can never complete an earlier partial escape, "%" not
  being a hex digit), so each field is decoded from the text as written.
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc
from cpython.unicode cimport PyUnicode_DecodeUTF8
from libc.stdint cimport uint8_t, uint32_t
from libc.string cimport memchr, memcmp, memcpy, memmove

from fasturi._capi cimport (
    PyUnicode_DATA,
    PyUnicode_GET_LENGTH,
    PyUnicode_IS_ASCII,
    PyUnicode_New,
)
from fasturi._csrc cimport (
    FU_IDNA2003_W3LIB,
    fu_dots_1,
    fu_find_byte,
    fu_hex_lower,
    fu_hex_upper,
    fu_hexval,
    fu_is_ascii,
    fu_pct_decode_1,
    fu_stop_1,
    fu_w3_kept,
    fu_w3_plain,
)

from fasturi._idna_c cimport idna2003_nfkc_delims, idna2003_to_ascii

from fasturi import _w3lib

__all__ = ["key"]

cdef enum:
    STACK = 8192
    # which characters a pass keeps (bits of _SAFE)
    PATH = 1  # the first quoting of the path (and of the fragment)
    PATH_AGAIN = 2  # the second quoting of the path
    FIELD = 4  # a query field's name or value (unreserved)
    USERINFO = 8  # user and password

cdef uint8_t _SAFE[256]
for _c in _w3lib.PATH_SAFE:
    _SAFE[_c] |= PATH
for _c in _w3lib.PATH_SAFE_AGAIN:
    _SAFE[_c] |= PATH_AGAIN
for _c in _w3lib.FIELD_SAFE:
    _SAFE[_c] |= FIELD
for _c in _w3lib.USERINFO_SAFE:
    _SAFE[_c] |= USERINFO

# fasturi_w3lib.h spells the path's kept characters out for its SIMD scan:
# they must be the first quoting's safe set without "%".
for _c in range(256):
    if fu_w3_kept(_c) != (bool(_SAFE[_c] & PATH) and _c != 37):
        raise ImportError(f"fasturi_w3lib.h and _w3lib.PATH_SAFE disagree on byte {_c}")

ctypedef struct _Pair:
    Py_ssize_t name, name_len, value, value_len  # offsets into the decoded text
    bint plain  # written as it was: unreserved characters only


# What each pass writes for a byte: the byte, or its "%XX" (a query
# field's space: "+"), as 4 bytes to copy at once and the count that
# counts; one row per pass, in the order of the bits of _SAFE.
cdef uint8_t _OUT[4][256][4]
cdef uint8_t _OUT_LEN[4][256]
for _row, _mask in enumerate((PATH, PATH_AGAIN, FIELD, USERINFO)):
    for _c in range(256):
        if _SAFE[_c] & _mask or (_mask == FIELD and _c == 32):
            _OUT[_row][_c][0] = 43 if _c == 32 else _c
            _OUT_LEN[_row][_c] = 1
        else:
            _OUT[_row][_c][0] = 37
            _OUT[_row][_c][1] = fu_hex_upper[_c >> 4]
            _OUT[_row][_c][2] = fu_hex_upper[_c & 15]
            _OUT_LEN[_row][_c] = 3


cdef inline Py_ssize_t _put(uint8_t c, uint8_t *o, Py_ssize_t j, int mask) noexcept nogil:
    # o has 3 bytes of room past what is written: 4 are always copied
    cdef int row = 0 if mask == PATH else 1 if mask == PATH_AGAIN else 2 if mask == FIELD else 3
    memcpy(o + j, _OUT[row][c], 4)
    return j + _OUT_LEN[row][c]


cdef Py_ssize_t _quote(const uint8_t *s, Py_ssize_t n, uint8_t *o, int mask) noexcept nogil:
    cdef Py_ssize_t i, j = 0
    for i in range(n):
        j = _put(s[i], o, j, mask)
    return j


cdef Py_ssize_t _path(const uint8_t *s, Py_ssize_t n, uint8_t *o) noexcept nogil:
    # the path's two passes in one (see the module docstring)
    cdef Py_ssize_t i = 0, j = 0
    cdef int hi, lo, byte
    while i < n:
        if s[i] == 37 and i + 2 < n:
            hi = fu_hexval(s[i + 1])
            lo = fu_hexval(s[i + 2])
            if hi >= 0 and lo >= 0:
                byte = hi * 16 + lo
                if byte == 0x25 or byte == 0x2F or byte == 0x3B or byte == 0x3F:
                    j = _put(37, o, j, PATH_AGAIN)  # kept: "%" is safe
                    o[j] = s[i + 1] & ~32 if s[i + 1] >= 97 else s[i + 1]
                    o[j + 1] = s[i + 2] & ~32 if s[i + 2] >= 97 else s[i + 2]
                    j += 2
                else:
                    j = _put(<uint8_t>byte, o, j, PATH_AGAIN)
                i += 3
                continue
        j = _put(s[i], o, j, PATH_AGAIN)
        i += 1
    return j


cdef bint _dot_segment(const uint8_t *s, Py_ssize_t n) noexcept nogil:
    # whether a "/." (where every dot segment starts, in a path beginning
    # with "/") occurs: a few memchr jumps for the usual path
    cdef const uint8_t *p = s
    cdef const uint8_t *end = s + n
    while p < end:
        p = <const uint8_t *>memchr(p, 46, <size_t>(end - p))
        if p == NULL:
            return False
        if p > s and (p - 1)[0] == 47:
            return True
        p += 1
    return False


cdef inline Py_ssize_t _span(const uint8_t *s, Py_ssize_t n, int mask) noexcept nogil:
    # the length of the run of characters the mask keeps at s
    cdef Py_ssize_t i = 0
    while i < n and _SAFE[s[i]] & mask:
        i += 1
    return i


cdef inline Py_ssize_t _unquote(const uint8_t *s, Py_ssize_t n, bint plus,
                                uint8_t *o) noexcept nogil:
    cdef uint32_t high = 0
    return fu_pct_decode_1(s, n, plus, o, &high)


cdef inline int _bytes_cmp(const uint8_t *a, Py_ssize_t na, const uint8_t *b,
                           Py_ssize_t nb) noexcept nogil:
    cdef int r = memcmp(a, b, <size_t>(na if na < nb else nb))
    if r:
        return r
    return (na > nb) - (na < nb)


cdef inline int _pair_cmp(const uint8_t *d, const _Pair *x, const _Pair *y) noexcept nogil:
    cdef int r = _bytes_cmp(d + x.name, x.name_len, d + y.name, y.name_len)
    if r:
        return r
    return _bytes_cmp(d + x.value, x.value_len, d + y.value, y.value_len)


cdef void _sort(const uint8_t *d, _Pair *p, _Pair *tmp, Py_ssize_t n) noexcept nogil:
    # stable merge sort; insertion sort for short runs
    cdef Py_ssize_t i, k, mid, a, b
    cdef _Pair x
    if n <= 12:
        for i in range(1, n):
            x = p[i]
            k = i
            while k > 0 and _pair_cmp(d, &p[k - 1], &x) > 0:
                p[k] = p[k - 1]
                k -= 1
            p[k] = x
        return
    mid = n // 2
    _sort(d, p, tmp, mid)
    _sort(d, p + mid, tmp, n - mid)
    if _pair_cmp(d, &p[mid - 1], &p[mid]) <= 0:
        return
    memcpy(tmp, p, <size_t>mid * sizeof(_Pair))
    a = 0
    b = mid
    k = 0
    while a < mid and b < n:
        if _pair_cmp(d, &p[b], &tmp[a]) < 0:
            p[k] = p[b]
            b += 1
        else:
            p[k] = tmp[a]
            a += 1
        k += 1
    while a < mid:
        p[k] = tmp[a]
        a += 1
        k += 1


cdef Py_ssize_t _query(const uint8_t *s, Py_ssize_t n, uint8_t *o, uint8_t *d,
                       _Pair *pairs) noexcept nogil:
    """The sorted, re-encoded fields of the query s into o; d and pairs are
    scratch (n bytes; n / 2 + 2 pairs, twice)."""
    cdef Py_ssize_t i = 0, a, eq, count = 0, dn = 0, j = 0, k
    cdef bint plain
    while i <= n:
        a = i
        i = fu_find_byte(s, i, n, 38)  # "&"
        if i > a:  # an empty field is dropped
            # a field of unreserved characters (and its "=") decodes and
            # encodes to itself: it is copied
            eq = a + _span(s + a, i - a, FIELD)
            plain = eq == i or (s[eq] == 61 and _span(s + eq + 1, i - eq - 1, FIELD) == i - eq - 1)
            if not plain:
                eq = fu_find_byte(s, eq, i, 61)  # "="
            pairs[count].plain = plain
            pairs[count].name = dn
            if plain:
                memcpy(d + dn, s + a, <size_t>(i - a))
                pairs[count].name_len = eq - a
                pairs[count].value_len = i - eq - 1 if eq < i else 0
                pairs[count].value = dn + eq + 1 - a
                dn += i - a
            else:
                pairs[count].name_len = _unquote(s + a, eq - a, True, d + dn)
                dn += pairs[count].name_len
                pairs[count].value = dn
                pairs[count].value_len = (_unquote(s + eq + 1, i - eq - 1, True, d + dn)
                                          if eq < i else 0)
                dn += pairs[count].value_len
            count += 1
        i += 1
    _sort(d, pairs, pairs + count, count)
    for k in range(count):
        if k:
            o[j] = 38
            j += 1
        if pairs[k].plain:
            memcpy(o + j, d + pairs[k].name, <size_t>pairs[k].name_len)
            j += pairs[k].name_len
            o[j] = 61
            j += 1
            memcpy(o + j, d + pairs[k].value, <size_t>pairs[k].value_len)
            j += pairs[k].value_len
            continue
        for i in range(pairs[k].name, pairs[k].name + pairs[k].name_len):
            j = _put(d[i], o, j, FIELD)  # a space as "+"
        o[j] = 61
        j += 1
        for i in range(pairs[k].value, pairs[k].value + pairs[k].value_len):
            j = _put(d[i], o, j, FIELD)  # a space as "+"
    return j


# The schemes w3lib treats apart (lowercase): bit 1 special (a backslash
# is a slash), 2 uses params, 4 uses a netloc.
cdef enum:
    SPECIAL = 1
    PARAMS = 2
    NETLOC = 4

_SCHEMES = tuple(sorted(
    name.encode("ascii") for name in _w3lib.SPECIAL | _w3lib.USES_PARAMS | _w3lib.USES_NETLOC
    if name
))
cdef const char *_NAMES[64]
cdef Py_ssize_t _SIZES[64]
cdef int _FLAGS[64]
cdef Py_ssize_t _COUNT = len(_SCHEMES)


cdef void _fill_schemes():
    cdef Py_ssize_t i
    cdef bytes name
    for i in range(_COUNT):
        name = _SCHEMES[i]
        _NAMES[i] = <const char *>name  # _SCHEMES keeps the bytes alive
        _SIZES[i] = len(name)
        text = name.decode("ascii")
        _FLAGS[i] = ((SPECIAL if text in _w3lib.SPECIAL else 0)
                     | (PARAMS if text in _w3lib.USES_PARAMS else 0)
                     | (NETLOC if text in _w3lib.USES_NETLOC else 0))


_fill_schemes()


cdef int _scheme_flags(const uint8_t *lower, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t i
    for i in range(_COUNT):
        if _SIZES[i] == n and memcmp(lower, _NAMES[i], <size_t>n) == 0:
            return _FLAGS[i]
    return 0


# no scheme: "" (a scheme of params; urlunsplit's "//" before a path is
# for named netloc schemes only)
cdef int _EMPTY = PARAMS if "" in _w3lib.USES_PARAMS else 0

# most URLs are http or https: _fast takes their flags without the search
cdef int _HTTP = _scheme_flags(<const uint8_t *>b"http", 4)
cdef int _HTTPS = _scheme_flags(<const uint8_t *>b"https", 5)


cdef Py_ssize_t _userinfo(const uint8_t *s, Py_ssize_t n, uint8_t *o, uint8_t *d) noexcept nogil:
    # decoded (no "+" rule), then quoted with the userinfo's safe set
    cdef Py_ssize_t i, k = _unquote(s, n, False, d), j = 0
    for i in range(k):
        j = _put(d[i], o, j, USERINFO)
    return j


# How this Python's ipaddress writes an IPv4-mapped address: newer patch
# releases (3.13.x, 3.14) give its last 32 bits as a dotted quad.
import ipaddress

cdef bint _MAPPED_DOTTED = str(ipaddress.IPv6Address("::ffff:102:304")) == "::ffff:1.2.3.4"
del ipaddress


cdef Py_ssize_t _dotted(unsigned int hi, unsigned int lo, uint8_t *o) noexcept nogil:
    """hi:lo (two 16-bit groups) as a dotted quad into o; returns its length."""
    cdef unsigned int octets[4]
    cdef unsigned int v
    cdef Py_ssize_t j = 0
    cdef int k
    octets[0] = hi >> 8
    octets[1] = hi & 255
    octets[2] = lo >> 8
    octets[3] = lo & 255
    for k in range(4):
        if k:
            o[j] = 46
            j += 1
        v = octets[k]
        if v >= 100:
            o[j] = 48 + v // 100
            j += 1
        if v >= 10:
            o[j] = 48 + (v // 10) % 10
            j += 1
        o[j] = 48 + v % 10
        j += 1
    return j


cdef Py_ssize_t _ipv6(const uint8_t *s, Py_ssize_t n, uint8_t *o) noexcept nogil:
    """The IPv6 address s[0, n) in its RFC 5952 form (as ``str`` of an
    ``ipaddress.IPv6Address``) into o, or -1 for any other text (the
    reference then says: an IPv4 tail, a zone, or no address at all)."""
    cdef unsigned int groups[8]
    cdef unsigned int v
    cdef Py_ssize_t i = 0, j = 0, hi = 0, lo = 0, skip = -1, digits
    cdef int k, count = 0, best = -1, best_len = 0, run = 0
    cdef unsigned int parsed[9]
    # ipaddress: split on ":" into 3 to 9 parts, at most one empty part
    # inside (the "::"), an empty first or last part only as part of it
    if n < 2:
        return -1
    while True:
        v = 0
        digits = 0
        while i < n and s[i] != 58:
            k = fu_hexval(s[i])
            if k < 0:
                return -1
            v = v * 16 + <unsigned int>k
            digits += 1
            i += 1
        if digits > 4 or count == 9:
            return -1
        if digits == 0:
            parsed[count] = 0x10000  # an empty part
        else:
            parsed[count] = v
        count += 1
        if i == n:
            break
        i += 1
    if count < 3:
        return -1
    for k in range(1, count - 1):
        if parsed[k] == 0x10000:
            if skip >= 0:
                return -1
            skip = k
    if skip >= 0:
        hi = skip
        lo = count - skip - 1
        if parsed[0] == 0x10000:
            hi -= 1
            if hi:
                return -1
        if parsed[count - 1] == 0x10000:
            lo -= 1
            if lo:
                return -1
        if hi + lo > 7:
            return -1
    else:
        if count != 8:
            return -1
        hi = 8
    for k in range(8):
        groups[k] = 0
    for k in range(hi):
        groups[k] = parsed[k]
    for k in range(lo):
        groups[8 - lo + k] = parsed[count - lo + k]
    for k in range(8):
        if groups[k] == 0x10000:
            return -1  # an empty part that is no "::"
    if (_MAPPED_DOTTED and groups[0] == 0 and groups[1] == 0 and groups[2] == 0
            and groups[3] == 0 and groups[4] == 0 and groups[5] == 0xFFFF):
        memcpy(o, b"::ffff:", 7)
        return 7 + _dotted(groups[6], groups[7], o + 7)
    # the longest run of zero groups (the first of equal ones), if over one
    for k in range(8):
        if groups[k] == 0:
            run += 1
            if run > best_len:
                best_len = run
                best = k - run + 1
        else:
            run = 0
    if best_len < 2:
        best = -1
    k = 0
    while k < 8:
        if k == best:
            o[j] = 58
            o[j + 1] = 58
            j += 2
            k += best_len
            continue
        if k and k != best + best_len:
            o[j] = 58
            j += 1
        v = groups[k]
        digits = 12
        while digits > 0 and (v >> digits) == 0:
            digits -= 4
        while digits >= 0:
            o[j] = fu_hex_lower[(v >> digits) & 15]
            j += 1
            digits -= 4
        k += 1
    return j


cdef inline Py_ssize_t _need_netloc(const uint8_t *s, Py_ssize_t a, Py_ssize_t b, uint8_t *out,
                                    Py_ssize_t *span) noexcept nogil:
    # the authority's text to out (room: it is part of the input)
    memcpy(out, s + a, <size_t>(b - a))
    span[0] = b - a
    return NEED_NETLOC


cdef Py_ssize_t _fast(const uint8_t *src, Py_ssize_t n, bint ascii, bint keep_fragment,
                      uint8_t *mem) noexcept nogil:
    """The key of the UTF-8 text src (ascii: all of it ASCII) into
    mem + n + 8 (mem holds 48n + 256 bytes), or -1 where its authority
    needs _w3lib.netloc (key_str then gives it)."""
    cdef Py_ssize_t span
    cdef Py_ssize_t size = _key(src, n, ascii, keep_fragment, mem, NULL, 0, &span)
    return -1 if size < 0 else size


cdef enum:
    NEED_NETLOC = -2  # the authority is _w3lib.netloc's (see _key)


cdef Py_ssize_t _key(const uint8_t *src, Py_ssize_t n, bint ascii, bint keep_fragment,
                     uint8_t *mem, const uint8_t *given, Py_ssize_t given_n,
                     Py_ssize_t *span) noexcept nogil:
    """_fast's work.  An authority the C here does not write (an IP
    literal other than a plain IPv6 address, a bad port, a host whose
    answer is the running Python's or that IDNA refuses, a netloc whose
    NFKC w3lib refuses) returns NEED_NETLOC with the authority's text
    copied to mem + n + 8 and its length in *span; called again with that
    text's key (_w3lib.netloc's, UTF-8) as given, it writes that."""
    cdef Py_ssize_t i, a, b, scheme_end, auth_a = -1, auth_b = -1, host_a, host_b
    cdef Py_ssize_t path_a, path_b, q_a = -1, q_b = -1, f_a = -1, j, k, at
    cdef Py_ssize_t once_n, params_at, params_n, digits, colon, bracket = -1
    cdef long port = 0
    cdef int flags, found_dots
    cdef bint netloc, plain, closed = False, dots = False, backslash, wide = False
    cdef uint8_t c
    cdef const uint8_t *s  # the text, stripped (in place, or copied to mem)
    cdef uint8_t *out = mem + n + 8
    cdef uint8_t *quoted = out + 4 * n + 32 + given_n  # the path after the first pass
    cdef const uint8_t *once = quoted
    cdef uint8_t *scratch = quoted + 3 * n + 16
    cdef _Pair *pairs
    # 1. C0 controls and spaces stripped from the ends, tabs and newlines
    # dropped
    a = 0
    b = n
    while a < b and src[a] <= 32:
        a += 1
    while b > a and src[b - 1] <= 32:
        b -= 1
    k = b - a
    s = src + a
    # one scan for what is rare: tabs and newlines, and backslashes
    i = fu_stop_1(src, a, b, 9, 10, 13, 92)
    backslash = i < b and (src[i] == 92 or memchr(src + i, 92, <size_t>(b - i)) != NULL)
    if i < b and fu_stop_1(src, i, b, 9, 10, 13, 13) < b:
        k = 0
        for i in range(a, b):
            c = src[i]
            if c != 9 and c != 10 and c != 13:
                mem[k] = c
                k += 1
        s = mem
    n = k
    # the scheme, lowercased into out (http and https, most URLs', without
    # the scan: "|32" maps only "H" to "h", and so on)
    if (n >= 6 and (s[0] | 32) == 104 and (s[1] | 32) == 116 and (s[2] | 32) == 116
            and (s[3] | 32) == 112 and (s[4] == 58 or ((s[4] | 32) == 115 and s[5] == 58))):
        scheme_end = 4 if s[4] == 58 else 5
        memcpy(out, b"https", <size_t>scheme_end)
        flags = _HTTP if scheme_end == 4 else _HTTPS
    else:
        i = 1
        while i < n and (97 <= (s[i] | 32) <= 122 or 48 <= s[i] <= 57 or s[i] == 43
                         or s[i] == 45 or s[i] == 46):
            i += 1
        if n == 0 or not 97 <= (s[0] | 32) <= 122 or i >= n or s[i] != 58:
            # no scheme: "" (urlunsplit then writes no "//" for a netloc
            # scheme: its test is on the scheme, not on "")
            scheme_end = -1
            flags = _EMPTY
        else:
            scheme_end = i
            for i in range(scheme_end):
                c = s[i]
                out[i] = c + 32 if 65 <= c <= 90 else c
            flags = _scheme_flags(out, scheme_end)
    if flags & SPECIAL and backslash:
        # a backslash before the query or fragment is a slash: in a copy
        if s != mem:
            memcpy(mem, s, <size_t>n)
            s = mem
        for i in range(scheme_end + 1, n):
            if mem[i] == 63 or mem[i] == 35:
                break
            if mem[i] == 92:
                mem[i] = 47
    # 2. //authority, path, query (from the first "?" before the first
    # "#"), fragment
    i = scheme_end + 1
    if n - i >= 2 and s[i] == 47 and s[i + 1] == 47:
        auth_a = i + 2
        i = fu_stop_1(s, auth_a, n, 47, 63, 35, 35)
        auth_b = i
        if given == NULL and (not ascii or fu_stop_1(s, auth_a, auth_b, 91, 93, 91, 91) < auth_b):
            for i in range(auth_a, auth_b):
                if s[i] >= 0x80:
                    wide = True
                if s[i] == 91 or s[i] == 93:  # one "[", then one "]"
                    if (bracket >= 0) == (s[i] == 91) or closed:
                        return _need_netloc(s, auth_a, auth_b, out, span)
                    if s[i] == 91:
                        bracket = i
                    else:
                        closed = True
            if bracket >= 0 and not closed:
                return _need_netloc(s, auth_a, auth_b, out, span)
            # w3lib refuses a netloc whose NFKC (less "@:#?") changes it and
            # holds a delimiter: _w3lib.netloc raises (and says what the
            # running Python's NFKC says)
            if wide and idna2003_nfkc_delims(s + auth_a, auth_b - auth_a) != 0:
                return _need_netloc(s, auth_a, auth_b, out, span)
        i = auth_b
    path_a = i
    i = fu_stop_1(s, i, n, 63, 35, 35, 35)  # "?" or "#"
    path_b = i
    k = fu_find_byte(s, i, n, 35) if i < n and s[i] == 63 else i  # "#": the fragment
    if i < k:
        q_a = i + 1
        q_b = k
    if k < n:
        f_a = k + 1

    j = scheme_end
    if scheme_end >= 0:
        out[j] = 58
    j += 1
    netloc = False
    if given != NULL:
        if given_n:
            out[j] = 47
            out[j + 1] = 47
            memcpy(out + j + 2, given, <size_t>given_n)
            j += 2 + given_n
            netloc = True
    elif auth_a >= 0 and auth_b > auth_a:
        out[j] = 47
        out[j + 1] = 47
        j += 2
        k = j
        # userinfo: up to the last "@", the password after its first ":"
        host_a = auth_a
        # (no "@", ":" or "[" at all: the authority is the host)
        plain = bracket < 0 and fu_stop_1(s, auth_a, auth_b, 64, 58, 64, 58) == auth_b
        if not plain and fu_find_byte(s, auth_a, auth_b, 64) < auth_b:
            for i in range(auth_a, auth_b):
                if s[i] == 64:
                    host_a = i + 1
        if host_a > auth_a:
            at = host_a - 1
            colon = auth_a
            while colon < at and s[colon] != 58:
                colon += 1
            j += _userinfo(s + auth_a, colon - auth_a, out + j, scratch)
            if colon < at:
                out[j] = 58
                j += 1
                j += _userinfo(s + colon + 1, at - colon - 1, out + j, scratch)
            out[j] = 64
            j += 1
        if bracket >= 0:
            # an IPv6 address: "[" right after the userinfo, its "]" after
            # it, then nothing or ":port" (anything else: the reference)
            if bracket != host_a:
                return _need_netloc(s, auth_a, auth_b, out, span)
            host_b = fu_find_byte(s, host_a, auth_b, 93)
            if host_b == auth_b or (host_b + 1 < auth_b and s[host_b + 1] != 58):
                return _need_netloc(s, auth_a, auth_b, out, span)
            out[j] = 91
            at = _ipv6(s + host_a + 1, host_b - host_a - 1, out + j + 1)
            if at < 0:
                return _need_netloc(s, auth_a, auth_b, out, span)
            j += at + 1
            out[j] = 93
            j += 1
            host_b += 1  # the port after "]:"
        else:
            host_b = auth_b if plain else fu_find_byte(s, host_a, auth_b, 58)  # ":"
            if wide and not fu_is_ascii(s + host_a, host_b - host_a):
                # IDNA 2003 as w3lib runs it (str.lower, NFKC, the codec)
                if memchr(s + host_a, 37, <size_t>(host_b - host_a)) != NULL:
                    return _need_netloc(s, auth_a, auth_b, out, span)  # a "%zone"
                # (3 bytes a byte, the key's bound elsewhere, and a little
                # more for the "xn--" of a short host; longer: the netloc's)
                at = idna2003_to_ascii(s + host_a, host_b - host_a, FU_IDNA2003_W3LIB, out + j,
                                       3 * (host_b - host_a) + 16)
                if at < 0 or at > 3 * (host_b - host_a) + 16:
                    return _need_netloc(s, auth_a, auth_b, out, span)
                for i in range(j, j + at):
                    c = out[i]
                    out[i] = c + 32 if 65 <= c <= 90 else c
                j += at
            else:
                for i in range(host_a, host_b):
                    c = s[i]
                    out[j] = c + 32 if 65 <= c <= 90 else c
                    j += 1
        digits = 0
        for i in range(host_b + 1, auth_b):
            c = s[i]
            if not 48 <= c <= 57:
                return _need_netloc(s, auth_a, auth_b, out, span)  # (it raises ValueError)
            if port <= 65535:
                port = port * 10 + (c - 48)
            digits += 1
        if port > 65535:
            return _need_netloc(s, auth_a, auth_b, out, span)
        if digits:
            out[j] = 58
            j += 1
            a = 1
            while a * 10 <= port:
                a *= 10
            while a:
                out[j] = <uint8_t>(48 + (port // a) % 10)
                j += 1
                a //= 10
        netloc = j > k
        if not netloc:
            j -= 2  # an empty netloc: "//" comes back below only if due

    # 3. the path: first pass, params split off, second pass, dot segments.
    # A path of safe characters and no "%" (the usual one) passes both
    # unchanged: it is read in place.
    # One scan finds whether it is, its last "/" and any "/." (where a dot
    # segment starts).
    plain = fu_w3_plain(s + path_a, path_b - path_a, &at, &found_dots) == path_b - path_a
    if plain:
        dots = found_dots != 0
        once = s + path_a
        once_n = path_b - path_a
        k = fu_find_byte(once, at + 1, once_n, 59)  # ";"
    else:
        once_n = _quote(s + path_a, path_b - path_a, quoted, PATH)
        k = once_n
        while k > 0 and once[k - 1] != 47:
            k -= 1
        while k < once_n and once[k] != 59:
            k += 1
    params_at = -1
    params_n = 0
    if k < once_n and flags & PARAMS:
        params_at = k + 1
        params_n = once_n - params_at
        once_n = k
    # the path goes 2 bytes on without a netloc, room for a "//"
    # urlunsplit may put first
    k = j if netloc else j + 2
    j = k
    if once_n == 0:
        out[j] = 47  # an empty path is "/"
        j += 1
    else:
        if plain:
            memcpy(out + j, once, <size_t>once_n)
            j += once_n
        else:
            j += _path(once, once_n, out + j)
            dots = _dot_segment(out + k, j - k)
        if out[k] == 47 and dots:
            j = k + fu_dots_1(out + k, j - k)
    if params_n > 0:  # empty params are dropped with their ";"
        out[j] = 59
        j += 1
        memcpy(out + j, once + params_at, <size_t>params_n)
        j += params_n
    if netloc:
        pass
    elif not (out[k] == 47 and (flags & NETLOC or (j - k >= 2 and out[k + 1] == 47))):
        # urlunsplit writes "//" before the path only without a netloc,
        # when the path starts with "//", or with "/" for a scheme that
        # uses a netloc
        memmove(out + k - 2, out + k, <size_t>(j - k))
        j -= 2
    else:
        out[k - 2] = 47
        out[k - 1] = 47

    # 4. the query
    if q_a >= 0 and q_b > q_a:
        pairs = <_Pair *>((<size_t>(scratch + n + 16) + 15) & ~(<size_t>15))
        k = _query(s + q_a, q_b - q_a, out + j + 1, scratch, pairs)
        if k:
            out[j] = 63
            j += 1 + k
    if keep_fragment and f_a >= 0 and f_a < n:
        out[j] = 35
        j += 1
        j += _quote(s + f_a, n - f_a, out + j, PATH)
    return j


cdef str key_str(str s, bint keep_fragment):
    """``w3lib.url.canonicalize_url(s, keep_fragments=keep_fragment)``."""
    cdef Py_ssize_t n, size, span = 0
    cdef uint8_t stack[STACK]
    cdef uint8_t *mem = stack
    cdef const uint8_t *data
    cdef bytes raw = None, netloc
    cdef str result
    if PyUnicode_IS_ASCII(s):
        data = <const uint8_t *>PyUnicode_DATA(s)
        n = PyUnicode_GET_LENGTH(s)
    else:
        try:
            raw = s.encode("utf-8")
        except UnicodeEncodeError:
            _surrogates(s)  # raises as w3lib does
        data = <const uint8_t *><const char *>raw
        n = len(raw)
    if 48 * n + 256 > STACK:
        mem = <uint8_t *>PyMem_Malloc(<size_t>(48 * n + 256))
        if mem == NULL:
            raise MemoryError()
    try:
        size = _key(data, n, raw is None, keep_fragment, mem, NULL, 0, &span)
        if size >= 0:
            result = PyUnicode_New(size, 127)  # the key is ASCII
            memcpy(PyUnicode_DATA(result), mem + n + 8, <size_t>size)
            return result
        # the authority by _w3lib.netloc (it raises as w3lib does), then
        # the key again with it: ASCII, or UTF-8 where the host is one IDNA
        # refuses (w3lib keeps it)
        netloc = _w3lib.netloc(PyUnicode_DecodeUTF8(<const char *>mem + n + 8, span,
                                                    NULL)).encode("utf-8")
        if mem != stack:
            PyMem_Free(mem)
        mem = stack
        if 48 * n + 256 + len(netloc) > STACK:
            mem = <uint8_t *>PyMem_Malloc(<size_t>(48 * n + 256 + len(netloc)))
            if mem == NULL:
                raise MemoryError()
        size = _key(data, n, raw is None, keep_fragment, mem,
                    <const uint8_t *><const char *>netloc, len(netloc), &span)
        return PyUnicode_DecodeUTF8(<const char *>mem + n + 8, size, NULL)
    finally:
        if mem != stack:
            PyMem_Free(mem)


cdef object _surrogates(str s):
    """Raises as w3lib does for text holding a lone surrogate: the
    authority's ValueError first, else UnicodeEncodeError for the first
    part that holds one."""
    p = _w3lib.split(s.strip(_w3lib.C0_OR_SPACE).translate(_w3lib.TAB_NEWLINE))
    _w3lib.netloc(p.netloc)
    p.path.encode()
    p.query.encode()
    p.fragment.encode()
    raise AssertionError("a lone surrogate outside every part")  # (not reached)


def key(s, keep_fragment=False):
    """``w3lib.url.canonicalize_url(s, keep_fragments=keep_fragment)``."""
    if not isinstance(s, str):
        raise TypeError(f"key() argument 's' must be str, not {type(s).__name__}")
    return key_str(<str>s, True if keep_fragment else False)
