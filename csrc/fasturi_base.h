/* fasturi_base.h: what every scanner of csrc/ shares, written once.
 *
 * - hex digits (RFC 3986 §2.1 HEXDIG): fu_hexval, fu_is_hex, fu_hex_upper, fu_hex_lower;
 * - class membership for any code unit: fu_in_class;
 * - SIMD detection: FU_SSE2 is 1 where SSE2 is (every x86-64), with
 *   <emmintrin.h> included, else 0;
 * - bit tricks: fu_ctz, fu_ctz64 (count trailing zeros);
 * - ASCII case: fu_capitals16, fu_lower16 (SSE2), fu_lower_ascii;
 * - copying: fu_copy.
 *
 * Expects nothing but C99 and fasturi_chars.h; no Python.h.
 *
 * Templating.  A scanner that runs over the code units of a Python str is
 * written once for a unit type T and stamped out for the three widths of a
 * str (N = 1, 2, 4 bytes: uint8_t, uint16_t, uint32_t).  Every header does
 * this the same way, the way most of them already did:
 *
 *     #define FU_DEFINE_THING(N, T) \
 *     static inline ptrdiff_t fu_thing_##N(const T *s, ptrdiff_t n) \
 *     { ... }
 *     FU_DEFINE_THING(1, uint8_t)
 *     FU_DEFINE_THING(2, uint16_t)
 *     FU_DEFINE_THING(4, uint32_t)
 *     #undef FU_DEFINE_THING
 *
 * The definition and its three instantiations sit together in the header
 * that owns them, nothing includes itself, and the names of the generated
 * functions are spelled where they are made.  The price is that a compiler
 * error inside a body points at the instantiation line; preprocessing the
 * file (cc -E) shows the expanded code.  A macro body cannot hold
 * preprocessor conditionals, so width-specific SIMD code is written as
 * plain functions outside the macro, guarded by FU_SSE2, and the body
 * calls them under `if (FU_SSE2)`-style conditions the compiler folds.
 * Comments inside a macro body are one line each, as clang-format aligns
 * the backslashes after a multi-line comment wrongly.
 */
#ifndef FASTURI_BASE_H
#define FASTURI_BASE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fasturi_chars.h"

/* ---- hex digits -------------------------------------------------------- */

/* Value of a hex digit, or -1.  Takes any code unit: the unsigned range
 * checks reject everything outside 0-9 A-F a-f, including c >= 0x80. */
static inline int fu_hexval(uint32_t c)
{
    if (c - '0' < 10u)
        return (int)(c - '0');
    if ((c | 0x20u) - 'a' < 6u)
        return (int)((c | 0x20u) - 'a' + 10);
    return -1;
}

static inline int fu_is_hex(uint32_t c) { return fu_hexval(c) >= 0; }

/* Index of the first byte c in s[i, b), or b (memchr, which most libcs
 * vectorize). */
static inline ptrdiff_t fu_find_byte(const uint8_t *s, ptrdiff_t i, ptrdiff_t b, uint8_t c)
{
    const uint8_t *hit = i < b ? (const uint8_t *)memchr(s + i, c, (size_t)(b - i)) : NULL;
    return hit ? hit - s : b;
}

/* Digits of "%HH": RFC 3986 §2.1 producers use uppercase. */
static const char fu_hex_upper[16] = { '0', '1', '2', '3', '4', '5', '6', '7',
                                       '8', '9', 'A', 'B', 'C', 'D', 'E', 'F' };
/* Lowercase digits: SURT keys' escapes, RFC 5952 IPv6 groups. */
static const char fu_hex_lower[16] = { '0', '1', '2', '3', '4', '5', '6', '7',
                                       '8', '9', 'a', 'b', 'c', 'd', 'e', 'f' };

/* Membership in a fasturi_chars.h class for any code unit: the table covers
 * bytes only, and a wider unit must not alias its low byte. */
static inline int fu_in_class(uint32_t c, uint32_t mask) { return c < 0x80u && FU_IS(c, mask); }

/* For a function whose caller's hot loop it is part of: gcc leaves some
 * large ones out of line, and their results then go through memory. */
#if defined(__GNUC__) || defined(__clang__)
#define FU_ALWAYS_INLINE inline __attribute__((always_inline))
#elif defined(_MSC_VER)
#define FU_ALWAYS_INLINE __forceinline
#else
#define FU_ALWAYS_INLINE inline
#endif

/* ---- SIMD -------------------------------------------------------------- */

#if defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2)
#define FU_SSE2 1
#include <emmintrin.h>
#else
#define FU_SSE2 0
#endif

/* SSSE3 (pshufb, a 16-entry table lookup per byte) is not in every x86-64's
 * baseline: what uses it is compiled for it alone (FU_TARGET_SSSE3) and
 * called where fu_has_ssse3() says the CPU has it. */
