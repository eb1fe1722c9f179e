#!/usr/bin/env python3
"""Compares `aasa test-links` binaries the way `links.py` times them, in
more rounds: each run right after the naive Python loop (`--after python`,
which frees a few hundred MB, as in the benchmark's row) or back to back
(`--after none`), the binaries taking turns, so that a change in the
machine's state hits every binary alike. Prints the median wall, CPU and
system CPU of each binary. Each run must end as `links.py` requires (exit
status 0, the last line saying every URL passed); `links-same.sh` compares
the outputs byte for byte.

The corpus is the one `links.py` uses: `aasa-bench link-corpus DIR` writes
it (`--bench` does so here when DIR has no links file yet).

usage: links-rounds.py --work DIR [--bench PATH] [--rounds N] [--after python|none] BINARY...
"""
import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time

from links import APP_ID, HERE, check_text_summary


def run(command, urls=None):
    """Runs `command` (output read through a pipe, as `links.py` reads it);
    returns (wall ms, CPU ms, system CPU ms). With `urls`, the run must
    report that many URLs passed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with open(os.devnull, "rb") as stdin:
        done = subprocess.run(command, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        sys.exit(f"links-rounds.py: {command[0]} exited {done.returncode}: {done.stderr.decode(errors='replace')[-500:]}")
    if urls is not None:
        check_text_summary(done.stdout, urls, done.returncode)
    system = after.ru_stime - before.ru_stime
    return wall * 1000, (after.ru_utime - before.ru_utime + system) * 1000, system * 1000


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--work", required=True)
    parser.add_argument("--bench")
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--after", choices=["python", "none"], default="python")
    parser.add_argument("binaries", nargs="+")
    arguments = parser.parse_args()
    if len(set(arguments.binaries)) != len(arguments.binaries):
        sys.exit("links-rounds.py: a binary is named twice")

    aasa_file = os.path.join(arguments.work, "apple-app-site-association")
    links_file = os.path.join(arguments.work, "links.json")
    if not os.path.exists(links_file):
        if not arguments.bench:
            sys.exit(f"links-rounds.py: no {links_file}; give --bench to write the corpus")
        subprocess.run([arguments.bench, "link-corpus", arguments.work], check=True, stdout=subprocess.DEVNULL)
    with open(links_file) as handle:
        links = json.load(handle)
    urls = len(links["deep_linkable_urls"]) + len(links["non_deep_linkable_urls"])
    python = [sys.executable, os.path.join(HERE, "naive_links.py"), aasa_file, links_file, APP_ID]
    times = {binary: [] for binary in arguments.binaries}
    for round_index in range(arguments.rounds):
        order = arguments.binaries if round_index % 2 == 0 else arguments.binaries[::-1]
        for binary in order:
            if arguments.after == "python":
                run(python)
            command = [binary, "test-links", "--file", aasa_file, "--links", links_file, "--app-id", APP_ID]
            times[binary].append(run(command, urls))
    for binary in arguments.binaries:
        wall, cpu, system = (statistics.median(sample[column] for sample in times[binary]) for column in range(3))
        print(f"{binary}: wall median {wall:.1f} ms, CPU {cpu:.1f} ms, system {system:.1f} ms ({arguments.rounds} rounds)")


if __name__ == "__main__":
    main()
