/* fasturi_whatwg_host.h: the URL Standard's host parser (§3.5) and host
   serializer (§3.6): IPv6 addresses (compression, an IPv4 address in the
   last two pieces), opaque hosts (the C0 control percent-encode set),
   domains (percent-decoding, ASCII lowercasing, the forbidden domain code
   points) and IPv4 addresses in all their number forms ("ends in a
   number", decimal, octal and hexadecimal parts, fewer than four parts).

   Domain to ASCII of a domain beyond ASCII (UTS #46) runs through the
   fu_ww_idna hook (fasturi_idna.h's domain parser: the module that links
   the Unicode tables sets it).  Where its result is longer than three
   bytes for each of the host's (or the hook is not set), the parser
   returns FU_WW_HOST with the host state's buffer in u->need: the caller
   serializes that host alone (fu_ww_host_alone) and parses the input
   again with it in u->given, which the host parser then writes as it is.

   fu_ww_host takes the host state's buffer h[0..n) (UTF-8; not empty
   unless opaque) and writes the host serialized at out + *po: at most
   3n + 41 bytes (an opaque host percent-encoded, an IPv4 or IPv6 address
   written longer than read), plus u->given_len.  Failures set u->error
   to the standard's name for them.  Expects fasturi_whatwg_url.h. */
#ifndef FASTURI_WHATWG_HOST_H
#define FASTURI_WHATWG_HOST_H

#include <stdlib.h>

#include "fasturi_whatwg_url.h"

/* ---- IPv6 ---------------------------------------------------------------- */

/* The IPv6 parser over s[0..n) (between the brackets): 0, or the failure
   (FU_WW_E_*). */
static inline int fu_ww_ipv6_parse(const uint8_t *s, ptrdiff_t n, uint16_t *address)
{
    int piece = 0, compress = -1;
    ptrdiff_t p = 0;
    memset(address, 0, 8 * sizeof *address);
    if (p < n && s[p] == ':') {
        if (p + 1 >= n || s[p + 1] != ':')
            return FU_WW_E_IPV6_INVALID_COMPRESSION;
        p += 2;
        compress = ++piece;
    }
    while (p < n) {
        if (piece == 8)
            return FU_WW_E_IPV6_TOO_MANY_PIECES;
        if (s[p] == ':') {
            if (compress != -1)
                return FU_WW_E_IPV6_MULTIPLE_COMPRESSION;
            p++;
            compress = ++piece;
            continue;
        }
        unsigned value = 0;
        int length = 0;
        while (length < 4 && p < n && fu_hexval(s[p]) >= 0) {
            value = value * 16 + (unsigned)fu_hexval(s[p]);
            p++;
            length++;
        }
        if (p < n && s[p] == '.') {
            /* an IPv4 address in the last two pieces */
            if (length == 0)
                return FU_WW_E_IPV4_IN_IPV6_INVALID_CODE_POINT;
            p -= length;
            if (piece > 6)
                return FU_WW_E_IPV4_IN_IPV6_TOO_MANY_PIECES;
            int seen = 0;
            while (p < n) {
                int v = -1;
                if (seen > 0) {
                    if (s[p] == '.' && seen < 4)
                        p++;
                    else
                        return FU_WW_E_IPV4_IN_IPV6_INVALID_CODE_POINT;
                }
                if (p >= n || !fu_ww_digit(s[p]))
                    return FU_WW_E_IPV4_IN_IPV6_INVALID_CODE_POINT;
                while (p < n && fu_ww_digit(s[p])) {
                    int d = s[p] - '0';
                    if (v == -1)
                        v = d;
                    else if (v == 0)
                        return FU_WW_E_IPV4_IN_IPV6_INVALID_CODE_POINT;
                    else
                        v = v * 10 + d;
                    if (v > 255)
                        return FU_WW_E_IPV4_IN_IPV6_OUT_OF_RANGE_PART;
                    p++;
                }
                address[piece] = (uint16_t)(address[piece] * 0x100 + v);
                seen++;
                if (seen == 2 || seen == 4)
                    piece++;
            }
            if (seen != 4)
                return FU_WW_E_IPV4_IN_IPV6_TOO_FEW_PARTS;
            break;
        } else if (p < n && s[p] == ':') {
            p++;
            if (p >= n)
                return FU_WW_E_IPV6_INVALID_CODE_POINT;
        } else if (p < n) {
            return FU_WW_E_IPV6_INVALID_CODE_POINT;
        }
        address[piece++] = (uint16_t)value;
    }
    if (compress != -1) {
        int swaps = piece - compress;
        piece = 7;
        while (piece != 0 && swaps > 0) {
            uint16_t x = address[piece];
            address[piece] = address[compress + swaps - 1];
            address[compress + swaps - 1] = x;
            piece--;
            swaps--;
        }
    } else if (piece != 8) {
        return FU_WW_E_IPV6_TOO_FEW_PIECES;
    }
    return 0;
}

