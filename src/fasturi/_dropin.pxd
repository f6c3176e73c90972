# The C the drop-in's two compiled modules (_parse_c, _quote_c) share: a
# watch on urllib.parse's namespace, which says cheaply whether any name in
# it was bound, rebound or deleted since the module last checked what the
# stdlib's code reads there (a fasturi._stdstate.State); and the lock and
# counters their caches use, which are real only where there is no GIL.
#
#     from fasturi._dropin cimport fu_std_state, fu_std_watch, std_recheck
#     fu_std_watch(urllib.parse.__dict__)        # once, at import
#     known = fu_std_state()                     # per call: 1 holds, 0 not,
#     if known < 0: known = std_recheck(STATE)   # -1 check again
#
# Each module that cimports this file compiles its own copy (static), so
# each watches for itself: one dict watcher each (3.12+), of the six an
# interpreter gives extensions.

from libc.stdint cimport uint64_t

cdef extern from *:
    """
    #ifndef FASTURI_DROPIN_SHIM
    #define FASTURI_DROPIN_SHIM

    /* Without the GIL, what several threads read and write is read and
       written atomically (relaxed: each is a value on its own); with it,
       plainly. */
    #ifdef Py_GIL_DISABLED
    #define FU_FREE_THREADED 1
    #else
    #define FU_FREE_THREADED 0
    #endif

    #ifdef Py_GIL_DISABLED
    #define fu_load_u64(p) _Py_atomic_load_uint64_relaxed(p)
    #define fu_store_u64(p, v) _Py_atomic_store_uint64_relaxed((p), (v))
    #define fu_add_u64(p, v) ((void)_Py_atomic_add_uint64((p), (v)))
    #define fu_load_ssize(p) _Py_atomic_load_ssize_relaxed(p)
    #define fu_store_ssize(p, v) _Py_atomic_store_ssize_relaxed((p), (v))
    #define fu_add_ssize(p, v) ((void)_Py_atomic_add_ssize((p), (v)))
    #else
    #define fu_load_u64(p) (*(p))
    #define fu_store_u64(p, v) ((void)(*(p) = (v)))
    #define fu_add_u64(p, v) ((void)(*(p) += (v)))
    #define fu_load_ssize(p) (*(p))
    #define fu_store_ssize(p, v) ((void)(*(p) = (v)))
    #define fu_add_ssize(p, v) ((void)(*(p) += (v)))
    #endif

    /* A lock for a table several threads update: a PyMutex without the
       GIL (3.13+), nothing with it.  Never held across a call that can run
       Python code, so it cannot be taken twice by one thread. */
    #ifdef Py_GIL_DISABLED
    typedef PyMutex fu_mutex;
    #define fu_lock(m) PyMutex_Lock(m)
    #define fu_unlock(m) PyMutex_Unlock(m)
    #else
    typedef char fu_mutex;
    #define fu_lock(m) ((void)(m))
    #define fu_unlock(m) ((void)(m))
    #endif

    /* Up to 3.11 a dict carries a version tag (PEP 509) that changes on
       every change to it; from 3.12 the tag is deprecated (and gone in
       3.14), and a dict watcher counts the changes instead. */
    static PyObject *fu_std_dict = NULL;
    #if PY_VERSION_HEX >= 0x030C0000
    static uint64_t fu_std_changes = 0;
    static int fu_std_watcher = -1;
    static int fu_std_changed(PyDict_WatchEvent event, PyObject *dict,
                              PyObject *key, PyObject *new_value)
    {
        (void)event; (void)key; (void)new_value;
        if (dict == fu_std_dict)
            fu_add_u64(&fu_std_changes, 1);
        return 0;
    }
    #endif

    /* The stamp of the last check, times 2, plus 1 when the state held
       then: one word, so a reader never pairs one check's stamp with
       another's answer.  All ones: never checked. */
    static uint64_t fu_std_checked = ~(uint64_t)0;

    /* Start watching urllib.parse's namespace (once, at import). */
    static int fu_std_watch(PyObject *dict)
    {
        Py_INCREF(dict);
        fu_std_dict = dict;
    #if PY_VERSION_HEX >= 0x030C0000
        fu_std_watcher = PyDict_AddWatcher(fu_std_changed);
        if (fu_std_watcher < 0) {
            /* none left: every call checks the state (slow, still exact) */
            PyErr_Clear();
            return 0;
        }
        if (PyDict_Watch(fu_std_watcher, dict) < 0) {
            PyErr_Clear();
            PyDict_ClearWatcher(fu_std_watcher);
            fu_std_watcher = -1;
        }
    #endif
        return 0;
    }

    /* What the namespace's changes have come to so far. */
    static inline uint64_t fu_std_stamp(void)
    {
    #if PY_VERSION_HEX < 0x030C0000
        return ((PyDictObject *)fu_std_dict)->ma_version_tag;
    #else
        return fu_load_u64(&fu_std_changes);
    #endif
    }

    /* 1: the state held at the last check and nothing changed since;
       0: it did not hold, and nothing changed since; -1: check again. */
    static inline int fu_std_state(void)
    {
        uint64_t seen = fu_load_u64(&fu_std_checked);
        if ((seen >> 1) != fu_std_stamp())
            return -1;
        return (int)(seen & 1);
    }

    /* Record a check's answer, made after reading `stamp`: a change during
       the check leaves the stamp newer, so the next call checks again.
       Without a watcher (3.12+), nothing is recorded: every call checks. */
    static inline void fu_std_settle(uint64_t stamp, int holds)
    {
    #if PY_VERSION_HEX >= 0x030C0000
        if (fu_std_watcher < 0)
            return;
    #endif
        fu_store_u64(&fu_std_checked, (stamp << 1) | (holds ? 1 : 0));
    }

    /* The last check's record: a call that reads it before and after its
       work knows whether the state was checked anew in between. */
    static inline uint64_t fu_std_record(void)
    {
        return fu_load_u64(&fu_std_checked);
    }

    /* Forget the last check (the next call checks again). */
    static inline void fu_std_forget(void)
    {
        fu_store_u64(&fu_std_checked, ~(uint64_t)0);
    }
    #endif /* FASTURI_DROPIN_SHIM */
    """
    bint FU_FREE_THREADED
    ctypedef char fu_mutex
    void fu_lock(fu_mutex *m) nogil
    void fu_unlock(fu_mutex *m) nogil
    Py_ssize_t fu_load_ssize(Py_ssize_t *p) nogil
    void fu_store_ssize(Py_ssize_t *p, Py_ssize_t v) nogil
    void fu_add_ssize(Py_ssize_t *p, Py_ssize_t v) nogil
    int fu_std_watch(object d) except -1
    uint64_t fu_std_stamp() nogil
    int fu_std_state() nogil
    void fu_std_settle(uint64_t stamp, int holds) nogil
    uint64_t fu_std_record() nogil
    void fu_std_forget() nogil


cdef inline int std_recheck(object state) except -1:
    """Check the state again (urllib.parse's namespace changed since the
    last check, or it never was): 1 when it holds.  The stamp is read
    first, so that a change made during the check is checked again."""
    cdef uint64_t stamp
    cdef bint holds = False
    if state is None:       # (during the module's own import)
        return 0
    with state.lock:
        stamp = fu_std_stamp()
        holds = state.check()
        fu_std_settle(stamp, holds)
    return holds
