"""What the side-by-side scripts share: the work folder, free ports, CPU time of a process."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time

#: The work folder of the comparison: `project/` (this project, with its .venv) and `bgio/`
#: (the boardgame.io side, with its node_modules) live there, outside the repository.
PEER = os.environ.get("PEER_DIR", os.getcwd())
PROJECT, BGIO = f"{PEER}/project", f"{PEER}/bgio"
PY = f"{PROJECT}/.venv/bin/python"
TICKS = os.sysconf("SC_CLK_TCK")
#: The service's limits per client address are off: one load client plays every game.
NO_LIMITS = {
    "RATE_COMMANDS_PER_MINUTE": "0",
    "RATE_CREATE_PER_MINUTE": "0",
    "MAX_OPEN_GAMES": "0",
    "RATE_VIEWS_PER_MINUTE": "0",
    "RATE_TICKETS_PER_MINUTE": "0",
    "RATE_STREAMS_PER_MINUTE": "0",
    "MAX_STREAMS_PER_ADDRESS": "0",
}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def wait_port(port: int, proc: subprocess.Popen[bytes], timeout: float = 30) -> None:
    end = time.time() + timeout
    while time.time() < end:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited with {proc.returncode}")
        try:
            socket.create_connection(("127.0.0.1", port), 0.3).close()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("the server did not listen in time")


def stop(proc: subprocess.Popen[bytes] | None) -> None:
    """SIGTERM a process started here, then SIGKILL if it does not end."""
    if proc is None or proc.poll() is not None:
        return
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(5)


def redis_server(port: int) -> subprocess.Popen[bytes]:
    """A throw-away redis-server (no persistence) on CPU 1, beside the load client."""
    args = ["taskset", "-c", "1", "redis-server", "--port", str(port), "--bind", "127.0.0.1"]
    args += ["--save", "", "--appendonly", "no", "--loglevel", "warning"]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_port(port, proc)
    return proc
