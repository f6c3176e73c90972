/* fasturi_whatwg_set.h: the URL Standard's setters (§6.1, the URL class's
   href, protocol, username, password, host, hostname, port, pathname,
   search and hash setters): each a run of the basic URL parser with a
   state override over the setter's value, or (username, password, port "",
   search "", hash "") a step of its own.

   A URL is its href and record (fu_ww_url), as fasturi_whatwg_parse.h
   writes them.  fu_ww_set reads it as a record of parts (fu_ww_rec: each
   a span of the href or of the new part), runs the setter on the part it
   sets, and serializes the record again into out: a setter that the
   standard ignores, or whose state override returns failure before it
   changed anything, gives the URL back as it was; one that fails after
   changing the host (the host setter's port) keeps the host.  Only the
   href setter fails (FU_WW_FAIL: its parse's failure in u->error).  A
   domain beyond ASCII is the caller's, as in the parser (FU_WW_HOST).

   The value is UTF-8 (a scalar value string's: see fu_ww_usv_N); out has
   room for fu_ww_set_room(href length, value length) bytes, plus
   2 * given_len where the caller gives a host (nu->given: NULL, or after
   FU_WW_HOST the host's serialization).  Expects fasturi_whatwg_parse.h
   and fasturi_whatwg_same.h. */
#ifndef FASTURI_WHATWG_SET_H
#define FASTURI_WHATWG_SET_H

#include "fasturi_whatwg_parse.h"
#include "fasturi_whatwg_same.h"

/* The setters, in the URL class's order. */
enum {
    FU_WW_SET_HREF = 0,
    FU_WW_SET_PROTOCOL,
    FU_WW_SET_USERNAME,
    FU_WW_SET_PASSWORD,
    FU_WW_SET_HOST,
    FU_WW_SET_HOSTNAME,
    FU_WW_SET_PORT,
    FU_WW_SET_PATHNAME,
    FU_WW_SET_SEARCH,
    FU_WW_SET_HASH,
    FU_WW_SET_COUNT
};

/* out's room for a setter with a value of vn bytes on an href of hn: the
   new href (the old and the new part: percent-encoding triples a byte,
   "//", "/." and a port: 64), behind it the new part being made, and the
   value without its tabs and newlines; or the href setter's parse. */
static inline ptrdiff_t fu_ww_set_room(ptrdiff_t hn, ptrdiff_t vn)
{
    ptrdiff_t r = hn + 7 * vn + 192;
    return r > fu_ww_room(vn, 0) ? r : fu_ww_room(vn, 0);
}

/* Where the new part is made: past the new href's room (the old href, the
   new part, 64; and a host given). */
static inline uint8_t *fu_ww_set_part(uint8_t *out, ptrdiff_t hn, ptrdiff_t vn, ptrdiff_t given_len)
{
    return out + hn + 3 * vn + 64 + given_len;
}

/* A URL as its parts: spans of the href or of a new part, the host and
   query and fragment possibly null (NULL p: null; the query and fragment
   without their "?" and "#"), the path serialized. */
typedef struct {
    const uint8_t *p;
    ptrdiff_t n;
} fu_ww_span;

typedef struct {
    fu_ww_span scheme, user, pass, host, path, query, frag;
    int32_t port;
    int scheme_id;
} fu_ww_rec;

static inline fu_ww_span fu_ww_span_of(const uint8_t *h, ptrdiff_t a, ptrdiff_t b)
{
    fu_ww_span s = { h + a, b - a };
    return s;
}

/* The record of the URL (href, u). */
static inline void fu_ww_rec_of(const uint8_t *href, const fu_ww_url *u, fu_ww_rec *r)
{
    static const fu_ww_span null = { NULL, 0 };
    r->scheme = fu_ww_span_of(href, 0, u->scheme_end);
    r->scheme_id = u->scheme;
    r->user = fu_ww_span_of(href, u->user_start, u->user_end);
    r->pass = fu_ww_span_of(href, u->pass_start, u->pass_end);
    r->host = u->host_start >= 0 ? fu_ww_span_of(href, u->host_start, u->host_end) : null;
    r->port = u->port;
    r->path = fu_ww_span_of(href, u->path_start, u->path_end);
    ptrdiff_t qe = u->frag_start >= 0 ? u->frag_start : u->len;
    r->query = u->query_start >= 0 ? fu_ww_span_of(href, u->query_start + 1, qe) : null;
    r->frag = u->frag_start >= 0 ? fu_ww_span_of(href, u->frag_start + 1, u->len) : null;
}

static inline int fu_ww_rec_credentials(const fu_ww_rec *r) { return r->user.n || r->pass.n; }

/* The URL has an opaque path: its host is null and its path is not a
   list (serialized, it does not start with "/"). */
