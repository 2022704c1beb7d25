"""Precompute whole 2-human Crazymino games (seeded random legal play) into PEER_DIR/scripts.json,
as `bench/service/http_commands.py` does: the load client replays their commands."""

from __future__ import annotations

import collections
import json
import sys

from common import PEER, PROJECT

sys.path.insert(0, PROJECT)
from bench.service.http_commands import script

games = [script(seed) for seed in range(1, 49)]
moves: list[list[tuple[int, str]]] = [[(s, b.decode()) for s, b in g.moves] for g in games]
out = [{"seed": g.seed, "moves": m} for g, m in zip(games, moves, strict=True)]
with open(f"{PEER}/scripts.json", "w") as file:
    json.dump(out, file)
lengths = [len(m) for m in moves]
print(len(out), "games; commands per game min/mean/max", min(lengths), end=" ")
print(sum(lengths) / len(lengths), max(lengths))
print(dict(collections.Counter(json.loads(b)["type"] for m in moves for _, b in m)))
