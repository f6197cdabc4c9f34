"""Claims: the conjecture-file format (:mod:`.model`) and its loader (:mod:`.load`)."""

from nimproof.claims.load import find_files, load_file, load_paths, parse_document
from nimproof.claims.model import KINDS, METHODS, Claim, ClaimKind, Source

__all__ = [
    "KINDS",
    "METHODS",
    "Claim",
    "ClaimKind",
    "Source",
    "find_files",
    "load_file",
    "load_paths",
    "parse_document",
]
