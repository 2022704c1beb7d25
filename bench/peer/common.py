"""What the side-by-side scripts share: the work folder, free ports, CPU time of a process, and
what the rest of the machine was doing."""

from __future__ import annotations

import collections
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterable
from typing import Any, NamedTuple

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


class Proc(NamedTuple):
    """One process as /proc shows it: its parent, its name, a short command line (a kernel
    thread has none: `[name]`) and its user + system CPU seconds so far."""

    pid: int
    ppid: int
    comm: str
    cmdline: str
    cpu: float


#: Every process on the machine at one moment, by pid and start time (a reused pid is another).
Snapshot = dict[tuple[int, int], Proc]


def processes() -> Snapshot:
    """Every process on the machine now (/proc/*/stat); one that ends while read is left out."""
    found: Snapshot = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as stat:
                text = stat.read()
            with open(f"/proc/{name}/cmdline", "rb") as cmdline:
                argv = cmdline.read(200).replace(b"\0", b" ").decode(errors="replace").strip()
        except OSError:
            continue
        comm = text[text.index("(") + 1 : text.rindex(")")]
        fields = text.rsplit(")", 1)[1].split()
        cpu = (int(fields[11]) + int(fields[12])) / TICKS
        found[(int(name), int(fields[19]))] = Proc(
            int(name), int(fields[1]), comm, argv[:80] or f"[{comm}]", cpu
        )
    return found


def family(roots: Iterable[int], *snapshots: Snapshot) -> set[int]:
    """The pids of `roots` and of every process under them in any of the snapshots."""
    children: dict[int, set[int]] = collections.defaultdict(set)
    for snapshot in snapshots:
        for proc in snapshot.values():
            children[proc.ppid].add(proc.pid)
    found: set[int] = set()
    todo = list(roots)
    while todo:
        pid = todo.pop()
        if pid not in found:
            found.add(pid)
            todo.extend(children[pid])
    return found


def others(
    before: Snapshot, after: Snapshot, wall: float, ours: set[int]
) -> list[tuple[Proc, float]]:
    """The cores (CPU seconds per wall second) that each process not in `ours` used between two
    snapshots, most first: one begun in between counts all its CPU so far; one that ended in
    between is missed (its last CPU time cannot be read)."""
    used = []
    for key, proc in after.items():
        if proc.pid not in ours:
            start = before.get(key)
            spent = proc.cpu - (start.cpu if start else 0.0)
            if spent > 0:
                used.append((proc, spent / wall))
    return sorted(used, key=lambda item: -item[1])


def machine_times() -> tuple[float, float, float]:
    """The CPU seconds (all cores) the machine has been busy so far, all of its CPU seconds so
    far, busy or idle, and the seconds the host took from its virtual CPUs (steal) so far
    (/proc/stat)."""
    with open("/proc/stat") as stat:
        f = [int(x) for x in stat.readline().split()[1:]]
    return (sum(f[:8]) - f[3] - f[4]) / TICKS, sum(f[:8]) / TICKS, f[7] / TICKS


def machine_load(seconds: float = 1.0) -> dict[str, float]:
    """The 1-minute load average, and the share of all cores the machine kept busy over the next
    `seconds` (this sleeps that long)."""
    with open("/proc/loadavg") as loadavg:
        load = float(loadavg.read().split()[0])
    busy0, all0, _ = machine_times()
    time.sleep(seconds)
    busy1, all1, _ = machine_times()
    return {"loadavg_1m": load, "busy": round((busy1 - busy0) / max(all1 - all0, 1e-9), 3)}


#: A fixed piece of pure Python, timed on the server's core: how fast this machine runs the
#: interpreter just now (its speed moves within minutes, with nothing else running here).
_LOOP = (
    "import time\nt=time.perf_counter()\nx=0\nfor i in range(3_000_000): x+=i\n"
    "print((time.perf_counter()-t)*1e3)"
)


def machine_speed(tries: int = 3) -> float:
    """The best of `tries` timings, in ms, of 3,000,000 additions in a Python loop on CPU 0."""
    argv = ["taskset", "-c", "0", sys.executable, "-c", _LOOP]
    return round(min(float(subprocess.check_output(argv)) for _ in range(tries)), 1)


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


def stop(proc: subprocess.Popen[Any] | None) -> None:
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
