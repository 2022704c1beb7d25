"""Benchmarks of the service on a real Redis: commands over HTTP, the append's client, Redis
commands per command and per AI turn, replay, streams and server-sent events, storage."""
