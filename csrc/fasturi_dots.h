/* fasturi_dots.h: dot segments, reference resolution and normalization.
 *
 * fu_dots_N      RFC 3986 §5.2.4 remove_dot_segments, in place
 * fu_dots2396_N  RFC 2396 §5.2 step 6 c)-g), in place
 * fu_resolve_N   RFC 3986 §5.2.2 / §5.2.3 / §5.3 (or RFC 2396 §5.2), the
 *                base split beforehand by fu_split_N (a batch splits it once)
 * fu_normalize_N RFC 3986 §6.2.2 then, optionally, §6.2.3
 *
 * N is the code-unit width (1, 2 or 4 bytes: a Python str's kind); both
 * inputs of fu_resolve_N share it.  Every function reads only [0, len) of
 * its inputs, never relies on NUL termination, runs in linear time, and
 * writes at most the bound stated beside it.  The in-place passes are safe
 * because each writes no more units than it has read so far.
 */
#ifndef FASTURI_DOTS_H
#define FASTURI_DOTS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fasturi_pct.h"
#include "fasturi_scan.h"

#define FU_RESOLVE_3986 0
#define FU_RESOLVE_2396 1

/* Output bound of fu_resolve_N: nb + nr + FU_RESOLVE_EXTRA units (a "/"
 * from §5.2.3, or the "/." that keeps a "//" path from reading as an
 * authority). */
#define FU_RESOLVE_EXTRA 4
/* Output bound of fu_normalize_N: n + FU_NORMALIZE_EXTRA units. */
#define FU_NORMALIZE_EXTRA 4

/* fu_dot_pair_N(s, i, n): index of the first "/." in s[i, n), or n.  Bytes
 * go to memchr for each '.', which most paths have once, if at all. */
static inline ptrdiff_t fu_dot_pair_1(const uint8_t *s, ptrdiff_t i, ptrdiff_t n)
{
    const uint8_t *p;
    while (i + 1 < n
           && (p = (const uint8_t *)memchr(s + i + 1, '.', (size_t)(n - i - 1))) != NULL) {
        if (p[-1] == '/')
            return p - 1 - s;
        i = p - s;
    }
    return n;
}

#define FU_DEFINE_DOT_PAIR(N, T)                                                                   \
    static inline ptrdiff_t fu_dot_pair_##N(const T *s, ptrdiff_t i, ptrdiff_t n)                  \
    {                                                                                              \
        while (i + 1 < n && !(s[i] == '/' && s[i + 1] == '.'))                                     \
            i++;                                                                                   \
        return i + 1 < n ? i : n;                                                                  \
    }
FU_DEFINE_DOT_PAIR(2, uint16_t)
FU_DEFINE_DOT_PAIR(4, uint32_t)
#undef FU_DEFINE_DOT_PAIR

/* §6.2.3 defaults: the port, as digits without leading zeros, of a
 * lowercase scheme; NULL when the scheme has none here. */
#define FU_DEFINE_DEFAULT_PORT(N, T)                                                               \
    static inline const char *fu_default_port_##N(const T *s, ptrdiff_t n)                         \
    {                                                                                              \
        if (n == 2 && s[0] == 'w' && s[1] == 's')                                                  \
            return "80";                                                                           \
        if (n == 3 && s[0] == 'w' && s[1] == 's' && s[2] == 's')                                   \
            return "443";                                                                          \
        if (n == 3 && s[0] == 'f' && s[1] == 't' && s[2] == 'p')                                   \
            return "21";                                                                           \
        if (n >= 4 && s[0] == 'h' && s[1] == 't' && s[2] == 't' && s[3] == 'p') {                  \
            if (n == 4)                                                                            \
                return "80";                                                                       \
            if (n == 5 && s[4] == 's')                                                             \
                return "443";                                                                      \
        }                                                                                          \
        return NULL;                                                                               \
    }

