/* fasturi_whatwg_parse.h: the URL Standard's basic URL parser (§4.4)
   without state override, every state: the scheme, no-scheme, relative,
   authority, host, port, file, path and opaque path, query and fragment
   states, leading and trailing C0 control or space trimmed and every tab
   and newline removed first; then the URL serializer's "/." before a path
   that would read as an authority.  Every input gives its URL or the
   failure, named (fu_ww_url.error), or for a domain beyond ASCII whose
   ASCII form is longer than its room, FU_WW_HOST (see
   fasturi_whatwg_host.h).

   The URL is written as the URL serializer writes it, in order, into the
   caller's out (room: fu_ww_room(n, base length), plus u->given_len
   where a host is given), its parts' offsets into *u; the base, if any,
   is a URL this parser wrote (its href and record).  Runs of plain bytes
   in hosts, paths, queries and fragments are copied 16 at a time with
   SSE2.  Input: (pointer, length) of UTF-8, no NUL termination.

   Expects fasturi_whatwg_url.h and fasturi_whatwg_host.h; the setters
   (fasturi_whatwg_set.h) reuse its states. */
#ifndef FASTURI_WHATWG_PARSE_H
#define FASTURI_WHATWG_PARSE_H

#include "fasturi_whatwg_host.h"

/* A parse: the input, the base, the href being written. */
typedef struct {
    const uint8_t *s; /* the input: trimmed, without tabs and newlines */
    ptrdiff_t n;
    const uint8_t *base; /* the base's href and record, or NULL */
    const fu_ww_url *b;
    uint8_t *out; /* the href */
    fu_ww_url *u;
    int special; /* the URL is special */
} fu_ww_ctx;

/* ---- the authority -------------------------------------------------------- */

/* The port state over s[c+1..q) (c: the ":", or -1: none), written at
   out[*po]: 0 where a byte is not a digit or the number passes 65535 (the
   general way then names which). */
static inline int fu_ww_port(const uint8_t *s, ptrdiff_t c, ptrdiff_t q, int scheme, uint8_t *out,
                             ptrdiff_t *po, fu_ww_url *u)
{
    u->port = -1;
    if (c < 0 || c + 1 == q)
        return 1;
    int32_t v = 0;
    for (ptrdiff_t i = c + 1; i < q; i++) {
        if (!fu_ww_digit(s[i]))
            return 0;
        v = v * 10 + (s[i] - '0');
        if (v > 65535)
            return 0;
    }
    if (v != fu_ww_default_port(scheme)) {
        u->port = v;
        out[*po] = ':';
        *po = fu_ww_put_port(v, out + *po + 1) - out;
    }
    return 1;
}

/* The authority state, host state and port state over s[p..), every
   case: userinfo (up to the last "@", the password after the first ":"),
   the host by the host parser, the port.  Writes them serialized at
   out[*po] (after "//"); returns FU_WW_OK and the authority's end in *pq,
   or FU_WW_FAIL, FU_WW_HOST. */
static inline int fu_ww_authority_general(fu_ww_ctx *x, ptrdiff_t p, ptrdiff_t *pq, ptrdiff_t *po)
{
    const uint8_t *s = x->s;
    ptrdiff_t n = x->n, q = p, at = -1, o = *po;
    uint8_t *out = x->out;
    fu_ww_url *u = x->u;
    int special = x->special;
    for (; q < n; q++) {
        uint8_t c = s[q];
        if (c == '/' || c == '?' || c == '#' || (c == '\\' && special))
            break;
        if (c == '@')
            at = q;
    }
    u->user_start = u->user_end = u->pass_start = u->pass_end = 0;
    if (at >= 0) {
        /* every "@" but the last is the userinfo's ("%40"), as is every
           ":" but the first, which starts the password */
        ptrdiff_t sep = p;
        while (sep < at && s[sep] != ':')
            sep++;
        if (sep > p || sep + 1 < at) {
            u->user_start = o;
            o = fu_ww_encode(s, p, sep, FU_WW_USERINFO, out + o) - out;
            u->user_end = o;
            if (sep + 1 < at) {
                out[o++] = ':';
                u->pass_start = o;
                o = fu_ww_encode(s, sep + 1, at, FU_WW_USERINFO, out + o) - out;
                u->pass_end = o;
            }
            out[o++] = '@';
        }
        if (at + 1 == q) {
            u->error = FU_WW_E_HOST_MISSING;
            return FU_WW_FAIL;
        }
        p = at + 1;
    }
    /* the host state: up to a ":" outside brackets */
    ptrdiff_t he = p;
    int inside = 0;
    for (; he < q; he++) {
        uint8_t c = s[he];
        if (c == '[')
            inside = 1;
        else if (c == ']')
            inside = 0;
        else if (c == ':' && !inside)
            break;
    }
    if (he == p && (he < q || special)) {
        u->error = FU_WW_E_HOST_MISSING;
        return FU_WW_FAIL;
    }
    u->host_start = o;
    int rc = fu_ww_host(s + p, he - p, !special, out, &o, u);
    if (rc != FU_WW_OK)
        return rc;
    u->host_end = o;
    /* the port state */
    u->port = -1;
    if (he < q) {
        int32_t v = 0;
        for (ptrdiff_t i = he + 1; i < q; i++) {
            if (!fu_ww_digit(s[i])) {
                u->error = FU_WW_E_PORT_INVALID;
                return FU_WW_FAIL;
            }
            v = v * 10 + (s[i] - '0');
            if (v > 65535)
                v = 65536; /* (saturated: out of range whatever follows) */
        }
        if (v > 65535) {
            u->error = FU_WW_E_PORT_OUT_OF_RANGE;
            return FU_WW_FAIL;
        }
        if (q > he + 1 && v != fu_ww_default_port(u->scheme)) {
            u->port = v;
            out[o++] = ':';
            o = fu_ww_put_port(v, out + o) - out;
        }
    }
    *po = o;
    *pq = q;
    return FU_WW_OK;
}

