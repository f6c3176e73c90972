/* fasturi_cli.h: what the command line's block path needs beyond the column
 * kernels: its one TSV escaping rule, and audit's prefilter.
 *
 * fu_tsv_escape(o, p, n) writes the n bytes at p to o escaped (or, with o
 * NULL, only measures them), and returns the escaped length.  The rule
 * (docs/cli.md): "\" is written "\\"; TAB, LF and CR "\t", "\n", "\r"; every
 * other C0 control and DEL "\xHH"; the C1 controls U+0080-U+009F and the
 * line and paragraph separators U+2028, U+2029 (which some readers take for
 * line ends) "\uHHHH".  Every other byte is written as it is.  Sixteen bytes
 * at a time with SSE2: a block with none of "\", a control, DEL, or the lead
 * bytes 0xC2 and 0xE2 is copied whole.
 *
 * fu_audit_scope(p, n): what audit() could find in a row that is a valid
 * URI-reference (_audit._scope is its reference, tested against audit):
 * FU_AUDIT_ALL where a finding about the authority or the host is possible
 * (an authority with a "%", "@" or an IPvFuture, an IP-literal with "ffff"
 * (an IPv4-mapped IPv6 address has it), or a host that inet_aton()
 * could read as a number, which starts with a digit and has only hexadecimal
 * digits, "x" and ".", and is no dotted-decimal IPv4address;
 * a file URL's authority with a ":"; or a special scheme with no host,
 * where the URL Standard reads one in the path); else FU_AUDIT_ESCAPES where a percent-encoded control, or in
 * the path an encoded delimiter or "." is; else FU_AUDIT_NOTHING.
 *
 * fu_audit_escapes(p, n, &e): for a valid URI-reference of scope
 * FU_AUDIT_ESCAPES, every fact its findings are written from (the first
 * occurrence, its position and the count of each kind), so that the command
 * line only formats them (_audit._escape_findings; _audit._escape_facts is
 * the reference, tested against audit).  A valid reference is ASCII: byte
 * offsets are code point positions.
 */
#ifndef FASTURI_CLI_H
#define FASTURI_CLI_H

#include <stdint.h>
#include <string.h>

#include "fasturi_base.h"
#include "fasturi_rules.h"
#include "fasturi_scan.h"

/* Whether byte c is written as it is, wherever it stands. */
static inline int fu_tsv_plain(uint8_t c)
{
    return c >= 0x20 && c != 0x7f && c != '\\' && c != 0xc2 && c != 0xe2;
}

/* The escape of the character at p[i] (*w of its bytes are consumed),
 * written at o unless o is NULL; its length. */
static inline int64_t fu_tsv_escape_at(uint8_t *o, const uint8_t *p, int64_t n, int64_t i, int *w)
{
    static const char hex[] = "0123456789abcdef";
    uint8_t c = p[i];
    *w = 1;
    if (c == '\\' || c == '\t' || c == '\n' || c == '\r') {
        if (o) {
            o[0] = '\\';
            o[1] = c == '\\' ? '\\' : c == '\t' ? 't' : c == '\n' ? 'n' : 'r';
        }
        return 2;
    }
    if (c < 0x20 || c == 0x7f) {
        if (o) {
            o[0] = '\\';
            o[1] = 'x';
            o[2] = (uint8_t)hex[c >> 4];
            o[3] = (uint8_t)hex[c & 15];
        }
        return 4;
    }
    if (c == 0xc2 && i + 1 < n && p[i + 1] >= 0x80 && p[i + 1] <= 0x9f) {
        *w = 2;
        if (o) {
            memcpy(o, "\\u00", 4);
            o[4] = (uint8_t)hex[p[i + 1] >> 4];
            o[5] = (uint8_t)hex[p[i + 1] & 15];
        }
        return 6;
    }
    if (c == 0xe2 && i + 2 < n && p[i + 1] == 0x80 && (p[i + 2] == 0xa8 || p[i + 2] == 0xa9)) {
        *w = 3;
        if (o)
            memcpy(o, p[i + 2] == 0xa8 ? "\\u2028" : "\\u2029", 6);
        return 6;
    }
    if (o)
        o[0] = c;
    return 1;
}

