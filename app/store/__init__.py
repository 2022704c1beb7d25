"""Storage on Redis: the event store (streams and the atomic append), pipelined connections, the
lifecycle of finished games."""
