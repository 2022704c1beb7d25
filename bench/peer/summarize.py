"""The table of PEER_DIR/results.jsonl: medians over the runs of each configuration, and each
configuration's moves per server CPU-second against boardgame.io in-memory's."""

from __future__ import annotations

import collections
import json
import statistics

from common import PEER

with open(f"{PEER}/results.jsonl") as results:
    rows = [json.loads(line) for line in results if line.strip()]
runs: dict[tuple[str, int], list[dict[str, float]]] = collections.defaultdict(list)
failed = [row for row in rows if "games" not in row]  # the client did not finish its run
for row in rows:
    if "games" in row:
        runs[(row["config"], row["games"])].append(row)
for row in failed:
    print(f"failed run: {row['config']} #{row['rep']}: {row['setup'][-120:]!r}")

per_cpu: dict[tuple[str, int], float] = {}
print(
    "| configuration | G | moves/s | server CPU | moves per server CPU-s (each run) | p50 ms |"
    " p99 ms | runs | errors |"
)
print("|---|---|---|---|---|---|---|---|---|")
for (config, games), rs in sorted(runs.items(), key=lambda item: (item[0][1], item[0][0])):
    each = [r["moves_per_s"] / r["server_cpu"] for r in rs if r["server_cpu"]]
    per_cpu[(config, games)] = statistics.median(each)

    def median(key: str, rs: list[dict[str, float]] = rs) -> float:
        return statistics.median(r[key] for r in rs)

    listed = ", ".join(f"{e:,.0f}" for e in each)
    print(
        f"| {config} | {games} | {median('moves_per_s'):,.0f} | {median('server_cpu'):.2f} |"
        f" {per_cpu[(config, games)]:,.0f} ({listed}) | {median('p50_ms'):.1f} |"
        f" {median('p99_ms'):.1f} | {len(rs)} | {sum(int(r['errors']) for r in rs)} |"
    )
print()
for (config, games), value in sorted(per_cpu.items()):
    peer = per_cpu.get(("bgio-mem", games))
    if peer and config != "bgio-mem":
        print(f"G={games} {config}: {value / peer:.2f}x boardgame.io in-memory per server CPU-s")