/* The authority of s[p..): a special scheme's host of plain code points
   in one pass (lowercased as copied), its port, and nothing else (no
   userinfo, no "%", no backslash, ...); anything else the general way. */
FU_WW_STEP int fu_ww_authority(fu_ww_ctx *x, ptrdiff_t p, ptrdiff_t *pq, ptrdiff_t *po)
{
    const uint8_t *s = x->s;
    ptrdiff_t n = x->n;
    uint8_t *out = x->out;
    fu_ww_url *u = x->u;
    if (!x->special)
        return fu_ww_authority_general(x, p, pq, po);
    u->user_start = u->user_end = u->pass_start = u->pass_end = 0;
    ptrdiff_t o = *po, hs = o, label = o, q = p;
    uint8_t k = FU_WW_H_END;
#if FU_SSE2
    /* 16 bytes at a time while 16 remain: letters (lowercased), digits,
       "." and "-" copied, up to the first other byte, where the byte loop
       goes on (its label found again) */
    if (n - q >= 16) {
        ptrdiff_t dot = -1; /* the last "." copied */
        while (n - q >= 16) {
            __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + q));
            __m128i lv = fu_lower16(v);
            __m128i letter = _mm_and_si128(_mm_cmpgt_epi8(lv, _mm_set1_epi8('a' - 1)),
                                           _mm_cmplt_epi8(lv, _mm_set1_epi8('z' + 1)));
            __m128i digit = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('0' - 1)),
                                          _mm_cmplt_epi8(v, _mm_set1_epi8('9' + 1)));
            __m128i dt = _mm_cmpeq_epi8(v, _mm_set1_epi8('.'));
            __m128i plain = _mm_or_si128(_mm_or_si128(letter, digit),
                                         _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('-')), dt));
            unsigned good = (unsigned)_mm_movemask_epi8(plain);
            _mm_storeu_si128((__m128i *)(void *)(out + o), lv);
            unsigned take = fu_ctz(~good | 0x10000u);
            unsigned dots = (unsigned)_mm_movemask_epi8(dt) & ((1u << take) - 1);
            ptrdiff_t last = o + (ptrdiff_t)fu_top(dots | 1u);
            dot = dots != 0 ? last : dot; /* (a select, not a branch) */
            q += take;
            o += take;
            if (take < 16)
                break;
        }
        label = dot < 0 ? hs : dot + 1;
    }
#endif
    for (; q < n; q++) {
        uint8_t c = s[q];
        k = fu_ww_hostc[c];
        if (k == FU_WW_H_COPY || k == FU_WW_H_HYPHEN) {
            out[o++] = c;
        } else if (k == FU_WW_H_UPPER) {
            out[o++] = c | 0x20;
        } else if (k == FU_WW_H_DOT) {
            out[o++] = c;
            label = o;
        } else {
            break;
        }
    }
    if ((q < n && k == FU_WW_H_OTHER) || o == hs)
        goto general;
    u->host_start = hs;
    /* the last label, or the one before a trailing dot, starting with a
       digit: the "ends in a number" checker's question, and the IPv4
       parser's (the domain is ASCII, lowercased, and has no forbidden
       domain code point) */
    if (label == o || fu_ww_digit(out[label])) {
        ptrdiff_t e = hs;
        if (fu_ww_domain(out + hs, o - hs, out, &e, u) != FU_WW_OK)
            goto general; /* (maybe a username: the general way finds out) */
        o = e;
    }
    u->host_end = o;
    ptrdiff_t colon = -1;
    if (q < n && k == FU_WW_H_COLON) {
        colon = q;
        while (q < n && s[q] != '/' && s[q] != '?' && s[q] != '#' && s[q] != '\\')
            q++;
    }
    if (!fu_ww_port(s, colon, q, u->scheme, out, &o, u))
        goto general;
    *po = o;
    *pq = q;
    return FU_WW_OK;
general:
    /* an "@" after a ":" is userinfo, not a port; the general way decides
       every case that is not a plain host (and fails those that fail) */
    return fu_ww_authority_general(x, p, pq, po);
}

/* ---- the path, query and fragment ------------------------------------------ */

#if FU_SSE2
/* The bytes of p[0..16) a path segment (stops: "/", "?", "#", "%") or a
   query (special or not: "'" counted for both) cannot copy as they are,
   one bit each: C0 controls, space, DEL and beyond (signed: below 0x21),
   the percent-encode sets' others, backslash. */
static inline unsigned fu_ww_attention16(const uint8_t *p, int path)
{
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
    __m128i m = _mm_or_si128(_mm_cmplt_epi8(v, _mm_set1_epi8(0x21)),
                             _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7F)));
