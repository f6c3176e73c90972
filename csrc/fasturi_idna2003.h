/* fasturi_idna2003.h: IDNA 2003 ToASCII (RFC 3490, nameprep of RFC 3491)
   exactly as Python's "idna" codec runs it (encodings.idna's encode, the
   same on Python 3.9 to 3.15), over fasturi_idna2003_data.h: what
   host.encode("idna") gives the crawler tools' peers (surt, w3lib).

     ptrdiff_t fu_idna2003_to_ascii(const uint8_t *s, size_t n,
                                    unsigned flags, uint8_t *out,
                                    size_t cap);
       The bytes s[0..n) decoded as UTF-8 with what is not UTF-8 dropped
       (bytes.decode("utf-8", "ignore")), then str.encode("idna"); with
       FU_IDNA2003_W3LIB, w3lib's host steps first: str.lower(), and where
       that leaves non-ASCII, "@:#?" removed and NFKC (an ASCII host is the
       answer as it is).  Output as fu_idna_domain_to_ascii's (snprintf-like
       length); FU_IDNA_FAIL where the codec raises UnicodeError;
       FU_IDNA_PYTHON where the answer is the running Python's own: a code
       point Unicode 3.2 does not assign (the codec maps it by that
       Python's str.lower), or one whose str.lower is such a code point
       (Georgian and Cherokee capitals: Python 3.14's stringprep maps them
       as 3.2 did, earlier ones by str.lower), or for w3lib one whose NFKC
       changed after 3.2
       (w3lib's NFKC is the running Python's) or U+03A3 (str.lower makes a
       final sigma by context); FU_IDNA_NOMEM.

   The codec: an ASCII text is its own answer when its labels (split at
   ".") are 1 to 63 long, the last one 0 to 63.  Else labels are split at
   U+002E, U+3002, U+FF0E and U+FF61, a last empty one kept as a trailing
   dot, and each goes through ToASCII: an ASCII label as it is; else
   nameprep (B.1 dropped, B.2 mapped, NFKC, C.1.2-C.9 prohibited, the bidi
   rules of RFC 3454 §6), an ASCII result as it is, else "xn--" and
   Punycode, unless it already starts "xn--"; every label 1 to 63 long. */
#ifndef FASTURI_IDNA2003_H
#define FASTURI_IDNA2003_H

#include "fasturi_idna.h"
#include "fasturi_idna2003_data.h"

#define FU_IDNA2003_W3LIB 1u
#define FU_IDNA_PYTHON ((ptrdiff_t)-3)

static inline fu_i3_rec fu_i3_record(uint32_t cp)
{
    uint32_t block = fu_i3_index[cp >> FU_I3_SHIFT];
    return fu_i3_records[fu_i3_blocks[block << FU_I3_SHIFT | (cp & ((1u << FU_I3_SHIFT) - 1))]];
}

static inline uint32_t fu_i3_ccc(uint32_t cp) { return FU_I3_CCC(fu_i3_record(cp).word); }

/* NFKC's full decomposition of cp into o (room for 32); its length. */
static inline size_t fu_i3_decompose(uint32_t cp, uint32_t *o)
{
    size_t lo = 0, hi = sizeof fu_i3_dec_cp / sizeof fu_i3_dec_cp[0], mid, len;
    if ((len = fu_hangul_decompose(cp, o)) != 0)
        return len;
    if (!FU_I3_DECOMPOSES(fu_i3_record(cp).word)) {
        o[0] = cp;
        return 1;
    }
    while (lo < hi) {
        mid = (lo + hi) / 2;
        if (fu_i3_dec_cp[mid] < cp)
            lo = mid + 1;
        else
            hi = mid;
    }
    len = (size_t)(fu_i3_dec_at[lo] & 31) + 1;
    memcpy(o, fu_i3_dec_pool + (fu_i3_dec_at[lo] >> 5), len * sizeof *o);
    return len;
}

