"""Real processes for the tests: API servers (`python -m app`), workers (`python -m workers`,
or arq's own command) and private redis-servers that a test can stop, kill, pause and restart."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
import redis

ROOT = Path(__file__).resolve().parents[1]

#: The tests play many games from one address: the limits are off unless a test sets them.
NO_LIMITS = {
    "RATE_CREATE_PER_MINUTE": "0",
    "RATE_COMMANDS_PER_MINUTE": "0",
    "MAX_OPEN_GAMES": "0",
    "RATE_VIEWS_PER_MINUTE": "0",
    "RATE_TICKETS_PER_MINUTE": "0",
    "RATE_STREAMS_PER_MINUTE": "0",
    "MAX_STREAMS_PER_ADDRESS": "0",
    "RATE_LOGINS_PER_MINUTE": "0",
    "RATE_LOGINS_PER_NAME": "0",
}


def database(url: str, number: int, *, flush: bool = True) -> str:
    """The same Redis as `url`, database `number` (emptied first): tests whose processes run
    workers keep their queues apart, so that no other test's worker takes their jobs."""
    base = url.rsplit("/", 1)[0] if url.count("/") > 2 else url
    own = f"{base}/{number}"
    if flush:
        with redis.Redis.from_url(own) as client:
            client.flushdb()
    return own


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(
    env: dict[str, str],
    log: Path,
    *,
    ready: bool = True,
    port: int | None = None,
    cwd: Path = ROOT,
) -> tuple[subprocess.Popen[bytes], str]:
    """`python -m app` in a subprocess, run from `cwd` (the project's root: its `app/` is the
    one served); waits until /healthz says ok (or, without `ready`, until it answers at all),
    however long a busy machine takes (the test's timeout ends a start that never comes)."""
    port = port or free_port()
    env = {**os.environ, "PORT": str(port), "AI_THINK_SECONDS": "0", **NO_LIMITS, **env}
    if "REDIS_URL" in env and not env["REDIS_URL"]:
        del env["REDIS_URL"]
    with log.open("ab") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "app"], cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT
        )
    url = f"http://127.0.0.1:{port}"
    try:
        while True:
            if proc.poll() is not None:
                pytest.fail(f"the server exited: {log.read_text()}")
            try:
                status = httpx.get(f"{url}/healthz", timeout=2).status_code
                if status == 200 or not ready:
                    return proc, url
            except httpx.TransportError:
                pass
            time.sleep(0.1)
    except BaseException:  # the test's timeout, or the server's own end
        proc.kill()
        proc.wait()
        raise


def start_worker(
    env: dict[str, str], log: Path, *, arq: bool = False, cwd: Path = ROOT
) -> subprocess.Popen[bytes]:
    """A worker process, its output in `log`: `python -m workers` (supervised), or with `arq`
    arq's own `arq workers.main.WorkerSettings`; `cwd` another checkout to run its code."""
    env = {**os.environ, "AI_THINK_SECONDS": "0", **env}
    if arq:
        command = [str(Path(sys.executable).with_name("arq")), "workers.main.WorkerSettings"]
    else:
        command = [sys.executable, "-m", "workers"]
    with log.open("ab") as out:
        return subprocess.Popen(command, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT)


def stop(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM, then SIGKILL if it does not end within ten seconds."""
    if proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


stop_server = stop


class RedisServer:
    """A private redis-server on a port of its own, with its data (AOF, fsync every second) in
    a folder of its own, so that a test can restart it and find its data again."""

    def __init__(self, folder: Path, *, appendonly: bool = True) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.skip("no redis-server on PATH")
        self.binary = binary
        self.folder = folder
        self.port = free_port()
        self.appendonly = appendonly
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisServer:
        args = [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", ""]
        args += ["--dir", str(self.folder), "--appendonly", "yes" if self.appendonly else "no"]
        args += ["--appendfsync", "everysec"]
        log = (self.folder / "redis.log").open("ab")
        self.proc = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT)
        while True:  # however long a busy machine takes: the test's timeout ends it
            if self.proc.poll() is not None:
                pytest.fail(f"redis-server exited with {self.proc.returncode}")
            try:
                with redis.Redis.from_url(self.url, socket_timeout=1) as probe:
                    if probe.ping():
                        return self
            except (redis.ConnectionError, redis.TimeoutError, redis.BusyLoadingError):
                pass
            time.sleep(0.05)

    def send(self, signum: int) -> None:
        assert self.proc is not None
        self.proc.send_signal(signum)

    def stop(self, signum: int = signal.SIGTERM) -> None:
        """End it with `signum` (SIGTERM: a clean shutdown; SIGKILL: a crash)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signum)
            self.proc.wait(timeout=15)
        self.proc = None

    def close(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGCONT)
            self.proc.kill()
            self.proc.wait()
        self.proc = None


