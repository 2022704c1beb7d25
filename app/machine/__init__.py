"""Machine work: what a table waits for, arq jobs (AI turns, timers, the sweep, retention), the in-
process driver, the worker."""