#if FU_SSE2
/* A bit for each byte of x that fu_tsv_plain() refuses. */
static inline unsigned fu_tsv_mask16(__m128i x)
{
    __m128i m = _mm_cmpeq_epi8(_mm_min_epu8(x, _mm_set1_epi8(0x1f)), x); /* x <= 0x1f */
    m = _mm_or_si128(m, _mm_cmpeq_epi8(x, _mm_set1_epi8(0x7f)));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(x, _mm_set1_epi8('\\')));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(x, _mm_set1_epi8((char)0xc2)));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(x, _mm_set1_epi8((char)0xe2)));
    return (unsigned)_mm_movemask_epi8(m);
}

/* A bit for each byte of x that is not printable ASCII, or is "\": what
 * fu_tsv_copy_plain() leaves to fu_tsv_escape().  A signed compare: bytes
 * from 0x80 are below 0x20. */
static inline unsigned fu_tsv_rare16(__m128i x)
{
    __m128i m = _mm_cmplt_epi8(x, _mm_set1_epi8(0x20));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(x, _mm_set1_epi8(0x7f)));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(x, _mm_set1_epi8('\\')));
    return (unsigned)_mm_movemask_epi8(m);
}
#endif

/* p[0, n) escaped, written at o unless o is NULL (then only measured);
 * the length of the escaped text.  With SSE2 a row of 16 bytes or more is
 * read in blocks, its last partial block as the row's last 16 bytes, whose
 * first ones the output already holds when they were copied as they are
 * ("same" counts the output bytes that are their input's). */
static inline int64_t fu_tsv_escape(uint8_t *o, const uint8_t *p, int64_t n)
{
    int64_t i = 0, len = 0, ret;
    int w;
#if FU_SSE2
    int64_t same = 0;
    while (i + 16 <= n) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
        unsigned bits = fu_tsv_mask16(x);
        if (bits == 0) {
            if (o)
                _mm_storeu_si128((__m128i *)(void *)(o + len), x);
            len += 16;
            i += 16;
            same += 16;
            continue;
        }
        bits = fu_ctz(bits);
        if (o)
            memcpy(o + len, p + i, bits);
        len += bits;
        i += bits;
        ret = fu_tsv_escape_at(o ? o + len : NULL, p, n, i, &w);
        same = ret == w ? same + bits + w : 0;
        len += ret;
        i += w;
    }
    if (i < n && n >= 16) {
        int64_t r = i - (n - 16); /* bytes of the last 16 already done */
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(p + n - 16));
        if ((fu_tsv_mask16(x) >> r) == 0 && (!o || same >= r)) {
            if (o)
                _mm_storeu_si128((__m128i *)(void *)(o + len - r), x);
            return len + (n - i);
        }
    }
#endif
    while (i < n) {
        if (fu_tsv_plain(p[i])) {
            if (o)
                o[len] = p[i];
            len++;
            i++;
        } else {
            len += fu_tsv_escape_at(o ? o + len : NULL, p, n, i, &w);
            i += w;
        }
    }
    return len;
}

/* p[0, n) copied to o when it is printable ASCII without "\": the end of
 * the copy; else NULL (o then holds part of it), and fu_tsv_escape() has
 * the row.  One pass, 16 bytes a step, the last partial block as the last
 * 16 bytes: nearly every row is checked as it is copied. */
static inline uint8_t *fu_tsv_copy_plain(uint8_t *o, const uint8_t *p, int64_t n)
{
    int64_t i = 0;
#if FU_SSE2
    if (n >= 16) {
        __m128i x;
        for (; i + 16 <= n; i += 16) {
            x = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
            if (fu_tsv_rare16(x))
                return NULL;
            _mm_storeu_si128((__m128i *)(void *)(o + i), x);
        }
        if (i < n) {
            x = _mm_loadu_si128((const __m128i *)(const void *)(p + n - 16));
            if (fu_tsv_rare16(x))
                return NULL;
            _mm_storeu_si128((__m128i *)(void *)(o + n - 16), x);
        }
        return o + n;
    }
#endif
    for (; i < n; i++) {
        if (p[i] < 0x20 || p[i] >= 0x7f || p[i] == '\\')
            return NULL;
        o[i] = p[i];
    }
    return o + n;
}

