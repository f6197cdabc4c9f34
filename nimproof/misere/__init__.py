"""Misère quotients of take-and-break games (Plambeck; Plambeck and Siegel): see docs/misere.md."""