static inline uint32_t fu_i3_compose(uint32_t a, uint32_t b)
{
    size_t lo = 0, hi = sizeof fu_i3_comp_key / sizeof fu_i3_comp_key[0], mid;
    uint64_t key = (uint64_t)a << 21 | b;
    uint32_t h = fu_hangul_compose(a, b);
    if (h != 0)
        return h;
    while (lo < hi) {
        mid = (lo + hi) / 2;
        if (fu_i3_comp_key[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < sizeof fu_i3_comp_key / sizeof fu_i3_comp_key[0] && fu_i3_comp_key[lo] == key)
        return fu_i3_comp_cp[lo];
    return 0;
}

static inline const fu_norm *fu_i3_nfkc_data(void)
{
    static const fu_norm data = { fu_i3_ccc, fu_i3_decompose, fu_i3_compose };
    return &data;
}

/* A mapping (B.2's or str.lower's) of cp, of len code points, into o. */
static inline size_t fu_i3_map(uint32_t cp, int32_t value, size_t len, uint32_t *o)
{
    if (len == 0) {
        o[0] = cp;
        return 1;
    }
    if (len == 1) {
        o[0] = cp + (uint32_t)value;
        return 1;
    }
    memcpy(o, fu_i3_pool + value, len * sizeof *o);
    return len;
}

/* The decomposed length of t[0..n): what NFKC needs room for. */
static inline size_t fu_i3_decomposed_len(const uint32_t *t, size_t n)
{
    uint32_t tmp[32];
    size_t j, d = 0;
    for (j = 0; j < n; j++)
        d += t[j] < 0x80 ? 1 : fu_i3_decompose(t[j], tmp);
    return d;
}

static inline int fu_i3_is_dot(uint32_t c)
{
    return c == '.' || c == 0x3002 || c == 0xFF0E || c == 0xFF61;
}

/* ToASCII of one label lab[0..n) (non-empty text of a non-ASCII domain)
   into o: 0, or FU_IDNA_FAIL, FU_IDNA_NOMEM. */
static inline int fu_i3_label(const uint32_t *lab, size_t n, fu_idna_mem *mem, fu_idna_sink *o)
{
    size_t j, m = 0, d, k;
    uint32_t *mapped, *norm, *tmp, *work, w;
    int randal = 0, lcat = 0;
    fu_i3_rec rec;
    uint8_t code[64];
    fu_idna_sink p;
    for (j = 0; j < n && lab[j] < 0x80; j++)
        ;
    if (j == n) { /* an ASCII label: as it is */
        if (n == 0 || n > 63)
            return (int)FU_IDNA_FAIL;
        for (j = 0; j < n; j++)
            fu_idna_put(o, (uint8_t)lab[j]);
        return 0;
    }
    /* nameprep: 1. map (B.1 to nothing, B.2) */
    for (j = 0; j < n; j++) {
        w = fu_i3_record(lab[j]).word;
        m += FU_I3_B1(w) ? 0 : FU_I3_B2_LEN(w) ? FU_I3_B2_LEN(w) : 1;
    }
    if (fu_idna_reserve(mem, m + 32) < 0)
        return (int)FU_IDNA_NOMEM;
    mapped = mem->p;
    for (j = 0, m = 0; j < n; j++) {
        rec = fu_i3_record(lab[j]);
        if (!FU_I3_B1(rec.word))
            m += fu_i3_map(lab[j], rec.b2, FU_I3_B2_LEN(rec.word), mapped + m);
    }
    /* 2. NFKC (the mapped text moves first: the room grows) */
    d = fu_i3_decomposed_len(mapped, m);
    if (m + 2 * d + 5 * d + 8 > mem->cap) {
        uint32_t keep[64];
        uint32_t *held = m <= 64 ? keep : (uint32_t *)malloc(m * sizeof *held);
        int rc;
        if (held == NULL)
            return (int)FU_IDNA_NOMEM;
        memcpy(held, mapped, m * sizeof *held);
        rc = fu_idna_reserve(mem, m + 2 * d + 5 * d + 8);
        if (rc == 0)
            memcpy(mem->p, held, m * sizeof *held);
        if (held != keep)
            free(held);
        if (rc < 0)
            return (int)FU_IDNA_NOMEM;
        mapped = mem->p;
    }
    norm = mapped + m;
    tmp = norm + d;
    work = tmp + d + (((size_t)(tmp + d - mem->p)) & 1); /* 8-byte keys */
    k = fu_normalize(fu_i3_nfkc_data(), mapped, m, norm, tmp);
    /* 3. prohibited code points; 4. bidi (RFC 3454 §6) */
    for (j = 0; j < k; j++) {
        w = fu_i3_record(norm[j]).word;
        if (FU_I3_PROHIBITED(w))
            return (int)FU_IDNA_FAIL;
        randal |= (int)FU_I3_RANDAL(w);
        lcat |= (int)FU_I3_LCAT(w);
    }
    if (randal
        && (lcat || !FU_I3_RANDAL(fu_i3_record(norm[0]).word)
            || !FU_I3_RANDAL(fu_i3_record(norm[k - 1]).word)))
        return (int)FU_IDNA_FAIL;
    /* ToASCII 4: ASCII now, as it is */
    for (j = 0; j < k && norm[j] < 0x80; j++)
        ;
    if (j == k) {
        if (k == 0 || k > 63)
            return (int)FU_IDNA_FAIL;
        for (j = 0; j < k; j++)
            fu_idna_put(o, (uint8_t)norm[j]);
        return 0;
    }
    /* 5. no ACE prefix; 6-8. Punycode after "xn--", under 64 in all (each
       code point costs a character: 60 and more never fit) */
    if (k >= 4 && norm[0] == 'x' && norm[1] == 'n' && norm[2] == '-' && norm[3] == '-')
        return (int)FU_IDNA_FAIL;
    if (k >= 60)
        return (int)FU_IDNA_FAIL;
    p.out = code;
    p.cap = sizeof code;
    p.len = 0;
    if (fu_py_encode(norm, k, &p, work) < 0 || p.len + 4 > 63)
        return (int)FU_IDNA_FAIL;
    fu_idna_put(o, 'x');
    fu_idna_put(o, 'n');
    fu_idna_put(o, '-');
    fu_idna_put(o, '-');
    for (j = 0; j < p.len; j++)
        fu_idna_put(o, code[j]);
    return 0;
}

/* str.encode("idna") of t[0..n) into o. */
static inline ptrdiff_t fu_i3_encode(const uint32_t *t, size_t n, fu_idna_mem *mem, fu_idna_sink *o)
{
    size_t a, b, j, end = n;
    int rc, trailing = 0;
    for (j = 0; j < n && t[j] < 0x80; j++)
        ;
    if (j == n) {
        /* ASCII: labels 1 to 63 long, the last 0 to 63; the text as it is */
        for (a = 0;; a = b + 1) {
            for (b = a; b < n && t[b] != '.'; b++)
                ;
            if (b - a > 63 || (b < n && b == a))
                return FU_IDNA_FAIL;
            if (b >= n)
                break;
        }
        for (j = 0; j < n; j++)
            fu_idna_put(o, (uint8_t)t[j]);
        return (ptrdiff_t)o->len;
    }
    if (n > 0 && fu_i3_is_dot(t[n - 1])) { /* a last empty label: a trailing dot */
        trailing = 1;
        end = n - 1;
    }
    for (a = 0;; a = b + 1) {
        for (b = a; b < end && !fu_i3_is_dot(t[b]); b++)
            ;
        if (a > 0)
            fu_idna_put(o, '.');
        rc = fu_i3_label(t + a, b - a, mem, o);
        if (rc < 0)
            return rc;
        if (b >= end)
            break;
    }
    if (trailing)
        fu_idna_put(o, '.');
    return (ptrdiff_t)o->len;
}

static inline ptrdiff_t fu_idna2003_to_ascii(const uint8_t *s, size_t n, unsigned flags,
                                             uint8_t *out, size_t cap)
{
    uint64_t stack[FU_IDNA_STACK / 2];
    uint32_t *text, *heap = NULL, cp, buf[32];
    fu_idna_in r;
    fu_idna_sink o;
    fu_idna_mem mem;
    fu_i3_rec rec;
    size_t t = 0, room, j, k, len;
    ptrdiff_t result;
    int ascii = 1;
    r.s = s;
    r.i = 0;
    r.n = n;
    r.pct = 0;
    o.out = out;
    o.cap = cap;
    o.len = 0;
    /* the text (w3lib: lowercased, up to 3 code points each) on the stack
       when it takes a quarter of it, the labels' work in the rest */
    room = flags & FU_IDNA2003_W3LIB ? 3 * n : n;
    text = (uint32_t *)(void *)stack;
    mem.heap = NULL;
    if (room <= FU_IDNA_STACK / 4) {
        mem.p = text + FU_IDNA_STACK / 4;
        mem.cap = FU_IDNA_STACK - FU_IDNA_STACK / 4;
    } else {
        if (room > SIZE_MAX / sizeof *text)
            return FU_IDNA_NOMEM;
        heap = (uint32_t *)malloc(room * sizeof *text);
        if (heap == NULL)
            return FU_IDNA_NOMEM;
        text = heap;
        mem.p = (uint32_t *)(void *)stack;
        mem.cap = FU_IDNA_STACK;
    }
    result = 0;
    while ((cp = fu_idna_next(&r)) != FU_IDNA_EOF) {
        if (cp == FU_IDNA_BAD) /* "ignore" */
            continue;
        if (cp < 0x80) {
            text[t++] = flags & FU_IDNA2003_W3LIB && cp >= 'A' && cp <= 'Z' ? cp + 32 : cp;
            continue;
        }
        rec = fu_i3_record(cp);
        /* a code point 3.2 leaves unassigned, or (w3lib) whose NFKC moved,
           or a capital sigma (str.lower makes it final by its context):
           the running Python's answer */
        if (!FU_I3_ASSIGNED(rec.word)
            || (flags & FU_IDNA2003_W3LIB && (FU_I3_CORRIGENDUM(rec.word) || cp == 0x3A3))) {
            result = FU_IDNA_PYTHON;
            goto done;
        }
        if (flags & FU_IDNA2003_W3LIB) {
            len = fu_i3_map(cp, rec.lower, FU_I3_LOWER_LEN(rec.word), buf);
            for (k = 0; k < len; k++) {
                ascii &= buf[k] < 0x80;
                text[t++] = buf[k];
            }
        } else {
            text[t++] = cp;
        }
    }
    if (flags & FU_IDNA2003_W3LIB) {
        /* an ASCII host after str.lower() is the answer */
        if (ascii) {
            for (j = 0; j < t; j++)
                fu_idna_put(&o, (uint8_t)text[j]);
            result = (ptrdiff_t)o.len;
            goto done;
        }
        /* "@:#?" removed, then NFKC (3.2's: the same for what 3.2 assigns,
           but the corrigendum's code points, which went to Python) */
        for (j = 0, k = 0; j < t; j++)
            if (text[j] != '@' && text[j] != ':' && text[j] != '#' && text[j] != '?')
                text[k++] = text[j];
        t = k;
        len = fu_i3_decomposed_len(text, t);
        if (fu_idna_reserve(&mem, 2 * len + 8) < 0) {
            result = FU_IDNA_NOMEM;
            goto done;
        }
        t = fu_normalize(fu_i3_nfkc_data(), text, t, mem.p, mem.p + len);
        if (t > room) { /* (NFKC can lengthen) */
            uint32_t *grown = (uint32_t *)malloc(t * sizeof *grown);
            if (grown == NULL) {
                result = FU_IDNA_NOMEM;
                goto done;
            }
            free(heap);
            heap = text = grown;
        }
        memcpy(text, mem.p, t * sizeof *text);
    }
    result = fu_i3_encode(text, t, &mem, &o);
done:
    free(heap);
    free(mem.heap);
    return result;
}

/* w3lib's check of a netloc beyond ASCII: whether NFKC of s[0..n) less
   "@:#?" differs from it and holds one of "/?#@:\\" (w3lib then raises):
   1 or 0; FU_IDNA_PYTHON where the running Python's NFKC must say (a code
   point Unicode 3.2 does not assign, or whose NFKC moved since, or bytes
   not UTF-8); FU_IDNA_NOMEM. */
static inline ptrdiff_t fu_idna2003_nfkc_delims(const uint8_t *s, size_t n)
{
    uint64_t stack[FU_IDNA_STACK / 2];
    uint32_t *text, *heap = NULL, cp, w, *norm;
    fu_idna_in r;
    fu_idna_mem mem;
    size_t t = 0, d, k, j;
    ptrdiff_t result = 0;
    r.s = s;
    r.i = 0;
    r.n = n;
    r.pct = 0;
    text = (uint32_t *)(void *)stack;
    mem.heap = NULL;
    if (n <= FU_IDNA_STACK / 4) {
        mem.p = text + FU_IDNA_STACK / 4;
        mem.cap = FU_IDNA_STACK - FU_IDNA_STACK / 4;
    } else {
        heap = (uint32_t *)malloc(n * sizeof *text);
        if (heap == NULL)
            return FU_IDNA_NOMEM;
        text = heap;
        mem.p = (uint32_t *)(void *)stack;
        mem.cap = FU_IDNA_STACK;
    }
    while ((cp = fu_idna_next(&r)) != FU_IDNA_EOF) {
        if (cp == FU_IDNA_BAD) {
            result = FU_IDNA_PYTHON;
            goto done;
        }
        if (cp == '@' || cp == ':' || cp == '#' || cp == '?')
            continue;
        if (cp >= 0x80) {
            w = fu_i3_record(cp).word;
            if (!FU_I3_ASSIGNED(w) || FU_I3_CORRIGENDUM(w)) {
                result = FU_IDNA_PYTHON;
                goto done;
            }
        }
        text[t++] = cp;
    }
    d = fu_i3_decomposed_len(text, t);
    if (fu_idna_reserve(&mem, 2 * d + 8) < 0) {
        result = FU_IDNA_NOMEM;
        goto done;
    }
    norm = mem.p;
    k = fu_normalize(fu_i3_nfkc_data(), text, t, norm, norm + d);
    if (k != t || memcmp(norm, text, t * sizeof *text) != 0)
        for (j = 0; j < k; j++)
            if (norm[j] == '/' || norm[j] == '?' || norm[j] == '#' || norm[j] == '@'
                || norm[j] == ':' || norm[j] == '\\')
                result = 1;
done:
    free(heap);
    free(mem.heap);
    return result;
}

#endif /* FASTURI_IDNA2003_H */