#if FU_SSE2 && (defined(__GNUC__) || defined(__clang__))                                           \
    && (defined(__x86_64__) || defined(__i386__))
#define FU_SSSE3_DISPATCH 1
#include <tmmintrin.h>
#define FU_TARGET_SSSE3 __attribute__((target("ssse3")))
static inline int fu_has_ssse3(void) { return __builtin_cpu_supports("ssse3"); }
#else
#define FU_SSSE3_DISPATCH 0
#endif

/* ---- bit tricks -------------------------------------------------------- */

/* Index of the lowest set bit of x, one bit at a time: the compilers
 * without a builtin for it.  x must not be 0. */
static inline unsigned fu_ctz_loop(uint64_t x)
{
    unsigned k = 0;
    while (!(x & 1u)) {
        x >>= 1;
        k++;
    }
    return k;
}

/* Index of the lowest set bit of x; x must not be 0. */
#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
static inline unsigned fu_ctz(unsigned x)
{
    unsigned long k;
    _BitScanForward(&k, x);
    return (unsigned)k;
}
#elif defined(__GNUC__) || defined(__clang__)
static inline unsigned fu_ctz(unsigned x) { return (unsigned)__builtin_ctz(x); }
#else
static inline unsigned fu_ctz(unsigned x) { return fu_ctz_loop(x); }
#endif

/* Index of the lowest set bit of the 64-bit x; x must not be 0. */
#if defined(_MSC_VER) && !defined(__clang__) && defined(_M_X64)
static inline unsigned fu_ctz64(uint64_t x)
{
    unsigned long k;
    _BitScanForward64(&k, x);
    return (unsigned)k;
}
#elif defined(__GNUC__) || defined(__clang__)
static inline unsigned fu_ctz64(uint64_t x) { return (unsigned)__builtin_ctzll(x); }
#else
static inline unsigned fu_ctz64(uint64_t x) { return fu_ctz_loop(x); }
#endif

/* Index of the highest set bit of x; x must not be 0. */
#if defined(_MSC_VER) && !defined(__clang__)
static inline unsigned fu_top(unsigned x)
{
    unsigned long k;
    _BitScanReverse(&k, x);
    return (unsigned)k;
}
#elif defined(__GNUC__) || defined(__clang__)
static inline unsigned fu_top(unsigned x) { return 31u - (unsigned)__builtin_clz(x); }
#else
static inline unsigned fu_top(unsigned x)
{
    unsigned k = 0;
    while (x >>= 1)
        k++;
    return k;
}
#endif

/* ---- ASCII case -------------------------------------------------------- */

#if FU_SSE2
/* 0xFF in each byte of x that is an ASCII capital (the compares are signed:
 * bytes from 0x80 are below 'A'). */
static inline __m128i fu_capitals16(__m128i x)
{
    return _mm_and_si128(_mm_cmpgt_epi8(x, _mm_set1_epi8('A' - 1)),
                         _mm_cmplt_epi8(x, _mm_set1_epi8('Z' + 1)));
}

/* x with its ASCII capitals lowercased. */
static inline __m128i fu_lower16(__m128i x)
{
    return _mm_or_si128(x, _mm_and_si128(fu_capitals16(x), _mm_set1_epi8(0x20)));
}
#endif

/* out[0, n) = s[0, n) with ASCII capitals lowercased (other bytes as they
 * are); whether any was.  16 bytes at a time with SSE2, the last partial
 * block as the overlapping last 16. */
static inline int fu_lower_ascii(const uint8_t *s, size_t n, uint8_t *out)
{
    size_t i = 0;
    unsigned any = 0;
#if FU_SSE2
    if (n >= 16) {
        __m128i x;
        for (;;) {
            if (i + 16 > n)
                i = n - 16;
            x = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
            any |= (unsigned)_mm_movemask_epi8(fu_capitals16(x));
            _mm_storeu_si128((__m128i *)(void *)(out + i), fu_lower16(x));
            if (i + 16 == n)
                return any != 0;
            i += 16;
        }
    }
#endif
    for (; i < n; i++) {
        uint8_t c = s[i];
        if ((uint8_t)(c - 'A') < 26) {
            c += 32;
            any = 1;
        }
        out[i] = c;
    }
    return any != 0;
}

/* Copies n bytes; short runs (most URI components) without a call. */
static inline void fu_copy(uint8_t *d, const uint8_t *s, int64_t n)
{
    if (n >= 8 && n <= 16) {
        memcpy(d, s, 8);
        memcpy(d + n - 8, s + n - 8, 8);
    } else if (n >= 4 && n < 8) {
        memcpy(d, s, 4);
        memcpy(d + n - 4, s + n - 4, 4);
    } else if (n < 4) {
        for (int64_t i = 0; i < n; i++)
            d[i] = s[i];
    } else {
        memcpy(d, s, (size_t)n);
    }
}

#endif /* FASTURI_BASE_H */
