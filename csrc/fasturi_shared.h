/* The few counters a column kernel's threads share within one call: which
 * row range or piece of the joined result is the next to take, how many are
 * done, and what the call is doing (and the lock of fasturi_mem.h's table).
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

#endif