enum { FU_AUDIT_NOTHING, FU_AUDIT_ESCAPES, FU_AUDIT_ALL };

/* Whether p[0, n) is one of the schemes names[from, to) (in any case):
 * "file" and then the schemes whose URLs the URL Standard gives a host
 * however few slashes follow ("http:x" reads the host "x"). */
static inline int fu_audit_scheme(const uint8_t *p, int64_t n, size_t from, size_t to)
{
    static const char *const names[] = { "file", "http", "https", "ws", "wss", "ftp" };
    size_t k;
    int64_t i;
    for (k = from; k < to; k++) {
        if ((int64_t)strlen(names[k]) != n)
            continue;
        for (i = 0; i < n && (p[i] | 0x20) == (uint8_t)names[k][i]; i++)
            ;
        if (i == n)
            return 1;
    }
    return 0;
}

/* What fu_audit_scope() looks for in a reference's scheme and authority. */
enum { FU_AU_STOP = 1, FU_AU_COLON = 2, FU_AU_ALL = 4, FU_AU_BRACKET = 8 };
static const uint8_t fu_audit_class[256] = {
    /* the end of a scheme, an authority */
    ['/'] = FU_AU_STOP,
    ['?'] = FU_AU_STOP,
    ['#'] = FU_AU_STOP,
    /* the end of a scheme, a host */
    [':'] = FU_AU_COLON,
    /* an authority audit() must read whole */
    ['%'] = FU_AU_ALL,
    ['@'] = FU_AU_ALL,
    /* with a "v" after it: an IPvFuture, which urllib.parse reads unbracketed */
    ['['] = FU_AU_BRACKET,
};

#if FU_SSE2
/* A bit for each byte of x that fu_audit_class marks. */
static inline unsigned fu_audit_mask16(__m128i x)
{
    __m128i m = _mm_cmpeq_epi8(x, _mm_set1_epi8('/'));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(x, _mm_set1_epi8('?')));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(x, _mm_set1_epi8('#')));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(x, _mm_set1_epi8(':')));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(x, _mm_set1_epi8('%')));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(x, _mm_set1_epi8('@')));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(x, _mm_set1_epi8('[')));
    return (unsigned)_mm_movemask_epi8(m);
}
#endif

/* Whether the authority from p[i] holds "ffff" (any case), as an
 * IPv4-mapped IPv6 address (::ffff:0:0/96) does. */
static inline int fu_audit_ffff(const uint8_t *p, int64_t i, int64_t n)
{
    int run = 0;
    for (; i < n && !(fu_audit_class[p[i]] & FU_AU_STOP); i++) {
        run = (p[i] | 0x20) == 'f' ? run + 1 : 0;
        if (run == 4)
            return 1;
    }
    return 0;
}

/* The first byte from p[i] on that fu_audit_class marks, or n.  Schemes and
 * authorities are mostly a dozen bytes and more of letters and dots, read a
 * byte at a time at several times the cost: with SSE2, 16 bytes at a time,
 * the row's last partial block as its last 16 bytes. */
static inline int64_t fu_audit_mark(const uint8_t *p, int64_t i, int64_t n)
{
#if FU_SSE2
    unsigned bits;
    for (; i + 16 <= n; i += 16) {
        bits = fu_audit_mask16(_mm_loadu_si128((const __m128i *)(const void *)(p + i)));
        if (bits)
            return i + fu_ctz(bits);
    }
    if (i < n && n >= 16) {
        bits = fu_audit_mask16(_mm_loadu_si128((const __m128i *)(const void *)(p + n - 16)));
        bits >>= i - (n - 16); /* (the bytes before i are done) */
        return bits ? i + fu_ctz(bits) : n;
    }
#endif
    while (i < n && !fu_audit_class[p[i]])
        i++;
    return i;
}

