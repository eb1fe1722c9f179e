#!/usr/bin/env python3
"""The link-list row of Benchmarks/run.sh (`run.sh links`).

One association file of 400 rules (wildcards, excludes first) and a links
file of 100,000 URLs, written by `aasa-bench link-corpus`. Timed from the
outside, process start to exit, runs interleaved so that a burst of load
elsewhere hits every side:

- the reference: `naive_links.py`, the loop a user would write in Python
  (`re`, one anchored regex per pattern, first match wins), one process;
- `aasa test-links` as a user runs it: the default text report (the
  release CLI, every core it is given); this is the row the target is for;
- `aasa test-links --format json`, the report scripts read: one object of
  about 350 bytes per URL, so its pipe alone costs more than the text;
- `aasa match - --format json` with the same URLs on standard input;
- the floor of each report: `cat` printing the bytes `test-links` printed,
  through the same harness: the pipe and Python's reading of it, with
  nothing computed. A program writing this report to that pipe takes at
  least about as long, so it caps the ratio `test-links` can reach here.

The decisions of `test-links --format json` and `match -` are checked
identical to the reference's, URL by URL; any difference ends the run
with exit status 1, so no ratio is ever printed for different answers.
The text report (same binary, same evaluation) must say that every URL
passed and exit 0. Each later round must print the first round's bytes
and exit status, command by command. Prints a summary and one
`LINKS_JSON {...}` line.

usage: links.py --aasa PATH --bench PATH --work DIR [--runs N] [--rules N] [--urls N]
"""
import argparse
import hashlib
import json
import os
import resource
import statistics
import subprocess
import sys
import time

APP_ID = "ABCDE12345.com.brand.app"
HERE = os.path.dirname(os.path.abspath(__file__))


def timed(command, stdin_path=None):
    """Runs `command`; returns (wall seconds, CPU seconds, stdout bytes, exit status)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with open(stdin_path, "rb") if stdin_path else open(os.devnull, "rb") as stdin:
        done = subprocess.run(command, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode not in (0, 1):
        sys.exit(f"links.py: {command[0]} exited {done.returncode}: {done.stderr.decode(errors='replace')[-2000:]}")
    return wall, cpu, done.stdout, done.returncode


def test_links_decisions(stdout):
    report = json.loads(stdout)
    return [result.get("decision", "error") for result in report["results"]], report["failed"]


def check_text_summary(stdout, count, status):
    """Exits unless the text report's last line says all `count` URLs passed, with exit status 0."""
    lines = stdout.decode(errors="replace").rstrip("\n").splitlines()
    last = lines[-1] if lines else ""
    if status != 0 or not last.startswith(f"{count} passed, 0 failed"):
        sys.exit(f"links.py: aasa test-links (text) exited {status}, last line {last!r}; expected {count} passed, 0 failed")


def match_list_decisions(stdout):
    decisions = []
    for line in stdout.decode().splitlines():
        entry = json.loads(line)
        results = entry.get("results") or [{"decision": "error: " + entry.get("error", "?")}]
        decisions.append(results[0]["decision"])
    return decisions