static inline int fu_ww_rec_opaque(const fu_ww_rec *r)
{
    return r->host.p == NULL && (r->path.n == 0 || r->path.p[0] != '/');
}

/* A URL cannot have a username/password/port: a null or empty host, or
   the scheme file. */
static inline int fu_ww_rec_no_userinfo(const fu_ww_rec *r)
{
    return r->host.p == NULL || r->host.n == 0 || r->scheme_id == FU_WW_FILE;
}

/* (The spans lie in the old href or beyond the new one's room: never
   where they are written.) */
static inline uint8_t *fu_ww_put(uint8_t *o, fu_ww_span s)
{
    fu_copy(o, s.p, s.n);
    return o + s.n;
}

/* The URL serializer over the record, into out; its record in *u. */
static inline void fu_ww_rec_write(const fu_ww_rec *r, uint8_t *out, fu_ww_url *u)
{
    uint8_t *o = fu_ww_put(out, r->scheme);
    u->scheme = r->scheme_id;
    u->scheme_end = o - out;
    *o++ = ':';
    u->user_start = u->user_end = u->pass_start = u->pass_end = 0;
    u->host_start = u->host_end = -1;
    u->port = -1;
    if (r->host.p != NULL) {
        *o++ = '/';
        *o++ = '/';
        if (fu_ww_rec_credentials(r)) {
            u->user_start = o - out;
            o = fu_ww_put(o, r->user);
            u->user_end = o - out;
            if (r->pass.n) {
                *o++ = ':';
                u->pass_start = o - out;
                o = fu_ww_put(o, r->pass);
                u->pass_end = o - out;
            }
            *o++ = '@';
        }
        u->host_start = o - out;
        o = fu_ww_put(o, r->host);
        u->host_end = o - out;
        if (r->port >= 0) {
            u->port = r->port;
            *o++ = ':';
            o = fu_ww_put_port(r->port, o);
        }
    } else if (r->path.n >= 2 && r->path.p[0] == '/' && r->path.p[1] == '/') {
        *o++ = '/';
        *o++ = '.';
    }
    u->path_start = o - out;
    o = fu_ww_put(o, r->path);
    u->path_end = o - out;
    u->query_start = u->frag_start = -1;
    if (r->query.p != NULL) {
        u->query_start = o - out;
        *o++ = '?';
        o = fu_ww_put(o, r->query);
    }
    if (r->frag.p != NULL) {
        u->frag_start = o - out;
        *o++ = '#';
        o = fu_ww_put(o, r->frag);
    }
    u->len = o - out;
    u->error = FU_WW_E_NONE;
}

/* The parts fu_ww_splice replaces, in the serializer's order. */
enum { FU_WW_PART_HOST, FU_WW_PART_PATH, FU_WW_PART_QUERY, FU_WW_PART_FRAG };

/* The URL (href, u) with its bytes [a, b), where the part `part` lies (or
   would), replaced by new[0..k): into out, its record in *nu, the parts
   after it moved and the part's own end (or start, for a query or
   fragment: the caller sets whether it is null) set.  For a setter of one
   part that no other part's serialization depends on. */
static inline void fu_ww_splice(const uint8_t *href, const fu_ww_url *u, int part, ptrdiff_t a,
                                ptrdiff_t b, const uint8_t *new, ptrdiff_t k, uint8_t *out,
                                fu_ww_url *nu)
{
    ptrdiff_t d = k - (b - a);
    fu_copy(out, href, a);
    fu_copy(out + a, new, k);
    fu_copy(out + a + k, href + b, u->len - b);
    *nu = *u;
    nu->len = u->len + d;
    nu->error = FU_WW_E_NONE;
    nu->need = NULL;
    nu->need_len = 0;
    switch (part) {
    case FU_WW_PART_HOST:
        nu->host_end = a + k;
        nu->path_start += d;
        nu->path_end += d;
        /* fall through */
    case FU_WW_PART_PATH:
        if (part == FU_WW_PART_PATH)
            nu->path_end = a + k;
        if (u->query_start >= 0)
            nu->query_start += d;
        /* fall through */
    case FU_WW_PART_QUERY:
        if (u->frag_start >= 0)
            nu->frag_start += d;
        break;
    default: break;
    }
}

/* The host state with state override (host, hostname setters) over
   v[0..n), the host written at *pw (the new part's room) and set in r:
   FU_WW_OK (whether it set anything or not), FU_WW_HOST. */
