# C-level entry points of fasturi._core_c, for other Cython modules:
#
#     from fasturi._core_c cimport split_str, normalize_str, resolve_str
#
# Each is the body of the public function of the same stem, without its
# argument checks: the caller guarantees the types.  A str argument must not
# be None; a str subclass instance is fine but needs a cast (<str>value),
# since Cython's own check of a `str` parameter accepts exact str only.
# Results and exceptions are otherwise those of the public functions (see
# _core_c.pyi and docs/ARCHITECTURE.md).

from fasturi._csrc cimport fu_split_t

# split(s): a fasturi._types.Split (RFC 3986 Appendix B).
cdef object split_str(str s)

# split_authority(authority): (userinfo | None, host, port | None).
cdef tuple split_authority_str(str authority)

# remove_dot_segments(path) (RFC 3986 §5.2.4).
cdef str remove_dot_segments_str(str path)

# resolve(base, ref, strict=strict, rfc=rfc) (RFC 3986 §5.2); rfc is 3986
# or 2396 (any other value acts as 3986).  Raises InvalidURI when base has
# no scheme.
cdef str resolve_str(str base, str ref, bint strict, int rfc)

# A base URI split once, for resolving a batch of references against it:
# PreparedBase(base, strict, rfc) raises InvalidURI as resolve_str does for a
# base without a scheme; .resolve(ref) is resolve_str(base, ref, strict, rfc).
cdef class PreparedBase:
    cdef str base
    cdef fu_split_t parts
    cdef int kind
    cdef bint ascii
    cdef bint strict
    cdef int mode
    cdef int rfc
    cdef str resolve(self, str ref)

# normalize(s, scheme_based=scheme_based) (RFC 3986 §6.2.2, §6.2.3).
cdef str normalize_str(str s, bint scheme_based)

# percent_encode(s, safe) with UTF-8, errors="strict" (RFC 3986 §2.1).
cdef str percent_encode_str(str s, str safe)

# percent_decode_bytes(s) for a str (RFC 3986 §2.1).
cdef bytes percent_decode_bytes_str(str s)
