# C-level entry points of fasturi._rules_c, for other Cython modules.

# The number of `rule` for RFC `rfc`, checking the arguments as the public
# functions do (func names the caller in messages; s must be a str).
cdef int _rule_id(str func, object s, object rule, object rfc) except -1