static inline int fu_ww_set_host(fu_ww_rec *r, const uint8_t *v, ptrdiff_t n, int hostname,
                                 uint8_t **pw, fu_ww_url *u)
{
    uint8_t *w = *pw;
    ptrdiff_t o = 0, e = 0;
    int rc, special = FU_WW_SPECIAL(r->scheme_id);
    if (r->scheme_id == FU_WW_FILE) {
        /* the file host state: up to "/", "\", "?", "#" */
        while (e < n && v[e] != '/' && v[e] != '\\' && v[e] != '?' && v[e] != '#')
            e++;
        if (e > 0) {
            rc = fu_ww_host(v, e, 0, w, &o, u);
            if (rc != FU_WW_OK)
                return rc == FU_WW_FAIL ? FU_WW_OK : rc;
            if (o == 9 && memcmp(w, "localhost", 9) == 0)
                o = 0;
        }
        r->host = fu_ww_span_of(w, 0, o);
        *pw = w + o;
        return FU_WW_OK;
    }
    int inside = 0;
    for (; e < n; e++) {
        uint8_t c = v[e];
        if (c == ':' && !inside)
            break;
        if (c == '/' || c == '?' || c == '#' || (c == '\\' && special))
            break;
        if (c == '[')
            inside = 1;
        else if (c == ']')
            inside = 0;
    }
    int colon = e < n && v[e] == ':';
    if (colon && (e == 0 || hostname))
        return FU_WW_OK; /* host-missing, or a port where none may be */
    if (!colon && e == 0 && (special || fu_ww_rec_credentials(r) || r->port >= 0))
        return FU_WW_OK;
    rc = fu_ww_host(v, e, !special, w, &o, u);
    if (rc != FU_WW_OK)
        return rc == FU_WW_FAIL ? FU_WW_OK : rc;
    r->host = fu_ww_span_of(w, 0, o);
    *pw = w + o;
    if (colon) {
        /* the port state with state override: the digits after ":" */
        ptrdiff_t k = e + 1;
        int32_t port = 0;
        while (k < n && fu_ww_digit(v[k])) {
            port = port * 10 + (v[k] - '0');
            if (port > 65535)
                port = 65536;
            k++;
        }
        if (k > e + 1 && port <= 65535)
            r->port = port == fu_ww_default_port(r->scheme_id) ? -1 : port;
    }
    return FU_WW_OK;
}

/* The setter `which` with the value v[0..vn) on the URL (href, u): the
   URL after it in out and *nu (see the top). */
