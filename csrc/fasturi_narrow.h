/* fasturi_narrow.h: ASCII runs of wide text, copied to one byte per unit.
 *
 * A str of kind 2 or 4 (one non-Latin-1 character anywhere in a scraped
 * page is enough) holds mostly ASCII URIs.  Making a str of such a run the
 * generic way scans it for its largest character, then converts unit by
 * unit; fu_narrow_ascii_N() does both in one pass over 16 units at a time.
 *
 * fu_narrow_ascii_N(s, n, out) writes s[0, n) to out[0, n) as bytes and
 * returns 1 when every unit is ASCII; otherwise returns 0, with out
 * partly written.  Reads only [0, n) of s; writes only [0, n) of out.
 */
#ifndef FASTURI_NARROW_H
#define FASTURI_NARROW_H

#include <stddef.h>
#include <stdint.h>

#include "fasturi_base.h"

static inline int fu_narrow_ascii_2(const uint16_t *s, ptrdiff_t n, uint8_t *out)
{
    ptrdiff_t i = 0;
#if FU_SSE2
    const __m128i high = _mm_set1_epi16((short)0xFF80);
    for (; n - i >= 16; i += 16) {
        __m128i a = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
        __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(s + i + 8));
        __m128i any = _mm_and_si128(_mm_or_si128(a, b), high);
        if (_mm_movemask_epi8(_mm_cmpeq_epi16(any, _mm_setzero_si128())) != 0xFFFF)
            return 0;
        /* every lane is below 0x80, so the saturating pack is exact */
        _mm_storeu_si128((__m128i *)(void *)(out + i), _mm_packus_epi16(a, b));
    }
#endif
    for (; i < n; i++) {
        if (s[i] >= 0x80)
            return 0;
        out[i] = (uint8_t)s[i];
    }
    return 1;
}

static inline int fu_narrow_ascii_4(const uint32_t *s, ptrdiff_t n, uint8_t *out)
{
    ptrdiff_t i = 0;
#if FU_SSE2
    const __m128i high = _mm_set1_epi32((int)0xFFFFFF80u);
    for (; n - i >= 16; i += 16) {
        __m128i a = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
        __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(s + i + 4));
        __m128i c = _mm_loadu_si128((const __m128i *)(const void *)(s + i + 8));
        __m128i d = _mm_loadu_si128((const __m128i *)(const void *)(s + i + 12));
        __m128i any = _mm_and_si128(_mm_or_si128(_mm_or_si128(a, b), _mm_or_si128(c, d)), high);
        if (_mm_movemask_epi8(_mm_cmpeq_epi32(any, _mm_setzero_si128())) != 0xFFFF)
            return 0;
        /* lanes below 0x80: both saturating packs are exact */
        _mm_storeu_si128((__m128i *)(void *)(out + i),
                         _mm_packus_epi16(_mm_packs_epi32(a, b), _mm_packs_epi32(c, d)));
    }
#endif
    for (; i < n; i++) {
        if (s[i] >= 0x80)
            return 0;
        out[i] = (uint8_t)s[i];
    }
    return 1;
}

#endif /* FASTURI_NARROW_H */
