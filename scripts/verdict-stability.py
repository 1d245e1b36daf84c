#!/usr/bin/env python3
"""How stable analyse's verdicts are across seeds: for each 62 Soleils
golden replay, the costly decisions at two seeds, and their overlap (the
decisions costly at both, over those costly at either), pooled over the
goldens. Usage: scripts/verdict-stability.py BIN [BOT] [SEED_A] [SEED_B]"""
import json
import subprocess
import sys

BIN = sys.argv[1]
BOT = sys.argv[2] if len(sys.argv) > 2 else "search:64"
SEEDS = [sys.argv[3] if len(sys.argv) > 3 else "1", sys.argv[4] if len(sys.argv) > 4 else "2"]
GOLDENS = [
    "replays/soleils-2p-round-limit.jsonl",
    "replays/soleils-4p-sun-limit.jsonl",
    "replays/soleils-12p.jsonl",
]


def costly(log, seed):
    out = subprocess.run(
        [BIN, "analyse", log, "--bot", BOT, "--seed", seed, "--format", "json"],
        check=True, capture_output=True, text=True,
    ).stdout
    report = json.loads(out)
    return {d["seq"]: d for d in report["decisions"] if d["costly"]}


both_all = either_all = 0
for log in GOLDENS:
    a, b = (costly(log, s) for s in SEEDS)
    both = len(a.keys() & b.keys())
    either = len(a.keys() | b.keys())
    both_all += both
    either_all += either
    held = sorted(d["held"] for d in list(a.values()) + list(b.values()))
    print(f"{log}: costly {len(a)} at seed {SEEDS[0]}, {len(b)} at seed {SEEDS[1]}, "
          f"{both} at both: overlap {both / either if either else 1:.2f}; held {held}")
print(f"all: {both_all} costly at both seeds of {either_all} at either: "
      f"overlap {both_all / either_all if either_all else 1:.2f} ({BOT}, seeds {SEEDS[0]} and {SEEDS[1]})")