/* The IPv6 serializer: the first longest run of two or more zero pieces is
   "::", the pieces lowercase hex without leading zeros.  Returns the end. */
static inline uint8_t *fu_ww_ipv6_write(const uint16_t *a, uint8_t *o)
{
    int compress = -1, best = 1;
    for (int i = 0; i < 8;) {
        int j = i;
        while (j < 8 && a[j] == 0)
            j++;
        if (j - i > best) {
            best = j - i;
            compress = i;
        }
        i = j > i ? j : i + 1;
    }
    int ignore0 = 0;
    for (int i = 0; i < 8; i++) {
        if (ignore0 && a[i] == 0)
            continue;
        ignore0 = 0;
        if (compress == i) {
            *o++ = ':';
            if (i == 0)
                *o++ = ':';
            ignore0 = 1;
            continue;
        }
        int shift = 12;
        while (shift > 0 && ((a[i] >> shift) & 15) == 0)
            shift -= 4;
        for (; shift >= 0; shift -= 4)
            *o++ = (uint8_t)fu_hex_lower[(a[i] >> shift) & 15];
        if (i != 7)
            *o++ = ':';
    }
    return o;
}

/* ---- IPv4 ---------------------------------------------------------------- */

/* The IPv4 number parser over p[0..n): 1 and the number in *v (any past
   2^32 as 2^32: every bound it is held to is at most that), or 0
   (failure). */
static inline int fu_ww_ipv4_number(const uint8_t *p, ptrdiff_t n, uint64_t *v)
{
    if (n == 0)
        return 0;
    unsigned r = 10;
    if (n >= 2 && p[0] == '0' && (p[1] | 0x20) == 'x') {
        p += 2;
        n -= 2;
        r = 16;
    } else if (n >= 2 && p[0] == '0') {
        p++;
        n--;
        r = 8;
    }
    uint64_t x = 0;
    for (ptrdiff_t i = 0; i < n; i++) {
        int d = fu_hexval(p[i]);
        if (d < 0 || (unsigned)d >= r)
            return 0;
        x = x * r + (unsigned)d;
        if (x > 0xFFFFFFFFull)
            x = 0x100000000ull;
    }
    *v = x;
    return 1;
}

/* The ends in a number checker over an ASCII domain d[0..n) (n > 0): its
   last label (a trailing empty one left out) is digits, or "0x" and hex
   digits. */
static inline int fu_ww_ends_in_number(const uint8_t *d, ptrdiff_t n)
{
    ptrdiff_t e = n;
    if (d[e - 1] == '.')
        e--;
    ptrdiff_t l = e;
    while (l > 0 && d[l - 1] != '.')
        l--;
    if (l == e)
        return 0;
    ptrdiff_t i = l;
    while (i < e && fu_ww_digit(d[i]))
        i++;
    if (i == e)
        return 1;
    if (e - l < 2 || d[l] != '0' || (d[l + 1] | 0x20) != 'x')
        return 0;
    for (i = l + 2; i < e; i++)
        if (fu_hexval(d[i]) < 0)
            return 0;
    return 1;
}

