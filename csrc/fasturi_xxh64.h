/* fasturi_xxh64.h: XXH64, the 64-bit xxHash (Yann Collet's published
 * algorithm, specification in xxHash's doc/xxhash_spec.md).
 *
 * fu_xxh64(p, n, seed) hashes the n bytes at p.  Lanes are read as
 * little-endian words byte by byte, so the result is the same on every
 * platform and alignment.  Reads only [p, p + n); p may be NULL when n is 0.
 */
#ifndef FASTURI_XXH64_H
#define FASTURI_XXH64_H

#include <stddef.h>
#include <stdint.h>

#define FU_XXH_P1 0x9E3779B185EBCA87ULL
#define FU_XXH_P2 0xC2B2AE3D27D4EB4FULL
#define FU_XXH_P3 0x165667B19E3779F9ULL
#define FU_XXH_P4 0x85EBCA77C2B2AE63ULL
#define FU_XXH_P5 0x27D4EB2F165667C5ULL

static inline uint64_t fu_xxh_rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

static inline uint64_t fu_xxh_read64(const uint8_t *p)
{
    return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24
           | (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 | (uint64_t)p[6] << 48
           | (uint64_t)p[7] << 56;
}

static inline uint64_t fu_xxh_read32(const uint8_t *p)
{
    return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24;
}

/* One lane step of the stripe loop. */
static inline uint64_t fu_xxh_round(uint64_t acc, uint64_t lane)
{
    acc += lane * FU_XXH_P2;
    acc = fu_xxh_rotl(acc, 31);
    return acc * FU_XXH_P1;
}

static inline uint64_t fu_xxh_merge(uint64_t acc, uint64_t v)
{
    acc ^= fu_xxh_round(0, v);
    return acc * FU_XXH_P1 + FU_XXH_P4;
}

static inline uint64_t fu_xxh64(const uint8_t *p, size_t n, uint64_t seed)
{
    const uint8_t *end = p + n;
    uint64_t h;
    if (n >= 32) {
        /* four accumulators over 32-byte stripes */
        uint64_t v1 = seed + FU_XXH_P1 + FU_XXH_P2, v2 = seed + FU_XXH_P2;
        uint64_t v3 = seed, v4 = seed - FU_XXH_P1;
        const uint8_t *limit = end - 32;
        do {
            v1 = fu_xxh_round(v1, fu_xxh_read64(p));
            v2 = fu_xxh_round(v2, fu_xxh_read64(p + 8));
            v3 = fu_xxh_round(v3, fu_xxh_read64(p + 16));
            v4 = fu_xxh_round(v4, fu_xxh_read64(p + 24));
            p += 32;
        } while (p <= limit);
        h = fu_xxh_rotl(v1, 1) + fu_xxh_rotl(v2, 7) + fu_xxh_rotl(v3, 12) + fu_xxh_rotl(v4, 18);
        h = fu_xxh_merge(h, v1);
        h = fu_xxh_merge(h, v2);
        h = fu_xxh_merge(h, v3);
        h = fu_xxh_merge(h, v4);
    } else {
        h = seed + FU_XXH_P5;
    }
    h += (uint64_t)n;
    /* the tail: 8-byte lanes, one 4-byte lane, single bytes */
    while (end - p >= 8) {
        h ^= fu_xxh_round(0, fu_xxh_read64(p));
        h = fu_xxh_rotl(h, 27) * FU_XXH_P1 + FU_XXH_P4;
        p += 8;
    }
    if (end - p >= 4) {
        h ^= fu_xxh_read32(p) * FU_XXH_P1;
        h = fu_xxh_rotl(h, 23) * FU_XXH_P2 + FU_XXH_P3;
        p += 4;
    }
    while (p < end) {
        h ^= (uint64_t)(*p) * FU_XXH_P5;
        h = fu_xxh_rotl(h, 11) * FU_XXH_P1;
        p++;
    }
    /* avalanche */
    h ^= h >> 33;
    h *= FU_XXH_P2;
    h ^= h >> 29;
    h *= FU_XXH_P3;
    h ^= h >> 32;
    return h;
}

#endif /* FASTURI_XXH64_H */
