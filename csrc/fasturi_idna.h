/* fasturi_idna.h: IDNA as the WHATWG URL Standard runs it — UTS #46
   processing, ToASCII and ToUnicode, and Punycode (RFC 3492) — over the
   Unicode data of fasturi_idna_data.h (one Unicode version for every
   property: FU_IDNA_UNICODE_VERSION).

   The interface (the contract; everything else here is internal):

     ptrdiff_t fu_idna_domain_to_ascii(const uint8_t *s, size_t n,
                                       unsigned flags, uint8_t *out,
                                       size_t cap);
       The URL Standard's domain parser ("domain to ASCII") of the domain
       s[0..n): with beStrict false (flags without FU_IDNA_STRICT) an ASCII
       domain is lowercased, any other goes through UTS #46 ToASCII with
       CheckHyphens, UseSTD3ASCIIRules and VerifyDnsLength false, and the
       result fails when it is empty or holds a forbidden domain code
       point; with FU_IDNA_STRICT, the result of ToASCII with those three
       true.  CheckBidi and CheckJoiners are always on, processing is
       nontransitional, IgnoreInvalidPunycode is off.
       With FU_IDNA_PERCENT, s is the host parser's input instead: it is
       percent-decoded first (host parser steps 4-5), then decoded.

     ptrdiff_t fu_idna_domain_to_unicode(const uint8_t *s, size_t n,
                                         uint8_t *out, size_t cap);
       UTS #46 ToUnicode with the flags of the standard's domain to
       Unicode; FU_IDNA_FAIL where it records an error (the standard then
       returns the domain as given: the caller does that).

   Input: any bytes (pointer and length; no NUL termination), read as
   UTF-8.  A sequence that is not UTF-8 decodes to U+FFFD, which UTS #46
   disallows, so it fails the domain (the result the standard gives).
   Output: ASCII (to_ascii) or UTF-8 (to_unicode) into out, like snprintf:
   the return value r >= 0 is the result's whole length, and out holds all
   of it when r <= cap (else its first cap bytes: call again with room for
   r).  FU_IDNA_FAIL (-1): the domain fails.  FU_IDNA_NOMEM (-2): memory
   for a long label could not be had.
   Memory: none allocated for a domain whose work fits FU_IDNA_STACK words
   (4 bytes each) of stack — about 100 code points to a label; longer ones
   take one malloc'd block, freed before returning.  Time: O(n log n) in the
   input's length, Punycode included (no label is quadratic).
   Thread-safe: no state outside the call. */
#ifndef FASTURI_IDNA_H
#define FASTURI_IDNA_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fasturi_idna_data.h"

#define FU_IDNA_STRICT 1u
#define FU_IDNA_PERCENT 2u
#define FU_IDNA_FAIL ((ptrdiff_t)-1)
#define FU_IDNA_NOMEM ((ptrdiff_t)-2)
#define FU_IDNA_STACK 2048

/* A code point's record (cp <= 0x10FFFF), through the two-stage trie. */
static inline fu_idna_rec fu_idna_record(uint32_t cp)
{
    uint32_t block = fu_idna_index[cp >> FU_IDNA_SHIFT];
    return fu_idna_records[fu_idna_blocks[block << FU_IDNA_SHIFT
                                          | (cp & ((1u << FU_IDNA_SHIFT) - 1))]];
}

/* ---- reading the input: percent-decoding, UTF-8 ------------------------ */

typedef struct {
    const uint8_t *s;
    size_t i, n;
    int pct; /* percent-decode */
} fu_idna_in;

#define FU_IDNA_EOF 0xFFFFFFFFu
#define FU_IDNA_BAD 0xFFFFFFFEu /* not UTF-8: U+FFFD, which fails */

