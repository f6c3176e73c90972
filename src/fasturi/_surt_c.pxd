# C-level parts of fasturi._surt_c, for the column kernels (_arrow_c):
#
#     from fasturi._surt_c cimport MEM, _surt_error, _surt_key
#
# _surt_key(src, n, mem, dest, &key, &size, &heap, &wide) is surt() of the
# text src[0, n) without the GIL (the rare steps that need Python take it):
# mem holds MEM(n) bytes, dest 4n + 64 (NULL: in mem); 0 and the key at
# key[0, size), which is dest unless it lies elsewhere (to be copied
# before free(heap): heap is NULL or the caller's to free); else an error
# code that _surt_error(code, key, size) turns into surt()'s exception.
# Any bytes are read safely; wide tells whether they hold one from 0x80,
# which the caller then checks is UTF-8 (the result of text that is not
# UTF-8 means nothing).

from libc.stdint cimport uint8_t


cdef inline Py_ssize_t MEM(Py_ssize_t n) noexcept nogil:
    # _key's scratch for n bytes of text: up to 5n + 165 for the texts and
    # their padding, 16n + 16 for spans, then the key's 4n + 64
    return 28 * n + 256

cdef int _surt_key(const uint8_t *src, Py_ssize_t n, uint8_t *mem, uint8_t *dest,
                   const uint8_t **key, Py_ssize_t *size, uint8_t **heap,
                   bint *wide) noexcept nogil
cdef object _surt_error(int rc, const uint8_t *key, Py_ssize_t size)
