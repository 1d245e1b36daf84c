#!/usr/bin/env python3
"""How stable hint's picks are across seeds.

At every position of a replay (each prefix of its log where a player must
decide), `hint` is asked for every player who must decide, at two seeds.
A position of a player holds when both seeds pick the same decision, or
when each names the other's pick as a near tie (its runner-up, or one of
the decisions it lists as also a near tie: a margin whose interval holds
0). The share of positions that hold is
printed, with the positions that do not.

Usage: scripts/hint-stability.py BIN [BOT] [SEED_A] [SEED_B]
         [--replay FILE] [--jobs J]

Each run's CPU time (user + system) is summed and printed."""
import argparse
import concurrent.futures
import json
import os
import resource
import subprocess
import tempfile
import time

parser = argparse.ArgumentParser()
parser.add_argument("bin")
parser.add_argument("bot", nargs="?", default="search:192")
parser.add_argument("seed_a", nargs="?", default="1")
parser.add_argument("seed_b", nargs="?", default="2")
parser.add_argument("--replay", default="replays/soleils-4p-sun-limit.jsonl")
parser.add_argument("--jobs", type=int, default=1)
args = parser.parse_args()

with open(args.replay) as f:
    LINES = f.read().splitlines()


def hints(prefix, seed):
    """Each deciding player's hint at the first `prefix` lines, by name;
    none when nobody must decide there."""
    with tempfile.TemporaryDirectory() as folder:
        log = os.path.join(folder, "part.jsonl")
        with open(log, "w") as f:
            f.write("\n".join(LINES[:prefix]) + "\n")
        command = [args.bin, "hint", log, "--bot", args.bot, "--seed", seed, "--format", "json"]
        run = subprocess.run(command, capture_output=True, text=True)
    if run.returncode != 0:
        return {}
    return {h["player"]: h for h in json.loads(run.stdout)["hints"]}


def near_tie_on(hint, said):
    """Whether `hint` names `said` as a near tie: its runner-up within
    the noise, or another decision it lists as also a near tie."""
    runner = hint.get("runner_up")
    if runner is not None and runner["said"] == said and runner["near_tie"]:
        return True
    return any(tie["said"] == said for tie in hint.get("near_ties", []))


start = time.monotonic()
before = resource.getrusage(resource.RUSAGE_CHILDREN)
prefixes = range(1, len(LINES))
with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
    runs = {
        (prefix, seed): pool.submit(hints, prefix, seed)
        for prefix in prefixes
        for seed in (args.seed_a, args.seed_b)
    }
    results = {key: run.result() for key, run in runs.items()}
after = resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)

positions = same = tied = 0
apart = []
for prefix in prefixes:
    a, b = results[(prefix, args.seed_a)], results[(prefix, args.seed_b)]
    for player in a.keys() & b.keys():
        ha, hb = a[player], b[player]
        if ha["choices"] < 2:
            continue
        positions += 1
        if ha["said"] == hb["said"]:
            same += 1
        elif near_tie_on(ha, hb["said"]) and near_tie_on(hb, ha["said"]):
            tied += 1
        else:
            apart.append((prefix, player, ha, hb))

for prefix, player, ha, hb in apart:
    def runner(h):
        r = h.get("runner_up")
        if r is None:
            return "none"
        return f"{r['said']} ({'near tie' if r['near_tie'] else 'clearly behind'})"
    print(f"after line {prefix}, {player}: seed {args.seed_a} {ha['said']}, runner-up {runner(ha)}; "
          f"seed {args.seed_b} {hb['said']}, runner-up {runner(hb)}")
held = same + tied
print(f"{args.replay}, {args.bot}, seeds {args.seed_a} and {args.seed_b}: {positions} positions "
      f"with a choice; the same pick at {same}, each the other's near tie at {tied}: "
      f"{held} of {positions} hold ({held / positions if positions else 1:.3f})")
print(f"{time.monotonic() - start:.0f} s wall, {cpu:.0f} s cpu")