static inline int fu_ww_set(int which, const uint8_t *href, const fu_ww_url *u, const uint8_t *v,
                            ptrdiff_t vn, uint8_t *out, fu_ww_url *nu)
{
    fu_ww_rec r;
    if (which == FU_WW_SET_HREF) {
        nu->need = NULL;
        nu->need_len = 0;
        if (nu->given == NULL && fu_ww_same(v, vn, out, nu)) {
            nu->error = FU_WW_E_NONE;
            return FU_WW_OK;
        }
        return fu_ww_parse_full(v, vn, NULL, NULL, out, nu);
    }
    fu_ww_rec_of(href, u, &r);
    ptrdiff_t hn = u->len;
    /* the new part at w, the value without tabs and newlines at c */
    uint8_t *w = fu_ww_set_part(out, hn, vn, nu->given_len);
    uint8_t *clean = out + fu_ww_set_room(hn, vn) + 2 * nu->given_len - vn;
    const uint8_t *c = v;
    ptrdiff_t cn = vn;
    int rc;
    switch (which) {
    case FU_WW_SET_PROTOCOL: {
        /* the scheme start state with state override, over value ":" */
        if (fu_ww_has_tab_or_newline(v, vn)) {
            cn = fu_ww_drop_tabs(v, vn, clean);
            c = clean;
        }
        if (cn == 0 || !fu_ww_alpha(c[0]))
            break;
        ptrdiff_t i = 1;
        while (i < cn
               && (fu_ww_alpha(c[i]) || fu_ww_digit(c[i]) || c[i] == '+' || c[i] == '-'
                   || c[i] == '.'))
            i++;
        if (i < cn && c[i] != ':')
            break;
        for (ptrdiff_t k = 0; k < i; k++)
            w[k] = fu_ww_lower(c[k]);
        int id = fu_ww_scheme_id(w, i);
        if (FU_WW_SPECIAL(r.scheme_id) != FU_WW_SPECIAL(id))
            break;
        if (id == FU_WW_FILE && (fu_ww_rec_credentials(&r) || r.port >= 0))
            break;
        if (r.scheme_id == FU_WW_FILE && r.host.p != NULL && r.host.n == 0)
            break;
        r.scheme = fu_ww_span_of(w, 0, i);
        r.scheme_id = id;
        if (r.port == fu_ww_default_port(id))
            r.port = -1;
        break;
    }
    case FU_WW_SET_USERNAME:
    case FU_WW_SET_PASSWORD: {
        if (fu_ww_rec_no_userinfo(&r))
            break;
        ptrdiff_t k = fu_ww_encode(v, 0, vn, FU_WW_USERINFO, w) - w;
        if (which == FU_WW_SET_USERNAME)
            r.user = fu_ww_span_of(w, 0, k);
        else
            r.pass = fu_ww_span_of(w, 0, k);
        break;
    }
    case FU_WW_SET_HOST:
    case FU_WW_SET_HOSTNAME:
        if (fu_ww_rec_opaque(&r))
            break;
        if (fu_ww_has_tab_or_newline(v, vn)) {
            cn = fu_ww_drop_tabs(v, vn, clean);
            c = clean;
        }
        rc = fu_ww_set_host(&r, c, cn, which == FU_WW_SET_HOSTNAME, &w, nu);
        if (rc != FU_WW_OK)
            return rc;
        if (u->host_start >= 0 && r.port == u->port) {
            /* a host for a host, the port as it was: spliced in */
            fu_ww_splice(href, u, FU_WW_PART_HOST, u->host_start, u->host_end, r.host.p, r.host.n,
                         out, nu);
            return FU_WW_OK;
        }
        break;
    case FU_WW_SET_PORT: {
        if (fu_ww_rec_no_userinfo(&r))
            break;
        if (vn == 0) {
            r.port = -1;
            break;
        }
        /* the port state with state override: the leading digits */
        ptrdiff_t k = 0, digits = 0;
        int32_t port = 0;
        for (; k < vn; k++) {
            uint8_t b = v[k];
            if (b == '\t' || b == '\n' || b == '\r')
                continue;
            if (!fu_ww_digit(b))
                break;
            port = port * 10 + (b - '0');
            if (port > 65535)
                port = 65536;
            digits++;
        }
        if (digits > 0 && port <= 65535)
            r.port = port == fu_ww_default_port(r.scheme_id) ? -1 : port;
        break;
    }
    case FU_WW_SET_PATHNAME: {
        if (fu_ww_rec_opaque(&r))
            break;
        if (fu_ww_has_tab_or_newline(v, vn)) {
            cn = fu_ww_drop_tabs(v, vn, clean);
            c = clean;
        }
        /* the path start state with state override, then the path state */
        int special = FU_WW_SPECIAL(r.scheme_id);
        ptrdiff_t q = 0, o = 0;
        unsigned mode = FU_WW_P_OVERRIDE | (special ? FU_WW_P_SPECIAL : 0)
                        | (r.scheme_id == FU_WW_FILE ? FU_WW_P_FILE : 0);
        if (special) {
            if (cn > 0 && (c[0] == '/' || c[0] == '\\'))
                q = 1;
            fu_ww_path(c, q, cn, w, 0, &o, mode);
        } else if (cn > 0) {
            fu_ww_path(c, c[0] == '/' ? 1 : 0, cn, w, 0, &o, mode);
        } else if (r.host.p == NULL) {
            w[o++] = '/'; /* the empty string appended to the path */
        }
        if (r.host.p == NULL) {
            r.path = fu_ww_span_of(w, 0, o); /* (and "/." before it, or not) */
            break;
        }
        fu_ww_splice(href, u, FU_WW_PART_PATH, u->path_start, u->path_end, w, o, out, nu);
        return FU_WW_OK;
    }
    case FU_WW_SET_SEARCH:
    case FU_WW_SET_HASH: {
        /* the query or fragment: where it is or would be */
        int search = which == FU_WW_SET_SEARCH;
        ptrdiff_t end = u->frag_start >= 0 ? u->frag_start : u->len;
        ptrdiff_t a = search ? (u->query_start >= 0 ? u->query_start : end) : end;
        ptrdiff_t b = search ? end : u->len, o = 0;
        if (vn > 0) {
            /* a leading "?" (or "#") goes, then the query (fragment) state
               with state override over the rest: every byte its set's */
            ptrdiff_t skip = v[0] == (search ? '?' : '#');
            c = v + skip;
            cn = vn - skip;
            if (fu_ww_has_tab_or_newline(c, cn)) {
                cn = fu_ww_drop_tabs(c, cn, clean);
                c = clean;
            }
            w[o++] = search ? '?' : '#';
            if (search)
                fu_ww_query(c, 0, cn, FU_WW_SPECIAL(r.scheme_id), 1, w, &o);
            else
                o = fu_ww_fragment(c, 0, cn, w, o);
        }
        fu_ww_splice(href, u, search ? FU_WW_PART_QUERY : FU_WW_PART_FRAG, a, b, w, o, out, nu);
        if (search)
            nu->query_start = vn > 0 ? a : -1;
        else
            nu->frag_start = vn > 0 ? a : -1;
        return FU_WW_OK;
    }
    default: break;
    }
    fu_ww_rec_write(&r, out, nu);
    return FU_WW_OK;
}

#endif /* FASTURI_WHATWG_SET_H */
