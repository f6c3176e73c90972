# C-level entry points of fasturi._w3lib_c, for other Cython modules:
#
#     from fasturi._w3lib_c cimport _fast, key_str
#
# key_str(s, keep_fragment) is key(s, keep_fragment) without its argument
# check (s must be an exact str, not None).  _fast is its C path, without
# the GIL: the key of UTF-8 text written at mem + n + 8 (mem holds
# 48n + 256 bytes), or -1 for the text only the reference (_w3lib.key)
# handles.

from libc.stdint cimport uint8_t


cdef Py_ssize_t _fast(const uint8_t *src, Py_ssize_t n, bint ascii, bint keep_fragment,
                      uint8_t *mem) noexcept nogil
cdef str key_str(str s, bint keep_fragment)
