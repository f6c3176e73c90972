/* The few counters a column kernel's threads share within one call: which
 * row range or piece of the joined result is the next to take, how many are
 * done, and what the call is doing (and the lock of fasturi_mem.h's table);
 * and fu_guard_t, which lets a table that readers use without a lock be
 * swapped for another and freed (the Public Suffix List's).
 *
 * A thread that has nothing to take waits by spinning, not by sleeping: a
 * call's threads wait for each other only while the last range finishes
 * (microseconds to a few milliseconds), and waking a sleeping thread costs
 * about 100 us on a virtual machine, as much as a range of thousands of rows.
 * After a while it spins yielding the processor, so that on a machine with
 * more threads than cores (an engine's own threads calling the kernels) the
 * thread it waits for gets the core.  Every thread that spins waits only for
 * work some running thread has taken, so no call waits on a thread that
 * never starts.
 *
 * Plain C: GCC and clang builtins, or MSVC intrinsics.
 */
#ifndef FASTURI_SHARED_H
#define FASTURI_SHARED_H

#include <stdint.h>

#define FU_SPINS 4096 /* pauses before each wait also yields (some 100 us) */

#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
__declspec(dllimport) int __stdcall SwitchToThread(void);
static inline void fu_shared_yield(void) { (void)SwitchToThread(); }

static inline int64_t fu_shared_add(int64_t *p, int64_t v)
{
    return _InterlockedExchangeAdd64((volatile __int64 *)p, v);
}
static inline int64_t fu_shared_get(int64_t *p)
{
    return _InterlockedOr64((volatile __int64 *)p, 0);
}
static inline int64_t fu_shared_swap(int64_t *p, int64_t v)
{
    return _InterlockedExchange64((volatile __int64 *)p, v);
}
/* Whether *p was `expected` (and is now v). */
static inline int fu_shared_cas(int64_t *p, int64_t expected, int64_t v)
{
    return _InterlockedCompareExchange64((volatile __int64 *)p, v, expected) == expected;
}
#define FU_ALIGNED_64 __declspec(align(64))
#if defined(_M_X64) || defined(_M_IX86)
static inline void fu_shared_pause(void) { _mm_pause(); }
#else
static inline void fu_shared_pause(void) { __yield(); }
#endif

#else
#include <sched.h>
static inline void fu_shared_yield(void) { (void)sched_yield(); }

/* Returns the value before the addition. */
static inline int64_t fu_shared_add(int64_t *p, int64_t v)
{
    return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST);
}
static inline int64_t fu_shared_get(int64_t *p) { return __atomic_load_n(p, __ATOMIC_SEQ_CST); }
/* Returns the value before. */
static inline int64_t fu_shared_swap(int64_t *p, int64_t v)
{
    return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST);
}
/* Whether *p was `expected` (and is now v). */
static inline int fu_shared_cas(int64_t *p, int64_t expected, int64_t v)
{
    return __atomic_compare_exchange_n(p, &expected, v, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}
#define FU_ALIGNED_64 __attribute__((aligned(64)))
#if defined(__x86_64__) || defined(__i386__)
static inline void fu_shared_pause(void) { __builtin_ia32_pause(); }
#elif defined(__aarch64__) || defined(__arm__)
static inline void fu_shared_pause(void) { __asm__ __volatile__("yield"); }
#else
static inline void fu_shared_pause(void) {}
#endif

#endif

static inline void fu_shared_set(int64_t *p, int64_t v) { (void)fu_shared_swap(p, v); }

static inline void fu_shared_spin(int *spins)
{
    if (*spins < FU_SPINS) {
        *spins += 1;
        fu_shared_pause();
    } else {
        fu_shared_yield();
    }
}

/* Spins until *p is no longer `value`; returns what it became. */
static inline int64_t fu_shared_wait_change(int64_t *p, int64_t value)
{
    int64_t now;
    int spins = 0;
    while ((now = fu_shared_get(p)) == value)
        fu_shared_spin(&spins);
    return now;
}

/* Spins until *p is at least `value`. */
static inline void fu_shared_wait_reach(int64_t *p, int64_t value)
{
    int spins = 0;
    while (fu_shared_get(p) < value)
        fu_shared_spin(&spins);
}

/* ---- a table readers use without a lock, swapped and freed safely ------
 *
 * A reader of a shared pointer (the table in use) must not find it freed
 * under it, and must not pay a lock, nor bump a count every thread shares
 * (that line of memory would travel between cores on every call).  So a
 * reader announces itself in a slot of its own while it reads, and a
 * writer, having swapped the pointer for the new table's, waits until
 * every reader announced at that moment has left; then no reader can
 * still hold the old pointer, and it can be freed (read-copy-update, with
 * the slots as the readers' quiescent states).
 *
 *   reader:  slot = fu_guard_enter(&g); t = fu_shared_get(&table); ...read t...;
 *            fu_guard_leave(&g, slot);
 *   writer:  (one at a time) old = fu_shared_swap(&table, new); fu_guard_wait(&g); free(old);
 *
 * A slot is a count, odd while a reader is in: taken with a compare-and-
 * swap from even to odd, left by the next even value.  A reader starts at
 * a slot picked by where its stack is (so each thread mostly finds its own
 * slot, on a line of memory no other thread writes) and tries the next
 * while one is in use.  Every step is sequentially consistent: either the
 * writer's look at a slot sees the reader in it, or the reader's load of
 * the pointer, after its entry, sees the new table.  A reader must not
 * block, nor wait for the writer, while in (it only reads).
 */
#define FU_GUARD_SLOTS 64 /* a power of two */

typedef struct {
    FU_ALIGNED_64 int64_t seq; /* odd while a reader is in */
    int64_t pad[7];
} fu_guard_slot_t;

typedef struct {
    fu_guard_slot_t slot[FU_GUARD_SLOTS];
} fu_guard_t;

/* Enters a read of what g guards; returns the slot to leave by. */
static inline int fu_guard_enter(fu_guard_t *g)
{
    int here, spins = 0;
    /* (each thread's stack is its own: 64 KiB apart, two threads' are apart) */
    uint64_t at = (uint64_t)(uintptr_t)&here >> 16;
    int i = (int)((at * 0x9E3779B97F4A7C15ULL) >> 58) & (FU_GUARD_SLOTS - 1);
    for (;;) {
        int64_t seq = fu_shared_get(&g->slot[i].seq);
        if (!(seq & 1) && fu_shared_cas(&g->slot[i].seq, seq, seq + 1))
            return i;
        i = (i + 1) & (FU_GUARD_SLOTS - 1);
        if (i == 0) /* (every slot in use: more readers than slots, for now) */
            fu_shared_spin(&spins);
    }
}

static inline void fu_guard_leave(fu_guard_t *g, int slot)
{
    (void)fu_shared_add(&g->slot[slot].seq, 1);
}

/* Waits until every reader that was in when it was called has left. */
static inline void fu_guard_wait(fu_guard_t *g)
{
    for (int i = 0; i < FU_GUARD_SLOTS; i++) {
        int64_t seq = fu_shared_get(&g->slot[i].seq);
        if (seq & 1)
            (void)fu_shared_wait_change(&g->slot[i].seq, seq);
    }
}

#endif