#define FU_WW_EQ(c) m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8(c)))
    FU_WW_EQ('"');
    FU_WW_EQ('#');
    FU_WW_EQ('<');
    FU_WW_EQ('>');
    FU_WW_EQ('\\');
    if (path) {
        FU_WW_EQ('%');
        FU_WW_EQ('/');
        FU_WW_EQ('?');
        FU_WW_EQ('^');
        FU_WW_EQ('`');
        FU_WW_EQ('{');
        FU_WW_EQ('}');
    } else {
        FU_WW_EQ('\'');
    }
#undef FU_WW_EQ
    return (unsigned)_mm_movemask_epi8(m);
}
#endif

/* The path state over the plain run of s[*pq..): 16-byte blocks with no
   byte a segment needs a look at (fu_ww_attention16's, less "/", which
   only ends a segment) and no segment starting with "." (a dot segment,
   or not), copied as they are, "/" written first at out[*po].  Returns 1
   where the path ends in the run (at "?", "#" or the end: *pq there, *po
   the path's end); else 0, *pq and *po at the start of the last segment
   not known to be plain (at its "/" in out), where the segment loop goes
   on, writing what the copy wrote up to there.  The last block is the
   input's last 16 bytes, the bits of those already read dropped. */
FU_WW_STEP int fu_ww_path_plain(const uint8_t *s, ptrdiff_t *pq, ptrdiff_t n, uint8_t *out,
                                ptrdiff_t *po)
{
#if FU_SSE2
    ptrdiff_t q0 = *pq, r = q0, d = *po + 1 - r; /* out index of an input byte copied */
    ptrdiff_t segq = r, sego = *po;
    unsigned start = 1; /* the block's first byte starts a segment */
    out[sego] = '/';
    for (;;) {
        ptrdiff_t left = n - r;
        if (left == 0) {
            *pq = n;
            *po = n + d;
            return 1;
        }
        if (n < 16) /* (and so left too) */
            break;
        /* (selects, not branches: the block being the last is what a
           branch predictor cannot guess) */
        ptrdiff_t over = 16 - left; /* max(over, 0), in arithmetic */
        unsigned shift = (unsigned)(over & ~(over >> (8 * sizeof over - 1)));
        unsigned live = 0xFFFFu >> shift;
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + r - shift));
        __m128i end = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('?')),
                                   _mm_cmpeq_epi8(v, _mm_set1_epi8('#')));
        __m128i m = _mm_or_si128(_mm_cmplt_epi8(v, _mm_set1_epi8(0x21)),
                                 _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7F)));
#define FU_WW_EQ(c) m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8(c)))
        FU_WW_EQ('"');
        FU_WW_EQ('%');
        FU_WW_EQ('<');
        FU_WW_EQ('>');
        FU_WW_EQ('\\');
        FU_WW_EQ('^');
        FU_WW_EQ('`');
        FU_WW_EQ('{');
        FU_WW_EQ('}');
#undef FU_WW_EQ
        unsigned ends = (unsigned)_mm_movemask_epi8(end) >> shift;
        unsigned look = (unsigned)_mm_movemask_epi8(m) >> shift;
        unsigned slashes =
            (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('/'))) >> shift;
        unsigned dots = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('.'))) >> shift;
        unsigned stop = (look | ends | (dots & ((slashes << 1) | start))) & live;
        if (r - (ptrdiff_t)shift >= q0) /* (what goes before r is a copy too) */
            _mm_storeu_si128((__m128i *)(void *)(out + r + d - (ptrdiff_t)shift), v);
        else
            memcpy(out + r + d, s + r, (size_t)left);
        if ((stop == 0) & (left > 16)) {
            start = (slashes >> 15) & 1u;
            r += 16;
            continue;
        }
        /* the first byte to look at, or (none) the end: a "?", "#" or the
           end ends the path */
        unsigned k = fu_ctz(stop | (live + 1));
        if (((ends | (live + 1)) >> k) & 1u) {
            *pq = r + k;
            *po = r + k + d;
            return 1;
        }
        slashes &= (1u << k) - 1;
        if (slashes != 0) {
            unsigned j = fu_top(slashes);
            segq = r + (ptrdiff_t)j + 1;
            sego = r + (ptrdiff_t)j + d;
        }
        break;
    }
    *pq = segq;
    *po = sego;
    return 0;
#else
    (void)s;
    (void)pq;
    (void)n;
    (void)out;
    (void)po;
    return 0;
#endif
}

/* Whether the segment out[a..b) is a single-dot URL path segment ("." or
   "%2e", ASCII case-insensitive): 1; a double-dot one (".." or ".%2e",
   "%2e.", "%2e%2e"): 2; else 0.  (The path percent-encode set leaves "."
   and "%" as they are, and writes no "%2E" of its own.) */
static inline int fu_ww_dots(const uint8_t *out, ptrdiff_t a, ptrdiff_t b)
{
    ptrdiff_t len = b - a;
    if (len > 6 || len == 0 || len == 5)
        return 0;
    int dots = 0;
    for (ptrdiff_t i = a; i < b;) {
        if (out[i] == '.') {
            i++;
        } else if (b - i >= 3 && out[i] == '%' && out[i + 1] == '2' && (out[i + 2] | 0x20) == 'e') {
            i += 3;
        } else {
            return 0;
        }
        dots++;
    }
    return dots <= 2 ? dots : 0;
}

/* Whether s[0..n) starts with a Windows drive letter: a letter, ":" or
   "|", then the end or one of "/", "\", "?", "#". */
