"""The worker process: arq runs the machine work (AI turns, timers, the sweep) that
`app.machine.worker` registers. Run with `arq workers.main.WorkerSettings`."""
