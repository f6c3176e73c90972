/* fasturi_psl.h: the Public Suffix List as a hash set of rule suffixes.
 *
 * Each key is a rule with its "!" or "*." prefix taken off (the rule's
 * "core", UTF-8, lowercase); its flags say which kinds of rule have that
 * core (FU_PSL_EXACT, FU_PSL_WILD for "*.core", FU_PSL_EXCEPT for
 * "!core") in the ICANN section (low nibble) and in the whole list (high
 * nibble); FU_PSL_LONGER marks a key that is a proper suffix of a core, so
 * a lookup can stop at the first suffix of a host without it.  Keys are hashed right to left, byte by byte, so a host's
 * suffixes are hashed in one backward pass: the hash at each '.' is the
 * hash of the suffix after it.
 *
 * The table is filled once (fu_psl_insert) and read-only afterwards, so
 * lookups need no lock.  Slots with flags == 0 are empty.  Expects
 * pointer and length pairs; never relies on NUL termination.
 *
 * fu_psl_host_range and fu_psl_lookup are the two steps registrable_domain
 * and public_suffix take on a host's bytes, one copy for every caller:
 * _psl_c.pyx, the column kernels (_arrow_c.pyx), the DuckDB extension and
 * the ThreadSanitizer harness.
 */
#ifndef FASTURI_PSL_H
#define FASTURI_PSL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fasturi_base.h"  /* fu_lower_ascii */
#include "fasturi_rules.h" /* fu_host_type */
#include "fasturi_scan.h"  /* fu_stop_1, fu_authority_1 */

#define FU_PSL_EXACT 1
#define FU_PSL_WILD 2
#define FU_PSL_EXCEPT 4
#define FU_PSL_LONGER 8 /* the key ends a longer rule's core */
#define FU_PSL_HASH0 0xCBF29CE484222325ULL
/* The most labels a core may have: fu_psl_lookup keeps per-label offsets
 * on the C stack. */
#define FU_PSL_MAX_DEPTH 120

/* 12 bytes a slot: the whole table of the packaged list (16,384 slots)
 * stays in a core's L2 cache. */
typedef struct {
    uint32_t hash; /* the key hash's low 32 bits, checked before the key */
    uint32_t off;  /* key = keys[off, off + len) */
    uint16_t len;
    uint8_t flags;
} fu_psl_slot_t;

typedef struct {
    fu_psl_slot_t *slots;
    size_t mask; /* capacity - 1, capacity a power of two */
    const uint8_t *keys;
} fu_psl_t;

/* FNV-1a, one byte; keys are fed last byte first. */
static inline uint64_t fu_psl_step(uint64_t h, uint8_t c) { return (h ^ c) * 0x100000001B3ULL; }

static inline uint64_t fu_psl_hash(const uint8_t *s, size_t n)
{
    uint64_t h = FU_PSL_HASH0;
    while (n > 0)
        h = fu_psl_step(h, s[--n]);
    return h;
}

/* FNV's low bits mix poorly: fold the high bits in before masking. */
static inline size_t fu_psl_slot_of(uint64_t h, size_t mask)
{
    return (size_t)((h ^ (h >> 29) ^ (h >> 47)) & mask);
}

/* Whether a[0, n) == b[0, n): keys are a few bytes, shorter than a call
 * to memcmp costs. */
static inline int fu_psl_same(const uint8_t *a, const uint8_t *b, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (a[i] != b[i])
            return 0;
    return 1;
}

/* The flags of key s[0, n) with hash h, or 0 when it is no key. */
static inline int fu_psl_find(const fu_psl_t *t, uint64_t h, const uint8_t *s, size_t n)
{
    size_t i = fu_psl_slot_of(h, t->mask);
    for (;;) {
        const fu_psl_slot_t *e = &t->slots[i];
        if (e->flags == 0)
            return 0;
        if (e->hash == (uint32_t)h && e->len == n && fu_psl_same(t->keys + e->off, s, n))
            return e->flags;
        i = (i + 1) & t->mask;
    }
}

/* Adds a key (unique; flags != 0; len < 65536).  The table must have a
 * free slot. */
static inline void fu_psl_insert(fu_psl_t *t, uint32_t off, uint32_t len, uint8_t flags)
{
    uint64_t h = fu_psl_hash(t->keys + off, len);
    size_t i = fu_psl_slot_of(h, t->mask);
    while (t->slots[i].flags != 0)
        i = (i + 1) & t->mask;
    t->slots[i].hash = (uint32_t)h;
    t->slots[i].off = off;
    t->slots[i].len = (uint16_t)len;
    t->slots[i].flags = flags;
}

/* The host's [*start, *end) in s[0, n), or 0 when s names no host.
 *
 * As _psl_py._host: a URI's authority host, else s as a bare
 * [userinfo@]host[:port] up to the first '/', '?' or '#', whose port (if
 * any) must be digits; a host with a ':' left in it is none; then one
 * trailing dot is dropped.  IP literals and IPv4 addresses (RFC 3986
 * §3.2.2) name no host here. */
