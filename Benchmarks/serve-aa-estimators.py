#!/usr/bin/env python3
"""How far each estimator of "CPU per request, aasa / NIOFloor" moves between
identical servers, on the runs `serve-aa.sh` wrote (docs/DECISIONS.md, "CPU per
request against NIOFloor").

For every choice of 3 full rounds of a load (as `run.sh` takes 3 runs), each
estimator is computed for floor/floor (F2 over F1), aasa/aasa (A2 over A1) and
aasa/floor (A1 over F2). The A/A rows should be 1: the spread of |log ratio|
(p50, p90, max) is how far the estimator moves with nothing changed.

Estimators: RM, the ratio of the medians of the runs (`run.sh` before); PR,
the median of the paired per-round ratios (`run.sh` now); each with CPU from
100 Hz ticks or from the scheduler's nanoseconds.

usage: serve-aa-estimators.py FILE...
"""
import itertools
import json
import math
import statistics
import sys

SLOTS = ["F1", "F2", "A1", "A2"]
PAIRS = [("floor/floor", "F2", "F1"), ("aasa/aasa", "A2", "A1"), ("aasa/floor", "A1", "F2")]


def cpu_per_request(run, kind):
    seconds = run["ticks"] / 100 if kind == "ticks" else run["ns"] / 1e9
    return seconds / run["wrk"]["requests"] * 1e6


def estimate(rounds, a, b, kind, how):
    if how == "RM":
        return (statistics.median(cpu_per_request(r[a], kind) for r in rounds)
                / statistics.median(cpu_per_request(r[b], kind) for r in rounds))
    return statistics.median(cpu_per_request(r[a], kind) / cpu_per_request(r[b], kind) for r in rounds)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    rounds_by_load = {}
    for path in sys.argv[1:]:
        with open(path) as handle:
            for line in handle:
                if line.strip():
                    run = json.loads(line)
                    rounds_by_load.setdefault(run["load"], {}).setdefault((path, run["round"]), {})[run["slot"]] = run
    for kind in ["ticks", "ns"]:
        for how in ["RM", "PR"]:
            for label, a, b in PAIRS:
                values, per_load = [], {}
                for load, rounds in rounds_by_load.items():
                    full = [r for r in rounds.values() if all(s in r for s in SLOTS)]
                    load_values = [estimate(c, a, b, kind, how) for c in itertools.combinations(full, 3)]
                    values += load_values
                    if load_values:
                        per_load[load] = statistics.median(load_values)
                if not values:
                    sys.exit("serve-aa-estimators.py: no load has 3 full rounds (F1 F2 A1 A2)")
                spread = sorted(abs(math.log(v)) for v in values)
                quantile = lambda p: math.exp(spread[min(len(spread) - 1, int(p * len(spread)))])
                loads = " ".join(f"{load}:{v:.3f}" for load, v in per_load.items())
                print(f"{kind:5} {how} {label:11} n={len(values):3} median={statistics.median(values):.3f} "
                      f"|dev| p50={quantile(.5):.3f} p90={quantile(.9):.3f} max={math.exp(spread[-1]):.3f}  {loads}")


if __name__ == "__main__":
    main()
