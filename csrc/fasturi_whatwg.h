/* fasturi_whatwg.h: the WHATWG URL Standard's basic URL parser for the
   common case, which it parses exactly; the caller hands every other input
   to the reference (_whatwg_py), so results are exact by construction.

   Taken (anything else returns 0, "not mine"):
   - bytes 0x20..0x7E only after the leading and trailing C0-control-or-space
     trim (no tab or newline to remove, no non-ASCII), no backslash;
   - a scheme: http, https, ws, wss, ftp after any number of slashes (two
     or more when the base has the same scheme: fewer is a relative
     reference), or another scheme but file and blob followed by "//";
   - no scheme, against a base with a special scheme (the base parsed here
     first): "//authority...", "/path", "?query", "#fragment", "", or a
     relative path;
   - an authority without "@" or "[", a non-empty host; for a special scheme
     the host holds no forbidden domain code point (so no "%": no percent-
     decoding), no label starting "xn--", and is a domain whose last label
     does not start with a digit or a plain dotted-decimal IPv4 address
     (four parts, no leading zero, each at most 255: it serializes as
     written); for another scheme no forbidden host code point (opaque host,
     kept as written); a port of digits at most 65535;
   - a path without "%2e" (so "." and ".." are the only dot segments).

   Input: (pointer, length), no NUL termination.  out has room for
   fu_ww_room(n, base length) bytes.  The URL is serialized into out and
   its parts' offsets into *u. */
#ifndef FASTURI_WHATWG_H
#define FASTURI_WHATWG_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

enum { FU_WW_OTHER = 0, FU_WW_HTTP, FU_WW_HTTPS, FU_WW_WS, FU_WW_WSS, FU_WW_FTP, FU_WW_FILE };

typedef struct {
    ptrdiff_t len;                   /* the href's length */
    ptrdiff_t scheme_end;            /* the ":" after the scheme */
    ptrdiff_t user_start, user_end;  /* the username (empty: 0, 0) */
    ptrdiff_t pass_start, pass_end;  /* the password (empty: 0, 0) */
    ptrdiff_t host_start, host_end;  /* the host serialized; -1, -1: null */
    ptrdiff_t path_start, path_end;  /* the path serialized */
    ptrdiff_t query_start;           /* the "?", or -1 (null query) */
    ptrdiff_t frag_start;            /* the "#", or -1 (null fragment) */
    int32_t port;                    /* -1: null */
    int scheme;                      /* FU_WW_* */
} fu_ww_url;

/* The percent-encode sets (URL Standard §1.3) over 0x00..0x7F: one bit
   each.  Bytes from 0x80 are never taken. */
#define FU_WW_FRAG 1u
#define FU_WW_QUERY 2u
#define FU_WW_SQUERY 4u
#define FU_WW_PATH 8u
#define FU_WW_USERINFO 16u
#define FU_WW_C0 (FU_WW_FRAG | FU_WW_QUERY | FU_WW_SQUERY | FU_WW_PATH | FU_WW_USERINFO)
#define FU_WW_QP (FU_WW_QUERY | FU_WW_SQUERY | FU_WW_PATH | FU_WW_USERINFO)

static const uint8_t fu_ww_enc[128] = {
    /* the C0 control percent-encode set, in every set */
    FU_WW_C0, FU_WW_C0, FU_WW_C0, FU_WW_C0, FU_WW_C0, FU_WW_C0, FU_WW_C0, FU_WW_C0,
    FU_WW_C0, FU_WW_C0, FU_WW_C0, FU_WW_C0, FU_WW_C0, FU_WW_C0, FU_WW_C0, FU_WW_C0,
    FU_WW_C0, FU_WW_C0, FU_WW_C0, FU_WW_C0, FU_WW_C0, FU_WW_C0, FU_WW_C0, FU_WW_C0,
    FU_WW_C0, FU_WW_C0, FU_WW_C0, FU_WW_C0, FU_WW_C0, FU_WW_C0, FU_WW_C0, FU_WW_C0,
    /* fragment: C0, space " < > `; query: C0, space " # < >; special-query:
       query and '; path: query and ? ^ ` { }; userinfo: path and / : ; = @
       [ \ ] | */
    [' '] = FU_WW_C0,
    ['"'] = FU_WW_C0,
    ['#'] = FU_WW_QP,
    ['\''] = FU_WW_SQUERY,
    ['<'] = FU_WW_C0,
    ['>'] = FU_WW_C0,
    ['?'] = FU_WW_PATH | FU_WW_USERINFO,
    ['^'] = FU_WW_PATH | FU_WW_USERINFO,
    ['`'] = FU_WW_FRAG | FU_WW_PATH | FU_WW_USERINFO,
    ['{'] = FU_WW_PATH | FU_WW_USERINFO,
    ['}'] = FU_WW_PATH | FU_WW_USERINFO,
    ['/'] = FU_WW_USERINFO,
    [':'] = FU_WW_USERINFO,
    [';'] = FU_WW_USERINFO,
    ['='] = FU_WW_USERINFO,
    ['@'] = FU_WW_USERINFO,
    ['['] = FU_WW_USERINFO,
    ['\\'] = FU_WW_USERINFO,
    [']'] = FU_WW_USERINFO,
    ['|'] = FU_WW_USERINFO,
    [0x7F] = FU_WW_C0,
};