static inline int fu_ww_starts_with_drive(const uint8_t *s, ptrdiff_t n)
{
    return n >= 2 && fu_ww_alpha(s[0]) && (s[1] == ':' || s[1] == '|')
           && (n == 2 || s[2] == '/' || s[2] == '\\' || s[2] == '?' || s[2] == '#');
}

/* Whether the path out[a..b) is one segment, a normalized Windows drive
   letter ("/C:"). */
static inline int fu_ww_path_is_drive(const uint8_t *out, ptrdiff_t a, ptrdiff_t b)
{
    return b - a == 3 && fu_ww_alpha(out[a + 1]) && out[a + 2] == ':';
}

/* Shorten the path out[a..*po): its last segment goes, but a file URL's
   path of one normalized Windows drive letter stays. */
static inline void fu_ww_shorten(const uint8_t *out, ptrdiff_t a, ptrdiff_t *po, int file)
{
    ptrdiff_t o = *po;
    if (file && fu_ww_path_is_drive(out, a, o))
        return;
    while (o > a && out[o - 1] != '/')
        o--;
    if (o > a)
        o--;
    *po = o;
}

/* How fu_ww_path runs. */
#define FU_WW_P_SPECIAL 1  /* "\" ends a segment as "/" does */
#define FU_WW_P_FILE 2     /* the Windows drive letter quirks */
#define FU_WW_P_OVERRIDE 4 /* state override (the pathname setter): "?", "#" are the path's */

/* The plain run of a query (frag 0) or fragment (frag 1) from s[q]: the
   bytes up to the first its loop must look at (fu_ww_attention16's for a
   query; a fragment's: C0 controls, space, '"', "<", ">", "`", DEL and
   beyond, and backslash) or the end, copied to out[q + d...) 16 at a
   time, the last block the input's last 16 bytes.  Returns where the run
   ends. */
FU_WW_STEP ptrdiff_t fu_ww_plain_run(const uint8_t *s, ptrdiff_t q, ptrdiff_t n, uint8_t *out,
                                     ptrdiff_t d, int frag)
{
#if FU_SSE2
    ptrdiff_t q0 = q;
    if (n < 16)
        return q;
    for (;;) {
        ptrdiff_t left = n - q;
        if (left == 0)
            return n;
        ptrdiff_t over = 16 - left; /* max(over, 0), in arithmetic */
        unsigned shift = (unsigned)(over & ~(over >> (8 * sizeof over - 1)));
        unsigned live = 0xFFFFu >> shift;
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + q - shift));
        unsigned look;
        if (frag) {
            __m128i m = _mm_or_si128(_mm_cmplt_epi8(v, _mm_set1_epi8(0x21)),
                                     _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7F)));
            m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('"')));
            m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('<')));
            m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('>')));
            m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('`')));
            m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('\\')));
            look = (unsigned)_mm_movemask_epi8(m);
        } else {
            look = fu_ww_attention16(s + q - shift, 0);
        }
        look = (look >> shift) & live;
        if (q - (ptrdiff_t)shift >= q0) /* (what goes before q is a copy too) */
            _mm_storeu_si128((__m128i *)(void *)(out + q + d - (ptrdiff_t)shift), v);
        else
            memcpy(out + q + d, s + q, (size_t)left);
        if ((look == 0) & (left > 16)) {
            q += 16;
            continue;
        }
        return q + (ptrdiff_t)fu_ctz(look | (live + 1));
    }
#else
    (void)s;
    (void)n;
    (void)out;
    (void)d;
    (void)frag;
    return q;
#endif
}

/* The path state from s[q], appending segments to the path in
   out[path_start..*po) (one "/" and the segment each): each segment's
   bytes UTF-8 percent-encoded with the path percent-encode set, a dot
   segment shortening the path (or not added), a file URL's first segment
   that is a Windows drive letter normalized.  Stops at "?", "#" (but with
   FU_WW_P_OVERRIDE) or the end, returned. */
FU_WW_STEP ptrdiff_t fu_ww_path(const uint8_t *s, ptrdiff_t q, ptrdiff_t n, uint8_t *out,
                                ptrdiff_t path_start, ptrdiff_t *po, unsigned mode)
{
    ptrdiff_t o = *po;
    int special = (mode & FU_WW_P_SPECIAL) != 0, file = (mode & FU_WW_P_FILE) != 0;
    /* (the plain copy stops at every "\" and knows no drive letters) */
    if (!(mode & (FU_WW_P_FILE | FU_WW_P_OVERRIDE)) && fu_ww_path_plain(s, &q, n, out, &o)) {
        *po = o;
        return q;
    }
    uint8_t ends = (mode & FU_WW_P_OVERRIDE) ? 0 : FU_WW_PSTOP;
    for (;;) {
        ptrdiff_t seg = o, r = q;
        out[o++] = '/';
        for (; r < n; r++) {
#if FU_SSE2
            /* 16 bytes at a time while 16 remain: copied whole, and the
               output moves on to the first that needs a look.  Writing 16
               bytes is in room: 16 input bytes remain, each with room for
               3 (fu_ww_room). */
            while (n - r >= 16) {
                unsigned m = fu_ww_attention16(s + r, 1);
                memcpy(out + o, s + r, 16);
                if (m == 0) {
                    o += 16;
                    r += 16;
                    continue;
                }
                unsigned k = fu_ctz(m);
                o += k;
                r += k;
                break;
            }
            if (r >= n)
                break;
#endif
            uint8_t c = s[r];
            uint8_t e = fu_ww_enc[c];
            if (!(e & (FU_WW_PATH | FU_WW_LOOK | FU_WW_PSTOP))) {
                out[o++] = c;
                continue;
            }
            if (c == '/' || (c == '\\' && special))
                break;
            if ((e & ends) && c != '%')
                break; /* "?", "#" */
            if (e & FU_WW_PATH)
                o = fu_ww_pct(c, out + o) - out;
            else
                out[o++] = c; /* "%", "\" of a URL not special, "?" and "#" as the setter's */
        }
        int slash = r < n && (s[r] == '/' || (s[r] == '\\' && special));
        int dots = fu_ww_dots(out, seg + 1, o);
        if (dots == 2) {
            /* shorten the path; then an empty last segment unless a slash
               follows */
            o = seg;
            fu_ww_shorten(out, path_start, &o, file);
            if (!slash)
                out[o++] = '/';
        } else if (dots == 1) {
            o = seg;
            if (!slash)
                out[o++] = '/';
        } else if (file && seg == path_start && o - seg == 3 && fu_ww_alpha(out[seg + 1])
                   && (out[seg + 2] == ':' || out[seg + 2] == '|')) {
            out[seg + 2] = ':'; /* a Windows drive letter, normalized */
        }
        if (!slash) {
            *po = o;
            return r;
        }
        q = r + 1;
    }
}

