"""The table of the valid runs in PEER_DIR/results.jsonl (or the file named on the command line):
medians over the runs of each configuration, each run's moves per server CPU-second and its ratio
to boardgame.io in-memory's run of the same session, rep and G; the runs dropped and why."""

from __future__ import annotations

import collections
import datetime
import json
import statistics
import sys
from typing import Any

from common import PEER

Run = dict[str, Any]
PATH = sys.argv[1] if len(sys.argv) > 1 else f"{PEER}/results.jsonl"
with open(PATH) as results:
    rows: list[Run] = [json.loads(line) for line in results if line.strip()]


def reasons_of(row: Run) -> list[str]:
    """Why a run does not count; a run recorded before the harness checked runs does not."""
    if "valid" not in row:
        return ["not checked: recorded before the harness checked its runs"]
    return [] if row["valid"] else [str(r) for r in row["invalid"]]


def per_cpu_of(row: Run) -> float:
    return float(row["moves_per_s"]) / float(row["server_cpu"])


sessions: dict[tuple[Any, Any], list[Run]] = collections.defaultdict(list)
for row in rows:
    if "session" in row:
        sessions[(row["session"], row["commit"])].append(row)
for (session, commit), rs in sorted(sessions.items(), key=lambda item: float(item[0][0])):
    when = datetime.datetime.fromtimestamp(float(session)).strftime("%Y-%m-%d %H:%M")
    valid_count = sum(not reasons_of(r) for r in rs)
    loops = [r["load_before"]["loop_ms"] for r in rs if "loop_ms" in r.get("load_before", {})]
    speed = f"; the timed loop {min(loops):,.0f}-{max(loops):,.0f} ms" if loops else ""
    print(f"session {session} ({when}) at {commit}: {len(rs)} runs, {valid_count} valid{speed}")

runs: dict[tuple[str, int], list[Run]] = collections.defaultdict(list)
dropped: dict[tuple[str, int], collections.Counter[str]] = collections.defaultdict(
    collections.Counter
)
counts: collections.Counter[tuple[str, int]] = collections.Counter()
for row in rows:
    key = (str(row["config"]), int(row.get("games", 0)))
    counts[key] += 1
    reasons = reasons_of(row)
    if "moves_per_s" not in row:  # the client did not finish its run
        print(f"failed run: {row['config']} #{row['rep']}: {str(row['setup'])[-120:]!r}")
    if reasons:
        dropped[key].update({reason.split(":")[0] for reason in reasons})
    else:
        runs[key].append(row)

# boardgame.io in-memory's valid run of each session, rep and G, for the paired ratios
peers = {
    (r["session"], r["rep"], g): per_cpu_of(r)
    for (config, g), rs in runs.items()
    if config == "bgio-mem"
    for r in rs
}
paired: dict[tuple[str, int], list[float]] = collections.defaultdict(list)
per_cpu: dict[tuple[str, int], float] = {}
print()
print("Valid runs only; each run: moves per server CPU-s [its ratio to the boardgame.io in-memory")
print("run of the same session, rep and G, when that run is valid too].")
print()
print(
    "| configuration | G | moves/s | server CPU | moves per server CPU-s (each run) | p50 ms |"
    " p99 ms | runs | errors |"
)
print("|---|---|---|---|---|---|---|---|---|")
for (config, games), rs in sorted(runs.items(), key=lambda item: (item[0][1], item[0][0])):
    each = []
    for r in rs:
        value, peer = per_cpu_of(r), peers.get((r["session"], r["rep"], games))
        if peer and config != "bgio-mem":
            paired[(config, games)].append(value / peer)
            each.append(f"{value:,.0f} [{value / peer:.2f}x]")
        else:
            each.append(f"{value:,.0f}")
    per_cpu[(config, games)] = statistics.median(per_cpu_of(r) for r in rs)

    def median(key: str, rs: list[Run] = rs) -> float:
        return statistics.median(float(r[key]) for r in rs)

    print(
        f"| {config} | {games} | {median('moves_per_s'):,.0f} | {median('server_cpu'):.2f} |"
        f" {per_cpu[(config, games)]:,.0f} ({', '.join(each)}) | {median('p50_ms'):.1f} |"
        f" {median('p99_ms'):.1f} | {len(rs)} | {sum(int(r['errors']) for r in rs)} |"
    )
print()
for (config, games), why in sorted(dropped.items(), key=lambda item: (item[0][1], item[0][0])):
    n = counts[(config, games)] - len(runs.get((config, games), []))
    kinds = ", ".join(f"{kind}: {count}" for kind, count in why.most_common())
    print(f"dropped G={games} {config}: {n} of {counts[(config, games)]} runs ({kinds})")
print()
for (config, games), value in sorted(per_cpu.items()):
    if config == "bgio-mem":
        continue
    ratios, peer = paired[(config, games)], per_cpu.get(("bgio-mem", games))
    of_medians = f"; the medians' ratio {value / peer:.2f}x" if peer else ""
    if ratios:
        print(
            f"G={games} {config}: {statistics.median(ratios):.2f}x boardgame.io in-memory per"
            f" server CPU-s (median of {len(ratios)} paired runs{of_medians})"
        )
    else:
        print(f"G={games} {config}: no valid boardgame.io in-memory run to pair with{of_medians}")
