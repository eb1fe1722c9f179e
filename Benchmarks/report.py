#!/usr/bin/env python3
"""Turns Benchmarks/run.sh's results.jsonl into the tables, the
`BENCHMARK_JSON {...}` line and (with --markdown PATH) BENCHMARKS.md.

One module per part of the report: report_rows (where users wait),
report_origin (nginx / NIOFloor / aasa), report_scale, report_matcher,
report_method; report_common holds what they share."""

import json
import os
import sys

from report_common import load_results, summarize_loads, summarize_ratios
from report_matcher import matcher_section
from report_method import method_and_machine
from report_origin import compare_with_baseline, instructions_per_request, origin_intro, throughput_tables
from report_rows import where_users_wait
from report_scale import reload_under_load, scale_section


def main():
    args = sys.argv[1:]
    markdown = None
    if "--markdown" in args:
        index = args.index("--markdown")
        markdown = args[index + 1]
        del args[index : index + 2]
    baseline_rows = None
    baseline_label = "baseline"
    if "--baseline" in args:
        index = args.index("--baseline")
        baseline_rows = load_results(args[index + 1])
        if index + 2 < len(args) and not args[index + 2].startswith("--"):
            baseline_label = args[index + 2]
            del args[index : index + 3]
        else:
            del args[index : index + 2]
    rows = load_results(args[0])
    machine = next((r for r in rows if r.get("kind") == "machine"), {})
    summary = summarize_loads(rows)
    ratios = summarize_ratios(rows)

    lines, rows_compact = where_users_wait(rows)
    served = any(servers for servers in summary.values())
    if served:
        lines += origin_intro(machine)
    lines += throughput_tables(summary, ratios)

    perf_lines, perf = instructions_per_request(rows)
    lines += perf_lines

    if baseline_rows:
        lines += compare_with_baseline(baseline_rows, rows, baseline_label, machine)

    scale_lines, scale, reload_wall, reload_internal = scale_section(rows)
    lines += scale_lines

    reload_lines, reload_load = reload_under_load(rows, machine)
    lines += reload_lines

    matcher = next((r["data"] for r in rows if r.get("kind") == "matcher"), None)
    lines += matcher_section(matcher)

    lines += method_and_machine(machine)

    text = "\n".join(lines)
    print(text)

    compact = {
        "machine": {k: machine.get(k) for k in ["date", "nproc", "cpu", "kernel", "swift", "nginx", "quick", "runs", "duration"]},
        "loads": {
            load: {
                server: {k: (round(v, 3) if isinstance(v, float) else v) for k, v in entry.items()}
                for server, entry in servers.items()
            }
            for load, servers in summary.items()
        },
        "ratios": {
            load: {
                pair: {key: (round(value, 3) if value is not None else None) for key, value in by_key.items()}
                for pair, by_key in by_pair.items()
            }
            for load, by_pair in ratios.items()
        },
        "where_users_wait": rows_compact,
        "instructions_per_request": perf or None,
        "scale": scale,
        "reload_1000_files_s": {"wall": reload_wall, "internal": reload_internal},
        "reload_under_load": reload_load,
        "matcher": (
            {
                "ours_urls_per_s": matcher["realistic"]["oursURLsPerSecond"],
                "regex_urls_per_s": matcher["realistic"]["regexURLsPerSecond"],
                "ratio": matcher["realistic"]["ratio"],
                "adversarial_ours_s": {str(r["length"]): r["seconds"] for r in matcher["adversarial"]["ours"]},
                "adversarial_regex_s": {
                    str(r["length"]): (None if r["capped"] else r["seconds"]) for r in matcher["adversarial"]["regex"]
                },
            }
            if matcher
            else None
        ),
    }
    print("BENCHMARK_JSON " + json.dumps(compact, separators=(",", ":"), ensure_ascii=False))

    if markdown:
        with open(markdown, "w") as handle:
            handle.write("# Benchmarks\n\n")
            handle.write(
                "Produced by `Benchmarks/run.sh` (`--quick` for a smoke test); rerun it to refresh this file. "
                "Figures are from one 2-core virtual machine, sometimes shared with other work: compare ratios, not absolute numbers, and "
                "prefer CPU µs/req, which hypervisor steal and neighbours move least.\n\n"
            )
            handle.write(text)
            # Hand-written sections kept beside this script: the engine
            # comparison (engines.sh, a separate run) and the profile.
            here = os.path.dirname(os.path.abspath(__file__))
            for name in ["ENGINES.md", "PROFILE.md"]:
                path = os.path.join(here, name)
                if os.path.exists(path):
                    with open(path) as notes:
                        handle.write("\n" + notes.read())
            handle.write("\n```\nBENCHMARK_JSON " + json.dumps(compact, separators=(",", ":"), ensure_ascii=False) + "\n```\n")


if __name__ == "__main__":
    main()
