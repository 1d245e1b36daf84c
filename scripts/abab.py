#!/usr/bin/env python3
"""Two builds of sunfold timed side by side, for a ratio on a noisy machine.

python3 scripts/abab.py OLD NEW PAIRS -- simulate ARGS...

Runs `OLD ARGS` and `NEW ARGS` PAIRS times each, alternating which goes
first, reads "N games per second" from each run's standard error, and
prints the rates and the ratio new/old of each pair with its median.
"""
import subprocess, sys, re, statistics
old, new, reps = sys.argv[1], sys.argv[2], int(sys.argv[3])
args = sys.argv[5:]
rates = {old: [], new: []}
for i in range(reps):
    order = (old, new) if i % 2 == 0 else (new, old)
    for b in order:
        r = subprocess.run([b] + args, capture_output=True, text=True)
        m = re.search(r"([\d.]+) games per second", r.stderr)
        rates[b].append(float(m.group(1)))
ratios = [n / o for o, n in zip(rates[old], rates[new])]
print("args:", " ".join(args))
print("old:", [round(x) for x in rates[old]], "median", round(statistics.median(rates[old])))
print("new:", [round(x) for x in rates[new]], "median", round(statistics.median(rates[new])))
print("pairwise new/old:", [round(x, 3) for x in ratios], "median %.3f" % statistics.median(ratios),
      "ratio of medians %.3f" % (statistics.median(rates[new]) / statistics.median(rates[old])))