static inline int fu_idna_hexval(uint8_t c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c |= 0x20;
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

/* The next byte (a "%XX" as the byte it encodes, with FU_IDNA_PERCENT),
   or -1 at the end. */
static inline int fu_idna_byte(fu_idna_in *r)
{
    uint8_t c;
    int hi, lo;
    if (r->i >= r->n)
        return -1;
    c = r->s[r->i++];
    if (c == '%' && r->pct && r->i + 1 < r->n) {
        hi = fu_idna_hexval(r->s[r->i]);
        lo = fu_idna_hexval(r->s[r->i + 1]);
        if (hi >= 0 && lo >= 0) {
            r->i += 2;
            return hi << 4 | lo;
        }
    }
    return c;
}

/* The next code point, FU_IDNA_EOF, or FU_IDNA_BAD for a sequence that
   is not UTF-8 (a byte that cannot continue it is left to be read next;
   continuation bytes it took are no start of another, so dropping what
   is BAD is bytes.decode("utf-8", "ignore")). */
static inline uint32_t fu_idna_next(fu_idna_in *r)
{
    int c = fu_idna_byte(r), k, need;
    uint32_t cp, min;
    if (c < 0)
        return FU_IDNA_EOF;
    if (c < 0x80)
        return (uint32_t)c;
    if (c >= 0xC2 && c <= 0xDF) {
        need = 1;
        cp = (uint32_t)c & 0x1F;
        min = 0x80;
    } else if (c >= 0xE0 && c <= 0xEF) {
        need = 2;
        cp = (uint32_t)c & 0x0F;
        min = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
        need = 3;
        cp = (uint32_t)c & 0x07;
        min = 0x10000;
    } else {
        return FU_IDNA_BAD;
    }
    for (k = 0; k < need; k++) {
        size_t at = r->i;
        c = fu_idna_byte(r);
        if (c < 0 || (c & 0xC0) != 0x80) {
            r->i = at; /* what ends a sequence is no part of it */
            return FU_IDNA_BAD;
        }
        cp = cp << 6 | ((uint32_t)c & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp < 0xE000))
        return FU_IDNA_BAD;
    return cp;
}

/* ---- writing the output (snprintf-like) -------------------------------- */

typedef struct {
    uint8_t *out;
    size_t cap, len;
} fu_idna_sink;

static inline void fu_idna_put(fu_idna_sink *o, uint8_t c)
{
    if (o->len < o->cap)
        o->out[o->len] = c;
    o->len++;
}

static inline void fu_idna_put_utf8(fu_idna_sink *o, uint32_t cp)
{
    if (cp < 0x80) {
        fu_idna_put(o, (uint8_t)cp);
    } else if (cp < 0x800) {
        fu_idna_put(o, (uint8_t)(0xC0 | cp >> 6));
        fu_idna_put(o, (uint8_t)(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        fu_idna_put(o, (uint8_t)(0xE0 | cp >> 12));
        fu_idna_put(o, (uint8_t)(0x80 | (cp >> 6 & 0x3F)));
        fu_idna_put(o, (uint8_t)(0x80 | (cp & 0x3F)));
    } else {
        fu_idna_put(o, (uint8_t)(0xF0 | cp >> 18));
        fu_idna_put(o, (uint8_t)(0x80 | (cp >> 12 & 0x3F)));
        fu_idna_put(o, (uint8_t)(0x80 | (cp >> 6 & 0x3F)));
        fu_idna_put(o, (uint8_t)(0x80 | (cp & 0x3F)));
    }
}

/* ---- the forbidden domain code points (URL Standard §3.1) -------------- */

/* A forbidden host code point, a C0 control, "%" or DEL (c < 0x80). */
static inline int fu_idna_forbidden_domain(uint32_t c)
{
    static const char host[] = "\t\n\r #/:<>?@[\\]^|";
    if (c <= 0x20 || c == '%' || c == 0x7F)
        return 1;
    return c < 0x80 && memchr(host, (int)c, sizeof host - 1) != NULL;
}

/* ---- Fenwick trees (Punycode in O(n log n)) ---------------------------- */

/* t[1..m]: t[i] holds the sum of the i & -i values ending at i. */
static inline void fu_idna_fw_add(uint32_t *t, uint32_t m, uint32_t i, uint32_t v)
{
    for (i++; i <= m; i += i & (0u - i))
        t[i] += v;
}

/* the sum of values [0, i) */
static inline uint32_t fu_idna_fw_sum(const uint32_t *t, uint32_t i)
{
    uint32_t s = 0;
    for (; i > 0; i -= i & (0u - i))
        s += t[i];
    return s;
}

/* The index of the k-th (from 0) slot holding 1 (values are 0 or 1). */
static inline uint32_t fu_idna_fw_find(const uint32_t *t, uint32_t m, uint32_t k)
{
    uint32_t pos = 0, step = 1;
    while (step <= m / 2 + 1 && step * 2 <= m)
        step *= 2;
    for (; step; step /= 2) {
        if (pos + step <= m && t[pos + step] <= k) {
            pos += step;
            k -= t[pos];
        }
    }
    return pos; /* slot pos (0-based): the (pos + 1)-th entry */
}

/* ---- Punycode (RFC 3492 §6, 32-bit unsigned, overflow is failure) ------- */

enum {
    FU_PY_BASE = 36,
    FU_PY_TMIN = 1,
    FU_PY_TMAX = 26,
    FU_PY_SKEW = 38,
    FU_PY_DAMP = 700,
    FU_PY_BIAS = 72,
    FU_PY_N = 128
};

static inline uint32_t fu_py_adapt(uint32_t delta, uint32_t points, int first)
{
    uint32_t k = 0;
    delta = first ? delta / FU_PY_DAMP : delta / 2;
    delta += delta / points;
    while (delta > ((FU_PY_BASE - FU_PY_TMIN) * FU_PY_TMAX) / 2) {
        delta /= FU_PY_BASE - FU_PY_TMIN;
        k += FU_PY_BASE;
    }
    return k + (FU_PY_BASE - FU_PY_TMIN + 1) * delta / (delta + FU_PY_SKEW);
}

static inline uint32_t fu_py_threshold(uint32_t k, uint32_t bias)
{
    if (k <= bias)
        return FU_PY_TMIN;
    if (k >= bias + FU_PY_TMAX)
        return FU_PY_TMAX;
    return k - bias;
}

static inline int fu_py_digit(uint32_t c)
{
    if (c >= 'a' && c <= 'z')
        return (int)(c - 'a');
    if (c >= 'A' && c <= 'Z')
        return (int)(c - 'A');
    if (c >= '0' && c <= '9')
        return (int)(c - '0' + 26);
    return -1;
}

/* Decodes the ASCII code points in[0..n) into out (room for n), returning
   the count, or -1 where RFC 3492's decoder fails.  work: 3n + 2 words.
   The decoder inserts each code point at a position in the output so far;
   the insertions are recorded, then placed from the last to the first,
   each into the free slot it names (a Fenwick tree finds it), so a long
   label costs n log n, not n squared. */
static inline ptrdiff_t fu_py_decode(const uint32_t *in, size_t n, uint32_t *out, uint32_t *work)
{
    uint32_t *val = work, *at = work + n, *tree = work + 2 * n;
    size_t b = 0, j, p, count = 0, total, k;
    uint32_t code = FU_PY_N, i = 0, bias = FU_PY_BIAS, oldi, w, kk, t, len, slot;
    int digit;
    for (j = n; j > 0; j--)
        if (in[j - 1] == '-') {
            b = j - 1;
            break;
        }
    /* the basic code points: before the last delimiter, which goes only
       when something precedes it */
    p = b > 0 ? b + 1 : 0;
    while (p < n) {
        oldi = i;
        w = 1;
        for (kk = FU_PY_BASE;; kk += FU_PY_BASE) {
            if (p >= n)
                return -1;
            digit = fu_py_digit(in[p++]);
            if (digit < 0)
                return -1;
            if ((uint32_t)digit > (UINT32_MAX - i) / w)
                return -1;
            i += (uint32_t)digit * w;
            t = fu_py_threshold(kk, bias);
            if ((uint32_t)digit < t)
                break;
            if (w > UINT32_MAX / (FU_PY_BASE - t))
                return -1;
            w *= FU_PY_BASE - t;
        }
        len = (uint32_t)(b + count + 1);
        bias = fu_py_adapt(i - oldi, len, oldi == 0);
        if (i / len > UINT32_MAX - code)
            return -1;
        code += i / len;
        i %= len;
        if (code > 0x10FFFF)
            return -1;
        val[count] = code;
        at[count] = i;
        count++;
        i++;
    }
    total = b + count;
    /* every slot free: t[k] = k & -k */
    for (k = 1; k <= total; k++)
        tree[k] = (uint32_t)(k & (0u - k));
    for (j = count; j > 0; j--) {
        slot = fu_idna_fw_find(tree, (uint32_t)total, at[j - 1]);
        out[slot] = val[j - 1];
        fu_idna_fw_add(tree, (uint32_t)total, slot, (uint32_t)-1);
    }
    /* the basic code points fill the slots left, in order */
    for (k = 0, j = 0; j < b; k++) {
        if (fu_idna_fw_sum(tree, (uint32_t)k + 1) - fu_idna_fw_sum(tree, (uint32_t)k)) {
            out[k] = in[j++];
        }
    }
    return (ptrdiff_t)total;
}

static inline void fu_py_put_digit(fu_idna_sink *o, uint32_t d)
{
    fu_idna_put(o, (uint8_t)(d < 26 ? 'a' + d : '0' + d - 26));
}

/* Sorts keys[0..n) ascending (merge sort; tmp has room for n). */
static inline void fu_idna_sort64(uint64_t *keys, uint64_t *tmp, size_t n)
{
    size_t width, lo, mid, hi, a, b, k;
    uint64_t x, *src = keys, *dst = tmp, *swap;
    if (n <= 24) {
        for (a = 1; a < n; a++) {
            x = keys[a];
            for (b = a; b > 0 && keys[b - 1] > x; b--)
                keys[b] = keys[b - 1];
            keys[b] = x;
        }
        return;
    }
    for (width = 1; width < n; width *= 2) {
        for (lo = 0; lo < n; lo += 2 * width) {
            mid = lo + width < n ? lo + width : n;
            hi = lo + 2 * width < n ? lo + 2 * width : n;
            a = lo;
            b = mid;
            k = lo;
            while (a < mid && b < hi)
                dst[k++] = src[b] < src[a] ? src[b++] : src[a++];
            while (a < mid)
                dst[k++] = src[a++];
            while (b < hi)
                dst[k++] = src[b++];
        }
        swap = src;
        src = dst;
        dst = swap;
    }
    if (src != keys)
        memcpy(keys, src, n * sizeof *keys);
}

/* Encodes in[0..n) as Punycode into o; 0, or -1 on overflow.  work: 5n + 2
   words.  The encoder's scan for each code point value, counting the code
   points below it, is a Fenwick tree's sums over the positions. */
static inline int fu_py_encode(const uint32_t *in, size_t n, fu_idna_sink *o, uint32_t *work)
{
    uint64_t *keys = (uint64_t *)(void *)work, *tmp = keys + n;
    uint32_t *tree = work + 4 * n;
    size_t j, m = 0, g, h, b = 0, prev;
    uint32_t code = FU_PY_N, delta = 0, bias = FU_PY_BIAS, cnt, q, k, t, v;
    for (j = 0; j <= n; j++)
        tree[j] = 0;
    for (j = 0; j < n; j++) {
        if (in[j] < 0x80) {
            fu_idna_put(o, (uint8_t)in[j]);
            fu_idna_fw_add(tree, (uint32_t)n, (uint32_t)j, 1);
            b++;
        } else {
            keys[m++] = (uint64_t)in[j] << 32 | j;
        }
    }
    if (b > 0)
        fu_idna_put(o, '-');
    fu_idna_sort64(keys, tmp, m);
    h = b;
    for (g = 0; g < m;) {
        v = (uint32_t)(keys[g] >> 32);
        if ((v - code) > (UINT32_MAX - delta) / (uint32_t)(h + 1))
            return -1;
        delta += (v - code) * (uint32_t)(h + 1);
        code = v;
        prev = 0;
        for (j = g; j < m && (uint32_t)(keys[j] >> 32) == v; j++) {
            size_t pos = (size_t)(keys[j] & 0xFFFFFFFFu);
            cnt = fu_idna_fw_sum(tree, (uint32_t)pos) - fu_idna_fw_sum(tree, (uint32_t)prev);
            if (cnt > UINT32_MAX - delta)
                return -1;
            delta += cnt;
            q = delta;
            for (k = FU_PY_BASE;; k += FU_PY_BASE) {
                t = fu_py_threshold(k, bias);
                if (q < t)
                    break;
                fu_py_put_digit(o, t + (q - t) % (FU_PY_BASE - t));
                q = (q - t) / (FU_PY_BASE - t);
            }
            fu_py_put_digit(o, q);
            bias = fu_py_adapt(delta, (uint32_t)(h + 1), h == b);
            delta = 0;
            h++;
            prev = pos + 1;
        }
        cnt = fu_idna_fw_sum(tree, (uint32_t)n) - fu_idna_fw_sum(tree, (uint32_t)prev);
        if (cnt > UINT32_MAX - delta || cnt + delta == UINT32_MAX)
            return -1;
        delta += cnt + 1;
        for (; g < j; g++)
            fu_idna_fw_add(tree, (uint32_t)n, (uint32_t)(keys[g] & 0xFFFFFFFFu), 1);
        code++;
    }
    return 0;
}

/* ---- NFC (UAX #15) ------------------------------------------------------ */

enum {
    FU_HG_S = 0xAC00,
    FU_HG_L = 0x1100,
    FU_HG_V = 0x1161,
    FU_HG_T = 0x11A7,
    FU_HG_LN = 19,
    FU_HG_VN = 21,
    FU_HG_TN = 28,
    FU_HG_SN = 19 * 21 * 28
};

/* Hangul syllables decompose and compose by arithmetic, in every Unicode
   version (both IDNAs' normalizations share this): cp's decomposition into
   o (room for 3) and its length, or 0 where cp is not a syllable. */
static inline size_t fu_hangul_decompose(uint32_t cp, uint32_t *o)
{
    uint32_t s = cp - FU_HG_S;
    if (s >= FU_HG_SN)
        return 0;
    o[0] = FU_HG_L + s / (FU_HG_VN * FU_HG_TN);
    o[1] = FU_HG_V + s % (FU_HG_VN * FU_HG_TN) / FU_HG_TN;
    if (s % FU_HG_TN == 0)
        return 2;
    o[2] = FU_HG_T + s % FU_HG_TN;
    return 3;
}

/* The Hangul syllable a and b compose to, or 0. */
static inline uint32_t fu_hangul_compose(uint32_t a, uint32_t b)
{
    if (a - FU_HG_L < FU_HG_LN && b - FU_HG_V < FU_HG_VN)
        return FU_HG_S + ((a - FU_HG_L) * FU_HG_VN + (b - FU_HG_V)) * FU_HG_TN;
    if (a - FU_HG_S < FU_HG_SN && (a - FU_HG_S) % FU_HG_TN == 0 && b - FU_HG_T - 1 < FU_HG_TN - 1)
        return a + (b - FU_HG_T);
    return 0;
}

static inline uint32_t fu_idna_ccc(uint32_t cp) { return FU_IDNA_CCC(fu_idna_record(cp).word); }

/* The full canonical decomposition of cp into o (room for 4); its length. */
static inline size_t fu_idna_decompose(uint32_t cp, uint32_t *o)
{
    size_t lo = 0, hi = sizeof fu_idna_dec_cp / sizeof fu_idna_dec_cp[0], mid, len;
    if ((len = fu_hangul_decompose(cp, o)) != 0)
        return len;
    if (!FU_IDNA_DECOMPOSES(fu_idna_record(cp).word)) {
        o[0] = cp;
        return 1;
    }
    while (lo < hi) {
        mid = (lo + hi) / 2;
        if (fu_idna_dec_cp[mid] < cp)
            lo = mid + 1;
        else
            hi = mid;
    }
    len = (size_t)(fu_idna_dec_at[lo] & 3) + 1;
    memcpy(o, fu_idna_dec_pool + (fu_idna_dec_at[lo] >> 2), len * sizeof *o);
    return len;
}

/* The primary composite of a and b, or 0. */
static inline uint32_t fu_idna_compose(uint32_t a, uint32_t b)
{
    size_t lo = 0, hi = sizeof fu_idna_comp_key / sizeof fu_idna_comp_key[0], mid;
    uint64_t key = (uint64_t)a << 21 | b;
    uint32_t h = fu_hangul_compose(a, b);
    if (h != 0)
        return h;
    while (lo < hi) {
        mid = (lo + hi) / 2;
        if (fu_idna_comp_key[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < sizeof fu_idna_comp_key / sizeof fu_idna_comp_key[0] && fu_idna_comp_key[lo] == key)
        return fu_idna_comp_cp[lo];
    return 0;
}

/* Whether in[0..n) passes NFC_Quick_Check with a Yes (so is NFC). */
static inline int fu_idna_nfc_yes(const uint32_t *in, size_t n)
{
    uint32_t last = 0, w, cc;
    size_t j;
    for (j = 0; j < n; j++) {
        if (in[j] < 0x300) { /* NFC_QC Yes, ccc 0 */
            last = 0;
            continue;
        }
        w = fu_idna_record(in[j]).word;
        cc = FU_IDNA_CCC(w);
        if (FU_IDNA_NFC_QC(w) || (cc && last > cc))
            return 0;
        last = cc;
    }
    return 1;
}

/* A normalization's data: the canonical combining class, the full
   decomposition (into room for the longest), and the primary composite
   of a pair (0: none).  NFC of UTS #46's Unicode and NFKC of Unicode 3.2
   (fasturi_idna2003.h) share the algorithm. */
typedef struct {
    uint32_t (*ccc)(uint32_t cp);
    size_t (*decompose)(uint32_t cp, uint32_t *o);
    uint32_t (*compose)(uint32_t a, uint32_t b);
} fu_norm;

/* Sorts each run of non-starters of s[0..n) by combining class, stably
   (canonical ordering): insertion sort for short runs, a counting sort
   (tmp: room for n) for long ones, so no run is quadratic. */
static inline void fu_norm_reorder(const fu_norm *nm, uint32_t *s, size_t n, uint32_t *tmp)
{
    size_t a = 0, e, j, k;
    uint32_t x, cx, count[257];
    while (a < n) {
        if (nm->ccc(s[a]) == 0) {
            a++;
            continue;
        }
        for (e = a; e < n && nm->ccc(s[e]) != 0; e++)
            ;
        if (e - a <= 32) {
            for (j = a + 1; j < e; j++) {
                x = s[j];
                cx = nm->ccc(x);
                for (k = j; k > a && nm->ccc(s[k - 1]) > cx; k--)
                    s[k] = s[k - 1];
                s[k] = x;
            }
        } else {
            memset(count, 0, sizeof count);
            for (j = a; j < e; j++)
                count[nm->ccc(s[j]) + 1]++;
            for (j = 1; j < 257; j++)
                count[j] += count[j - 1];
            for (j = a; j < e; j++)
                tmp[count[nm->ccc(s[j])]++] = s[j];
            memcpy(s + a, tmp, (e - a) * sizeof *s);
        }
        a = e;
    }
}

/* The normalization (decomposition, canonical ordering, canonical
   composition) of in[0..n) into out (room for every code point's full
   decomposition; tmp, as much); its length. */
static inline size_t fu_normalize(const fu_norm *nm, const uint32_t *in, size_t n, uint32_t *out,
                                  uint32_t *tmp)
{
    size_t d = 0, j, o = 0;
    ptrdiff_t starter = -1;
    uint32_t last = 256, cc, c, comp;
    for (j = 0; j < n; j++)
        d += nm->decompose(in[j], out + d);
    fu_norm_reorder(nm, out, d, tmp);
    /* canonical composition: each code point joins the last starter when
       nothing between them blocks it */
    for (j = 0; j < d; j++) {
        c = out[j];
        cc = nm->ccc(c);
        if (starter >= 0 && (last == 0 ? o == (size_t)starter + 1 : last < cc)) {
            comp = nm->compose(out[starter], c);
            if (comp) {
                out[starter] = comp;
                continue;
            }
        }
        if (cc == 0)
            starter = (ptrdiff_t)o;
        last = cc;
        out[o++] = c;
    }
    return o;
}

static inline const fu_norm *fu_idna_nfc_data(void)
{
    static const fu_norm data = { fu_idna_ccc, fu_idna_decompose, fu_idna_compose };
    return &data;
}

/* NFC of in[0..n) into out (room for 4n; tmp, room for 4n); its length. */
static inline size_t fu_idna_nfc(const uint32_t *in, size_t n, uint32_t *out, uint32_t *tmp)
{
    return fu_normalize(fu_idna_nfc_data(), in, n, out, tmp);
}

/* ---- the validity criteria, bidi and joiners --------------------------- */

/* RFC 5893 §2: whether the (non-empty) label satisfies the six rules. */
static inline int fu_idna_bidi_rule(const uint32_t *s, size_t n)
{
    uint32_t b = FU_IDNA_BIDI(fu_idna_record(s[0]).word), last = FU_BIDI_OTHER;
    size_t j;
    int rtl, en = 0, an = 0;
    if (b == FU_BIDI_R || b == FU_BIDI_AL)
        rtl = 1;
    else if (b == FU_BIDI_L)
        rtl = 0;
    else
        return 0; /* rule 1 */
    for (j = 0; j < n; j++) {
        b = FU_IDNA_BIDI(fu_idna_record(s[j]).word);
        if (rtl) { /* rule 2 */
            if (b == FU_BIDI_L || b == FU_BIDI_OTHER)
                return 0;
        } else if (b != FU_BIDI_L && b != FU_BIDI_EN && b != FU_BIDI_ES && b != FU_BIDI_CS
                   && b != FU_BIDI_ET && b != FU_BIDI_ON && b != FU_BIDI_BN && b != FU_BIDI_NSM) {
            return 0; /* rule 5 */
        }
        en |= b == FU_BIDI_EN;
        an |= b == FU_BIDI_AN;
        if (b != FU_BIDI_NSM)
            last = b;
    }
    if (rtl) /* rules 3 and 4 */
        return (last == FU_BIDI_R || last == FU_BIDI_AL || last == FU_BIDI_EN || last == FU_BIDI_AN)
               && !(en && an);
    return last == FU_BIDI_L || last == FU_BIDI_EN; /* rule 6 */
}

/* RFC 5892 Appendix A.1 and A.2 for the joiner at s[j]. */
static inline int fu_idna_contextj(const uint32_t *s, size_t n, size_t j)
{
    size_t k;
    uint32_t jt = FU_JT_U;
    if (j > 0 && fu_idna_ccc(s[j - 1]) == 9) /* after a virama */
        return 1;
    if (s[j] == 0x200D)
        return 0;
    for (k = j; k > 0; k--) { /* (L | D) T* before */
        jt = FU_IDNA_JOINING(fu_idna_record(s[k - 1]).word);
        if (jt != FU_JT_T)
            break;
    }
    if (k == 0 || (jt != FU_JT_L && jt != FU_JT_D))
        return 0;
    for (k = j + 1; k < n; k++) { /* T* (R | D) after */
        jt = FU_IDNA_JOINING(fu_idna_record(s[k]).word);
        if (jt != FU_JT_T)
            return jt == FU_JT_R || jt == FU_JT_D;
    }
    return 0;
}

/* UTS #46 §4.1, Validity Criteria (nontransitional; CheckHyphens and
   UseSTD3ASCIIRules when strict, CheckJoiners always; CheckBidi is the
   caller's, over the whole domain).  nfc: whether the label is known to
   be NFC (a label just normalized); work: room for 8n words. */
static inline int fu_idna_valid(const uint32_t *s, size_t n, int strict, int nfc, uint32_t *work)
{
    size_t j;
    uint32_t w;
    if (n == 0)
        return 1;
    /* 1. NFC */
    if (!nfc && !fu_idna_nfc_yes(s, n)) {
        size_t m = fu_idna_nfc(s, n, work, work + 4 * n);
        if (m != n || memcmp(work, s, n * sizeof *s) != 0)
            return 0;
    }
    if (strict) {
        /* 2. no "--" in the third and fourth places; 3. no "-" first or last */
        if (n >= 4 && s[2] == '-' && s[3] == '-')
            return 0;
        if (s[0] == '-' || s[n - 1] == '-')
            return 0;
    } else if (n >= 4 && s[0] == 'x' && s[1] == 'n' && s[2] == '-' && s[3] == '-') {
        return 0; /* 4. */
    }
    /* 6. no leading combining mark */
    if (FU_IDNA_MARK(fu_idna_record(s[0]).word))
        return 0;
    for (j = 0; j < n; j++) {
        /* 5. no full stop; 7. valid or deviation, and STD3's LDH for ASCII */
        if (s[j] < 0x80) {
            if (s[j] == '.')
                return 0;
            if (strict
                && !((s[j] >= 'a' && s[j] <= 'z') || (s[j] >= '0' && s[j] <= '9') || s[j] == '-'))
                return 0;
            if (s[j] >= 'A' && s[j] <= 'Z') /* mapped */
                return 0;
            continue;
        }
        w = fu_idna_record(s[j]).word;
        if (FU_IDNA_STATUS(w) != FU_IDNA_VALID)
            return 0;
        /* 8. CheckJoiners */
        if ((s[j] == 0x200C || s[j] == 0x200D) && !fu_idna_contextj(s, n, j))
            return 0;
    }
    return 1;
}

/* ---- UTS #46 processing ------------------------------------------------- */

typedef struct {
    int strict, unicode; /* beStrict's flags; ToUnicode (else ToASCII) */
    int rtl;             /* a label holds R, AL or AN: a Bidi domain name */
    int bidi_bad;        /* a non-empty label fails RFC 5893's rules */
    size_t labels;       /* labels written */
    int dns_bad;         /* a label is not 1 to 63 long (VerifyDnsLength) */
    int forbidden;       /* a forbidden domain code point is written */
} fu_idna_state;

/* Working memory: the stack's, or one malloc'd block. */
typedef struct {
    uint32_t *p;
    size_t cap;
    uint32_t *heap;
} fu_idna_mem;

/* Room for words words (8-byte aligned); what was in it is lost. */
static inline int fu_idna_reserve(fu_idna_mem *m, size_t words)
{
    if (words <= m->cap)
        return 0;
    free(m->heap);
    m->heap = NULL;
    if (words > SIZE_MAX / sizeof(uint64_t))
        return -1;
    m->heap = (uint32_t *)malloc((words + 1) / 2 * sizeof(uint64_t));
    if (m->heap == NULL) {
        m->cap = 0;
        return -1;
    }
    m->p = m->heap;
    m->cap = words;
    return 0;
}

/* One label of the mapped domain, lab[0..n): converted, validated and
   written.  0, FU_IDNA_FAIL, or FU_IDNA_NOMEM. */
static inline int fu_idna_label(fu_idna_state *st, const uint32_t *lab, size_t n, fu_idna_mem *mem,
                                fu_idna_sink *o)
{
    const uint32_t *s = lab;
    uint32_t *rest, *r2, dec[4];
    size_t j, d = n, start;
    int nfc = 1, ascii = 1, slow;
    uint32_t b;
    /* The work: NFC's d words (d, the decomposed length, bounds every
       later length), the decoded label's, and 8d + 2 for the checks and
       Punycode (an even count first, for its 8-byte keys). */
    slow = !fu_idna_nfc_yes(lab, n);
    if (slow)
        for (j = 0, d = 0; j < n; j++)
            d += fu_idna_decompose(lab[j], dec);
    if (fu_idna_reserve(mem, 11 * d + 8) < 0)
        return (int)FU_IDNA_NOMEM;
    rest = mem->p;
    /* 2. Normalize (NFC) */
    if (slow) {
        n = fu_idna_nfc(lab, n, mem->p, mem->p + d);
        s = mem->p;
        rest = mem->p + d;
    }
    /* (an even offset from the block's 8-byte aligned start) */
    j = (size_t)(rest - mem->p) + n;
    r2 = mem->p + j + (j & 1);
    /* 4. Convert/Validate: a Punycode label is decoded */
    if (n >= 4 && s[0] == 'x' && s[1] == 'n' && s[2] == '-' && s[3] == '-') {
        ptrdiff_t m;
        for (j = 4; j < n; j++)
            if (s[j] >= 0x80)
                return -1;
        m = fu_py_decode(s + 4, n - 4, rest, r2);
        if (m <= 0) /* invalid, or empty */
            return -1;
        s = rest;
        n = (size_t)m;
        for (j = 0; j < n && s[j] < 0x80; j++)
            ;
        if (j == n) /* only ASCII */
            return -1;
        nfc = 0;
    }
    if (!fu_idna_valid(s, n, st->strict, nfc, r2))
        return -1;
    /* 4.1 step 9, CheckBidi, is decided once every label is read: whether
       one holds R, AL or AN, and whether each obeys RFC 5893 */
    for (j = 0; j < n; j++) {
        if (s[j] < 0x80) {
            /* (written as it is, in a Punycode label's basic part too) */
            st->forbidden |= fu_idna_forbidden_domain(s[j]);
            continue;
        }
        ascii = 0;
        b = FU_IDNA_BIDI(fu_idna_record(s[j]).word);
        if (b == FU_BIDI_R || b == FU_BIDI_AL || b == FU_BIDI_AN)
            st->rtl = 1;
    }
    if (n > 0 && !st->bidi_bad && !fu_idna_bidi_rule(s, n))
        st->bidi_bad = 1;
    if (st->labels++)
        fu_idna_put(o, '.');
    start = o->len;
    if (st->unicode) {
        for (j = 0; j < n; j++)
            fu_idna_put_utf8(o, s[j]);
    } else if (ascii) {
        for (j = 0; j < n; j++)
            fu_idna_put(o, (uint8_t)s[j]);
    } else {
        /* ToASCII 3: "xn--" and Punycode */
        fu_idna_put(o, 'x');
        fu_idna_put(o, 'n');
        fu_idna_put(o, '-');
        fu_idna_put(o, '-');
        if (fu_py_encode(s, n, o, r2) < 0)
            return -1;
    }
    if (o->len - start < 1 || o->len - start > 63)
        st->dns_bad = 1;
    return 0;
}

/* Reads the domain: its length mapped (total), its longest label mapped,
   and whether it is ASCII.  FU_IDNA_FAIL for a code point not UTF-8 or
   disallowed (either fails the domain). */
static inline int fu_idna_measure(fu_idna_in r, size_t *total, size_t *maxl, int *ascii)
{
    uint32_t cp, w;
    size_t t = 0, lab = 0, k, len;
    const uint32_t *m;
    *ascii = 1;
    while ((cp = fu_idna_next(&r)) != FU_IDNA_EOF) {
        if (cp < 0x80) {
            if (cp == '.') {
                if (lab > *maxl)
                    *maxl = lab;
                lab = 0;
            } else {
                lab++;
            }
            t++;
            continue;
        }
        *ascii = 0;
        if (cp == FU_IDNA_BAD)
            return -1;
        w = fu_idna_record(cp).word;
        switch (FU_IDNA_STATUS(w)) {
        case FU_IDNA_VALID:
            lab++;
            t++;
            break;
        case FU_IDNA_IGNORED: break;
        case FU_IDNA_MAPPED:
            len = FU_IDNA_MAP_LEN(w);
            if (len == 1) {
                if (cp + (uint32_t)fu_idna_record(cp).map == '.') {
                    if (lab > *maxl)
                        *maxl = lab;
                    lab = 0;
                } else {
                    lab++;
                }
                t++;
                break;
            }
            m = fu_idna_map_pool + fu_idna_record(cp).map;
            for (k = 0; k < len; k++) {
                if (m[k] == '.') {
                    if (lab > *maxl)
                        *maxl = lab;
                    lab = 0;
                } else {
                    lab++;
                }
            }
            t += len;
            break;
        default: return -1;
        }
    }
    if (lab > *maxl)
        *maxl = lab;
    *total = t;
    return 0;
}

/* 1. Map the domain into o (room for the total measured). */
static inline size_t fu_idna_map(fu_idna_in r, uint32_t *o)
{
    uint32_t cp;
    fu_idna_rec rec;
    size_t t = 0, len;
    while ((cp = fu_idna_next(&r)) != FU_IDNA_EOF) {
        if (cp < 0x80) {
            o[t++] = cp >= 'A' && cp <= 'Z' ? cp + 32 : cp;
            continue;
        }
        rec = fu_idna_record(cp);
        switch (FU_IDNA_STATUS(rec.word)) {
        case FU_IDNA_VALID: o[t++] = cp; break;
        case FU_IDNA_MAPPED:
            len = FU_IDNA_MAP_LEN(rec.word);
            if (len == 1) {
                o[t++] = cp + (uint32_t)rec.map;
            } else {
                memcpy(o + t, fu_idna_map_pool + rec.map, len * sizeof *o);
                t += len;
            }
            break;
        default: /* ignored (disallowed failed in fu_idna_measure) */ break;
        }
    }
    return t;
}

/* UTS #46 Processing, then ToASCII's or ToUnicode's steps, into o. */
static inline ptrdiff_t fu_idna_process(fu_idna_in r, fu_idna_state *st, fu_idna_sink *o)
{
    uint64_t stack[FU_IDNA_STACK / 2];
    uint32_t *dom = (uint32_t *)(void *)stack, *heap = NULL;
    fu_idna_mem mem;
    size_t total = 0, maxl = 0, a, b;
    int ascii, rc = 0;
    if (fu_idna_measure(r, &total, &maxl, &ascii) < 0)
        return FU_IDNA_FAIL;
    /* the mapped domain, on the stack when it takes a quarter of it at
       most; the labels' work in the rest (or on the heap) */
    mem.heap = NULL;
    if (total <= FU_IDNA_STACK / 4) {
        mem.p = dom + FU_IDNA_STACK / 4;
        mem.cap = FU_IDNA_STACK - FU_IDNA_STACK / 4;
    } else {
        if (total > SIZE_MAX / sizeof *dom)
            return FU_IDNA_NOMEM;
        heap = (uint32_t *)malloc(total * sizeof *dom);
        if (heap == NULL)
            return FU_IDNA_NOMEM;
        dom = heap;
        mem.p = (uint32_t *)(void *)stack;
        mem.cap = FU_IDNA_STACK;
    }
    /* 1. Map */
    total = fu_idna_map(r, dom);
    /* 3. Break into labels at U+002E; 4. convert and validate each */
    for (a = 0;; a = b + 1) {
        for (b = a; b < total && dom[b] != '.'; b++)
            ;
        rc = fu_idna_label(st, dom + a, b - a, &mem, o);
        if (rc < 0 || b >= total)
            break;
    }
    free(heap);
    free(mem.heap);
    if (rc < 0)
        return rc;
    /* CheckBidi: in a Bidi domain name, every label obeys RFC 5893 */
    if (st->rtl && st->bidi_bad)
        return FU_IDNA_FAIL;
    return (ptrdiff_t)o->len;
}

static inline ptrdiff_t fu_idna_domain_to_ascii(const uint8_t *s, size_t n, unsigned flags,
                                                uint8_t *out, size_t cap)
{
    fu_idna_in r;
    fu_idna_sink o;
    fu_idna_state st;
    ptrdiff_t len;
    uint32_t cp;
    int ascii = 1;
    r.s = s;
    r.i = 0;
    r.n = n;
    r.pct = (flags & FU_IDNA_PERCENT) != 0;
    o.out = out;
    o.cap = cap;
    o.len = 0;
    memset(&st, 0, sizeof st);
    st.strict = (flags & FU_IDNA_STRICT) != 0;
    if (!st.strict) {
        /* 5. an ASCII domain is lowercased, whatever ToASCII says of it */
        fu_idna_in t = r;
        while ((cp = fu_idna_next(&t)) != FU_IDNA_EOF) {
            if (cp >= 0x80) {
                ascii = 0;
                break;
            }
        }
        if (ascii) {
            while ((cp = fu_idna_next(&r)) != FU_IDNA_EOF) {
                if (fu_idna_forbidden_domain(cp))
                    return FU_IDNA_FAIL;
                fu_idna_put(&o, (uint8_t)(cp >= 'A' && cp <= 'Z' ? cp + 32 : cp));
            }
            return o.len ? (ptrdiff_t)o.len : FU_IDNA_FAIL;
        }
    }
    len = fu_idna_process(r, &st, &o);
    if (len < 0)
        return len;
    if (st.strict) {
        /* VerifyDnsLength: every label 1 to 63 long (an empty root label
           too), and the domain at most 253 */
        if (st.dns_bad || len > 253)
            return FU_IDNA_FAIL;
        return len;
    }
    /* 6-7. an empty result, or one holding a forbidden domain code point,
       is failure */
    if (len == 0 || st.forbidden)
        return FU_IDNA_FAIL;
    return len;
}

static inline ptrdiff_t fu_idna_domain_to_unicode(const uint8_t *s, size_t n, uint8_t *out,
                                                  size_t cap)
{
    fu_idna_in r;
    fu_idna_sink o;
    fu_idna_state st;
    r.s = s;
    r.i = 0;
    r.n = n;
    r.pct = 0;
    o.out = out;
    o.cap = cap;
    o.len = 0;
    memset(&st, 0, sizeof st);
    st.unicode = 1;
    return fu_idna_process(r, &st, &o);
}

#endif /* FASTURI_IDNA_H */
