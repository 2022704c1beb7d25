"""A load test with real processes on a local 3-master Redis Cluster: 3 API processes, 3
workers (one queue each), N concurrent games played by several client processes, bounded in
time.

Run from the project root (it starts the cluster from `redis-server` on the given ports):

    .venv/bin/python -m bench.load.cluster --games 1000 --clients 4 --deadline 900 \\
        --ports 7301 7302 7303 --api-ports 18301 18302 18303

Half the games are two AIs watched by a spectator's stream, a quarter a person against the AI,
a quarter a person who never acts at a table whose round timer or turn clock runs
(`bench.load.players` says how a client plays them); each client process takes its share of
the games, and the games go round-robin over the API processes. `--service-dir` serves another
checkout's code with this test (an A/B). `--deadline` seconds after the games start, the
clients leave the games still running; those are stalled. At the end
(`bench.load.audit`), for every game: it is over; its log's versions are 1..N; its stream got
exactly those ids (none lost, none twice). Counted: answers by status (no 5xx allowed),
commands applied (people's, in the API processes; AI turns, in the workers) per second, POST
latency, the delay from an event's time to its arrival on a stream, how late AI turns start
after their think time and timers after their deadline, by kind of table (the workers'
measures; the verdict wants people's at most a second late at p99), the CPU of each role
(`bench.load.measures`), the load before the games and every other process's CPU over them,
and Redis commands per command applied (INFO commandstats summed over the three nodes, reset
when the games start). `bench.load.report` sums it all up.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import httpx
import msgspec
import redis

from bench.common import (
    busiest,
    command_line,
    descendants,
    machine,
    machine_busy_seconds,
    process_times,
)
from bench.load.audit import audit
from bench.load.measures import applied, cpu_of, lateness, redis_commands
from bench.load.report import ClientReport, Service, passed, summary
from tests.processes import LocalCluster, free_port, start_worker, stop

ROOT = Path(__file__).resolve().parents[2]


def start_api(
    env: dict[str, str], port: int, log: Path, cwd: Path = ROOT
) -> tuple[subprocess.Popen[bytes], str]:
    full = {**os.environ, **env, "PORT": str(port)}
    with log.open("ab") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "app"], cwd=cwd, env=full, stdout=out, stderr=subprocess.STDOUT
        )
    url = f"http://127.0.0.1:{port}"
    for _ in range(300):
        if proc.poll() is not None:
            break
        try:
            if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                return proc, url
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"the API did not start: {log.read_text()[-2000:]}")


def run_clients(
    urls: list[str], games: int, clients: int, deadline: float, logs: Path
) -> tuple[list[ClientReport], list[str]]:
    """Start the client processes, each with its share of the games; wait for their reports."""
    until = time.time() + deadline
    procs = []
    for n in range(clients):
        first, last = n * games // clients, (n + 1) * games // clients
        args = ["--urls", *urls, "--first", str(first), "--count", str(last - first)]
        args += ["--until", str(until), "--report", str(logs / f"client{n}.json")]
        with (logs / f"client{n}.log").open("ab") as out:
            procs.append(
                subprocess.Popen(
                    [sys.executable, "-m", "bench.load.players", *args],
                    cwd=ROOT,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                )
            )
    reports, problems = [], []
    for n, proc in enumerate(procs):
        try:
            proc.wait(timeout=max(1.0, until - time.time()) + 120)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            problems.append(f"client {n} did not report within its deadline")
            continue
        report = logs / f"client{n}.json"
        if proc.returncode != 0 or not report.exists():
            problems.append(f"client {n} exited with {proc.returncode}, no report")
            continue
        try:
            reports.append(msgspec.json.decode(report.read_bytes(), type=ClientReport))
        except msgspec.DecodeError as error:
            problems.append(f"client {n}: its report does not read: {error}")
    return reports, problems


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--clients", type=int, default=4, help="client processes")
    parser.add_argument("--deadline", type=float, default=900, help="seconds for the games")
    parser.add_argument("--ports", type=int, nargs=3, default=None, help="the cluster's")
    parser.add_argument("--api-ports", type=int, nargs=3, default=None)
    parser.add_argument("--think", default="0.1", help="AI_THINK_SECONDS")
    parser.add_argument("--keep", type=Path, default=None, help="keep the logs in this folder")
    parser.add_argument(
        "--service-dir",
        type=Path,
        default=ROOT,
        help="serve the code of this checkout (an A/B against another commit)",
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        home = args.keep or Path(folder)
        home.mkdir(parents=True, exist_ok=True)
        cluster = LocalCluster(home / "cluster", ports=args.ports).start()
        procs: list[subprocess.Popen[bytes]] = []
        try:
            env = {
                "REDIS_URL": cluster.url,
                "QUEUES": "3",
                "WORKER_IN_PROCESS": "0",
                "AI_THINK_SECONDS": args.think,
                "RATE_CREATE_PER_MINUTE": "0",
                "RATE_COMMANDS_PER_MINUTE": "0",
                "MAX_OPEN_GAMES": "0",
                "RATE_VIEWS_PER_MINUTE": "0",
                "RATE_STREAMS_PER_MINUTE": "0",
                "MAX_STREAMS_PER_ADDRESS": "0",
            }
            urls, workers = [], []
            for n, port in enumerate(args.api_ports or [free_port() for _ in range(3)]):
                proc, url = start_api(env, port, home / f"api{n}.log", args.service_dir)
                procs.append(proc)
                urls.append(url)
            for n in range(3):
                port = free_port()
                extra = {"WORKER_QUEUES": str(n), "METRICS_PORT": str(port)}
                log = home / f"worker{n}.log"
                procs.append(start_worker({**env, **extra}, log, cwd=args.service_dir))
                workers.append(f"http://127.0.0.1:{port}")
            time.sleep(3)
            people_before, ais_before = applied(urls), applied(workers)
            late_before = lateness(workers)
            apis, servers = procs[:3], procs[3:]
            roles = {"api": apis, "workers": servers, "redis": cluster.procs}
            cpu_before = {role: cpu_of(ps) for role, ps in roles.items()}
            for port in cluster.ports:
                with redis.Redis(port=port) as node:
                    node.config_resetstat()
            each0, busy0, began = process_times(), machine_busy_seconds(), time.time()
            load_before = os.getloadavg()[0]
            reports, problems = run_clients(urls, args.games, args.clients, args.deadline, home)
            each1, busy1, wall = process_times(), machine_busy_seconds(), time.time() - began
            ours = descendants(os.getpid())  # the service's processes (the clients have ended)
            others = busiest(each0, each1, ours)
            service = Service(
                redis_calls=dict(redis_commands(cluster.ports)),
                people=applied(urls) - people_before,
                ais=applied(workers) - ais_before,
                cpu_seconds={
                    role: round(cpu_of(ps) - cpu_before[role], 1) for role, ps in roles.items()
                },
                lateness={
                    job: b - late_before.get(job, Counter()) for job, b in lateness(workers).items()
                },
            )
            games = [g for r in reports for g in r.games]
            checked = asyncio.run(audit(urls, games))
            dead = [
                f"process {p.args!r} exited with {p.returncode}"
                for p in procs
                if p.poll() is not None
            ]
            result = summary(reports, checked, service, problems + dead, args.games)
            print(command_line(), f"(serving {args.service_dir})")
            print(machine())
            print(
                f"load average {load_before:.2f} before the games; the machine busy"
                f" {(busy1 - busy0) / wall:.2f} cores over them; other processes (not this"
                " test's): "
                + (", ".join(f"{n} {s / wall:.3f} cores" for n, s in others) or "none")
            )
            print(json.dumps(result, indent=1))
            ok = passed(result, args.games)
            print("PASSED" if ok else "FAILED")
        finally:
            for proc in procs:
                stop(proc)
            cluster.close()
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