def rss_kb(pid: int) -> int:
    """The resident memory of a process, in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise LookupError(pid)


def cluster_ports(count: int) -> list[int]:
    """`count` free ports whose cluster bus ports (port + 10000) are free too."""
    ports: list[int] = []
    while len(ports) < count:
        port = free_port()
        if port + 10000 > 65535 or port in ports:
            continue
        with socket.socket() as bus:
            try:
                bus.bind(("127.0.0.1", port + 10000))
            except OSError:
                continue
        ports.append(port)
    return ports


def _cluster_info(client: redis.Redis) -> dict[str, str]:
    """CLUSTER INFO as text fields (redis-py may or may not parse it already)."""
    info = client.execute_command("CLUSTER INFO")  # type: ignore[no-untyped-call]
    if isinstance(info, dict):
        return {str(k): str(v) for k, v in info.items()}
    text = info.decode() if isinstance(info, bytes) else str(info)
    return dict(line.split(":", 1) for line in text.split("\r\n") if ":" in line)


class LocalCluster:
    """A Redis Cluster of `masters` redis-servers on loopback (no replicas, no persistence),
    each in a folder of its own: the slots split evenly in ranges, as `redis-cli --cluster
    create` splits them; ready once every node says `cluster_state:ok` and knows every other."""

    def __init__(self, folder: Path, masters: int = 3, ports: list[int] | None = None) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.skip("no redis-server on PATH")
        self.binary = binary
        self.folder = folder
        self.ports = ports or cluster_ports(masters)
        self.procs: list[subprocess.Popen[bytes]] = []

    @property
    def url(self) -> str:
        return f"redis+cluster://127.0.0.1:{self.ports[0]}"

    def start(self, timeout: float = 30) -> LocalCluster:
        try:
            self._start(timeout)
        except BaseException:
            self.close()
            raise
        return self

    def _start(self, timeout: float) -> None:
        for port in self.ports:
            home = self.folder / str(port)
            home.mkdir(parents=True, exist_ok=True)
            args = [self.binary, "--port", str(port), "--bind", "127.0.0.1", "--save", ""]
            args += ["--appendonly", "no", "--dir", str(home), "--cluster-enabled", "yes"]
            args += ["--cluster-config-file", "nodes.conf", "--cluster-node-timeout", "5000"]
            log = (home / "redis.log").open("ab")
            self.procs.append(subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT))
        clients = [redis.Redis(port=p, socket_timeout=2) for p in self.ports]
        deadline = time.monotonic() + timeout
        for client in clients:
            self._until(deadline, client.ping, "a node did not answer PING")
        slots = 16384
        for n, client in enumerate(clients):
            low, high = n * slots // len(clients), (n + 1) * slots // len(clients) - 1
            try:
                client.execute_command("CLUSTER ADDSLOTSRANGE", low, high)  # type: ignore[no-untyped-call]
            except redis.ResponseError:  # before Redis 7: one slot at a time
                client.execute_command("CLUSTER ADDSLOTS", *range(low, high + 1))  # type: ignore[no-untyped-call]
        for client in clients[1:]:
            client.execute_command("CLUSTER MEET", "127.0.0.1", self.ports[0])  # type: ignore[no-untyped-call]

        def ready() -> bool:
            for client in clients:
                fields = _cluster_info(client)
                if fields.get("cluster_state") != "ok":
                    return False
                if int(fields.get("cluster_known_nodes", 0)) != len(clients):
                    return False
                if int(fields.get("cluster_slots_ok", 0)) != slots:
                    return False
            return True

        self._until(deadline, ready, "the cluster did not reach cluster_state:ok")
        for client in clients:
            client.close()

    def _until(self, deadline: float, check: Callable[[], object], message: str) -> None:
        while True:
            if any(proc.poll() is not None for proc in self.procs):
                pytest.fail(f"a redis-server of the cluster exited ({self.folder})")
            try:
                if check():
                    return
            except (redis.ConnectionError, redis.TimeoutError, redis.ResponseError):
                pass
            if time.monotonic() > deadline:
                pytest.fail(message)
            time.sleep(0.05)

    def close(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.kill()
        for proc in self.procs:
            proc.wait()
        self.procs = []
