#!/usr/bin/env python3
"""How stable analyse's verdicts are across seeds, and how many real
mistakes they find.

For each golden replay (62 Soleils by default; --golden summertime for
Summertime's): the costly decisions at two seeds, and their overlap (the
decisions costly at both, over those costly at either), pooled over the
goldens; then, per "beaten in N of 3 searches" (or "every choice
measured", where the game measures every choice), how many decisions
costly at one seed are costly at the other too.

With --reference BOT SEED_C SEED_D, the recall against a larger budget: a
real mistake is a decision that BOT calls costly at both SEED_C and SEED_D
(seeds other than SEED_A and SEED_B, so that no run shares its futures with
another), and the recall is the share of those that the judged bot calls
costly, pooled over SEED_A and SEED_B.

Usage: scripts/verdict-stability.py BIN [BOT] [SEED_A] [SEED_B]
         [--golden 4p] [--reference BOT SEED_C SEED_D] [--keep DIR] [--jobs J]

--golden keeps the goldens whose file name holds it (soleils if left out); --keep DIR writes each
analyse report to DIR and reads it back on a later run with the same log,
bot and seed, so that a reference is run once. Each run's wall time and
CPU time (user + system, over all threads) are printed."""
import argparse
import json
import os
import resource
import subprocess
import time

parser = argparse.ArgumentParser()
parser.add_argument("bin")
parser.add_argument("bot", nargs="?", default="search:64")
parser.add_argument("seed_a", nargs="?", default="1")
parser.add_argument("seed_b", nargs="?", default="2")
parser.add_argument("--golden", default="soleils")
parser.add_argument("--reference", nargs=3, metavar=("BOT", "SEED_C", "SEED_D"))
parser.add_argument("--keep")
parser.add_argument("--jobs")
args = parser.parse_args()

BOT = args.bot
SEEDS = [args.seed_a, args.seed_b]
GOLDENS = [
    g for g in [
        "replays/soleils-2p-round-limit.jsonl",
        "replays/soleils-4p-sun-limit.jsonl",
        "replays/soleils-12p.jsonl",
        "replays/summertime-last-card-bought.jsonl",
        "replays/summertime-double-pass-ending.jsonl",
        "replays/summertime-rulebook-examples.jsonl",
    ] if args.golden in g
]


def report(log, bot, seed):
    """The analyse report of `log` at `bot` and `seed`, kept in --keep."""
    kept = None
    if args.keep:
        name = f"{os.path.basename(log)}-{bot.replace(':', '')}-{seed}.json"
        kept = os.path.join(args.keep, name)
        if os.path.exists(kept):
            with open(kept) as f:
                return json.load(f)
    command = [args.bin, "analyse", log, "--bot", bot, "--seed", seed, "--format", "json"]
    if args.jobs:
        command += ["--jobs", args.jobs]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    print(f"  {log} {bot} seed {seed}: {wall:.1f} s wall, {cpu:.1f} s cpu", flush=True)
    if kept:
        os.makedirs(args.keep, exist_ok=True)
        with open(kept, "w") as f:
            f.write(out)
    return json.loads(out)


def costly(log, bot, seed):
    return {d["seq"]: d for d in report(log, bot, seed)["decisions"] if d["costly"]}


both_all = either_all = 0
held_at = {3: [0, 0], 2: [0, 0], 1: [0, 0]}
found = real = alarms = judged = 0
for log in GOLDENS:
    a, b = (costly(log, BOT, s) for s in SEEDS)
    both = len(a.keys() & b.keys())
    either = len(a.keys() | b.keys())
    both_all += both
    either_all += either
    for this, other in [(a, b), (b, a)]:
        for seq, d in this.items():
            key = "every" if d.get("every_choice") else d["held"]
            counts = held_at.setdefault(key, [0, 0])
            counts[1] += 1
            counts[0] += seq in other
    held = sorted(d["held"] for d in list(a.values()) + list(b.values())
                  if not d.get("every_choice"))
    print(f"{log}: costly {len(a)} at seed {SEEDS[0]}, {len(b)} at seed {SEEDS[1]}, "
          f"{both} at both: overlap {both / either if either else 1:.2f}; held {held}")
    if args.reference:
        ref_bot, *ref_seeds = args.reference
        c, d = (costly(log, ref_bot, s) for s in ref_seeds)
        mistakes = c.keys() & d.keys()
        hits = [len(mistakes & x.keys()) for x in (a, b)]
        false = [len(x.keys() - c.keys() - d.keys()) for x in (a, b)]
        found += sum(hits)
        real += 2 * len(mistakes)
        alarms += sum(false)
        judged += len(a) + len(b)
        print(f"  against {ref_bot} (costly at seeds {ref_seeds[0]} and {ref_seeds[1]}: "
              f"{len(mistakes)}): {BOT} finds {hits[0]} at seed {SEEDS[0]}, {hits[1]} at "
              f"seed {SEEDS[1]}; costly at neither reference seed: {false[0]} and {false[1]}")
print(f"all: {both_all} costly at both seeds of {either_all} at either: "
      f"overlap {both_all / either_all if either_all else 1:.2f} ({BOT}, seeds {SEEDS[0]} and {SEEDS[1]})")
for h in sorted(held_at, key=lambda h: -1 if h == "every" else -h):
    held, of = held_at[h]
    if not of:
        continue
    if h == "every":
        print(f"every choice measured at one seed: costly at the other in {held} of {of}")
    else:
        print(f"beaten in {h} of 3 searches at one seed: costly at the other in {held} of {of}")
if args.reference:
    print(f"recall against {args.reference[0]}: {found} of {real} "
          f"({found / real if real else 1:.2f}); costly at neither reference seed: "
          f"{alarms} of {judged}")
