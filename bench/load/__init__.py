"""The load test with real processes on a Redis Cluster (`python -m bench.load.cluster`): players,
the audit of every log, the measures and the report."""