def compare(name, reference, decisions):
    """Exits when `decisions` differ from the reference's anywhere."""
    if len(decisions) != len(reference):
        sys.exit(f"links.py: {name} decided {len(decisions)} URLs, the reference {len(reference)}")
    differences = [i for i, (a, b) in enumerate(zip(reference, decisions)) if a != b]
    if differences:
        first = ", ".join(f"#{i}: reference {reference[i]}, {name} {decisions[i]}" for i in differences[:5])
        sys.exit(f"links.py: {name} differs from the reference on {len(differences)} URLs ({first})")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--aasa", required=True)
    parser.add_argument("--bench", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--rules", type=int, default=400)
    parser.add_argument("--urls", type=int, default=100_000)
    arguments = parser.parse_args()

    work = arguments.work
    subprocess.run(
        [arguments.bench, "link-corpus", work, "--rules", str(arguments.rules), "--urls", str(arguments.urls)],
        check=True,
    )
    aasa_file = os.path.join(work, "apple-app-site-association")
    links_file = os.path.join(work, "links.json")
    with open(links_file) as handle:
        links = json.load(handle)
    urls = links["deep_linkable_urls"] + links["non_deep_linkable_urls"]
    urls_file = os.path.join(work, "urls.txt")
    with open(urls_file, "w") as handle:
        handle.write("".join(url + "\n" for url in urls))

    commands = {
        "python": [sys.executable, os.path.join(HERE, "naive_links.py"), aasa_file, links_file, APP_ID],
        "test-links": [arguments.aasa, "test-links", "--file", aasa_file, "--links", links_file, "--app-id", APP_ID],
        "test-links-json": [arguments.aasa, "test-links", "--file", aasa_file, "--links", links_file,
                            "--app-id", APP_ID, "--format", "json"],
        "match-list": [arguments.aasa, "match", "-", "--file", aasa_file, "--app-id", APP_ID, "--format", "json"],
    }
    load_start = " ".join(f"{x:.2f}" for x in os.getloadavg())
    walls = {name: [] for name in commands}
    reports = {}
    # Each command's output in the first round, by digest: every later
    # round must print the same bytes and exit the same way (a run that
    # printed something else is never timed as if it had not).
    firsts = {}
    cpus = {name: [] for name in commands}
    for run in range(arguments.runs):
        for name, command in commands.items():
            wall, cpu, stdout, status = timed(command, urls_file if name == "match-list" else None)
            walls[name].append(wall)
            cpus[name].append(cpu)
            digest = (hashlib.sha256(stdout).hexdigest(), status)
            if run > 0:
                if digest != firsts[name]:
                    sys.exit(f"links.py: {name} printed other bytes (or exited {status}) in round {run + 1} than in the first")
                continue
            firsts[name] = digest
            # The first round's output is checked; later rounds must print the same bytes.
            if name == "python":
                reference = stdout.decode().split()
            elif name == "test-links":
                reports["text"] = stdout
                check_text_summary(stdout, len(reference), status)
            elif name == "test-links-json":
                reports["json"] = stdout
                decisions, failed = test_links_decisions(stdout)
                compare(name, reference, decisions)
                # The corpus files each URL under the list its decision belongs to.
                if failed or status != 0:
                    sys.exit(f"links.py: aasa test-links reports {failed} failures (exit {status}) on the corpus")
            else:
                compare(name, reference, match_list_decisions(stdout))

    python = statistics.median(walls["python"])
    result = {
        "kind": "links",
        "rules": arguments.rules,
        "urls": len(urls),
        "decisions": {d: reference.count(d) for d in sorted(set(reference))},
        "decisions_identical": True,
        "runs": arguments.runs,
        "cores": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count(),
        "loadavg_start": load_start,
        "loadavg_end": " ".join(f"{x:.2f}" for x in os.getloadavg()),
    }
    result["report_floor"] = {}
    for kind, report_bytes in reports.items():
        report_file = os.path.join(work, f"test-links.{kind}")
        with open(report_file, "wb") as handle:
            handle.write(report_bytes)
        floor = statistics.median(timed(["cat", report_file])[0] for _ in range(arguments.runs))
        result["report_floor"][kind] = {
            "bytes": len(report_bytes),
            "seconds": round(floor, 4),
            "times_python_at_most": round(python / floor, 1),
        }
    for name in commands:
        wall = statistics.median(walls[name])
        result[name] = {
            "seconds": round(wall, 4),
            "cpu_seconds": round(statistics.median(cpus[name]), 4),
            "urls_per_second": round(len(urls) / wall),
            "times_python": round(python / wall, 1),
        }
    print(f"{len(urls):,} URLs, {arguments.rules} rules, median of {arguments.runs}, {result['cores']} cores; "
          f"load average {load_start} -> {result['loadavg_end']}")
    for name in commands:
        row = result[name]
        print(f"  {name:15} {row['seconds']:8.3f} s wall {row['cpu_seconds']:8.3f} s CPU "
              f"{row['urls_per_second']:>11,} URLs/s  {row['times_python']:6.1f}x Python")
    for kind, floor in result["report_floor"].items():
        print(f"  {kind} report floor {floor['seconds']:8.3f} s wall: `cat` of the {floor['bytes']:,}-byte report, "
              f"a ratio cap near {floor['times_python_at_most']:.1f}x Python for a program printing it")
    print("  decisions identical to the reference (test-links --format json, match -); the text report: all passed "
          "(target for test-links: >= 50x Python)")
    print("LINKS_JSON " + json.dumps(result))


if __name__ == "__main__":
    main()