/* The opaque path state from s[q]: each byte UTF-8 percent-encoded with
   the C0 control percent-encode set, up to "?", "#" or the end (returned);
   a space that "?" or "#" follows as "%20". */
FU_WW_STEP ptrdiff_t fu_ww_opaque_path(const uint8_t *s, ptrdiff_t q, ptrdiff_t n, uint8_t *out,
                                       ptrdiff_t *po)
{
    ptrdiff_t o = *po;
    for (; q < n && s[q] != '?' && s[q] != '#'; q++) {
        uint8_t c = s[q];
        if (fu_ww_enc[c] & FU_WW_C0)
            o = fu_ww_pct(c, out + o) - out;
        else
            out[o++] = c;
    }
    if (q < n && o > *po && out[o - 1] == ' ') {
        memcpy(out + o - 1, "%20", 3);
        o += 2;
    }
    *po = o;
    return q;
}

/* The query state from s[q] (after the "?", written at out[o - 1]) up to
   "#" (unless until_end) or the end, returned: each byte UTF-8
   percent-encoded with the special-query percent-encode set for a special
   URL, else the query percent-encode set.  *po: the end written. */
FU_WW_STEP ptrdiff_t fu_ww_query(const uint8_t *s, ptrdiff_t q, ptrdiff_t n, int special,
                                 int until_end, uint8_t *out, ptrdiff_t *po)
{
    unsigned set = special ? FU_WW_SQUERY : FU_WW_QUERY;
    ptrdiff_t o = *po;
    for (;;) {
        ptrdiff_t r = fu_ww_plain_run(s, q, n, out, o - q, 0);
        o += r - q;
        q = r;
        if (q >= n)
            break;
        uint8_t c = s[q];
        if (c == '#' && !until_end)
            break;
        if (fu_ww_enc[c] & set)
            o = fu_ww_pct(c, out + o) - out;
        else
            out[o++] = c;
        q++;
    }
    *po = o;
    return q;
}

/* The fragment state from s[q] (after the "#") to the end: each byte
   UTF-8 percent-encoded with the fragment percent-encode set.  Returns
   the end written. */
FU_WW_STEP ptrdiff_t fu_ww_fragment(const uint8_t *s, ptrdiff_t q, ptrdiff_t n, uint8_t *out,
                                    ptrdiff_t o)
{
    for (;;) {
        ptrdiff_t r = fu_ww_plain_run(s, q, n, out, o - q, 1);
        o += r - q;
        q = r;
        if (q >= n)
            return o;
        uint8_t c = s[q++];
        if (fu_ww_enc[c] & FU_WW_FRAG)
            o = fu_ww_pct(c, out + o) - out;
        else
            out[o++] = c;
    }
}

/* The query state and fragment state from s[q] ("?", "#" or the end):
   the query and fragment written at out[o], the href's length set. */
FU_WW_STEP int fu_ww_tail(fu_ww_ctx *x, ptrdiff_t q, ptrdiff_t o)
{
    const uint8_t *s = x->s;
    ptrdiff_t n = x->n;
    uint8_t *out = x->out;
    fu_ww_url *u = x->u;
    u->query_start = u->frag_start = -1;
    if (q < n && s[q] == '?') {
        u->query_start = o;
        out[o++] = '?';
        q = fu_ww_query(s, q + 1, n, x->special, 0, out, &o);
    }
    if (q < n) { /* s[q] == '#' */
        u->frag_start = o;
        out[o++] = '#';
        o = fu_ww_fragment(s, q + 1, n, out, o);
    }
    u->len = o;
    return FU_WW_OK;
}

/* ---- the states ------------------------------------------------------------ */

/* The path start state from s[q], the path written from out[o] (a special
   URL's path is never empty; another's is where the input has none), then
   the query and fragment. */