static inline ptrdiff_t fu_ww_room(ptrdiff_t n, ptrdiff_t base_len)
{
    /* percent-encoding triples a byte; a "/" before the first segment and
       one after a final dot segment, "://" that the input may lack, a port
       written shorter than read: 32 covers the constants. */
    return 3 * n + base_len + 32;
}

static inline int fu_ww_alpha(uint8_t c) { return (uint8_t)((c | 0x20) - 'a') < 26; }
static inline int fu_ww_digit(uint8_t c) { return (uint8_t)(c - '0') < 10; }

/* A forbidden host code point (0x20..0x7E, the only bytes taken). */
static inline int fu_ww_forbidden_host(uint8_t c)
{
    switch (c) {
    case ' ': case '#': case '/': case ':': case '<': case '>': case '?':
    case '@': case '[': case '\\': case ']': case '^': case '|':
        return 1;
    default:
        return 0;
    }
}

static inline uint8_t *fu_ww_encode(const uint8_t *s, ptrdiff_t a, ptrdiff_t b, unsigned set,
                                    uint8_t *o)
{
    static const char hex[] = "0123456789ABCDEF";
    for (ptrdiff_t i = a; i < b; i++) {
        uint8_t c = s[i];
        if (fu_ww_enc[c] & set) {
            o[0] = '%';
            o[1] = (uint8_t)hex[c >> 4];
            o[2] = (uint8_t)hex[c & 15];
            o += 3;
        } else {
            *o++ = c;
        }
    }
    return o;
}

/* A special scheme's number, from the scheme lowercased. */
static inline int fu_ww_special(const uint8_t *p, ptrdiff_t n)
{
    if (n == 4 && memcmp(p, "http", 4) == 0) return FU_WW_HTTP;
    if (n == 5 && memcmp(p, "https", 5) == 0) return FU_WW_HTTPS;
    if (n == 2 && memcmp(p, "ws", 2) == 0) return FU_WW_WS;
    if (n == 3 && memcmp(p, "wss", 3) == 0) return FU_WW_WSS;
    if (n == 3 && memcmp(p, "ftp", 3) == 0) return FU_WW_FTP;
    if (n == 4 && memcmp(p, "file", 4) == 0) return FU_WW_FILE;
    return FU_WW_OTHER;
}

static inline int32_t fu_ww_default_port(int scheme)
{
    switch (scheme) {
    case FU_WW_HTTP: case FU_WW_WS: return 80;
    case FU_WW_HTTPS: case FU_WW_WSS: return 443;
    case FU_WW_FTP: return 21;
    default: return -1;
    }
}

/* Whether a special host (lowercased, in o[a..b)) is a domain that the
   host parser keeps as written: its last label (a trailing empty one left
   out) does not start with a digit, so the "ends in a number" checker says
   no; or it is four dotted-decimal parts without leading zeros, each at
   most 255, which the IPv4 parser and serializer give back unchanged. */