static inline int fu_psl_host_range(const uint8_t *s, ptrdiff_t n, ptrdiff_t *start, ptrdiff_t *end)
{
    fu_authority_t au;
    ptrdiff_t a = 0, b, i;
    int bare;
    /* Appendix B, as far as the authority: a scheme ends at the first ':'
     * before any '/', '?' or '#'; "//" then starts the authority. */
    i = fu_stop_1(s, 0, n, ':', '/', '?', '#');
    if (0 < i && i < n && s[i] == ':')
        a = i + 1;
    bare = !(n - a >= 2 && s[a] == '/' && s[a + 1] == '/');
    if (bare)
        a = 0; /* s itself is the host, up to the first / ? # */
    else
        a += 2;
    b = fu_stop_1(s, a, n, '/', '?', '#', '#');
    /* most authorities are a bare name: no '@', ':' or '[' to look at */
    if (fu_stop_1(s, a, b, '@', ':', '[', '[') < b) {
        fu_authority_1(s, a, b, &au);
        if (bare && au.port_start >= 0)
            for (i = au.port_start; i < b; i++)
                if (s[i] < '0' || s[i] > '9')
                    return 0;
        a = au.host_start;
        b = au.host_end;
        if (memchr(s + a, ':', (size_t)(b - a)) != NULL) /* ':' is no reg-name's */
            return 0;
    }
    if (b > a && s[b - 1] == '.')
        b -= 1;
    if (b == a || s[a] == '[') /* empty, or an IP literal */
        return 0;
    /* only a host ending in a digit can be an IPv4address */
    if (s[b - 1] >= '0' && s[b - 1] <= '9' && fu_host_type(s + a, b - a) == FU_HOST_IPV4)
        return 0;
    *start = a;
    *end = b;
    return 1;
}

/* The public suffix of the host h[0, n) by table t (whose longest core has
 * depth labels, at most FU_PSL_MAX_DEPTH), h ASCII-lowercased into out
 * (room for n bytes); shift 0 reads the ICANN section's flags, 4 the whole
 * list's.
 *
 * -1 when a label is empty (leading, trailing or doubled '.'), else 1 when
 * lowercasing changed a byte, 0 when not.  *suffix_at gets the suffix's
 * offset (-1 when it is empty, as under an exception rule of one label),
 * *domain_at the registrable domain's (-1 when no label precedes the
 * suffix).  The host is lowercased first, 16 bytes at a time; then one
 * backward pass finds the labels and hashes: at each '.' the hash of the
 * suffix after it is ready for its lookup.  The suffixes are tried from
 * the longest, as _psl_py._suffix_labels does. */
static inline int fu_psl_lookup(const fu_psl_t *t, int depth, const uint8_t *h, ptrdiff_t n,
                                uint8_t *out, int shift, ptrdiff_t *suffix_at, ptrdiff_t *domain_at)
{
    ptrdiff_t starts[FU_PSL_MAX_DEPTH + 3]; /* starts[k]: the suffix of k labels */
    int found[FU_PSL_MAX_DEPTH + 3];        /* found[k]: its flags (0 when not looked up) */
    uint64_t hash = FU_PSL_HASH0;
    ptrdiff_t i = n - 1, label_end;
    int k = 0, total, p, f, more, probe = 1;
    int changed = fu_lower_ascii(h, (size_t)n, out);
    for (;;) {
        label_end = i;
        if (probe) {
            while (i >= 0 && out[i] != '.') {
                hash = fu_psl_step(hash, out[i]);
                i -= 1;
            }
        } else { /* (past the longest rule's labels, nothing is hashed) */
            while (i >= 0 && out[i] != '.')
                i -= 1;
        }
        if (i == label_end)
            return -1; /* an empty label */
        k += 1;
        starts[k] = i + 1;
        found[k] = 0;
        if (probe) {
            found[k] = (fu_psl_find(t, hash, out + i + 1, (size_t)(n - i - 1)) >> shift) & 15;
            /* no rule is longer than this suffix: the rest is not hashed */
            probe = (found[k] & FU_PSL_LONGER) != 0 && k < depth;
        }
        if (i < 0 || k == depth + 2)
            break;
        hash = fu_psl_step(hash, '.');
        i -= 1;
    }
    total = k;
    more = i >= 0; /* labels left of the last one read (i is at their '.') */
    if (more) {
        /* not looked up, only checked: none of them empty */
        if (i == 0 || out[0] == '.' || out[i - 1] == '.')
            return -1;
        while (i > 1) {
            i -= 1;
            if (out[i] == '.' && out[i - 1] == '.')
                return -1;
        }
    }
    p = 1; /* the implicit "*" rule, and a one-label host */
    if (total > 1 || more) {
        for (k = total < depth ? total : depth; k > 0; k--) {
            f = found[k];
            if (f & FU_PSL_EXCEPT) {
                p = k - 1;
                break;
            }
            if (f & FU_PSL_WILD) {
                p = (k < total || more) ? k + 1 : k;
                break;
            }
            if (f & FU_PSL_EXACT) {
                p = k;
                break;
            }
        }
    }
    *suffix_at = p > 0 ? starts[p] : -1;
    *domain_at = p > 0 && p + 1 <= total ? starts[p + 1] : -1;
    return changed;
}

#endif /* FASTURI_PSL_H */