/* The IPv4 parser over d[0..n): 0 and the address in *v, or the failure. */
static inline int fu_ww_ipv4_parse(const uint8_t *d, ptrdiff_t n, uint32_t *v)
{
    ptrdiff_t e = n;
    if (e > 1 && d[e - 1] == '.')
        e--; /* IPv4-empty-part (not a failure) */
    int parts = 1;
    for (ptrdiff_t i = 0; i < e; i++)
        parts += d[i] == '.';
    if (parts > 4)
        return FU_WW_E_IPV4_TOO_MANY_PARTS;
    uint64_t numbers[4];
    ptrdiff_t a = 0;
    for (int k = 0; k < parts; k++) {
        ptrdiff_t b = a;
        while (b < e && d[b] != '.')
            b++;
        if (!fu_ww_ipv4_number(d + a, b - a, &numbers[k]))
            return FU_WW_E_IPV4_NON_NUMERIC_PART;
        a = b + 1;
    }
    for (int k = 0; k + 1 < parts; k++)
        if (numbers[k] > 255)
            return FU_WW_E_IPV4_OUT_OF_RANGE_PART;
    if (numbers[parts - 1] >= (1ull << (8 * (5 - parts))))
        return FU_WW_E_IPV4_OUT_OF_RANGE_PART;
    uint64_t ipv4 = numbers[parts - 1];
    for (int k = 0; k + 1 < parts; k++)
        ipv4 += numbers[k] << (8 * (3 - k));
    *v = (uint32_t)ipv4;
    return 0;
}

/* The IPv4 serializer.  Returns the end. */
static inline uint8_t *fu_ww_ipv4_write(uint32_t v, uint8_t *o)
{
    for (int shift = 24; shift >= 0; shift -= 8) {
        o = fu_ww_put_port((int32_t)((v >> shift) & 0xFF), o);
        if (shift)
            *o++ = '.';
    }
    return o;
}

/* ---- the host parser ------------------------------------------------------ */

/* Domain to ASCII (the URL Standard's domain parser with beStrict false)
   of a host state's buffer s[0..n), percent-decoded first: written to out
   like snprintf (the result's length, all of it written where it is at
   most cap), or FU_WW_IDNA_FAIL, FU_WW_IDNA_NOMEM; the result is ASCII,
   lowercase, not empty and free of forbidden domain code points.  Set by
   the module that links the Unicode tables (fasturi_idna.h's
   fu_idna_domain_to_ascii with FU_IDNA_PERCENT); NULL: none. */
typedef ptrdiff_t (*fu_ww_idna_t)(const uint8_t *s, ptrdiff_t n, uint8_t *out, ptrdiff_t cap);
static fu_ww_idna_t fu_ww_idna;
#define FU_WW_IDNA_FAIL (-1)
#define FU_WW_IDNA_NOMEM (-2)

/* Percent-decodes s[0..n) into o (as long at most; o may be s); returns
   the length, and in *high whether a byte of the result is beyond ASCII. */
static inline ptrdiff_t fu_ww_pct_decode(const uint8_t *s, ptrdiff_t n, uint8_t *o, int *high)
{
    ptrdiff_t k = 0;
    unsigned any = 0;
    for (ptrdiff_t i = 0; i < n; i++) {
        uint8_t c = s[i];
        if (c == '%' && i + 2 < n && fu_hexval(s[i + 1]) >= 0 && fu_hexval(s[i + 2]) >= 0) {
            c = (uint8_t)(fu_hexval(s[i + 1]) * 16 + fu_hexval(s[i + 2]));
            i += 2;
        }
        any |= c;
        o[k++] = c;
    }
    *high = (any & 0x80) != 0;
    return k;
}

/* The domain d[0..n) (ASCII, not empty) after domain to ASCII: lowercased
   at out + *po, refused where it holds a forbidden domain code point, and
   an IPv4 address where it ends in a number.  1, or FU_WW_FAIL. */
static inline int fu_ww_domain(const uint8_t *d, ptrdiff_t n, uint8_t *out, ptrdiff_t *po,
                               fu_ww_url *u)
{
    uint8_t *o = out + *po;
    for (ptrdiff_t i = 0; i < n; i++) {
        uint8_t c = d[i];
        if (fu_ww_forbidden_domain(c)) {
            u->error = FU_WW_E_DOMAIN_FORBIDDEN;
            return FU_WW_FAIL;
        }
        o[i] = fu_ww_lower(c);
    }
    if (fu_ww_ends_in_number(o, n)) {
        uint32_t v;
        int e = fu_ww_ipv4_parse(o, n, &v);
        if (e) {
            u->error = e;
            return FU_WW_FAIL;
        }
        *po = fu_ww_ipv4_write(v, o) - out;
        return FU_WW_OK;
    }
    *po += n;
    return FU_WW_OK;
}

