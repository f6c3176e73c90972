# C-level entry point of fasturi._w3lib_c, for other Cython modules:
#
#     from fasturi._w3lib_c cimport key_str
#
# key_str(s, keep_fragment) is key(s, keep_fragment) without its argument
# check (s must be an exact str, not None).

cdef str key_str(str s, bint keep_fragment)