static inline int fu_audit_scope(const uint8_t *p, int64_t n)
{
    const uint8_t *cls = fu_audit_class;
    int64_t i, a = 0, auth = -1, auth_end = 0, path, path_end, host_end;
    int escapes = 0, scheme;
    uint8_t k;
    /* Appendix B: a scheme is the text before a first ":" that has none of
     * "/?#" before it; the authority follows a "//" right after it */
    while ((a = fu_audit_mark(p, a, n)) < n && !(cls[p[a]] & (FU_AU_STOP | FU_AU_COLON)))
        a++;
    scheme = a > 0 && a < n && p[a] == ':';
    path = scheme ? a + 1 : 0;
    if (path + 1 < n && p[path] == '/' && p[path + 1] == '/') {
        auth = path + 2;
        host_end = -1;
        for (auth_end = auth; (auth_end = fu_audit_mark(p, auth_end, n)) < n; auth_end++) {
            k = cls[p[auth_end]];
            if (k == FU_AU_STOP)
                break;
            if (k == FU_AU_ALL)
                return FU_AUDIT_ALL;
            if (k == FU_AU_BRACKET && auth_end + 1 < n && (p[auth_end + 1] | 0x20) == 'v')
                return FU_AUDIT_ALL;
            if (k == FU_AU_BRACKET && auth_end == auth && fu_audit_ffff(p, auth, n))
                return FU_AUDIT_ALL;
            if (k == FU_AU_COLON && host_end < 0)
                host_end = auth_end;
        }
        if (host_end < 0)
            host_end = auth_end;
        path = auth_end;
        if (auth < host_end && (uint8_t)(p[auth] - '0') < 10) {
            for (i = auth; i < host_end; i++)
                if (!fu_is_hex(p[i]) && p[i] != '.' && (p[i] | 0x20) != 'x')
                    break;
            if (i == host_end && fu_m_ipv4(p, auth, host_end) != host_end)
                return FU_AUDIT_ALL;
        }
        /* the URL Standard reads "file://c:/" as a drive letter, no host */
        if (host_end < auth_end && scheme && fu_audit_scheme(p, a, 0, 1))
            return FU_AUDIT_ALL;
    }
    if (scheme && (auth < 0 || auth == auth_end) && fu_audit_scheme(p, a, 1, 6))
        return FU_AUDIT_ALL;
    /* every "%" of a valid row has two hexadecimal digits after it; most
     * rows have none, found by one memchr() */
    path_end = -1;
    for (i = 0; i + 2 < n && !escapes; i++) {
        const uint8_t *e = memchr(p + i, '%', (size_t)(n - 2 - i));
        uint8_t hi, lo;
        if (e == NULL)
            break;
        i = e - p;
        hi = p[i + 1];
        lo = p[i + 2] | 0x20;
        if (hi == '0' || hi == '1' || (hi == '7' && lo == 'f')) {
            escapes = 1;
        } else if (i >= path) {
            if (path_end < 0)
                for (path_end = path; path_end < n && p[path_end] != '?' && p[path_end] != '#';)
                    path_end++;
            escapes = i < path_end
                      && ((hi == '2' && (lo == '3' || lo == 'e' || lo == 'f'))
                          || (hi == '3' && (lo == 'a' || lo == 'f')) || (hi == '4' && lo == '0')
                          || (hi == '5' && lo >= 'b' && lo <= 'd'));
        }
    }
    return escapes ? FU_AUDIT_ESCAPES : FU_AUDIT_NOTHING;
}

/* What audit() reports of a reference of scope FU_AUDIT_ESCAPES: each count
 * is 0 where there is none of that kind. */
typedef struct {
    /* the percent-encoded controls (%00-%1F, %7F), anywhere */
    int64_t control_at, controls;
    /* the encoded delimiters of the path (gen-delims and "\") */
    int64_t delimiter_at, delimiters;
    /* the path segments that decode to a dot segment: the first one's
     * bounds and its first dot segment's length, 1 (".") or 2 ("..") */
    int64_t segment_at, segment_end, segments;
    int dots;
} fu_audit_escapes_t;

