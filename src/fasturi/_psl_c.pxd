# C-level parts of fasturi._psl_c, for the column kernels (_arrow_c):
#
#     from fasturi._psl_c cimport _Table, _current
#
# _current() is the table in use (built on first use); keep a reference to
# it while its t is read.  The steps registrable_domain and public_suffix
# take on an ASCII host are fu_psl_host_range and fu_psl_lookup
# (csrc/fasturi_psl.h); a host with other bytes needs str.lower, which only
# the Python-level functions apply.

from libc.stdint cimport uint8_t

from fasturi._csrc cimport fu_psl_t


cdef class _Table:
    cdef fu_psl_t t
    cdef bytes keys
    cdef int depth
    cdef object version


cdef _Table _current()
