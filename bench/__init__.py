"""Benchmarks of the nimproof engines (``python -m bench`` from the repository root).

The cases are in :mod:`bench.cases`; :data:`bench.cases.BENCHMARKS` is the list to extend.
"""