/* The escape at p[i] ("%" and two hexadecimal digits, as in a valid row):
 * its two digits, the second lowercased, as one number, FU_AUDIT_ESC('2',
 * 'f') for "%2F" and "%2f".  (The first digit needs no case: every escape
 * audit() names has a decimal one.) */
#define FU_AUDIT_ESC(hi, lo) ((hi) << 8 | (lo))
static inline int fu_audit_escape_at(const uint8_t *p, int64_t i)
{
    return FU_AUDIT_ESC(p[i + 1], p[i + 2] | 0x20);
}

/* Whether the escape is one _ENCODED_DELIMITER matches: ":" "/" "?" "#"
 * "[" "\" "]" "@". */
static inline int fu_audit_delimiter(int e)
{
    return e == FU_AUDIT_ESC('3', 'a') || e == FU_AUDIT_ESC('3', 'f') || e == FU_AUDIT_ESC('2', 'f')
           || e == FU_AUDIT_ESC('2', '3') || e == FU_AUDIT_ESC('5', 'b')
           || e == FU_AUDIT_ESC('5', 'c') || e == FU_AUDIT_ESC('5', 'd')
           || e == FU_AUDIT_ESC('4', '0');
}

/* The first dot segment that the path segment p[a, b) holds once %2E, %2F
 * and %5C are decoded and it is split at "/" and "\": 1 for ".", 2 for "..",
 * else 0.  (Only a segment with a "%" in it is asked: a raw dot segment is
 * no finding.) */
static inline int fu_audit_dot_segment(const uint8_t *p, int64_t a, int64_t b)
{
    int64_t i = a;
    int dots = 0, other = 0, e;
    for (;;) {
        e = i < b && p[i] == '%' ? fu_audit_escape_at(p, i) : 0;
        if (i == b || e == FU_AUDIT_ESC('2', 'f') || e == FU_AUDIT_ESC('5', 'c')) {
            /* a piece ends: a dot segment if it is one or two dots */
            if (!other && (dots == 1 || dots == 2))
                return dots;
            if (i == b)
                return 0;
            dots = other = 0;
            i += 3;
            continue;
        }
        if (e == FU_AUDIT_ESC('2', 'e') || p[i] == '.')
            dots += dots < 3;
        else
            other = 1;
        i += e ? 3 : 1;
    }
}

static inline void fu_audit_escapes(const uint8_t *p, int64_t n, fu_audit_escapes_t *f)
{
    int64_t path, path_end, i, seg;
    int e, dots, escaped;
    fu_split_t parts;
    memset(f, 0, sizeof *f);
    fu_split_1(p, (ptrdiff_t)n, &parts); /* the path's bounds: Appendix B */
    path = parts.path_start;
    path_end = parts.path_end;
    /* one pass over the escapes: every "%" of a valid row begins one */
    seg = path;
    escaped = 0;
    for (i = 0; i < n; i++) {
        if (i >= path && i <= path_end && (i == path_end || p[i] == '/')) {
            /* a path segment ends */
            if (escaped && (dots = fu_audit_dot_segment(p, seg, i)) != 0 && !f->segments++) {
                f->segment_at = seg;
                f->segment_end = i;
                f->dots = dots;
            }
            seg = i + 1;
            escaped = 0;
        }
        if (p[i] != '%')
            continue;
        e = fu_audit_escape_at(p, i);
        if ((e >> 8) == '0' || (e >> 8) == '1' || e == FU_AUDIT_ESC('7', 'f')) {
            if (!f->controls++)
                f->control_at = i;
        }
        if (i >= path && i < path_end) {
            escaped = 1;
            if (fu_audit_delimiter(e) && !f->delimiters++)
                f->delimiter_at = i;
        }
        i += 2;
    }
    /* (a path that ends the row ends its last segment at n) */
    if (path_end == n && escaped && (dots = fu_audit_dot_segment(p, seg, n)) != 0
        && !f->segments++) {
        f->segment_at = seg;
        f->segment_end = n;
        f->dots = dots;
    }
}
#undef FU_AUDIT_ESC

#endif
