#!/usr/bin/env python3
"""What a `serve-ab.sh` results file says: per binary, CPU µs per request
(total, user, system) as medians over the rounds, each binary's paired ratio
to the floor and to every other binary (the median of the per-round
ratios, with each round's value: a ratio that holds in most rounds is a
change, one that flips is the machine).

    Benchmarks/serve-ab-report.py FILE
"""

import json
import statistics
import sys

TICK_US = 10_000  # a clock tick (USER_HZ = 100) in µs


def per_request(run):
    requests = run["wrk"]["requests"]
    total = run["ns"] / 1000 / requests
    user = run["user_ticks"] * TICK_US / requests
    return {"total": total, "user": user, "system": total - user}


def main(path):
    rounds = {}
    paths = {}
    with open(path) as results:
        for line in results:
            run = json.loads(line)
            rounds.setdefault(run["round"], {})[run["name"]] = per_request(run)
            paths[run["name"]] = run["path"]
    names = sorted(paths, key=lambda name: (name != "floor", name))
    print(f"{len(rounds)} rounds")
    for name in names:
        print(f"  {name:6} {paths[name]}")
    print("\nµs per request, median over rounds (total / user / system)")
    for name in names:
        values = [runs[name] for runs in rounds.values() if name in runs]
        medians = [statistics.median(value[part] for value in values) for part in ("total", "user", "system")]
        print(f"  {name:6} " + " / ".join(f"{median:.2f}" for median in medians))
    print("\npaired ratios (median; each round's)")
    for part in ("total", "user"):
        for index, name in enumerate(names):
            for other in names[index + 1:]:
                ratios = [runs[other][part] / runs[name][part] for runs in rounds.values()
                          if name in runs and other in runs]
                if ratios:
                    each = " ".join(f"{ratio:.3f}" for ratio in ratios)
                    print(f"  {part:5} {other} ÷ {name}: {statistics.median(ratios):.3f}  ({each})")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