/* The host parser (see the top). */
static inline int fu_ww_host(const uint8_t *h, ptrdiff_t n, int opaque, uint8_t *out, ptrdiff_t *po,
                             fu_ww_url *u)
{
    ptrdiff_t o = *po;
    if (n > 0 && h[0] == '[') {
        uint16_t address[8];
        int e = h[n - 1] != ']' || n == 1 ? FU_WW_E_IPV6_UNCLOSED
                                          : fu_ww_ipv6_parse(h + 1, n - 2, address);
        if (e) {
            u->error = e;
            return FU_WW_FAIL;
        }
        out[o++] = '[';
        o = fu_ww_ipv6_write(address, out + o) - out;
        out[o++] = ']';
        *po = o;
        return FU_WW_OK;
    }
    if (opaque) {
        for (ptrdiff_t i = 0; i < n; i++) {
            if (fu_ww_forbidden_host(h[i])) {
                u->error = FU_WW_E_HOST_INVALID_CODE_POINT;
                return FU_WW_FAIL;
            }
        }
        *po = fu_ww_encode(h, 0, n, FU_WW_C0, out + o) - out;
        return FU_WW_OK;
    }
    /* the domain: its percent-decoding (never longer), UTF-8 */
    int high;
    ptrdiff_t m = fu_ww_pct_decode(h, n, out + o, &high);
    if (high) {
        /* domain to ASCII by UTS #46, into the host's room (three bytes
           for each of its own), else by the caller */
        if (u->given != NULL) {
            memcpy(out + o, u->given, (size_t)u->given_len);
            *po = o + u->given_len;
            return FU_WW_OK;
        }
        ptrdiff_t r = fu_ww_idna != NULL ? fu_ww_idna(h, n, out + o, 3 * n) : FU_WW_IDNA_NOMEM;
        if (r == FU_WW_IDNA_FAIL) {
            u->error = FU_WW_E_DOMAIN_IDNA;
            return FU_WW_FAIL;
        }
        if (r < 0 || r > 3 * n) {
            u->need = h;
            u->need_len = n;
            return FU_WW_HOST;
        }
        /* (ASCII now: an IPv4 address where it ends in a number) */
        return fu_ww_domain(out + o, r, out, po, u);
    }
    if (m == 0) {
        u->error = FU_WW_E_DOMAIN_EMPTY;
        return FU_WW_FAIL;
    }
    return fu_ww_domain(out + o, m, out, po, u);
}

/* The host parser's serialization of a special URL's host h[0..n) whose
   domain is beyond ASCII (the host FU_WW_HOST names), on its own: into
   *host, malloc'd (the caller frees it), its length in *len.  FU_WW_OK;
   FU_WW_FAIL (u->error); FU_WW_HOST where fu_ww_idna is not set (the
   caller's other host parser then); FU_WW_IDNA_NOMEM. */
static inline int fu_ww_host_alone(const uint8_t *h, ptrdiff_t n, uint8_t **host, ptrdiff_t *len,
                                   fu_ww_url *u)
{
    uint8_t stack[256];
    uint8_t *buf = stack;
    ptrdiff_t r, cap = (ptrdiff_t)sizeof stack;
    *host = NULL;
    if (fu_ww_idna == NULL)
        return FU_WW_HOST;
    for (;;) {
        r = fu_ww_idna(h, n, buf, cap);
        if (r < 0 || r <= cap)
            break;
        if (buf != stack)
            free(buf);
        cap = r;
        buf = (uint8_t *)malloc((size_t)cap);
        if (buf == NULL)
            return FU_WW_IDNA_NOMEM;
    }
    if (r == FU_WW_IDNA_FAIL || r == FU_WW_IDNA_NOMEM) {
        if (buf != stack)
            free(buf);
        u->error = FU_WW_E_DOMAIN_IDNA;
        return r == FU_WW_IDNA_FAIL ? FU_WW_FAIL : FU_WW_IDNA_NOMEM;
    }
    /* the IPv4 parser where it ends in a number: 15 bytes at most */
    uint8_t *out = (uint8_t *)malloc((size_t)(r > 15 ? r : 15));
    ptrdiff_t o = 0;
    int rc = out == NULL ? FU_WW_IDNA_NOMEM : fu_ww_domain(buf, r, out, &o, u);
    if (buf != stack)
        free(buf);
    if (rc != FU_WW_OK) {
        free(out);
        return rc;
    }
    *host = out;
    *len = o;
    return FU_WW_OK;
}

#endif /* FASTURI_WHATWG_HOST_H */