static inline int fu_ww_path_start(fu_ww_ctx *x, ptrdiff_t q, ptrdiff_t o)
{
    const uint8_t *s = x->s;
    ptrdiff_t n = x->n;
    fu_ww_url *u = x->u;
    u->path_start = o;
    unsigned mode = x->special ? FU_WW_P_SPECIAL : 0;
    if (u->scheme == FU_WW_FILE)
        mode |= FU_WW_P_FILE;
    if (x->special) {
        if (q < n && (s[q] == '/' || s[q] == '\\'))
            q++;
        q = fu_ww_path(s, q, n, x->out, o, &o, mode);
    } else if (q < n && s[q] != '?' && s[q] != '#') {
        q = fu_ww_path(s, s[q] == '/' ? q + 1 : q, n, x->out, o, &o, mode);
    }
    u->path_end = o;
    return fu_ww_tail(x, q, o);
}

/* The authority state from s[q] ("//" and the scheme before it written),
   then the path start state.  A special URL's slashes and backslashes
   before it are skipped first (special authority ignore slashes). */
FU_WW_STEP int fu_ww_authority_state(fu_ww_ctx *x, ptrdiff_t q)
{
    if (x->special)
        while (q < x->n && (x->s[q] == '/' || x->s[q] == '\\'))
            q++;
    ptrdiff_t o = x->u->scheme_end + 1;
    x->out[o++] = '/';
    x->out[o++] = '/';
    int rc = fu_ww_authority(x, q, &q, &o);
    if (rc != FU_WW_OK)
        return rc;
    return fu_ww_path_start(x, q, o);
}

/* The base's username, password, host and port, for url's (the same
   scheme, so the same offsets); returns the end. */
static inline ptrdiff_t fu_ww_copy_authority(fu_ww_ctx *x)
{
    const fu_ww_url *b = x->b;
    fu_ww_url *u = x->u;
    ptrdiff_t o = b->scheme_end + 1;
    u->user_start = b->user_start;
    u->user_end = b->user_end;
    u->pass_start = b->pass_start;
    u->pass_end = b->pass_end;
    u->host_start = b->host_start;
    u->host_end = b->host_end;
    u->port = b->port;
    if (b->host_start < 0)
        return o;
    /* "//", userinfo, host, port: what lies before the base's path */
    memcpy(x->out + o, x->base + o, (size_t)(b->path_start - o));
    return b->path_start;
}

/* Appends out[a..b) of the base's href to out at *po. */
static inline void fu_ww_copy_base(fu_ww_ctx *x, ptrdiff_t a, ptrdiff_t b, ptrdiff_t *po)
{
    memcpy(x->out + *po, x->base + a, (size_t)(b - a));
    *po += b - a;
}

/* The base's query (with its "?"), if not null, at out[*po]. */
static inline void fu_ww_copy_query(fu_ww_ctx *x, ptrdiff_t *po)
{
    const fu_ww_url *b = x->b;
    x->u->query_start = -1;
    if (b->query_start >= 0) {
        x->u->query_start = *po;
        fu_ww_copy_base(x, b->query_start, b->frag_start >= 0 ? b->frag_start : b->len, po);
    }
}

/* The end of a parse that keeps the base's query (and takes no fragment
   of its own, or the input's from s[q], a "#"). */
static inline int fu_ww_end_with_base_query(fu_ww_ctx *x, ptrdiff_t q, ptrdiff_t o)
{
    fu_ww_url *u = x->u;
    u->path_end = o;
    fu_ww_copy_query(x, &o);
    u->frag_start = -1;
    if (q < x->n) {
        u->frag_start = o;
        x->out[o++] = '#';
        o = fu_ww_fragment(x->s, q + 1, x->n, x->out, o);
    }
    u->len = o;
    return FU_WW_OK;
}

/* The relative state from s[q] (the base's scheme is not file), and the
   relative slash state. */
static inline int fu_ww_relative(fu_ww_ctx *x, ptrdiff_t q)
{
    const uint8_t *s = x->s;
    ptrdiff_t n = x->n;
    const fu_ww_url *b = x->b;
    fu_ww_url *u = x->u;
    uint8_t *out = x->out;
    ptrdiff_t o = b->scheme_end + 1;
    memcpy(out, x->base, (size_t)o);
    u->scheme = b->scheme;
    u->scheme_end = b->scheme_end;
    x->special = FU_WW_SPECIAL(b->scheme);
    unsigned mode = x->special ? FU_WW_P_SPECIAL : 0;
    int c = q < n ? s[q] : -1;
    if (c == '/' || (c == '\\' && x->special)) {
        /* the relative slash state */
        int c2 = q + 1 < n ? s[q + 1] : -1;
        if (c2 == '/' || (c2 == '\\' && x->special))
            return fu_ww_authority_state(x, q + 2);
        o = fu_ww_copy_authority(x);
        u->path_start = o;
        q = fu_ww_path(s, q + 1, n, out, o, &o, mode);
        u->path_end = o;
        return fu_ww_tail(x, q, o);
    }
    o = fu_ww_copy_authority(x);
    u->path_start = o;
    fu_ww_copy_base(x, b->path_start, b->path_end, &o);
    if (c == -1 || c == '#')
        return fu_ww_end_with_base_query(x, q, o);
    if (c != '?') {
        /* a path relative to the base's: its last segment goes */
        fu_ww_shorten(out, u->path_start, &o, 0);
        q = fu_ww_path(s, q, n, out, u->path_start, &o, mode);
    }
    u->path_end = o;
    return fu_ww_tail(x, q, o);
}

/* The file state from s[q] (the scheme "file" written or not), the file
   slash state and the file host state. */
