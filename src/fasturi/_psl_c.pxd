# C-level parts of fasturi._psl_c, for the column kernels (_arrow_c):
#
#     from fasturi._psl_c cimport _Table, _current, _host_range, _lookup
#
# _current() is the table in use (built on first use); keep a reference to
# it while its t is read.  _host_range and _lookup are the
# steps registrable_domain and public_suffix take on an ASCII host (see
# _psl_c.pyx); a host with other bytes needs str.lower, which only the
# Python-level functions apply.

from libc.stdint cimport uint8_t

from fasturi._csrc cimport fu_psl_t


cdef class _Table:
    cdef fu_psl_t t
    cdef bytes keys
    cdef int depth
    cdef object version


cdef _Table _current()
cdef bint _host_range(const uint8_t *s, Py_ssize_t n, Py_ssize_t *start,
                      Py_ssize_t *end) noexcept nogil
cdef int _lookup(const fu_psl_t *t, int depth, const uint8_t *h, Py_ssize_t n,
                 uint8_t *out, int shift, Py_ssize_t *suffix_at,
                 Py_ssize_t *domain_at) noexcept nogil
