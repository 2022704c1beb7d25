"""Settings and counters every layer reads: configuration from the environment, metrics."""
