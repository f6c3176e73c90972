# The one place the compiled modules reach into the CPython C API beyond
# what Cython's own cpython.* declarations offer: the Python.h functions
# they call directly, and the shims whose details depend on the Python
# version.  A version-specific detail written here is then right (or wrong)
# in every module at once.
#
#     from fasturi._capi cimport fu_unicode_ready, fu_alloc_tuple, PyUnicode_New
#
# The C below sits behind an include guard, so a module that reaches this
# file through two cimports still compiles one copy.

from cpython.object cimport PyObject
from libc.stdint cimport uint8_t

cdef extern from *:
    """
    #ifndef FASTURI_CAPI_SHIM
    #define FASTURI_CAPI_SHIM

    /* Strings made through the legacy wchar_t API (before 3.12) must be
       made ready before their kind and data may be read. */
    #if PY_VERSION_HEX < 0x030C0000
    #define fu_unicode_ready(o) PyUnicode_READY(o)
    #else
    #define fu_unicode_ready(o) 0
    #endif

    /* A genuine instance of a tuple subclass of n items, all NULL, from the
       type's own allocator: what tuple.__new__(cls, ...) builds, less the
       argument tuple.  The types given here (namedtuples, the stdlib's
       result classes) have __slots__ = () all the way down, so the tuple is
       the whole object.  Items are filled before the object escapes.
       From 3.14 a tuple caches its hash in ob_hash, where -1 means "not
       computed yet"; tp_alloc returns zeroed memory, and a zero left there
       would be taken for a computed hash of 0.  Inline: every module that
       cimports this file gets it, and most never call it. */
    static inline PyObject *fu_alloc_tuple(PyObject *type, Py_ssize_t n)
    {
        PyTypeObject *t = (PyTypeObject *)type;
        PyObject *o = t->tp_alloc(t, n);
    #if PY_VERSION_HEX >= 0x030E0000
        if (o != NULL)
            ((PyTupleObject *)o)->ob_hash = -1;
    #endif
        return o;
    }

    /* Store value through a slot's member descriptor (3.15's _keep_empty
       on the result classes) without a Python-level call: where a slot of
       a tuple subclass lives (after its items) is the interpreter's
       business, and the descriptor's own setter knows it. */
    static inline int fu_descr_set(PyObject *descr, PyObject *obj, PyObject *value)
    {
        return Py_TYPE(descr)->tp_descr_set(descr, obj, value);
    }

    /* Whether a slot holds something other than False: 1; 0 when it holds
       False or was never set (getattr(obj, name, False) is False); -1 on
       an error. */
    static inline int fu_slot_not_false(PyObject *descr, PyObject *obj)
    {
        PyObject *v = Py_TYPE(descr)->tp_descr_get(descr, obj, (PyObject *)Py_TYPE(obj));
        int r;
        if (v == NULL) {
            if (!PyErr_ExceptionMatches(PyExc_AttributeError))
                return -1;
            PyErr_Clear();
            return 0;
        }
        r = v != Py_False;
        Py_DECREF(v);
        return r;
    }

    /* A store of a new reference at a byte offset in an object: where a
       compiled module has found a slot (a __slots__ member) of objects it
       allocates itself, by a probe it checks through the descriptor. */
    static inline void fu_set_slot(PyObject *o, Py_ssize_t offset, PyObject *v)
    {
        Py_INCREF(v);
        *(PyObject **)((char *)o + offset) = v;
    }

    /* A compiled function's entry: what the interpreter calls it through
       (the vectorcall protocol), as a C function of borrowed arguments. */
    typedef PyObject *(*fu_vectorcall_t)(PyObject *, PyObject *const *, size_t, PyObject *);

    /* Put `entry` in front of the function object `f`: the interpreter
       then calls `entry`, which answers the commonest call itself and
       hands every other one to the entry it returns (f's own, which parses
       keywords and defaults).  NULL, and nothing changed, when f is not
       called through a vectorcall slot.  For module-level functions, at
       import, before anything else can hold or call them. */
    static inline fu_vectorcall_t fu_front_entry(PyObject *f, fu_vectorcall_t entry)
    {
        PyTypeObject *t = Py_TYPE(f);
        fu_vectorcall_t *slot, was;
        if (!PyType_HasFeature(t, Py_TPFLAGS_HAVE_VECTORCALL) || t->tp_vectorcall_offset <= 0)
            return NULL;
        slot = (fu_vectorcall_t *)((char *)f + t->tp_vectorcall_offset);
        was = *slot;
        if (was != NULL)
            *slot = entry;
        return was;
    }

    /* A compact ASCII str's text: right after its header. */
    static inline const uint8_t *fu_ascii_data(PyObject *o)
    {
        return (const uint8_t *)((PyASCIIObject *)o + 1);
    }

    /* Whether the 32 bytes before the end of a compact str's data may be
       read (fu_pct_quote_keeps' `headed`): the header they fall in is longer
       than that.  Not on a free-threaded build, where other threads write
       a header's reference count and hash. */
    #ifdef Py_GIL_DISABLED
    #define FU_STR_HEADED 0
    #else
    #define FU_STR_HEADED (sizeof(PyASCIIObject) >= 32)
    #endif

    #endif /* FASTURI_CAPI_SHIM */
    """
    # (an entry returns a new reference, or NULL with an exception set: a
    # cdef function returning object)
    ctypedef object (*fu_vectorcall_t)(object, PyObject *const *, size_t, PyObject *)
    fu_vectorcall_t fu_front_entry(object f, fu_vectorcall_t entry)
    Py_ssize_t PyVectorcall_NARGS(size_t nargsf)
    int fu_unicode_ready(object o) except -1
    const uint8_t *fu_ascii_data(object o)
    bint FU_STR_HEADED
    object fu_alloc_tuple(object type, Py_ssize_t n)
    int fu_descr_set(object descr, object obj, object value) except -1
    int fu_slot_not_false(object descr, object obj) except -1
    void fu_set_slot(object o, Py_ssize_t offset, object v)