static inline int fu_ww_plain_host(const uint8_t *o, ptrdiff_t a, ptrdiff_t b)
{
    ptrdiff_t e = b;
    if (e - a > 1 && o[e - 1] == '.') e--;
    ptrdiff_t l = e;
    while (l > a && o[l - 1] != '.') l--;
    if (l == e || !fu_ww_digit(o[l])) {
        /* a label starting "xn--" would need UTS #46's verification */
        for (ptrdiff_t i = a; i + 4 <= b; i++) {
            if ((i == a || o[i - 1] == '.') && o[i] == 'x' && o[i + 1] == 'n' && o[i + 2] == '-'
                && o[i + 3] == '-')
                return 0;
        }
        return 1;
    }
    if (e != b) return 0; /* a trailing dot: the serializer drops it */
    int parts = 0;
    ptrdiff_t i = a;
    for (;;) {
        ptrdiff_t j = i;
        unsigned v = 0;
        while (j < b && fu_ww_digit(o[j]) && j - i < 4) v = v * 10 + (unsigned)(o[j++] - '0');
        if (j == i || j - i > 3 || v > 255 || (o[i] == '0' && j - i > 1)) return 0;
        parts++;
        if (j == b) break;
        if (o[j] != '.' || parts == 4) return 0;
        i = j + 1;
    }
    return parts == 4;
}

/* The authority state, host state and port state over s[p..n): writes the
   host and port serialized at o, returns the end of the authority, or -1. */
static inline ptrdiff_t fu_ww_authority(const uint8_t *s, ptrdiff_t p, ptrdiff_t n, int scheme,
                                        uint8_t *out, ptrdiff_t *po, fu_ww_url *u)
{
    ptrdiff_t q = p, at = -1, colon = -1;
    while (q < n && s[q] != '/' && s[q] != '?' && s[q] != '#') {
        if (s[q] == '@') at = q;
        q++;
    }
    ptrdiff_t o = *po;
    u->user_start = u->user_end = u->pass_start = u->pass_end = 0;
    if (at >= 0) {
        /* the userinfo: up to the last "@" (an earlier one is "%40"), the
           password after its first ":" */
        ptrdiff_t sep = p;
        while (sep < at && s[sep] != ':') sep++;
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
        p = at + 1;
    }
    for (ptrdiff_t i = p; i < q; i++) {
        if (s[i] == '[') return -1;
        if (s[i] == ':') {
            colon = i;
            break;
        }
    }
    ptrdiff_t h = colon < 0 ? q : colon;
    if (h == p) return -1; /* host-missing, or an empty opaque host */
    u->host_start = o;
    for (ptrdiff_t i = p; i < h; i++) {
        uint8_t c = s[i];
        if (fu_ww_forbidden_host(c)) return -1;
        if (scheme != FU_WW_OTHER) {
            if (c == '%') return -1; /* percent-decoding, then forbidden domain */
            if ((uint8_t)(c - 'A') < 26) c |= 0x20;
        }
        out[o++] = c;
    }
    u->host_end = o;
    if (scheme != FU_WW_OTHER && !fu_ww_plain_host(out, u->host_start, o)) return -1;
    u->port = -1;
    if (colon >= 0 && colon + 1 < q) {
        int32_t v = 0;
        for (ptrdiff_t i = colon + 1; i < q; i++) {
            if (!fu_ww_digit(s[i])) return -1;
            v = v * 10 + (s[i] - '0');
            if (v > 65535) return -1;
        }
        if (v != fu_ww_default_port(scheme)) {
            u->port = v;
            char digits[8];
            int k = 0;
            do {
                digits[k++] = (char)('0' + v % 10);
                v /= 10;
            } while (v);
            out[o++] = ':';
            while (k) out[o++] = (uint8_t)digits[--k];
        }
    }
    *po = o;
    return q;
}

/* The path state from s[q], appending segments to the path in
   out[path_start..*po); stops at "?", "#" or the end, returned. */
static inline ptrdiff_t fu_ww_path(const uint8_t *s, ptrdiff_t q, ptrdiff_t n, uint8_t *out,
                                   ptrdiff_t path_start, ptrdiff_t *po, int file)
{
    ptrdiff_t o = *po;
    for (;;) {
        ptrdiff_t seg = o, r = q;
        while (r < n && s[r] != '/' && s[r] != '?' && s[r] != '#') {
            if (s[r] == '%' && r + 2 < n && s[r + 1] == '2' && (s[r + 2] | 0x20) == 'e')
                return -1; /* a percent-encoded dot segment */
            r++;
        }
        out[o++] = '/';
        o = (ptrdiff_t)(fu_ww_encode(s, q, r, FU_WW_PATH, out + o) - out);
        int slash = r < n && s[r] == '/';
        ptrdiff_t len = r - q;
        if (file && len == 2 && fu_ww_alpha(s[q]) && (s[q + 1] == ':' || s[q + 1] == '|'))
            return -1; /* a Windows drive letter: the file states' quirks */
        if (len == 2 && s[q] == '.' && s[q + 1] == '.') {
            /* shorten the path: its last item goes, if any */
            o = seg;
            while (o > path_start && out[o - 1] != '/') o--;
            if (o > path_start) o--;
            if (!slash) out[o++] = '/';
        } else if (len == 1 && s[q] == '.') {
            o = seg;
            if (!slash) out[o++] = '/';
        }
        if (!slash) {
            *po = o;
            return r;
        }
        q = r + 1;
    }
}

