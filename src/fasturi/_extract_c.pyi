__all__ = ["OPAQUE_SCHEMES", "extract"]

OPAQUE_SCHEMES: frozenset[str]

def extract(text: str, *, abbreviated: bool = False) -> list[str]: ...
