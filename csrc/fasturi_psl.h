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
 */
#ifndef FASTURI_PSL_H
#define FASTURI_PSL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define FU_PSL_EXACT 1
#define FU_PSL_WILD 2
#define FU_PSL_EXCEPT 4
#define FU_PSL_LONGER 8 /* the key ends a longer rule's core */
#define FU_PSL_HASH0 0xCBF29CE484222325ULL

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

#endif /* FASTURI_PSL_H */
