# C-level entry points of fasturi._idna_c, for other Cython modules:
#
#     from fasturi._idna_c cimport idna_to_ascii, idna_to_unicode, special_host
#     from fasturi._idna_c cimport idna2003_to_ascii, idna2003_nfkc_delims
#
# They are fu_idna_domain_to_ascii and fu_idna_domain_to_unicode
# (csrc/fasturi_idna.h, whose opening comment is the contract), called
# without the GIL through this module, so the Unicode tables are linked
# once: idna_to_ascii(s, n, flags, out, cap) is the URL Standard's domain
# parser of the bytes s[0, n) (flags: FU_IDNA_STRICT for beStrict,
# FU_IDNA_PERCENT for a host still percent-encoded), written to out like
# snprintf (the result's length; all of it written when it is at most
# cap); FU_IDNA_FAIL (-1) for failure, FU_IDNA_NOMEM (-2).

from libc.stdint cimport uint8_t


cdef Py_ssize_t idna_to_ascii(const uint8_t *s, Py_ssize_t n, unsigned flags, uint8_t *out,
                              Py_ssize_t cap) noexcept nogil
cdef Py_ssize_t idna_to_unicode(const uint8_t *s, Py_ssize_t n, uint8_t *out,
                                Py_ssize_t cap) noexcept nogil
# special_host(s, n) is the host parser's steps 4-9 for a special URL's
# host s[0, n) that is no IPv6 address: the domain as ASCII bytes, None
# where it ends in a number (the IPv4 parser's, the caller's), or
# InvalidURL("domain-to-ASCII") raised.
cdef object special_host(const uint8_t *s, Py_ssize_t n)
# idna2003_to_ascii(s, n, flags, out, cap) is fu_idna2003_to_ascii
# (csrc/fasturi_idna2003.h): host.decode("utf-8", "ignore").encode("idna")
# of the bytes s[0, n) (FU_IDNA2003_W3LIB: w3lib's str.lower and NFKC
# first), written like idna_to_ascii's; FU_IDNA_FAIL where the codec raises,
# FU_IDNA_PYTHON where the running Python must answer.
cdef Py_ssize_t idna2003_to_ascii(const uint8_t *s, Py_ssize_t n, unsigned flags, uint8_t *out,
                                  Py_ssize_t cap) noexcept nogil
# idna2003_nfkc_delims(s, n) is fu_idna2003_nfkc_delims: whether w3lib
# refuses the netloc s[0, n) for what its NFKC gains (1 or 0), or
# FU_IDNA_PYTHON where the running Python's NFKC must say.
cdef Py_ssize_t idna2003_nfkc_delims(const uint8_t *s, Py_ssize_t n) noexcept nogil