/* The query state and fragment state from s[q]. */
static inline void fu_ww_tail(const uint8_t *s, ptrdiff_t q, ptrdiff_t n, int scheme,
                              uint8_t *out, ptrdiff_t o, fu_ww_url *u)
{
    u->query_start = u->frag_start = -1;
    if (q < n && s[q] == '?') {
        ptrdiff_t r = q + 1;
        while (r < n && s[r] != '#') r++;
        u->query_start = o;
        out[o++] = '?';
        o = fu_ww_encode(s, q + 1, r, scheme != FU_WW_OTHER ? FU_WW_SQUERY : FU_WW_QUERY,
                         out + o) - out;
        q = r;
    }
    if (q < n) { /* s[q] == '#' */
        u->frag_start = o;
        out[o++] = '#';
        o = fu_ww_encode(s, q + 1, n, FU_WW_FRAG, out + o) - out;
    }
    u->len = o;
}

/* The basic URL parser on s[0..n) against the base b (serialized in base,
   as this function wrote it), or none (b NULL).  1: parsed, 0: not mine. */
static inline int fu_ww_parse(const uint8_t *s, ptrdiff_t n, const uint8_t *base,
                              const fu_ww_url *b, uint8_t *out, fu_ww_url *u)
{
    /* leading and trailing C0 control or space */
    while (n > 0 && s[0] <= 0x20) {
        s++;
        n--;
    }
    while (n > 0 && s[n - 1] <= 0x20) n--;
    for (ptrdiff_t i = 0; i < n; i++) {
        if (s[i] < 0x20 || s[i] > 0x7E || s[i] == '\\') return 0;
    }
    ptrdiff_t i = 0, o = 0, q;
    if (n > 0 && fu_ww_alpha(s[0])) {
        i = 1;
        while (i < n && (fu_ww_alpha(s[i]) || fu_ww_digit(s[i]) || s[i] == '+' || s[i] == '-'
                         || s[i] == '.'))
            i++;
        if (i == n || s[i] != ':') i = 0;
    }
    if (i > 0) {
        for (ptrdiff_t k = 0; k < i; k++) out[k] = (uint8_t)(s[k] | (fu_ww_alpha(s[k]) ? 0x20 : 0));
        int scheme = fu_ww_special(out, i);
        u->scheme = scheme;
        u->scheme_end = i;
        q = i + 1;
        u->user_start = u->user_end = u->pass_start = u->pass_end = 0;
        u->port = -1;
        if (scheme == FU_WW_FILE) {
            /* "file://host/path": the file host state ends at "/", "?", "#"
               only (no port, no userinfo), "localhost" is the empty host */
            if (n - q < 2 || s[q] != '/' || s[q + 1] != '/') return 0;
            q += 2;
            memcpy(out + i, "://", 3);
            o = i + 3;
            u->host_start = o;
            while (q < n && s[q] != '/' && s[q] != '?' && s[q] != '#') {
                uint8_t c = s[q++];
                if (fu_ww_forbidden_host(c) || c == '%') return 0;
                out[o++] = (uint8_t)((uint8_t)(c - 'A') < 26 ? c | 0x20 : c);
            }
            u->host_end = o;
            if (o > u->host_start) {
                if (!fu_ww_plain_host(out, u->host_start, o)) return 0;
                if (o - u->host_start == 9 && memcmp(out + u->host_start, "localhost", 9) == 0)
                    return 0;
            }
            u->path_start = o;
            q = fu_ww_path(s, q < n && s[q] == '/' ? q + 1 : q, n, out, o, &o, 1);
            if (q < 0) return 0;
            u->path_end = o;
            fu_ww_tail(s, q, n, scheme, out, o, u);
            return 1;
        }
        if (scheme != FU_WW_OTHER) {
            ptrdiff_t k = q;
            while (k < n && s[k] == '/') k++;
            if (b != NULL && b->scheme == scheme && k - q < 2) return 0; /* relative */
            q = k;
        } else {
            if (i == 4 && memcmp(out, "blob", 4) == 0) return 0; /* its origin */
            if (n - q < 2 || s[q] != '/' || s[q + 1] != '/') {
                /* no authority: the host is null */
                out[i] = ':';
                o = i + 1;
                u->host_start = u->host_end = -1;
                u->path_start = o;
                if (q < n && s[q] == '/') {
                    /* a path; one that starts "//" would be written "/." first */
                    q = fu_ww_path(s, q + 1, n, out, o, &o, 0);
                    if (q < 0 || (o - u->path_start > 1 && out[u->path_start + 1] == '/'))
                        return 0;
                } else {
                    /* an opaque path: only a space is changed at this
                       range, to "%20" where "?" or "#" follows it */
                    while (q < n && s[q] != '?' && s[q] != '#') out[o++] = s[q++];
                    if (q < n && o > u->path_start && out[o - 1] == ' ') {
                        memcpy(out + o - 1, "%20", 3);
                        o += 2;
                    }
                }
                u->path_end = o;
                fu_ww_tail(s, q, n, scheme, out, o, u);
                return 1;
            }
            q += 2;
        }
        memcpy(out + i, "://", 3);
        o = i + 3;
        q = fu_ww_authority(s, q, n, scheme, out, &o, u);
        if (q < 0) return 0;
        u->path_start = o;
        if (q < n && s[q] == '/') {
            q = fu_ww_path(s, q + 1, n, out, o, &o, 0);
        } else if (scheme != FU_WW_OTHER) {
            q = fu_ww_path(s, q, n, out, o, &o, 0);
        }
        if (q < 0) return 0;
        u->path_end = o;
        fu_ww_tail(s, q, n, scheme, out, o, u);
        return 1;
    }
    /* no scheme: a relative reference against a special base */
    if (b == NULL || b->scheme == FU_WW_OTHER || b->scheme == FU_WW_FILE) return 0;
    u->scheme = b->scheme;
    u->scheme_end = b->scheme_end;
    if (n >= 2 && s[0] == '/' && s[1] == '/') {
        memcpy(out, base, (size_t)b->scheme_end + 3);
        o = b->scheme_end + 3;
        q = 2;
        while (q < n && s[q] == '/') q++;
        q = fu_ww_authority(s, q, n, u->scheme, out, &o, u);
        if (q < 0) return 0;
        u->path_start = o;
        q = fu_ww_path(s, q < n && s[q] == '/' ? q + 1 : q, n, out, o, &o, 0);
        if (q < 0) return 0;
        u->path_end = o;
        fu_ww_tail(s, q, n, u->scheme, out, o, u);
        return 1;
    }
    u->user_start = b->user_start;
    u->user_end = b->user_end;
    u->pass_start = b->pass_start;
    u->pass_end = b->pass_end;
    u->host_start = b->host_start;
    u->host_end = b->host_end;
    u->port = b->port;
    u->path_start = b->path_start;
    if (n == 0 || s[0] == '?' || s[0] == '#') {
        /* the base's path (and, for "#" or nothing, its query) */
        ptrdiff_t keep = n > 0 && s[0] == '?' ? b->path_end
                         : b->frag_start >= 0 ? b->frag_start
                                              : b->len;
        memcpy(out, base, (size_t)keep);
        u->path_end = b->path_end;
        if (n > 0 && s[0] == '?') {
            fu_ww_tail(s, 0, n, u->scheme, out, keep, u);
        } else {
            fu_ww_tail(s, 0, n, u->scheme, out, keep, u);
            u->query_start = b->query_start;
        }
        return 1;
    }
    memcpy(out, base, (size_t)b->path_end);
    o = b->path_end;
    if (s[0] == '/') {
        o = b->path_start;
        q = fu_ww_path(s, 1, n, out, o, &o, 0);
    } else {
        /* the base's path shortened: its last item goes */
        while (o > b->path_start && out[o - 1] != '/') o--;
        if (o > b->path_start) o--;
        q = fu_ww_path(s, 0, n, out, b->path_start, &o, 0);
    }
    if (q < 0) return 0;
    u->path_end = o;
    fu_ww_tail(s, q, n, u->scheme, out, o, u);
    return 1;
}

#endif /* FASTURI_WHATWG_H */
