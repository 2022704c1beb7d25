"""Benchmarks: run each from the project root as `.venv/bin/python -m bench.NAME`."""
