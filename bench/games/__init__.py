"""Benchmarks of the rules and the AI alone (no I/O): the speed of legal moves, decisions and
replay, A/B runs of two revisions, and the AI arenas of every title."""