# Declared here rather than cimported from cpython.*: the return types are
# exact (str, bytes), so Cython needs no type check on the result, and the
# readers are nogil so the scanners can call them without the GIL.
cdef extern from "Python.h":
    Py_ssize_t PY_SSIZE_T_MAX
    void PyObject_GC_UnTrack(object o)
    int PyUnicode_KIND(object o)
    void *PyUnicode_DATA(object o)
    Py_ssize_t PyUnicode_GET_LENGTH(object o)
    bint PyUnicode_IS_ASCII(object o)
    bint PyUnicode_IS_COMPACT(object o)
    bint PyUnicode_IS_COMPACT_ASCII(object o)
    bint PyUnicode_CheckExact(object o)
    Py_UCS4 PyUnicode_MAX_CHAR_VALUE(object o)
    Py_UCS4 PyUnicode_READ(int kind, const void *data, Py_ssize_t index) nogil
    void PyUnicode_WRITE(int kind, void *data, Py_ssize_t index, Py_UCS4 value) nogil
    str PyUnicode_New(Py_ssize_t size, Py_UCS4 maxchar)
    str PyUnicode_FromKindAndData(int kind, const void *buffer, Py_ssize_t size)
    str PyUnicode_Substring(object s, Py_ssize_t start, Py_ssize_t end)
    str PyUnicode_DecodeASCII(const char *s, Py_ssize_t size, const char *errors)
    str PyUnicode_DecodeUTF8(const char *s, Py_ssize_t size, const char *errors)
    Py_UCS4 *PyUnicode_AsUCS4Copy(object s) except NULL
    const char *PyUnicode_AsUTF8AndSize(object o, Py_ssize_t *size) except NULL
    bytes PyBytes_FromStringAndSize(const char *v, Py_ssize_t n)
    char *PyBytes_AS_STRING(object o)
    Py_ssize_t PyBytes_GET_SIZE(object o)
