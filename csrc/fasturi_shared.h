/* The few counters a column kernel's threads share within one call: which
 * row range or piece of the joined result is the next to take, how many are
 * done, and what the call is doing.
 *
 * A thread that has nothing to take waits by spinning, not by sleeping: a
 * call's threads wait for each other only while the last range finishes
 * (microseconds to a few milliseconds), and waking a sleeping thread costs
 * about 100 us on a virtual machine, as much as a range of thousands of rows.
 * Every thread that spins waits only for work some running thread has taken,
 * so no call waits on a thread that never starts.
 *
 * Plain C: GCC and clang builtins, or MSVC intrinsics.
 */
#ifndef FASTURI_SHARED_H
#define FASTURI_SHARED_H

#include <stdint.h>

#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>

static inline int64_t fu_shared_add(int64_t *p, int64_t v)
{
    return _InterlockedExchangeAdd64((volatile __int64 *)p, v);
}
static inline int64_t fu_shared_get(int64_t *p)
{
    return _InterlockedOr64((volatile __int64 *)p, 0);
}
static inline void fu_shared_set(int64_t *p, int64_t v)
{
    (void)_InterlockedExchange64((volatile __int64 *)p, v);
}
#if defined(_M_X64) || defined(_M_IX86)
static inline void fu_shared_pause(void) { _mm_pause(); }
#else
static inline void fu_shared_pause(void) { __yield(); }
#endif

#else

/* Returns the value before the addition. */
static inline int64_t fu_shared_add(int64_t *p, int64_t v)
{
    return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST);
}
static inline int64_t fu_shared_get(int64_t *p) { return __atomic_load_n(p, __ATOMIC_SEQ_CST); }
static inline void fu_shared_set(int64_t *p, int64_t v)
{
    __atomic_store_n(p, v, __ATOMIC_SEQ_CST);
}
#if defined(__x86_64__) || defined(__i386__)
static inline void fu_shared_pause(void) { __builtin_ia32_pause(); }
#elif defined(__aarch64__) || defined(__arm__)
static inline void fu_shared_pause(void) { __asm__ __volatile__("yield"); }
#else
static inline void fu_shared_pause(void) {}
#endif

#endif

/* Spins until *p is no longer `value`; returns what it became. */
static inline int64_t fu_shared_wait_change(int64_t *p, int64_t value)
{
    int64_t now;
    while ((now = fu_shared_get(p)) == value)
        fu_shared_pause();
    return now;
}

/* Spins until *p is at least `value`. */
static inline void fu_shared_wait_reach(int64_t *p, int64_t value)
{
    while (fu_shared_get(p) < value)
        fu_shared_pause();
}

#endif
