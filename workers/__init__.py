"""arq workers: AI seats' turns. Run with `arq workers.main.WorkerSettings`."""
