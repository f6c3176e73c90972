/* fasturi_cli.h: what the command line's block path needs beyond the column
 * kernels: its one TSV escaping rule, and audit's prefilter.
 *
 * fu_tsv_escape(o, p, n) writes the n bytes at p to o escaped, and returns
 * the end of what it wrote; o must have room for 4 * n bytes.  The rule
 * (docs/cli.md): "\" is written "\\"; TAB, LF and CR "\t", "\n", "\r"; every
 * other C0 control and DEL "\xHH"; the C1 controls U+0080-U+009F and the
 * line and paragraph separators U+2028, U+2029 (which some readers take for
 * line ends) "\uHHHH".  Every other byte is written as it is.  Sixteen bytes
 * at a time with SSE2: a block with none of "\", a control, DEL, or the lead
 * bytes 0xC2 and 0xE2 is copied whole.
 *
 * fu_audit_suspect(p, n): whether audit() could find anything in a row that
 * is a valid URI-reference: every finding but "invalid" needs a "%", a "@",
 * a byte from 0x80, or a host that starts with a digit (inet_aton() reads
 * only digits).  Rows for which it is 0 and that are valid have no finding.
 */
#ifndef FASTURI_CLI_H
#define FASTURI_CLI_H

#include <stdint.h>
#include <string.h>

#include "fasturi_base.h"

static inline uint8_t *fu_tsv_escape_at(uint8_t *o, const uint8_t *p, int64_t n, int64_t *at)
{
    static const char hex[] = "0123456789abcdef";
    int64_t i = *at;
    uint8_t c = p[i];
    if (c == '\\' || c == '\t' || c == '\n' || c == '\r') {
        o[0] = '\\';
        o[1] = c == '\\' ? '\\' : c == '\t' ? 't' : c == '\n' ? 'n' : 'r';
        *at = i + 1;
        return o + 2;
    }
    if (c < 0x20 || c == 0x7f) {
        o[0] = '\\';
        o[1] = 'x';
        o[2] = (uint8_t)hex[c >> 4];
        o[3] = (uint8_t)hex[c & 15];
        *at = i + 1;
        return o + 4;
    }
    if (c == 0xc2 && i + 1 < n && p[i + 1] >= 0x80 && p[i + 1] <= 0x9f) {
        memcpy(o, "\\u00", 4);
        o[4] = (uint8_t)hex[p[i + 1] >> 4];
        o[5] = (uint8_t)hex[p[i + 1] & 15];
        *at = i + 2;
        return o + 6;
    }
    if (c == 0xe2 && i + 2 < n && p[i + 1] == 0x80 && (p[i + 2] == 0xa8 || p[i + 2] == 0xa9)) {
        memcpy(o, p[i + 2] == 0xa8 ? "\\u2028" : "\\u2029", 6);
        *at = i + 3;
        return o + 6;
    }
    o[0] = c;
    *at = i + 1;
    return o + 1;
}

static inline uint8_t *fu_tsv_escape(uint8_t *o, const uint8_t *p, int64_t n)
{
    int64_t i = 0;
#if FU_SSE2
    const __m128i c1f = _mm_set1_epi8(0x1f), del = _mm_set1_epi8(0x7f);
    const __m128i bsl = _mm_set1_epi8('\\'), c2 = _mm_set1_epi8((char)0xc2);
    const __m128i e2 = _mm_set1_epi8((char)0xe2);
    while (i + 16 <= n) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
        __m128i m = _mm_cmpeq_epi8(_mm_min_epu8(x, c1f), x); /* x <= 0x1f */
        unsigned bits;
        m = _mm_or_si128(m, _mm_or_si128(_mm_cmpeq_epi8(x, del), _mm_cmpeq_epi8(x, bsl)));
        m = _mm_or_si128(m, _mm_or_si128(_mm_cmpeq_epi8(x, c2), _mm_cmpeq_epi8(x, e2)));
        bits = (unsigned)_mm_movemask_epi8(m);
        if (bits == 0) {
            _mm_storeu_si128((__m128i *)(void *)o, x);
            o += 16;
            i += 16;
            continue;
        }
        bits = fu_ctz(bits);
        memcpy(o, p + i, bits);
        o += bits;
        i += bits;
        o = fu_tsv_escape_at(o, p, n, &i);
    }
#endif
    while (i < n)
        o = fu_tsv_escape_at(o, p, n, &i);
    return o;
}

static inline int fu_audit_suspect(const uint8_t *p, int64_t n)
{
    int64_t i, a = 0;
    for (i = 0; i < n; i++)
        if (p[i] == '%' || p[i] == '@' || p[i] >= 0x80)
            return 1;
    /* Appendix B: a scheme is the text before a first ":" that has none of
     * "/?#" before it; the authority follows a "//" right after it */
    while (a < n && p[a] != ':' && p[a] != '/' && p[a] != '?' && p[a] != '#')
        a++;
    a = (a > 0 && a < n && p[a] == ':') ? a + 1 : 0;
    return a + 2 < n && p[a] == '/' && p[a + 1] == '/' && (uint8_t)(p[a + 2] - '0') < 10;
}

#endif
