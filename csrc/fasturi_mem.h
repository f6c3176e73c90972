/* The memory of the column kernels' results: fu_alloc, fu_grow, fu_release.
 *
 * A result of megabytes is written once, into memory the kernel has to
 * fault in and zero page by page; on this machine a million-row split spent
 * as long in those faults as in its work, and a call whose memory the
 * allocator had just handed back to the system paid them all again.  So on
 * Linux a block of 4 MiB or more (FU_BLOCK_MIN) is mapped here, in 2 MiB
 * pages where the kernel gives them on request (transparent huge pages,
 * "madvise" mode), and a released one is kept, its pages offered back to the
 * kernel (MADV_FREE: taken only under memory pressure), for the next result
 * of about its size: at most FU_KEPT_MAX bytes, in at most FU_BLOCKS blocks.
 * Elsewhere, and for smaller blocks, these are malloc, realloc and free.
 *
 * The blocks are the one state the kernels share between calls; a spin lock
 * (fasturi_shared.h's counters) guards the table, held for a scan of it,
 * never across a system call.
 */
#ifndef FASTURI_MEM_H
#define FASTURI_MEM_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fasturi_shared.h"

#if defined(__linux__)
#include <pthread.h>
#include <sys/mman.h>
#endif

#define FU_HUGE_PAGE ((size_t)2 << 20)

#if defined(__linux__) && defined(MADV_HUGEPAGE) && defined(MREMAP_MAYMOVE)                        \
    && (defined(__GNUC__) || defined(__clang__))
/* (a library whose results of a megabyte or two stay alive by the hundred,
 * as the polars plugin's do in a query's morsels, asks for smaller blocks
 * and more of them) */
#ifndef FU_BLOCKS
#define FU_BLOCKS 64
#endif
#ifndef FU_BLOCK_MIN
#define FU_BLOCK_MIN (2 * FU_HUGE_PAGE)
#endif
#define FU_KEPT_MAX ((size_t)512 << 20)

enum { FU_BLOCK_FREE, FU_BLOCK_LIVE, FU_BLOCK_KEPT };

typedef struct {
    void *p;
    size_t size;
    int state;
} fu_block_t;

/* (every extension includes this; the column kernels' alone use it) */
static __attribute__((unused)) fu_block_t fu_blocks[FU_BLOCKS];
static __attribute__((unused)) size_t fu_kept_bytes;
static __attribute__((unused)) int64_t fu_blocks_lock, fu_blocks_forked;

/* A child forked while some thread held the lock would never see it freed. */
static inline void fu_blocks_after_fork(void) { fu_blocks_lock = 0; }

static inline void fu_blocks_acquire(void)
{
    if (!fu_shared_get(&fu_blocks_forked) && !fu_shared_swap(&fu_blocks_forked, 1))
        (void)pthread_atfork(NULL, NULL, fu_blocks_after_fork);
    while (fu_shared_swap(&fu_blocks_lock, 1))
        (void)fu_shared_wait_change(&fu_blocks_lock, 1);
}

static inline void fu_blocks_release(void) { fu_shared_set(&fu_blocks_lock, 0); }

/* The live block at p (its table index), or -1; under the lock. */
static inline int fu_block_find(const void *p)
{
    for (int i = 0; i < FU_BLOCKS; i++)
        if (fu_blocks[i].state == FU_BLOCK_LIVE && fu_blocks[i].p == p)
            return i;
    return -1;
}

/* A fresh mapping of `size` bytes (a multiple of 2 MiB) at a 2 MiB
 * boundary, so that the kernel can back it with whole huge pages. */