#define FU_DEFINE_DOTS(N, T)                                                                       \
    FU_DEFINE_DEFAULT_PORT(N, T)                                                                   \
                                                                                                   \
    /* §5.2.4 on s[0, n), in place; returns the new length.  The input buffer */                  \
    /* is s[i, n), the output buffer s[0, o), and o <= i throughout. */                            \
    static inline ptrdiff_t fu_dots_##N(T *s, ptrdiff_t n)                                         \
    {                                                                                              \
        ptrdiff_t i = 0, o = 0;                                                                    \
        /* Most paths have no dot segment: skip, uncopied, to the first place */                   \
        /* one could start (a leading "." or a "/." pair). */                                      \
        if (n > 0 && s[0] != '.') {                                                                \
            i = fu_dot_pair_##N(s, 0, n);                                                          \
            if (i + 1 >= n)                                                                        \
                return n;                                                                          \
            o = i;                                                                                 \
        }                                                                                          \
        while (i < n) {                                                                            \
            ptrdiff_t r = n - i;                                                                   \
            if (s[i] == '.') {                                                                     \
                /* 2A: "../" or "./" dropped; 2D: "." or ".." alone dropped */                     \
                if (r >= 3 && s[i + 1] == '.' && s[i + 2] == '/') {                                \
                    i += 3;                                                                        \
                    continue;                                                                      \
                }                                                                                  \
                if (r >= 2 && s[i + 1] == '/') {                                                   \
                    i += 2;                                                                        \
                    continue;                                                                      \
                }                                                                                  \
                if (r == 1 || (r == 2 && s[i + 1] == '.')) {                                       \
                    i = n;                                                                         \
                    continue;                                                                      \
                }                                                                                  \
            } else if (s[i] == '/' && r >= 2 && s[i + 1] == '.') {                                 \
                /* 2B: "/./" or a final "/." becomes "/" */                                        \
                if (r == 2) {                                                                      \
                    s[o++] = '/';                                                                  \
                    i = n;                                                                         \
                    continue;                                                                      \
                }                                                                                  \
                if (s[i + 2] == '/') {                                                             \
                    i += 2;                                                                        \
                    continue;                                                                      \
                }                                                                                  \
                /* 2C: "/../" or a final "/.." becomes "/", dropping the last */                   \
                /* output segment and its "/" (the scan back is paid for by the */                 \
                /* units it removes) */                                                            \
                if (s[i + 2] == '.' && (r == 3 || s[i + 3] == '/')) {                              \
                    while (o > 0 && s[o - 1] != '/')                                               \
                        o--;                                                                       \
                    if (o > 0)                                                                     \
                        o--;                                                                       \
                    if (r == 3) {                                                                  \
                        s[o++] = '/';                                                              \
                        i = n;                                                                     \
                    } else {                                                                       \
                        i += 3;                                                                    \
                    }                                                                              \
                    continue;                                                                      \
                }                                                                                  \
            }                                                                                      \
            /* 2E: move the first segment, with its leading "/" */                                 \
            s[o++] = s[i++];                                                                       \
            while (i < n && s[i] != '/')                                                           \
                s[o++] = s[i++];                                                                   \
        }                                                                                          \
        return o;                                                                                  \
    }                                                                                              \
                                                                                                   \
    /* RFC 2396 §5.2 step 6 c)-g) on s[0, n), in place; returns the new length. */                \
    /* Output segments are written "seg/" (the last one without "/"); a leading */                 \
    /* "/" is the root, below `floor`, which ".." never removes. */                                \
    static inline ptrdiff_t fu_dots2396_##N(T *s, ptrdiff_t n)                                     \
    {                                                                                              \
        ptrdiff_t i = 0, o = 0, floor = 0;                                                         \
        if (n > 0 && s[0] == '/') {                                                                \
            o = i = floor = 1;                                                                     \
        }                                                                                          \
        for (;;) {                                                                                 \
            ptrdiff_t j = i, len;                                                                  \
            int last;                                                                              \
            while (j < n && s[j] != '/')                                                           \
                j++;                                                                               \
            last = j == n;                                                                         \
            len = j - i;                                                                           \
            if (len == 1 && s[i] == '.') {                                                         \
                /* 6c, 6d: dropped, its "/" with it unless it is last */                           \
            } else if (len == 2 && s[i] == '.' && s[i + 1] == '.') {                               \
                ptrdiff_t p = o - 1; /* the "/" ending the previous segment */                     \
                int popped = 0;                                                                    \
                if (o > floor) {                                                                   \
                    while (p > floor && s[p - 1] != '/')                                           \
                        p--;                                                                       \
                    if (!(o - 1 - p == 2 && s[p] == '.' && s[p + 1] == '.')) {                     \
                        o = p; /* 6e, 6f: "<segment>/.." cancels */                                \
                        popped = 1;                                                                \
                    }                                                                              \
                }                                                                                  \
                if (!popped) { /* 6g: kept */                                                      \
                    s[o++] = '.';                                                                  \
                    s[o++] = '.';                                                                  \
                    if (!last)                                                                     \
                        s[o++] = '/';                                                              \
                }                                                                                  \
            } else {                                                                               \
                while (i < j)                                                                      \
                    s[o++] = s[i++];                                                               \
                if (!last)                                                                         \
                    s[o++] = '/';                                                                  \
            }                                                                                      \
            if (last)                                                                              \
                break;                                                                             \
            i = j + 1;                                                                             \
        }                                                                                          \
        return o;                                                                                  \
    }                                                                                              \
                                                                                                   \
    /* Append s[a, b) at out + o; returns the new o. */                                            \
    static inline ptrdiff_t fu_put_##N(T *out, ptrdiff_t o, const T *s, ptrdiff_t a, ptrdiff_t b)  \
    {                                                                                              \
        if (b > a) {                                                                               \
            memcpy(out + o, s + a, (size_t)(b - a) * sizeof(T));                                   \
            o += b - a;                                                                            \
        }                                                                                          \
        return o;                                                                                  \
    }                                                                                              \
                                                                                                   \
    /* §5.3 for a path just written at out[p, o): without an authority, a path */                 \
    /* starting with "//" would read back as one, so it is written "/.//" (the */                  \
    /* same path once §5.2.4 runs).  Needs 2 spare units; returns the new o. */                   \
    static inline ptrdiff_t fu_guard_path_##N(T *out, ptrdiff_t p, ptrdiff_t o, int has_auth)      \
    {                                                                                              \
        if (!has_auth && o - p >= 2 && out[p] == '/' && out[p + 1] == '/') {                       \
            memmove(out + p + 2, out + p, (size_t)(o - p) * sizeof(T));                            \
            out[p] = '/';                                                                          \
            out[p + 1] = '.';                                                                      \
            o += 2;                                                                                \
        }                                                                                          \
        return o;                                                                                  \
    }                                                                                              \
                                                                                                   \
    /* §5.2: resolve ref[0, nr) against base[0, nb), whose split is *Bp, into */                  \
    /* out (room for nb + nr + FU_RESOLVE_EXTRA units).  Returns the length, or */                 \
    /* -1 when the base has no scheme (§5.2.1). */                                                \
    static inline ptrdiff_t fu_resolve_##N(const T *base, ptrdiff_t nb, const fu_split_t *Bp,      \
                                           const T *ref, ptrdiff_t nr, int strict, int rfc,        \
                                           T *out)                                                 \
    {                                                                                              \
        fu_split_t B = *Bp, R;                                                                     \
        ptrdiff_t o = 0, p, i;                                                                     \
        int ref_scheme, has_auth = 0, legacy = rfc == FU_RESOLVE_2396;                             \
        if (B.scheme_end < 0)                                                                      \
            return -1;                                                                             \
        fu_split_##N(ref, nr, &R);                                                                 \
        if (legacy && R.scheme_end < 0 && R.auth_start < 0 && R.path_start == R.path_end           \
            && R.query_start < 0) {                                                                \
            /* RFC 2396 §5.2 step 2: the current document */                                      \
            o = fu_put_##N(out, o, base, 0, B.frag_start >= 0 ? B.frag_start - 1 : nb);            \
            goto fragment;                                                                         \
        }                                                                                          \
        ref_scheme = R.scheme_end >= 0;                                                            \
        if (ref_scheme && !strict && R.scheme_end == B.scheme_end) {                               \
            /* §5.2.2: the non-strict loophole; schemes compare caselessly */                     \
            ref_scheme = 0;                                                                        \
            for (i = 0; i < B.scheme_end; i++) {                                                   \
                uint32_t x = ref[i], y = base[i];                                                  \
                if (x - 'A' < 26u)                                                                 \
                    x += 32;                                                                       \
                if (y - 'A' < 26u)                                                                 \
                    y += 32;                                                                       \
                if (x != y) {                                                                      \
                    ref_scheme = 1;                                                                \
                    break;                                                                         \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
        if (ref_scheme)                                                                            \
            o = fu_put_##N(out, o, ref, 0, R.scheme_end);                                          \
        else                                                                                       \
            o = fu_put_##N(out, o, base, 0, B.scheme_end);                                         \
        out[o++] = ':';                                                                            \
        if (ref_scheme || R.auth_start >= 0) {                                                     \
            if (R.auth_start >= 0) {                                                               \
                out[o++] = '/';                                                                    \
                out[o++] = '/';                                                                    \
                o = fu_put_##N(out, o, ref, R.auth_start, R.auth_end);                             \
                has_auth = 1;                                                                      \
            }                                                                                      \
            p = o;                                                                                 \
            o = fu_put_##N(out, o, ref, R.path_start, R.path_end);                                 \
            if (!legacy) /* RFC 2396 §5.2 steps 3, 4 take these as written */                     \
                o = p + fu_dots_##N(out + p, o - p);                                               \
        } else {                                                                                   \
            if (B.auth_start >= 0) {                                                               \
                out[o++] = '/';                                                                    \
                out[o++] = '/';                                                                    \
                o = fu_put_##N(out, o, base, B.auth_start, B.auth_end);                            \
                has_auth = 1;                                                                      \
            }                                                                                      \
            p = o;                                                                                 \
            if (!legacy && R.path_start == R.path_end) {                                           \
                o = fu_put_##N(out, o, base, B.path_start, B.path_end);                            \
                if (R.query_start < 0) {                                                           \
                    o = fu_guard_path_##N(out, p, o, has_auth);                                    \
                    if (B.query_start >= 0) {                                                      \
                        out[o++] = '?';                                                            \
                        o = fu_put_##N(out, o, base, B.query_start, B.query_end);                  \
                    }                                                                              \
                    goto fragment;                                                                 \
                }                                                                                  \
            } else if (R.path_start < R.path_end && ref[R.path_start] == '/') {                    \
                o = fu_put_##N(out, o, ref, R.path_start, R.path_end);                             \
                if (!legacy) /* RFC 2396 §5.2 step 5 takes it as written */                       \
                    o = p + fu_dots_##N(out + p, o - p);                                           \
            } else {                                                                               \
                /* §5.2.3 merge */                                                                \
                if (B.auth_start >= 0 && B.path_start == B.path_end) {                             \
                    out[o++] = '/';                                                                \
                } else {                                                                           \
                    ptrdiff_t cut = B.path_end;                                                    \
                    while (cut > B.path_start && base[cut - 1] != '/')                             \
                        cut--;                                                                     \
                    o = fu_put_##N(out, o, base, B.path_start, cut);                               \
                }                                                                                  \
                o = fu_put_##N(out, o, ref, R.path_start, R.path_end);                             \
                o = p + (legacy ? fu_dots2396_##N(out + p, o - p) : fu_dots_##N(out + p, o - p));  \
            }                                                                                      \
        }                                                                                          \
        o = fu_guard_path_##N(out, p, o, has_auth);                                                \
        if (R.query_start >= 0) {                                                                  \
            out[o++] = '?';                                                                        \
            o = fu_put_##N(out, o, ref, R.query_start, R.query_end);                               \
        }                                                                                          \
    fragment:                                                                                      \
        if (R.frag_start >= 0) {                                                                   \
            out[o++] = '#';                                                                        \
            o = fu_put_##N(out, o, ref, R.frag_start, nr);                                         \
        }                                                                                          \
        return o;                                                                                  \
    }                                                                                              \
                                                                                                   \
    /* §6.2.3: does the normalized port d[0, n) go?  Empty, or the scheme's */                    \
    /* default (dflt, may be NULL) compared as a number. */                                        \
    static inline int fu_drops_port_##N(const char *dflt, const T *d, ptrdiff_t n)                 \
    {                                                                                              \
        ptrdiff_t i = 0, k;                                                                        \
        if (n == 0)                                                                                \
            return 1;                                                                              \
        if (dflt == NULL)                                                                          \
            return 0;                                                                              \
        while (i < n && d[i] == '0')                                                               \
            i++;                                                                                   \
        for (k = 0; dflt[k] != 0; k++, i++)                                                        \
            if (i >= n || d[i] != (T)dflt[k])                                                      \
                return 0;                                                                          \
        return i == n;                                                                             \
    }                                                                                              \
                                                                                                   \
    /* Is s[0, n), split into *S, normal already?  A quick test, sufficient, not */                \
    /* necessary, that most URIs pass: no '%' at all, no capital letter in the */                  \
    /* scheme or the host, no port, no empty path after an authority, and no */                    \
    /* path segment starting with '.'. */                                                          \
    static inline int fu_is_normal_##N(const T *s, ptrdiff_t n, const fu_split_t *S)               \
    {                                                                                              \
        ptrdiff_t i;                                                                               \
        fu_authority_t A;                                                                          \
        if (fu_stop_##N(s, 0, n, '%', '%', '%', '%') < n || fu_has_upper_##N(s, 0, S->scheme_end)) \
            return 0;                                                                              \
        if (S->auth_start >= 0) {                                                                  \
            fu_authority_##N(s, S->auth_start, S->auth_end, &A);                                   \
            if (A.port_start >= 0 || S->path_start == S->path_end                                  \
                || fu_has_upper_##N(s, A.host_start, A.host_end))                                  \
                return 0;                                                                          \
        }                                                                                          \
        for (i = S->path_start;; i++) {                                                            \
            i = fu_stop_##N(s, i, S->path_end, '.', '.', '.', '.');                                \
            if (i == S->path_end)                                                                  \
                return 1;                                                                          \
            if (i == S->path_start || s[i - 1] == '/')                                             \
                return 0;                                                                          \
        }                                                                                          \
    }                                                                                              \
                                                                                                   \
    /* §6.2.2 then, if scheme_based, §6.2.3: normalize s[0, n) into out (room */                 \
    /* for n + FU_NORMALIZE_EXTRA units); returns the length. */                                   \
    static inline ptrdiff_t fu_normalize_##N(const T *s, ptrdiff_t n, int scheme_based, T *out)    \
    {                                                                                              \
        fu_split_t S;                                                                              \
        ptrdiff_t o = 0, p;                                                                        \
        const char *dflt = NULL;                                                                   \
        fu_split_##N(s, n, &S);                                                                    \
        if (fu_is_normal_##N(s, n, &S)) {                                                          \
            memcpy(out, s, (size_t)n * sizeof(T));                                                 \
            return n;                                                                              \
        }                                                                                          \
        if (S.scheme_end >= 0) {                                                                   \
            o = fu_pct_norm_##N(s, 0, S.scheme_end, out, FU_NORM_LOWER);                           \
            dflt = fu_default_port_##N(out, o);                                                    \
            out[o++] = ':';                                                                        \
        }                                                                                          \
        if (S.auth_start >= 0) {                                                                   \
            fu_authority_t A;                                                                      \
            ptrdiff_t host_a, host_b, port_a, port_b = S.auth_end, port_len = 0;                   \
            T *port = NULL;                                                                        \
            out[o++] = '/';                                                                        \
            out[o++] = '/';                                                                        \
            fu_authority_##N(s, S.auth_start, S.auth_end, &A);                                     \
            if (A.userinfo_end >= 0) {                                                             \
                o += fu_pct_norm_##N(s, S.auth_start, A.userinfo_end, out + o, FU_NORM_PLAIN);     \
                out[o++] = '@';                                                                    \
            }                                                                                      \
            host_a = A.host_start;                                                                 \
            host_b = A.host_end;                                                                   \
            port_a = A.port_start;                                                                 \
            /* The port is normalized first, beyond the room the host needs. */                    \
            /* Dropping it (§6.2.3) can uncover another in a malformed host */                    \
            /* ("a:80:80"); that one goes too, so a second pass agrees. */                         \
            while (port_a >= 0) {                                                                  \
                port = out + o + (host_b - host_a) + 1;                                            \
                port_len = fu_pct_norm_##N(s, port_a, port_b, port, FU_NORM_PLAIN);                \
                if (!scheme_based || !fu_drops_port_##N(dflt, port, port_len))                     \
                    break;                                                                         \
                port = NULL;                                                                       \
                port_b = host_b;                                                                   \
                fu_authority_##N(s, host_a, host_b, &A);                                           \
                host_a = A.host_start;                                                             \
                host_b = A.host_end;                                                               \
                port_a = A.port_start;                                                             \
            }                                                                                      \
            o += fu_pct_norm_##N(s, host_a, host_b, out + o, FU_NORM_HOST);                        \
            if (port) {                                                                            \
                out[o++] = ':';                                                                    \
                memmove(out + o, port, (size_t)port_len * sizeof(T));                              \
                o += port_len;                                                                     \
            }                                                                                      \
        }                                                                                          \
        p = o;                                                                                     \
        o += fu_pct_norm_##N(s, S.path_start, S.path_end, out + o, FU_NORM_PLAIN);                 \
        /* §6.2.2.3; a relative path without a scheme has no base to climb */                     \
        if (S.scheme_end >= 0 || (o > p && out[p] == '/'))                                         \
            o = p + fu_dots_##N(out + p, o - p);                                                   \
        if (scheme_based && S.auth_start >= 0 && o == p && dflt != NULL)                           \
            out[o++] = '/'; /* §6.2.3: the empty path of these schemes */                         \
        o = fu_guard_path_##N(out, p, o, S.auth_start >= 0);                                       \
        if (S.query_start >= 0) {                                                                  \
            out[o++] = '?';                                                                        \
            o += fu_pct_norm_##N(s, S.query_start, S.query_end, out + o, FU_NORM_PLAIN);           \
        }                                                                                          \
        if (S.frag_start >= 0) {                                                                   \
            out[o++] = '#';                                                                        \
            o += fu_pct_norm_##N(s, S.frag_start, n, out + o, FU_NORM_PLAIN);                      \
        }                                                                                          \
        return o;                                                                                  \
    }

FU_DEFINE_DOTS(1, uint8_t)
FU_DEFINE_DOTS(2, uint16_t)
FU_DEFINE_DOTS(4, uint32_t)

#undef FU_DEFINE_DOTS
#undef FU_DEFINE_DEFAULT_PORT

#endif /* FASTURI_DOTS_H */