static inline int fu_ww_file(fu_ww_ctx *x, ptrdiff_t q)
{
    const uint8_t *s = x->s;
    ptrdiff_t n = x->n;
    const uint8_t *base = x->base;
    const fu_ww_url *b = x->b;
    fu_ww_url *u = x->u;
    uint8_t *out = x->out;
    const unsigned mode = FU_WW_P_SPECIAL | FU_WW_P_FILE;
    int base_file = b != NULL && b->scheme == FU_WW_FILE;
    memcpy(out, "file://", 7);
    u->scheme = FU_WW_FILE;
    u->scheme_end = 4;
    x->special = 1;
    u->user_start = u->user_end = u->pass_start = u->pass_end = 0;
    u->port = -1;
    ptrdiff_t o = 7;
    u->host_start = u->host_end = o; /* the empty host */
    int c = q < n ? s[q] : -1;
    if (c == '/' || c == '\\') {
        int c2 = q + 1 < n ? s[q + 1] : -1;
        if (c2 == '/' || c2 == '\\') {
            /* the file host state: a host up to "/", "\", "?", "#" */
            ptrdiff_t h = q + 2, e = h;
            while (e < n && s[e] != '/' && s[e] != '\\' && s[e] != '?' && s[e] != '#')
                e++;
            if (e - h == 2 && fu_ww_alpha(s[h]) && (s[h + 1] == ':' || s[h + 1] == '|')) {
                /* a Windows drive letter: the path's first segment */
                u->path_start = o;
                q = fu_ww_path(s, h, n, out, o, &o, mode);
                u->path_end = o;
                return fu_ww_tail(x, q, o);
            }
            if (e > h) {
                int rc = fu_ww_host(s + h, e - h, 0, out, &o, u);
                if (rc != FU_WW_OK)
                    return rc;
                if (o - 7 == 9 && memcmp(out + 7, "localhost", 9) == 0)
                    o = 7;
                u->host_end = o;
            }
            return fu_ww_path_start(x, e, o);
        }
        /* the file slash state */
        if (base_file) {
            fu_ww_copy_base(x, b->host_start, b->host_end, &o);
            u->host_end = o;
            if (!fu_ww_starts_with_drive(s + q + 1, n - q - 1) && b->path_end - b->path_start >= 3
                && fu_ww_alpha(base[b->path_start + 1]) && base[b->path_start + 2] == ':'
                && (b->path_end == b->path_start + 3 || base[b->path_start + 3] == '/')) {
                u->path_start = o;
                fu_ww_copy_base(x, b->path_start, b->path_start + 3, &o);
                q = fu_ww_path(s, q + 1, n, out, u->path_start, &o, mode);
                u->path_end = o;
                return fu_ww_tail(x, q, o);
            }
        }
        u->path_start = o;
        q = fu_ww_path(s, q + 1, n, out, o, &o, mode);
        u->path_end = o;
        return fu_ww_tail(x, q, o);
    }
    if (base_file) {
        fu_ww_copy_base(x, b->host_start, b->host_end, &o);
        u->host_end = o;
        u->path_start = o;
        fu_ww_copy_base(x, b->path_start, b->path_end, &o);
        if (c == -1 || c == '#')
            return fu_ww_end_with_base_query(x, q, o);
        if (c != '?') {
            if (!fu_ww_starts_with_drive(s + q, n - q))
                fu_ww_shorten(out, u->path_start, &o, 1);
            else
                o = u->path_start; /* the path: « » */
            q = fu_ww_path(s, q, n, out, u->path_start, &o, mode);
        }
        u->path_end = o;
        return fu_ww_tail(x, q, o);
    }
    u->path_start = o;
    q = fu_ww_path(s, q, n, out, o, &o, mode);
    u->path_end = o;
    return fu_ww_tail(x, q, o);
}

/* "/." before a path that would read as an authority: a null host and a
   path whose first segment is empty, of two or more (URL serializer). */
static inline void fu_ww_dot_slash(uint8_t *out, fu_ww_url *u)
{
    ptrdiff_t a = u->path_start;
    if (u->host_start >= 0 || u->path_end - a < 2 || out[a] != '/' || out[a + 1] != '/')
        return;
    memmove(out + a + 2, out + a, (size_t)(u->len - a));
    out[a] = '/';
    out[a + 1] = '.';
    u->path_start += 2;
    u->path_end += 2;
    if (u->query_start >= 0)
        u->query_start += 2;
    if (u->frag_start >= 0)
        u->frag_start += 2;
    u->len += 2;
}

