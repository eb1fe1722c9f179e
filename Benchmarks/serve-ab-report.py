#!/usr/bin/env python3
"""What a `serve-ab.sh` results file says: per binary, CPU µs per request
(total, user, system) as medians over the rounds, each binary's paired ratio
to the floor and to every other binary (the median of the per-round
ratios, with each round's value: a ratio that holds in most rounds is a
change, one that flips is the machine).

A run with a failed or non-2xx request makes the file unusable: a server
answering errors would look cheaper per request. So does a file mixing
loads, or one name standing for two binaries.

    Benchmarks/serve-ab-report.py FILE
"""

import json
import statistics
import sys

def per_request(run):
    requests = run["wrk"]["requests"]
    total = run["ns"] / 1000 / requests
    user = run["user_ticks"] * 1_000_000 / run["ticks_per_s"] / requests
    return {"total": total, "user": user, "system": total - user}


def check(run, paths, loads):
    """Exits naming the run when it cannot be compared."""
    where = f"round {run['round']} {run['name']} ({run['path']})"
    failed = sum(run["wrk"]["errors"].values())
    if failed or run["wrk"]["requests"] == 0:
        sys.exit(f"{where}: {failed} failed or non-2xx requests of {run['wrk']['requests']}: not comparable")
    if paths.setdefault(run["name"], run["path"]) != run["path"]:
        sys.exit(f"{where}: {run['name']} was {paths[run['name']]} in an earlier run")
    loads.add(run["load"])
    if len(loads) > 1:
        sys.exit(f"{where}: the file mixes loads {sorted(loads)}")


def main(path):
    rounds = {}
    paths = {}
    loads = set()
    with open(path) as results:
        for line in results:
            run = json.loads(line)
            check(run, paths, loads)
            if run["name"] in rounds.get(run["round"], {}):
                sys.exit(f"round {run['round']} {run['name']}: twice in the file")
            rounds.setdefault(run["round"], {})[run["name"]] = per_request(run)
    names = sorted(paths, key=lambda name: (name != "floor", name))
    print(f"{len(rounds)} rounds, load {loads.pop()}")
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
