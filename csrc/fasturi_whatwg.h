/* fasturi_whatwg.h: the WHATWG URL Standard in C, every input: what the
   compiled fasturi.whatwg (_whatwg_c) and the column kernels (_arrow_c)
   include.  The parts, each a header of its own:

   - fasturi_whatwg_url.h   the record of a parsed URL (fu_ww_url: its href's
                            parts' offsets), schemes, failures, percent-encode
                            sets, scalar value strings as UTF-8;
   - fasturi_whatwg_host.h  the host parser and serializer;
   - fasturi_whatwg_same.h  URLs that serialize to themselves, proved in one
                            pass (most URLs), and a column's run of them;
   - fasturi_whatwg_parse.h the basic URL parser, every state;
   - fasturi_whatwg_set.h   the setters (the parser with state override),
                            and origin.

   fu_ww_parse below is the API URL parser's parse of one input against a
   base (or none): fu_ww_same first, the parser where it says no.  Input
   is UTF-8 (pointer, length; a str's code units go through fu_ww_usv_N
   first, bytes that are not UTF-8 through fu_ww_utf8_fix); out has room
   for fu_ww_room(n, base length) bytes.  Results: FU_WW_OK, the href in
   out and its parts in *u; FU_WW_FAIL, the failure's name in u->error;
   FU_WW_HOST, a domain beyond ASCII whose ASCII form (fu_ww_idna's) is
   longer than the host's room: its host state's buffer is u->need
   (u->need_len bytes), fu_ww_host_alone serializes it, and
   fu_ww_parse_given parses the input again with that (out then has room
   for given_len bytes more). */
#ifndef FASTURI_WHATWG_H
#define FASTURI_WHATWG_H

#include "fasturi_whatwg_parse.h"
#include "fasturi_whatwg_same.h"
#include "fasturi_whatwg_set.h"

/* The basic URL parser on s[0..n) against the base (its href and record,
   as this parser wrote them; NULL: none). */
static inline int fu_ww_parse(const uint8_t *s, ptrdiff_t n, const uint8_t *base,
                              const fu_ww_url *b, uint8_t *out, fu_ww_url *u)
{
    u->given = NULL;
    u->given_len = 0;
    u->need = NULL;
    u->need_len = 0;
    /* most URLs are written as the serializer writes them (whatever the
       base: fu_ww_same takes absolute URLs with "//" only) */
    if (fu_ww_same(s, n, out, u)) {
        u->error = FU_WW_E_NONE;
        return FU_WW_OK;
    }
    return fu_ww_parse_full(s, n, base, b, out, u);
}

/* fu_ww_parse where fu_ww_same has said no already. */
static inline int fu_ww_parse_rest(const uint8_t *s, ptrdiff_t n, const uint8_t *base,
                                   const fu_ww_url *b, uint8_t *out, fu_ww_url *u)
{
    u->given = NULL;
    u->given_len = 0;
    u->need = NULL;
    u->need_len = 0;
    return fu_ww_parse_full(s, n, base, b, out, u);
}

/* fu_ww_parse again after FU_WW_HOST, with the host state's buffer it
   named serialized by the caller (host[0..host_len), ASCII); out has room
   for fu_ww_room(n, base length) + host_len bytes. */
static inline int fu_ww_parse_given(const uint8_t *s, ptrdiff_t n, const uint8_t *base,
                                    const fu_ww_url *b, const uint8_t *host, ptrdiff_t host_len,
                                    uint8_t *out, fu_ww_url *u)
{
    u->given = host;
    u->given_len = host_len;
    u->need = NULL;
    u->need_len = 0;
    return fu_ww_parse_full(s, n, base, b, out, u);
}

#endif /* FASTURI_WHATWG_H */