/* The basic URL parser from the scheme start state over x's input. */
static inline int fu_ww_run(fu_ww_ctx *x)
{
    const uint8_t *s = x->s;
    ptrdiff_t n = x->n;
    const fu_ww_url *b = x->b;
    fu_ww_url *u = x->u;
    uint8_t *out = x->out;
    u->user_start = u->user_end = u->pass_start = u->pass_end = 0;
    u->host_start = u->host_end = -1;
    u->port = -1;
    u->query_start = u->frag_start = -1;
    u->error = FU_WW_E_NONE;
    /* the scheme start state and scheme state */
    ptrdiff_t i = 0;
    if (n > 0 && fu_ww_alpha(s[0])) {
        i = 1;
        while (i < n
               && (fu_ww_alpha(s[i]) || fu_ww_digit(s[i]) || s[i] == '+' || s[i] == '-'
                   || s[i] == '.'))
            i++;
        if (i == n || s[i] != ':')
            i = 0; /* no scheme: start over */
    }
    if (i > 0) {
        for (ptrdiff_t k = 0; k < i; k++)
            out[k] = fu_ww_lower(s[k]);
        out[i] = ':';
        int scheme = fu_ww_scheme_id(out, i);
        u->scheme = scheme;
        u->scheme_end = i;
        x->special = FU_WW_SPECIAL(scheme);
        ptrdiff_t q = i + 1;
        if (scheme == FU_WW_FILE)
            return fu_ww_file(x, q);
        if (x->special) {
            /* the special relative or authority state: fewer than two
               slashes against a base of the same scheme is relative */
            if (b != NULL && b->scheme == scheme && !(q + 1 < n && s[q] == '/' && s[q + 1] == '/'))
                return fu_ww_relative(x, q);
            return fu_ww_authority_state(x, q);
        }
        if (q < n && s[q] == '/') {
            /* the path or authority state */
            if (q + 1 < n && s[q + 1] == '/')
                return fu_ww_authority_state(x, q + 2);
            ptrdiff_t o = i + 1;
            u->path_start = o;
            q = fu_ww_path(s, q + 1, n, out, o, &o, 0);
            u->path_end = o;
            return fu_ww_tail(x, q, o);
        }
        ptrdiff_t o = i + 1;
        u->path_start = o;
        q = fu_ww_opaque_path(s, q, n, out, &o);
        u->path_end = o;
        return fu_ww_tail(x, q, o);
    }
    /* the no scheme state */
    if (b == NULL) {
        u->error = FU_WW_E_MISSING_SCHEME_NON_RELATIVE_URL;
        return FU_WW_FAIL;
    }
    if (b->host_start < 0 && (b->path_end == b->path_start || x->base[b->path_start] != '/')) {
        /* a base with an opaque path: only a fragment is relative to it */
        if (n == 0 || s[0] != '#') {
            u->error = FU_WW_E_MISSING_SCHEME_NON_RELATIVE_URL;
            return FU_WW_FAIL;
        }
        ptrdiff_t o = 0;
        fu_ww_copy_base(x, 0, b->frag_start >= 0 ? b->frag_start : b->len, &o);
        u->scheme = b->scheme;
        u->scheme_end = b->scheme_end;
        u->path_start = b->path_start;
        u->path_end = b->path_end;
        u->query_start = b->query_start;
        u->frag_start = o;
        out[o++] = '#';
        u->len = fu_ww_fragment(s, 1, n, out, o);
        return FU_WW_OK;
    }
    if (b->scheme != FU_WW_FILE)
        return fu_ww_relative(x, 0);
    return fu_ww_file(x, 0);
}

/* Whether s[0..n) holds a tab or newline. */
static inline int fu_ww_has_tab_or_newline(const uint8_t *s, ptrdiff_t n)
{
    ptrdiff_t i = 0;
#if FU_SSE2
    for (; i + 16 <= n; i += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
        __m128i m = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\t')),
                                 _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\n')),
                                              _mm_cmpeq_epi8(v, _mm_set1_epi8('\r'))));
        if (_mm_movemask_epi8(m))
            return 1;
    }
#endif
    for (; i < n; i++)
        if (s[i] == '\t' || s[i] == '\n' || s[i] == '\r')
            return 1;
    return 0;
}

/* s[0..n) without its tabs and newlines, at out; returns the length. */
static inline ptrdiff_t fu_ww_drop_tabs(const uint8_t *s, ptrdiff_t n, uint8_t *out)
{
    ptrdiff_t k = 0;
    for (ptrdiff_t i = 0; i < n; i++)
        if (s[i] != '\t' && s[i] != '\n' && s[i] != '\r')
            out[k++] = s[i];
    return k;
}

/* The input's leading and trailing C0 control or space trimmed and its
   tabs and newlines removed (into out + room - n, behind the href's room,
   where it holds any): x->s, x->n. */
static inline void fu_ww_clean(fu_ww_ctx *x, const uint8_t *s, ptrdiff_t n, ptrdiff_t room)
{
    while (n > 0 && s[0] <= 0x20) {
        s++;
        n--;
    }
    while (n > 0 && s[n - 1] <= 0x20)
        n--;
    x->s = s;
    x->n = n;
    if (fu_ww_has_tab_or_newline(s, n)) {
        uint8_t *copy = x->out + room - n;
        x->n = fu_ww_drop_tabs(s, n, copy);
        x->s = copy;
    }
}

/* The basic URL parser on s[0..n) against the base (its href and record,
   as this parser wrote them) or none (base NULL); out has room for
   fu_ww_room(n, base's length) bytes, and u->given_len more where the
   caller gives a host.  Returns FU_WW_OK, FU_WW_FAIL or FU_WW_HOST. */
static inline int fu_ww_parse_full(const uint8_t *s, ptrdiff_t n, const uint8_t *base,
                                   const fu_ww_url *b, uint8_t *out, fu_ww_url *u)
{
    fu_ww_ctx x;
    x.base = base;
    x.b = base != NULL ? b : NULL;
    x.out = out;
    x.u = u;
    x.special = 0;
    fu_ww_clean(&x, s, n, fu_ww_room(n, base != NULL ? b->len : 0) + u->given_len);
    int rc = fu_ww_run(&x);
    if (rc == FU_WW_OK)
        fu_ww_dot_slash(out, u);
    return rc;
}

#endif /* FASTURI_WHATWG_PARSE_H */