static inline void *fu_block_map(size_t size)
{
    uint8_t *p = (uint8_t *)mmap(NULL, size + FU_HUGE_PAGE, PROT_READ | PROT_WRITE,
                                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    size_t head;
    if (p == (uint8_t *)MAP_FAILED)
        return NULL;
    head = (FU_HUGE_PAGE - (size_t)((uintptr_t)p % FU_HUGE_PAGE)) % FU_HUGE_PAGE;
    if (head)
        munmap(p, head);
    munmap(p + head + size, FU_HUGE_PAGE - head);
    (void)madvise(p + head, size, MADV_HUGEPAGE);
    return p + head;
}

static inline void *fu_alloc(size_t size)
{
    size_t whole = (size + FU_HUGE_PAGE - 1) / FU_HUGE_PAGE * FU_HUGE_PAGE;
    int i, best = -1, slot = -1;
    void *p;
    if (size < FU_BLOCK_MIN)
        return malloc(size);
    fu_blocks_acquire();
    for (i = 0; i < FU_BLOCKS; i++) {
        if (fu_blocks[i].state == FU_BLOCK_FREE && slot < 0)
            slot = i;
        /* a kept block of this size, or up to a half larger */
        if (fu_blocks[i].state == FU_BLOCK_KEPT && fu_blocks[i].size >= whole
            && fu_blocks[i].size <= whole + whole / 2
            && (best < 0 || fu_blocks[i].size < fu_blocks[best].size))
            best = i;
    }
    if (best >= 0) {
        fu_blocks[best].state = FU_BLOCK_LIVE;
        fu_kept_bytes -= fu_blocks[best].size;
        p = fu_blocks[best].p;
        fu_blocks_release();
        return p;
    }
    if (slot >= 0) { /* taken, filled below; no address a release could match */
        fu_blocks[slot].state = FU_BLOCK_LIVE;
        fu_blocks[slot].p = NULL;
    }
    fu_blocks_release();
    if (slot < 0)
        return malloc(size); /* the table is full: the allocator's own block */
    p = fu_block_map(whole);
    fu_blocks_acquire();
    fu_blocks[slot].p = p;
    fu_blocks[slot].size = whole;
    if (p == NULL)
        fu_blocks[slot].state = FU_BLOCK_FREE;
    fu_blocks_release();
    return p;
}

/* p (from fu_alloc, fu_grow or malloc) resized to size bytes, its content
 * kept up to the smaller size; NULL (p left as it was) when out of memory. */
static inline void *fu_grow(void *p, size_t size)
{
    int i;
    size_t old, want;
    void *q;
    if (p == NULL)
        return fu_alloc(size);
    fu_blocks_acquire();
    i = fu_block_find(p);
    old = i >= 0 ? fu_blocks[i].size : 0;
    fu_blocks_release();
    if (i < 0)
        return realloc(p, size); /* (malloc's: it stays malloc's) */
    /* Kept whole when asked to shrink: the pages past the end are never
     * written, and the block stays the size the next such call asks for. */
    want = (size + FU_HUGE_PAGE - 1) / FU_HUGE_PAGE * FU_HUGE_PAGE;
    if (want <= old)
        return p;
    /* While it moves, the slot names no address: once the old one is
     * unmapped, malloc may hand it out, and a release of that must not
     * match this block. */
    fu_blocks_acquire();
    fu_blocks[i].p = NULL;
    fu_blocks_release();
    q = mremap(p, old, want, MREMAP_MAYMOVE);
    if (q == MAP_FAILED)
        q = NULL;
    else
        (void)madvise((uint8_t *)q + old, want - old, MADV_HUGEPAGE);
    fu_blocks_acquire();
    fu_blocks[i].p = q == NULL ? p : q;
    fu_blocks[i].size = q == NULL ? old : want;
    fu_blocks_release();
    return q;
}

static inline void fu_release(void *p)
{
    int i;
    size_t size;
    if (p == NULL)
        return;
    fu_blocks_acquire();
    i = fu_block_find(p);
    size = i >= 0 ? fu_blocks[i].size : 0;
    fu_blocks_release();
    if (i < 0) {
        free(p);
        return;
    }
#ifdef MADV_FREE
    /* offered back while still this caller's alone: a block marked kept
     * may be handed out (and written) at once */
    (void)madvise(p, size, MADV_FREE);
#endif
    fu_blocks_acquire();
    if (fu_kept_bytes + size <= FU_KEPT_MAX) {
        fu_blocks[i].state = FU_BLOCK_KEPT;
        fu_kept_bytes += size;
        size = 0;
    } else {
        fu_blocks[i].state = FU_BLOCK_FREE;
        fu_blocks[i].p = NULL;
    }
    fu_blocks_release();
    if (size)
        munmap(p, size);
}

#else

static inline void *fu_alloc(size_t size) { return malloc(size); }
static inline void *fu_grow(void *p, size_t size) { return realloc(p, size); }
static inline void fu_release(void *p) { free(p); }

#endif

#endif
