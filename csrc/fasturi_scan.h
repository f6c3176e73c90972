/* fasturi_scan.h: component offsets of a URI reference.
 *
 * fu_split_N() is RFC 3986 Appendix B's regular expression
 *     ^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?
 * as a single forward scan; fu_authority_N() splits an authority into
 * userinfo, host and port the way docs/ARCHITECTURE.md fixes.  N is the
 * code-unit width of the text (1, 2 or 4 bytes: a Python str's kind).
 *
 * Expects a pointer and a length; reads only [0, len) and never relies on
 * NUL termination (URIs may contain NUL).  Offsets are code-unit indexes;
 * -1 marks an undefined component.
 */
#ifndef FASTURI_SCAN_H
#define FASTURI_SCAN_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    ptrdiff_t scheme_end; /* scheme = [0, scheme_end) or -1 */
    ptrdiff_t auth_start; /* authority = [auth_start, auth_end) or -1 */
    ptrdiff_t auth_end;
    ptrdiff_t path_start; /* path = [path_start, path_end), always defined */
    ptrdiff_t path_end;
    ptrdiff_t query_start; /* query = [query_start, query_end) or -1 */
    ptrdiff_t query_end;
    ptrdiff_t frag_start; /* fragment = [frag_start, len) or -1 */
} fu_split_t;

typedef struct {
    ptrdiff_t userinfo_end; /* userinfo = [start, userinfo_end) or -1 */
    ptrdiff_t host_start;   /* host = [host_start, host_end), always defined */
    ptrdiff_t host_end;
    ptrdiff_t port_start; /* port = [port_start, end) or -1 */
} fu_authority_t;

#define FU_DEFINE_SCAN(N, T)                                                                       \
    static inline void fu_split_##N(const T *s, ptrdiff_t len, fu_split_t *o)                      \
    {                                                                                              \
        ptrdiff_t i = 0, pos = 0;                                                                  \
        o->scheme_end = o->auth_start = o->auth_end = -1;                                          \
        o->query_start = o->query_end = o->frag_start = -1;                                        \
        /* scheme: a non-empty run free of / ? # ending at the first ':' */                        \
        while (i < len && s[i] != ':' && s[i] != '/' && s[i] != '?' && s[i] != '#')                \
            i++;                                                                                   \
        if (i > 0 && i < len && s[i] == ':') {                                                     \
            o->scheme_end = i;                                                                     \
            pos = i + 1;                                                                           \
        }                                                                                          \
        /* authority: "//" then everything up to / ? # */                                          \
        if (len - pos >= 2 && s[pos] == '/' && s[pos + 1] == '/') {                                \
            i = pos + 2;                                                                           \
            o->auth_start = i;                                                                     \
            while (i < len && s[i] != '/' && s[i] != '?' && s[i] != '#')                           \
                i++;                                                                               \
            o->auth_end = i;                                                                       \
            pos = i;                                                                               \
        }                                                                                          \
        /* path: up to ? # */                                                                      \
        i = pos;                                                                                   \
        while (i < len && s[i] != '?' && s[i] != '#')                                              \
            i++;                                                                                   \
        o->path_start = pos;                                                                       \
        o->path_end = i;                                                                           \
        if (i < len && s[i] == '?') {                                                              \
            o->query_start = ++i;                                                                  \
            while (i < len && s[i] != '#')                                                         \
                i++;                                                                               \
            o->query_end = i;                                                                      \
        }                                                                                          \
        if (i < len) /* s[i] == '#' */                                                             \
            o->frag_start = i + 1;                                                                 \
    }                                                                                              \
                                                                                                   \
    static inline void fu_authority_##N(const T *s, ptrdiff_t start, ptrdiff_t end,                \
                                        fu_authority_t *o)                                         \
    {                                                                                              \
        ptrdiff_t i, h;                                                                            \
        o->userinfo_end = -1;                                                                      \
        o->port_start = -1;                                                                        \
        /* userinfo: everything before the last '@' */                                             \
        for (i = end - 1; i >= start; i--)                                                         \
            if (s[i] == '@') {                                                                     \
                o->userinfo_end = i;                                                               \
                break;                                                                             \
            }                                                                                      \
        h = o->userinfo_end >= 0 ? o->userinfo_end + 1 : start;                                    \
        o->host_start = h;                                                                         \
        o->host_end = end;                                                                         \
        if (h < end && s[h] == '[') {                                                              \
            /* IP-literal: host runs to the first ']'; a port needs ':' right */                   \
            /* after it, anything else after ']' stays in the host */                              \
            for (i = h + 1; i < end && s[i] != ']'; i++)                                           \
                ;                                                                                  \
            if (i < end && i + 1 < end && s[i + 1] == ':') {                                       \
                o->host_end = i + 1;                                                               \
                o->port_start = i + 2;                                                             \
            }                                                                                      \
            return;                                                                                \
        }                                                                                          \
        for (i = end - 1; i >= h; i--)                                                             \
            if (s[i] == ':') {                                                                     \
                o->host_end = i;                                                                   \
                o->port_start = i + 1;                                                             \
                break;                                                                             \
            }                                                                                      \
    }

FU_DEFINE_SCAN(1, uint8_t)
FU_DEFINE_SCAN(2, uint16_t)
FU_DEFINE_SCAN(4, uint32_t)

#undef FU_DEFINE_SCAN

#endif /* FASTURI_SCAN_H */
