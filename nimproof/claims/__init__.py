"""Claims: the conjecture-file format (:mod:`.model`), its kinds (:mod:`.kinds`) and its loader
(:mod:`.load`)."""

from nimproof.claims.kinds import REGISTRY as KIND_REGISTRY
from nimproof.claims.kinds import ClaimKindSpec, kind_named, spec_of
from nimproof.claims.load import find_files, load_file, load_paths, parse_document
from nimproof.claims.model import KINDS, METHODS, Claim, ClaimKind, Source

__all__ = [
    "KINDS",
    "KIND_REGISTRY",
    "METHODS",
    "Claim",
    "ClaimKind",
    "ClaimKindSpec",
    "Source",
    "find_files",
    "kind_named",
    "load_file",
    "load_paths",
    "parse_document",
    "spec_of",
]
