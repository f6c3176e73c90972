"""SURT keys, compiled: the twin of _surt_py (which states the steps).

The URL's UTF-8 bytes (an ASCII str is read in place) go through the
steps in C over one scratch buffer; the result is ASCII and is written
straight into the returned str.  Three rare steps call the shared helpers
of _surt: IDNA for a non-ASCII host, and session-ID removal, only when the
path or query holds one of the keywords those patterns need.
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.stdlib cimport free, malloc
from libc.stdint cimport uint8_t, uint32_t, uint64_t
from libc.string cimport memchr, memcmp, memcpy, memmove, memset

from fasturi._capi cimport (
    PyBytes_FromStringAndSize,
    PyUnicode_DATA,
    PyUnicode_GET_LENGTH,
    PyUnicode_IS_ASCII,
    PyUnicode_New,
)
from fasturi._csrc cimport (
    FU_IDNA_FAIL,
    FU_IDNA_NOMEM,
    FU_IDNA_PYTHON,
    fu_find_byte,
    fu_is_ascii,
    fu_pct_decode_1,
    fu_stop_1,
    fu_surt_copy_to_stop,
    fu_surt_escape_lower,
    fu_surt_escape_plain_path,
    fu_surt_plain_host,
    fu_surt_reverse_labels,
)

from fasturi._idna_c cimport idna2003_to_ascii

from fasturi import _surt

__all__ = ["surt"]

cdef enum:
    STACK = 8192
    # what _key answers besides 0
    SURT_PORT = 1
    SURT_RANGE
    SURT_MEMORY


cdef extern from *:
    uint64_t MASK32 "0xFFFFFFFFULL"

ctypedef struct _Span:
    Py_ssize_t start, end


cdef inline bint _is_space(uint8_t c) noexcept nogil:
    # bytes.strip()'s ASCII whitespace; most bytes fail the first test
    return c <= 32 and (c == 32 or 9 <= c <= 13)


cdef Py_ssize_t _unescape(uint8_t *d, Py_ssize_t n) noexcept nogil:
    """Percent-decodes d in place until nothing changes; the new length."""
    cdef Py_ssize_t m
    cdef uint32_t high = 0
    # a pass that decodes nothing changes nothing; a text left without "%"
    # has nothing more to decode
    while memchr(d, 37, <size_t>n) != NULL:
        m = fu_pct_decode_1(d, n, 0, d, &high)  # in place: it writes behind
        if m == n:
            break
        n = m
    return n


cdef bint _contains(const uint8_t *s, Py_ssize_t n, const char *word, Py_ssize_t m) noexcept nogil:
    # memchr to each occurrence of the word's first byte, then compare
    cdef const uint8_t *p = s
    cdef const uint8_t *last = s + n - m
    while p <= last:
        p = <const uint8_t *>memchr(p, <uint8_t>word[0], <size_t>(last - p + 1))
        if p == NULL:
            return False
        if memcmp(p, word, <size_t>m) == 0:
            return True
        p += 1
    return False


cdef Py_ssize_t _run(const uint8_t *s, Py_ssize_t n, bint letters) noexcept nogil:
    # how many ASCII letters (or letters and digits) s[0, n) starts with
    cdef Py_ssize_t i = 0
    while i < n and (97 <= (s[i] | 32) <= 122 or (not letters and 48 <= s[i] <= 57)):
        i += 1
    return i


cdef bint _ends(const uint8_t *s, Py_ssize_t i, const char *word, Py_ssize_t m) noexcept nogil:
    # whether s[0, i) ends with the word
    return i >= m and memcmp(s + i - m, word, <size_t>m) == 0


cdef bint _session_name(const uint8_t *q, Py_ssize_t n) noexcept nogil:
    # Whether the lowercased query q may hold a field _session drops: what
    # each pattern of _surt needs ("sid=" or "sessionid=" and 32 letters
    # and digits, "aspsessionid", 8 letters, "=" and 24 letters, or
    # "cfid="), so that the Python step runs only where it may change
    # something.  Each needs an "=": one look before and after each.
    cdef Py_ssize_t i = fu_find_byte(q, 0, n, 61)  # "="
    while i < n:
        # each on its own: one name may end as two of them ("...sid=")
        if ((_ends(q, i, b"sid", 3) or _ends(q, i, b"sessionid", 9))
                and _run(q + i + 1, n - i - 1, False) >= 32):
            return True
        if _ends(q, i, b"cfid", 4):
            return True
        if (i >= 20 and _run(q + i - 8, 8, True) == 8 and _ends(q, i - 8, b"aspsessionid", 12)
                and _run(q + i + 1, n - i - 1, True) >= 24):
            return True
        i = fu_find_byte(q, i + 1, n, 61)
    return False


cdef bint _path_session(const uint8_t *p, Py_ssize_t n) noexcept nogil:
    # Whether the lowercased path p may hold the segment _session drops:
    # both patterns of _surt need "(", 24 letters and digits, ")" and an
    # ".aspx" after it.
    cdef Py_ssize_t i = fu_find_byte(p, 0, n, 40)  # "("
    while i < n:
        if (_run(p + i + 1, n - i - 1, False) >= 24 and i + 25 < n and p[i + 25] == 41
                and _contains(p + i, n - i, b".aspx", 5)):
            return True
        i = fu_find_byte(p, i + 1, n, 40)
    return False


# ---- the host -------------------------------------------------------------

cdef Py_ssize_t _fold_dots(uint8_t *d, Py_ssize_t n) noexcept nogil:
    """bytes.replace(b"..", b".") then strip(b"."), in place."""
    cdef Py_ssize_t i = 0, j = 0, a, b
    # hop from dot to dot to the first ".."; a host without one and
    # without outer dots (nearly all) is left as it is
    while True:
        i = fu_stop_1(d, i, n, 46, 46, 46, 46)
        if i + 1 >= n or d[i + 1] == 46:
            break
        i += 1
    if i + 1 >= n and n > 0 and d[0] != 46 and d[n - 1] != 46:
        return n
    i = 0
    while i < n:
        d[j] = d[i]
        j += 1
        i += 2 if (d[i] == 46 and i + 1 < n and d[i + 1] == 46) else 1
    a = 0
    b = j
    while a < b and d[a] == 46:
        a += 1
    while b > a and d[b - 1] == 46:
        b -= 1
    for i in range(a, b):
        d[i - a] = d[i]
    return b - a


cdef int _number(const uint8_t *s, Py_ssize_t a, Py_ssize_t b, uint64_t *out) noexcept nogil:
    # One inet_aton part: octal after a leading "0", else decimal; -1 when
    # a digit does not fit the base or the value passes 32 bits.
    cdef uint64_t v = 0
    cdef int base = 8 if (b - a > 1 and s[a] == 48) else 10
    cdef Py_ssize_t i
    for i in range(a, b):
        if s[i] - 48 >= base:
            return -1
        v = v * base + (s[i] - 48)
        if v > MASK32:
            return -1
    out[0] = v
    return 0


cdef Py_ssize_t _ip(const uint8_t *s, Py_ssize_t n, uint8_t *o) noexcept nogil:
    """A numeric host as a dotted quad into o (up to 15 bytes), else -1."""
    cdef Py_ssize_t i, a, parts = 1, j = 0
    cdef uint64_t number = 0, v
    cdef uint64_t values[4]
    cdef int shift, k, last_bits
    cdef bint digits = n > 0
    memset(values, 0, sizeof(values))
    if n == 0:
        return -1
    for i in range(n):
        if s[i] == 46:
            digits = False
            parts += 1
        elif not (48 <= s[i] <= 57):
            return -1
    if digits:
        for i in range(n):  # one number: its low 32 bits
            number = (number * 10 + (s[i] - 48)) & MASK32
    else:
        # dotted: decimal ([1-9] first) or octal (0 first) patterns of 2-4
        # non-empty parts, an octal pattern with octal digits only
        if parts > 4 or s[0] == 46 or s[n - 1] == 46:
            return -1
        for i in range(1, n):
            if s[i] == 46 and s[i - 1] == 46:
                return -1
        if s[0] == 48:
            for i in range(n):
                if s[i] == 56 or s[i] == 57:
                    return -1
        a = 0
        k = 0
        for i in range(n + 1):
            if i == n or s[i] == 46:
                if _number(s, a, i, &values[k]) < 0:
                    return -1
                k += 1
                a = i + 1
        last_bits = 32 - 8 * (parts - 1)
        for k in range(parts - 1):
            if values[k] > 255:
                return -1
            number = number << 8 | values[k]
        if values[parts - 1] >> last_bits:
            return -1
        number = number << last_bits | values[parts - 1]
    for shift in range(24, -8, -8):
        v = (number >> shift) & 255
        if v >= 100:
            o[j] = <uint8_t>(48 + v // 100)
            j += 1
        if v >= 10:
            o[j] = <uint8_t>(48 + (v // 10) % 10)
            j += 1
        o[j] = <uint8_t>(48 + v % 10)
        j += 1
        if shift:
            o[j] = 46
            j += 1
    return j


cdef inline Py_ssize_t _strip_www(const uint8_t *s, Py_ssize_t n) noexcept nogil:
    """How many leading bytes a "www", "www2", ... label takes."""
    cdef Py_ssize_t i = 3
    if n < 4 or s[0] != 119 or s[1] != 119 or s[2] != 119:
        return 0
    while i < n and 48 <= s[i] <= 57:
        i += 1
    return i + 1 if (i < n and s[i] == 46) else 0


# ---- the path and the query -----------------------------------------------

cdef Py_ssize_t _path(const uint8_t *s, Py_ssize_t n, uint8_t *o, _Span *seg) noexcept nogil:
    """Dot segments and empty segments (but a last one) removed; o gets it."""
    cdef Py_ssize_t i, a, count = 0, j = 0, k
    # the text before the first "/" is not a segment
    i = fu_stop_1(s, 0, n, 47, 47, 47, 47)
    while i < n:
        a = i + 1
        i = fu_stop_1(s, a, n, 47, 47, 47, 47)
        if i - a == 1 and s[a] == 46:
            continue
        if i - a == 2 and s[a] == 46 and s[a + 1] == 46 and count > 0:
            count -= 1
            continue
        seg[count].start = a
        seg[count].end = i
        count += 1
    o[0] = 47
    j = 1
    for k in range(count):
        a = seg[k].end - seg[k].start
        if k == count - 1 or a > 0:
            memcpy(o + j, s + seg[k].start, <size_t>a)
            j += a
            if k < count - 1:
                o[j] = 47
                j += 1
    return j


cdef int _field_cmp(const uint8_t *s, _Span x, _Span y) noexcept nogil:
    # (name, value) tuples: names first; a field without "=" sorts before
    # any field of the same name with one.
    cdef Py_ssize_t xe = x.start, ye = y.start
    cdef Py_ssize_t xn, yn, m, i
    while xe < x.end and s[xe] != 61:
        xe += 1
    while ye < y.end and s[ye] != 61:
        ye += 1
    xn = xe - x.start
    yn = ye - y.start
    m = xn if xn < yn else yn
    for i in range(m):
        if s[x.start + i] != s[y.start + i]:
            return -1 if s[x.start + i] < s[y.start + i] else 1
    if xn != yn:
        return -1 if xn < yn else 1
    if (xe < x.end) != (ye < y.end):
        return -1 if xe == x.end else 1
    xn = x.end - xe
    yn = y.end - ye
    m = xn if xn < yn else yn
    for i in range(1, m):
        if s[xe + i] != s[ye + i]:
            return -1 if s[xe + i] < s[ye + i] else 1
    return (xn > yn) - (xn < yn)


cdef Py_ssize_t _sort_query(const uint8_t *s, Py_ssize_t n, uint8_t *o, _Span *f) noexcept nogil:
    cdef Py_ssize_t i, a = 0, count = 0, j = 0, k
    cdef _Span x
    if n <= 1:
        memcpy(o, s, <size_t>n)
        return n
    while True:
        i = fu_stop_1(s, a, n, 38, 38, 38, 38)  # "&"
        f[count].start = a
        f[count].end = i
        count += 1
        if i == n:
            break
        a = i + 1
    # insertion sort: queries have few fields; stable, as list.sort
    for i in range(1, count):
        x = f[i]
        k = i
        while k > 0 and _field_cmp(s, f[k - 1], x) > 0:
            f[k] = f[k - 1]
            k -= 1
        f[k] = x
    for k in range(count):
        if k:
            o[j] = 38
            j += 1
        memcpy(o + j, s + f[k].start, <size_t>(f[k].end - f[k].start))
        j += f[k].end - f[k].start
    return j


# ---- surt -----------------------------------------------------------------

cdef Py_ssize_t _idna(const uint8_t *h, Py_ssize_t n, uint8_t **heap,
                      Py_ssize_t extra) noexcept nogil:
    """The A-label form of the decoded non-ASCII host h[0, n) at the start
    of a new heap block, with room after it for its canonical form (3x its
    length + 16) and the key (extra more); its length, or -1 when out of
    memory.  IDNA 2003 as the codec runs it, in C (_idna_c); the host as it
    is where the codec refuses it."""
    cdef const uint8_t *held
    cdef uint8_t first[256]
    cdef Py_ssize_t m = idna2003_to_ascii(h, n, 0, first, 256)
    if m == FU_IDNA_PYTHON:
        return _idna_python(h, n, heap, extra)
    if m == FU_IDNA_NOMEM:
        return -1
    held = first
    if m == FU_IDNA_FAIL:
        held = h
        m = n
    heap[0] = <uint8_t *>malloc(<size_t>(7 * m + extra + 64))
    if heap[0] == NULL:
        return -1
    if held == first and m > 256:  # longer than the first try's room
        idna2003_to_ascii(h, n, 0, heap[0], m)
    else:
        memcpy(heap[0], held, <size_t>m)
    return m


cdef Py_ssize_t _idna_python(const uint8_t *h, Py_ssize_t n, uint8_t **heap,
                             Py_ssize_t extra) noexcept with gil:
    # a host holding a code point Unicode 3.2 does not assign: the codec
    # lowercases it by the running Python's str.lower
    cdef bytes held
    cdef Py_ssize_t m
    try:
        held = _surt.idna_host(PyBytes_FromStringAndSize(<const char *>h, n))
    except BaseException:  # only MemoryError: idna_host keeps a host IDNA refuses
        return -1
    m = len(held)
    heap[0] = <uint8_t *>malloc(<size_t>(7 * m + extra + 64))
    if heap[0] == NULL:
        return -1
    memcpy(heap[0], <const char *>held, <size_t>m)
    return m


cdef Py_ssize_t _session(uint8_t *d, Py_ssize_t n, bint query) noexcept with gil:
    """d[0, n) without its session IDs (the path's or the query's patterns),
    in place; the new length, or -1 when out of memory."""
    cdef bytes held
    try:
        text = PyBytes_FromStringAndSize(<const char *>d, n)
        held = _surt.strip_query_session(text) if query else _surt.strip_path_session(text)
    except BaseException:
        return -1
    memcpy(d, <const char *>held, <size_t>len(held))
    return len(held)


cdef inline bint _starts(const uint8_t *s, Py_ssize_t n, const char *p,
                         Py_ssize_t m) noexcept nogil:
    cdef Py_ssize_t i
    if n < m:
        return False
    for i in range(m):
        if s[i] != <uint8_t>p[i]:
            return False
    return True


cdef inline Py_ssize_t _http_prefix(const uint8_t *s, Py_ssize_t n) noexcept nogil:
    # memcmp of a constant length: the compiler compares whole words
    if n >= 7 and memcmp(s, b"http://", 7) == 0:
        return 7
    if n >= 8 and memcmp(s, b"https://", 8) == 0:
        return 8
    return 0


cdef inline bint _scheme_char(uint8_t c) noexcept nogil:
    return (48 <= c <= 57 or 65 <= c <= 90 or 97 <= c <= 122
            or c == 43 or c == 45 or c == 46)


cdef Py_ssize_t _host_key(uint8_t *h, Py_ssize_t n, uint8_t *o) noexcept nogil:
    """The canonical host of the ASCII host h (changed in place) into o.

    o holds 3n + 16 bytes.  Returns the length, or -1 when the host
    decodes to non-ASCII bytes and needs IDNA first.
    """
    n = _unescape(h, n)
    if not fu_is_ascii(h, n):
        return -1
    return _host_tail(h, n, o)


cdef Py_ssize_t _host_tail(uint8_t *h, Py_ssize_t n, uint8_t *o) noexcept nogil:
    # after IDNA: "..", outer dots, IPv4 forms, escaping and "www"
    cdef Py_ssize_t k
    n = _fold_dots(h, n)
    k = _ip(h, n, o)
    if k >= 0:
        return k
    n = fu_surt_escape_lower(h, n, o)
    k = _strip_www(o, n)
    if k:  # the host slides down over its "www." prefix: overlapping
        memmove(o, o + k, <size_t>(n - k))
    return n - k


cdef inline _Span *_spans_past(uint8_t *q1, Py_ssize_t qn) noexcept nogil:
    # _key's spans: after q1 and q2, the regions of a query of qn bytes
    return <_Span *>((<size_t>(q1 + 4 * qn + 40) + 15) & ~(<size_t>15))


cdef int _key(const uint8_t *src, Py_ssize_t n, uint8_t *mem, uint8_t *dest,
              const uint8_t **key, Py_ssize_t *size, uint8_t **heap, bint *wide) noexcept nogil:
    """surt of the UTF-8 text src[0, n) (not blank, not "filedesc...");
    mem holds MEM(n) bytes.  *wide: whether the text holds a byte from 0x80
    (what the column kernel checks the row's UTF-8 for).

    0: the key is (*key)[0, *size), in mem or in *heap (which the caller
    frees; NULL unless IDNA made the host longer).  Else the key is an
    error: SURT_PORT (the port (*key)[0, *size) is not a number),
    SURT_RANGE (out of range), SURT_MEMORY.  The rare steps that need
    Python (IDNA, the session-ID patterns) take the GIL.
    """
    cdef Py_ssize_t i, a, b, m, k, scheme_a, scheme_end, auth_a, auth_b
    cdef Py_ssize_t path_a, path_b, q_a, q_b, host_a, host_b, port_a
    cdef Py_ssize_t hn = 0, pn = 0, qn = 0, j, rare
    cdef long port = -1
    cdef bint has_path, has_query, bracket
    cdef uint8_t *u = mem
    cdef uint8_t *h1
    cdef uint8_t *h2
    cdef uint8_t *host
    cdef uint8_t *p1
    cdef uint8_t *p2
    cdef uint8_t *path
    cdef uint8_t *q1
    cdef uint8_t *q2
    # the key: 4n + 64 bytes (the heap's after IDNA)
    cdef uint8_t *out = dest if dest != NULL else mem + 24 * n + 192
    cdef const uint8_t *decoded
    cdef unsigned high
    heap[0] = NULL

    # 1. strip, drop tabs and newlines, assume http://
    a = 0
    b = n
    while a < b and _is_space(src[a]):
        a += 1
    while b > a and _is_space(src[b - 1]):
        b -= 1
    # the text goes after 7 bytes of room for "http://", up to its first
    # "#": the fragment goes, and nothing before it depends on it
    m = fu_surt_copy_to_stop(src + a, b - a, u + 7, &high)  # to a tab, LF, CR or "#"
    # (the bytes stripped are spaces; those past the stop are checked here)
    wide[0] = high != 0 or (a + m < b and not fu_is_ascii(src + a + m, b - a - m))
    if a + m < b and src[a + m] != 35:  # tabs and newlines are dropped
        for i in range(a + m, b):
            if src[i] == 35:
                break
            if src[i] != 9 and src[i] != 10 and src[i] != 13:
                u[7 + m] = src[i]
                m += 1
    i = 7
    k = _http_prefix(u + 7, m)  # most URLs: no scheme to scan for
    if k:
        i = 7 + k - 3  # at its ":"
    elif m > 0 and (65 <= u[i] <= 90 or 97 <= u[i] <= 122):
        i += 1
        while i < 7 + m and _scheme_char(u[i]):
            i += 1
    if i > 7 and i < 7 + m and u[i] == 58:
        u += 7
        scheme_end = i - 7
    else:
        memcpy(u, b"http://", 7)
        m += 7
        scheme_end = 4
        k = 7
    # "http://https://host" is "https://host" (k: the length of the
    # "http://" or "https://" the text starts with, if any)
    scheme_a = 0
    while k:
        b = _http_prefix(u + scheme_a + k, m - scheme_a - k)
        if b == 0:
            break
        scheme_a += k
        k = b
        scheme_end = scheme_a + k - 3

    # 2. split: scheme, //authority, path, ?query (the fragment is gone)
    i = scheme_end + 1
    b = m
    auth_a = auth_b = -1
    if b - i >= 2 and u[i] == 47 and u[i + 1] == 47:
        auth_a = i + 2
        i = fu_stop_1(u, auth_a, b, 47, 63, 63, 63)  # the first "/" or "?"
        auth_b = i
    path_a = i
    # the path ends at "?"; on the way, what it seldom holds: a "%" to
    # decode, a "(" that a session-ID pattern needs (rare: the first)
    i = fu_stop_1(u, i, b, 63, 37, 40, 40)  # "?", "%", "("
    rare = i
    if i < b and u[i] != 63:
        i = fu_stop_1(u, i, b, 63, 63, 63, 63)
    path_b = i
    q_a = q_b = -1
    if i < b:
        q_a = i + 1
        q_b = b

    # 3. host and port as urllib.parse reads a netloc: after the last "@";
    # a bracketed host, else up to the first ":"; port digits only
    host_a = host_b = 0
    if auth_a >= 0:
        b = auth_b
        while b > auth_a and u[b - 1] == 58:
            b -= 1
        host_a = auth_a
        host_b = fu_stop_1(u, auth_a, b, 64, 58, 91, 91)  # "@", ":", "["
        if host_b < b:  # userinfo, a port or brackets (most have none)
            if fu_stop_1(u, auth_a, b, 64, 64, 64, 64) < b:  # an "@": the host follows the last
                for i in range(auth_a, b):
                    if u[i] == 64:
                        host_a = i + 1
            i = fu_stop_1(u, host_a, b, 91, 91, 91, 91)  # "["
            bracket = i < b
            if bracket:
                host_a = i + 1
                host_b = fu_find_byte(u, host_a, b, 93)  # "]"
                i = fu_find_byte(u, host_b, b, 58)
            else:
                host_b = fu_stop_1(u, host_a, b, 58, 58, 58, 58)  # ":"
                i = host_b
            port_a = i + 1 if i < b else b
            if port_a < b:
                port = 0
                for i in range(port_a, b):
                    if not 48 <= u[i] <= 57:
                        key[0] = u + port_a
                        size[0] = b - port_a
                        return SURT_PORT
                    if port <= 65535:
                        port = port * 10 + (u[i] - 48)
                if port > 65535:
                    return SURT_RANGE
                if port == 0:
                    port = -1
    has_path = path_b > path_a
    has_query = q_b > q_a
    if (host_b == host_a and has_path and scheme_end - scheme_a >= 4
            and _starts(u + scheme_a, 4, b"http", 4)):
        # "http:////host/path": the host is the first segment after the
        # slashes, the path "/" and what follows it
        i = path_a
        while i < path_b and u[i] == 47:
            i += 1
        host_a = i
        while i < path_b and u[i] != 47:
            i += 1
        host_b = i
        path_a = i
        if i == path_b:
            u[m] = 47  # the path is "/": one byte past the text
            path_a = m
            path_b = m + 1
    # every later stage writes at most 3x its input, into its own region,
    # with the 16 bytes past it fasturi_surt.h's steps may read or write:
    # h1, h2 (the host), p1, p2 (the path), q1, q2 (the query), then the
    # spans; those most URLs never use are placed only when needed
    h1 = u + m + 16
    h2 = h1 + (host_b - host_a) + 16
    p1 = h2 + 3 * (host_b - host_a) + 24
    p2 = p1 + (path_b - path_a) + 16
    q1 = p2 + (path_b - path_a) + 16

    # 4. the host: most need only lowercasing, and lose a "www" label
    host = h2
    if host_b > host_a:
        hn = fu_surt_plain_host(u + host_a, host_b - host_a, h2)
        if hn > 0:
            k = _strip_www(h2, hn)
            host = h2 + k
            hn -= k
        else:
            hn = host_b - host_a
            memcpy(h1, u + host_a, <size_t>hn)
            hn = _host_key(h1, hn, h2)
        if hn < 0:
            # IDNA, then the same steps over the A-label text (h1 was
            # decoded in place: decode a fresh copy); the heap holds it,
            # its host and the key
            memcpy(h1, u + host_a, <size_t>(host_b - host_a))
            hn = _idna(h1, _unescape(h1, host_b - host_a), heap, 3 * n + 64)
            if hn < 0:
                return SURT_MEMORY
            host = heap[0] + hn
            out = host + 3 * hn + 16
            hn = _host_tail(heap[0], hn, host)
    # 5. the key begins: host,reversed,labels[:port]) or scheme:
    if port == 80 or port == 443:
        # the scheme's default port: http 80, https 443 (any case)
        k = scheme_end - scheme_a
        if port == (80 if k == 4 else 443) and (k == 4 or k == 5):
            for i in range(k):
                if (u[scheme_a + i] | 32) != <uint8_t>(b"https"[i]):
                    break
            else:
                port = -1
    if hn > 0:
        j = fu_surt_reverse_labels(host, hn, out)
        if port >= 0:
            out[j] = 58
            j += 1
            k = 10000
            while k > port and k > 1:
                k //= 10
            while k:
                out[j] = <uint8_t>(48 + (port // k) % 10)
                j += 1
                k //= 10
        out[j] = 41
        j += 1
    else:
        memcpy(out, u + scheme_a, <size_t>(scheme_end - scheme_a))
        j = scheme_end - scheme_a
        out[j] = 58
        j += 1
    # 6. the path, into the key: decoded, dot segments gone (with a host),
    # escaped, lowercased, session segment gone, trailing "/" gone
    path = out + j
    if has_path:
        pn = path_b - path_a
        decoded = u + path_a  # decoded in a copy only if it has a "%"
        if rare < path_b and fu_stop_1(decoded, 0, pn, 37, 37, 37, 37) < pn:
            memcpy(p1, decoded, <size_t>pn)
            pn = _unescape(p1, pn)
            decoded = p1
        k = fu_surt_escape_plain_path(decoded, pn, path) if hn > 0 else -1
        if k < 0:  # with a host, segments to remove first
            if hn > 0:
                pn = _path(decoded, pn, p2, _spans_past(q1, q_b - q_a))
                decoded = p2
            k = fu_surt_escape_lower(decoded, pn, path)
        pn = k
        if rare < path_b and _path_session(path, pn):
            pn = _session(path, pn, False)
            if pn < 0:
                return SURT_MEMORY
        if pn > 1 and path[pn - 1] == 47:
            pn -= 1
    elif hn > 0:
        path[0] = 47
        pn = 1
    j += pn
    # 7. the query, into the key after "?" (and "/" when there is no
    # path): decoded, escaped, lowercased, session fields gone, fields
    # sorted
    if has_query:
        qn = q_b - q_a
        q2 = q1 + qn + 16
        decoded = u + q_a
        if fu_stop_1(decoded, 0, qn, 37, 37, 37, 37) < qn:
            memcpy(q1, decoded, <size_t>qn)
            qn = _unescape(q1, qn)
            decoded = q1
        qn = fu_surt_escape_lower(decoded, qn, q2)
        if _session_name(q2, qn):
            qn = _session(q2, qn, True)
            if qn < 0:
                return SURT_MEMORY
        qn = _sort_query(q2, qn, out + j + (pn == 0) + 1, _spans_past(q1, q_b - q_a))
        if qn > 0:
            if pn == 0:
                out[j] = 47
                j += 1
            out[j] = 63
            j += qn + 1
    key[0] = out
    size[0] = j
    return 0


cdef inline Py_ssize_t _text_start(const uint8_t *s, Py_ssize_t n) noexcept nogil:
    # Where _key's text starts, past leading spaces; or the two forms _key
    # leaves out: n for blank text (its key is "-"), -1 for a "filedesc"
    # line (a CDX header, kept as it is).
    cdef Py_ssize_t a = 0
    while a < n and _is_space(s[a]):
        a += 1
    if a < n and _starts(s, n, b"filedesc", 8):
        return -1
    return a


cdef int _surt_key(const uint8_t *src, Py_ssize_t n, uint8_t *mem, uint8_t *dest,
                   const uint8_t **key, Py_ssize_t *size, uint8_t **heap,
                   bint *wide) noexcept nogil:
    cdef Py_ssize_t a = _text_start(src, n)
    heap[0] = NULL
    wide[0] = False
    if a == n:
        key[0] = <const uint8_t *>b"-"
        size[0] = 1
        return 0
    if a < 0:
        wide[0] = not fu_is_ascii(src, n)
        key[0] = src
        size[0] = n
        return 0
    return _key(src + a, n - a, mem, dest, key, size, heap, wide)


cdef object _surt_error(int rc, const uint8_t *key, Py_ssize_t size):
    cdef bytes held
    if rc == SURT_PORT:
        held = PyBytes_FromStringAndSize(<const char *>key, size)
        return ValueError(f"surt() port is not a number: {held.decode('latin-1')!r}")
    if rc == SURT_RANGE:
        return ValueError("surt() port out of range 0-65535")
    return MemoryError()


def surt(s):
    """The SURT key of ``s`` (the ``surt`` package's default form).

    ``ValueError`` when the port is not a number in 0-65535.
    """
    cdef const uint8_t *data
    cdef const uint8_t *key
    cdef Py_ssize_t n, size, a
    cdef bytes raw
    cdef uint8_t stack[STACK]
    cdef uint8_t *mem = stack
    cdef uint8_t *heap = NULL
    cdef int rc
    cdef bint wide  # (a str's UTF-8 is valid)
    cdef str result
    if not isinstance(s, str):
        raise TypeError(f"surt() argument 's' must be str, not {type(s).__name__}")
    if PyUnicode_IS_ASCII(s):
        data = <const uint8_t *>PyUnicode_DATA(s)
        n = PyUnicode_GET_LENGTH(s)
    else:
        raw = (<str>s).encode("utf-8")
        data = <const uint8_t *><const char *>raw
        n = len(raw)
    a = _text_start(data, n)
    if a == n:
        return "-"
    if a < 0:
        return s
    if MEM(n) > STACK:
        mem = <uint8_t *>PyMem_Malloc(<size_t>MEM(n))
        if mem == NULL:
            raise MemoryError()
    try:
        rc = _key(data + a, n - a, mem, NULL, &key, &size, &heap, &wide)
        if rc:
            raise _surt_error(rc, key, size)
        result = PyUnicode_New(size, 127)  # the key is ASCII
        memcpy(PyUnicode_DATA(result), key, <size_t>size)
        return result
    finally:
        free(heap)
        if mem != stack:
            PyMem_Free(mem)
