#!/usr/bin/env python3
"""Turns Benchmarks/run.sh's results.jsonl into the tables, the
`BENCHMARK_JSON {...}` line and (with --markdown PATH) BENCHMARKS.md."""

import json
import os
import re
import statistics
import sys

from report_rows import where_users_wait

SERVERS = ["nginx-files", "nginx-map", "nio-floor", "aasa"]
# What aasa is compared with: nginx as users run it and at its fastest, and
# NIOFloor, the least a server on NIO's HTTP/1 decoder does per request.
BASES = ["nginx-files", "nginx-map", "nio-floor"]
LOADS = [
    ("one", "one host, keep-alive"),
    ("rotating", "rotating Host over 1,000 hosts"),
    ("c512", "512 connections, one host"),
]


def load_results(path):
    rows = []
    with open(path) as handle:
        for line in handle:
            line = line.strip()
            if line:
                rows.append(json.loads(line))
    return rows


def med(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def per_run(row):
    wrk = row["wrk"]
    seconds = wrk["duration_us"] / 1e6
    requests = wrk["requests"]
    cpu_s = row["cpu_ticks"] / row["ticks_per_s"]
    errors = wrk["errors"]
    return {
        "rps": requests / seconds,
        "p50_ms": wrk["latency_us"]["p50"] / 1000,
        "p99_ms": wrk["latency_us"]["p99"] / 1000,
        "p999_ms": wrk["latency_us"]["p999"] / 1000,
        "cpu_us": cpu_s / requests * 1e6 if requests else None,
        "rss_mb": row["rss_kb"] / 1024,
        "non2xx": errors["status"],
        "socket_errors": errors["connect"] + errors["read"] + errors["write"] + errors["timeout"],
        "requests": requests,
    }


METRICS = [
    # key, header, format, better
    ("rps", "req/s", "{:,.0f}", "higher"),
    ("p50_ms", "p50 ms", "{:.3f}", "lower"),
    ("p99_ms", "p99 ms", "{:.3f}", "lower"),
    ("p999_ms", "p99.9 ms", "{:.3f}", "lower"),
    ("cpu_us", "CPU µs/req", "{:.2f}", "lower"),
    ("rss_mb", "RSS MB", "{:.1f}", "lower"),
]


def summarize_loads(rows):
    summary = {}
    for load, _ in LOADS:
        summary[load] = {}
        for server in SERVERS:
            runs = [per_run(r) for r in rows if r.get("kind") == "load" and r["load"] == load and r["server"] == server]
            if not runs:
                continue
            entry = {key: med([run[key] for run in runs]) for key, *_ in METRICS}
            entry["runs"] = len(runs)
            entry["non2xx"] = sum(run["non2xx"] for run in runs)
            entry["socket_errors"] = sum(run["socket_errors"] for run in runs)
            entry["conns"] = next(r["conns"] for r in rows if r.get("kind") == "load" and r["load"] == load)
            summary[load][server] = entry
    return summary


def ratio(a, b):
    if a is None or b in (None, 0):
        return None
    return a / b


def fmt(value, pattern):
    return "—" if value is None else pattern.format(value)


def throughput_tables(summary):
    """One table per load: a row per server, then aasa's ratios to each nginx."""
    out = []
    for load, title in LOADS:
        servers = summary.get(load, {})
        if not servers:
            continue
        conns = next(iter(servers.values()))["conns"]
        runs = next(iter(servers.values()))["runs"]
        out.append(f"### {title} ({conns} connections, median of {runs} run{'s' if runs != 1 else ''})\n")
        header = "| server | " + " | ".join(h for _, h, _, _ in METRICS) + " | non-2xx | socket errors |"
        out.append(header)
        out.append("|" + "---|" * (len(METRICS) + 3))
        for server in SERVERS:
            entry = servers.get(server)
            if not entry:
                continue
            cells = [fmt(entry[key], pattern) for key, _, pattern, _ in METRICS]
            out.append(f"| {server} | " + " | ".join(cells) + f" | {entry['non2xx']} | {entry['socket_errors']} |")
        aasa = servers.get("aasa")
        for base in BASES:
            other = servers.get(base)
            if not (aasa and other):
                continue
            cells = [fmt(ratio(aasa[key], other[key]), "{:.2f}×") for key, *_ in METRICS]
            out.append(f"| **aasa ÷ {base}** | " + " | ".join(cells) + " | | |")
        out.append("")
    return out


def perf_per_request(rows):
    out = {}
    for row in rows:
        if row.get("kind") != "perf":
            continue
        try:
            out[(row["load"], row["server"])] = float(row["instructions"]) / row["wrk"]["requests"]
        except (TypeError, ValueError, ZeroDivisionError):
            pass
    return out


def compare_with_baseline(baseline_rows, rows, label, machine):
    """aasa now vs aasa in an earlier run (same script, same machine)."""
    before, after = summarize_loads(baseline_rows), summarize_loads(rows)
    perf_before, perf_after = perf_per_request(baseline_rows), perf_per_request(rows)
    base_machine = next((r for r in baseline_rows if r.get("kind") == "machine"), {})
    out = [
        f"### aasa before and after ({label}, run {base_machine.get('date')}, vs this run)\n",
        "| load | measure | before | now | now ÷ before |",
        "|---|---|---|---|---|",
    ]
    for load, title in LOADS:
        old, new = before.get(load, {}).get("aasa"), after.get(load, {}).get("aasa")
        if not (old and new):
            continue
        for key, header, pattern, _ in METRICS:
            out.append(
                f"| {title} | {header} | {fmt(old[key], pattern)} | {fmt(new[key], pattern)} | "
                f"{fmt(ratio(new[key], old[key]), '{:.2f}×')} |"
            )
        pb, pa = perf_before.get((load, "aasa")), perf_after.get((load, "aasa"))
        if pb and pa:
            out.append(f"| {title} | instructions/req | {pb:,.0f} | {pa:,.0f} | {pa / pb:.2f}× |")
    old_start = {r["hosts"]: r for r in baseline_rows if r.get("kind") == "startup" and r["server"] == "aasa"}
    new_start = {r["hosts"]: r for r in rows if r.get("kind") == "startup" and r["server"] == "aasa"}
    for hosts in sorted(set(old_start) & set(new_start)):
        a, b = old_start[hosts].get("seconds"), new_start[hosts].get("seconds")
        out.append(f"| start, {hosts:,} hosts | seconds | {fmt(a, '{:.3f}')} | {fmt(b, '{:.3f}')} | {fmt(ratio(b, a), '{:.2f}×')} |")
        a, b = old_start[hosts]["rss_kb"] / 1024, new_start[hosts]["rss_kb"] / 1024
        out.append(f"| idle, {hosts:,} hosts | RSS MB | {a:.1f} | {b:.1f} | {b / a:.2f}× |")
    old_reload = med([r["wall_seconds"] for r in baseline_rows if r.get("kind") == "reload"])
    new_reload = med([r["wall_seconds"] for r in rows if r.get("kind") == "reload"])
    if old_reload and new_reload:
        out.append(
            f"| reload, 1,000 files | seconds | {old_reload:.3f} | {new_reload:.3f} | {new_reload / old_reload:.2f}× |"
        )
    out.append("")
    return out


def parse_duration(text):
    """`0.123456789 seconds` / `123.4ms` / `Duration(...)` → seconds."""
    if not text:
        return None
    match = re.search(r"([0-9.eE+-]+)\s*(seconds|s|ms|µs|us|ns)?", text)
    if not match:
        return None
    value = float(match.group(1))
    unit = match.group(2) or "seconds"
    return value * {"seconds": 1, "s": 1, "ms": 1e-3, "µs": 1e-6, "us": 1e-6, "ns": 1e-9}[unit]


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

    lines, rows_compact = where_users_wait(rows)
    served = any(servers for servers in summary.values())
    if served:
        lines.append("## Origin vs nginx\n")
        lines.append(
            "Server pinned to CPU {server_cpu}, wrk (`-t1`) to CPU {client_cpu}; {duration} s per run after a warm-up; "
            "each run starts the server afresh; servers take turns (files, map, floor, aasa, files, …). "
            "nio-floor is `Benchmarks/Sources/NIOFloor`: NIO's HTTP/1 decoder, aasa's socket options and one "
            "handler writing one constant response (d0001's file with aasa's headers) for every request — no "
            "routing, clock, counters or timeouts; the least any server on NIO's decoder does per request. "
            "CPU µs/req = the server's utime+stime over the run (nginx: master + worker) ÷ requests. "
            "RSS = VmRSS at the end of the run. Ratios are aasa ÷ the other: below 1 is better for "
            "latency, CPU and RSS, above 1 is better for req/s.\n".format(
                server_cpu=machine.get("server_cpu", 0),
                client_cpu=machine.get("client_cpu", 1),
                duration=machine.get("duration", "?"),
            )
        )
    lines += throughput_tables(summary)

    # Instructions per request
    perf_rows = [r for r in rows if r.get("kind") == "perf"]
    perf = {}
    if perf_rows:
        lines.append("### Instructions per request (`perf stat` attached to the server's processes, user + kernel)\n")
        lines.append(
            "| load | server | instructions/req | of which user space | cycles/req | IPC | aasa ÷ this (instructions) |"
        )
        lines.append("|---|---|---|---|---|---|---|")
        for load, title in LOADS:
            by_server = {}
            for row in perf_rows:
                if row["load"] != load:
                    continue
                try:
                    instructions = float(row["instructions"])
                    cycles = float(row["cycles"])
                except (TypeError, ValueError):
                    continue
                try:
                    user = float(row.get("user_instructions"))
                except (TypeError, ValueError):
                    user = None
                requests = row["wrk"]["requests"]
                by_server[row["server"]] = (
                    instructions / requests,
                    cycles / requests,
                    user / requests if user is not None else None,
                )
            if not by_server:
                continue
            perf[load] = {
                k: {"instructions": round(v[0]), "cycles": round(v[1]), "user_instructions": round(v[2]) if v[2] else None}
                for k, v in by_server.items()
            }
            for server in SERVERS:
                if server not in by_server:
                    continue
                ins, cyc, user = by_server[server]
                rel = ratio(by_server.get("aasa", (None,))[0], ins) if server != "aasa" else None
                lines.append(
                    f"| {title} | {server} | {ins:,.0f} | {fmt(user, '{:,.0f}')} | {cyc:,.0f} | {ins / cyc:.2f} "
                    f"| {fmt(rel, '{:.2f}×')} |"
                )
        lines.append("")

    if baseline_rows:
        lines += compare_with_baseline(baseline_rows, rows, baseline_label, machine)

    # Scale
    startups = [r for r in rows if r.get("kind") == "startup"]
    reloads = [r for r in rows if r.get("kind") == "reload"]
    scale_out = []
    scale_out.append("## Scale\n")
    scale_out.append("| measure | aasa | nginx-map | nginx-files |")
    scale_out.append("|---|---|---|---|")
    scale = {}
    for hosts in sorted({r["hosts"] for r in startups}):
        start = {r["server"]: r for r in startups if r["hosts"] == hosts}
        def startup_cell(server):
            row = start.get(server)
            if row is None:
                return "—"
            if row.get("seconds") is None:
                return f"> {row.get('cap', '?')} s (not serving yet)"
            return f"{row['seconds']:.3f} s"

        cells = [startup_cell(s) for s in ["aasa", "nginx-map", "nginx-files"]]
        scale_out.append(f"| start → serving the last of {hosts:,} hosts | " + " | ".join(cells) + " |")
        cells = [fmt(start[s]["rss_kb"] / 1024 if s in start else None, "{:.1f} MB") for s in ["aasa", "nginx-map", "nginx-files"]]
        scale_out.append(f"| RSS, {hosts:,} hosts, idle | " + " | ".join(cells) + " |")
        scale[str(hosts)] = {
            s: {"startup_s": start[s]["seconds"], "rss_mb": round(start[s]["rss_kb"] / 1024, 1)} for s in start
        }
    reload_wall = med([r["wall_seconds"] for r in reloads])
    reload_internal = med([parse_duration(r.get("internal")) for r in reloads])
    if reloads:
        files = reloads[0]["files"]
        scale_out.append(
            f"| reload of {files:,} files (SIGHUP → swapped; median of {len(reloads)}) | "
            f"{fmt(reload_wall, '{:.3f} s')} wall, {fmt(reload_internal, '{:.3f} s')} in the loader | — | — |"
        )
    scale_out.append("")
    scale_out.append(
        "nginx does not read the files at start (\"files\") or holds them in its configuration (\"map\"); "
        "its reload is a new worker generation, not comparable and not measured.\n"
    )
    if startups or reloads:
        lines += scale_out

    # Reload under load
    base = next((r for r in rows if r.get("kind") == "reload_load" and r["phase"] == "baseline"), None)
    during = next((r for r in rows if r.get("kind") == "reload_load" and r["phase"] == "reloads"), None)
    reload_load = None
    if base and during:
        lines.append("## Reload under load\n")
        lines.append(
            f"`aasa serve` with rotating Host over 1,000 hosts ({machine.get('hosts', 1000)} files), "
            f"{during['reloads']} reloads in {during['reload_seconds']:.1f} s: every other one after a file edit "
            f"(written aside and renamed over, {during['edits']} edits), each SIGHUP waited for until the server "
            "logged `reloaded`. Baseline: the same load without reloads.\n"
        )
        lines.append("| phase | requests | req/s | non-2xx | socket errors | p50 ms | p99 ms | p99.9 ms | max ms |")
        lines.append("|---|---|---|---|---|---|---|---|---|")
        reload_load = {}
        for name, row in [("without reloads", base), ("during reloads", during)]:
            wrk = row["wrk"]
            errors = wrk["errors"]
            socket = errors["connect"] + errors["read"] + errors["write"] + errors["timeout"]
            lat = wrk["latency_us"]
            rps = wrk["requests"] / (wrk["duration_us"] / 1e6)
            lines.append(
                f"| {name} | {wrk['requests']:,} | {rps:,.0f} | {errors['status']} | {socket} | "
                f"{lat['p50'] / 1000:.3f} | {lat['p99'] / 1000:.3f} | {lat['p999'] / 1000:.3f} | {lat['max'] / 1000:.3f} |"
            )
            reload_load["baseline" if row is base else "reloads"] = {
                "requests": wrk["requests"],
                "non2xx": errors["status"],
                "socket_errors": socket,
                "p99_ms": lat["p99"] / 1000,
                "p999_ms": lat["p999"] / 1000,
                "max_ms": lat["max"] / 1000,
            }
        reload_load["reloads"]["count"] = during["reloads"]
        reload_load["reloads"]["edits"] = during["edits"]
        reload_load["reloads"]["rejected_files"] = during["rejected"]
        lines.append("")

    # Matcher
    matcher = next((r["data"] for r in rows if r.get("kind") == "matcher"), None)
    if matcher:
        real = matcher["realistic"]
        lines.append("## Matcher\n")
        lines.append(
            f"A {real['fileBytes']:,}-byte file with {real['rules']} rules (excludes, query dictionaries, fragments, "
            "`substitutionVariables` with wildcard values, `$(digit)`, `$(region)`, file and entry `defaults`), "
            f"{real['urls']:,} URLs (decisions: "
            + ", ".join(f"{k} {v:,}" for k, v in sorted(real["decisions"].items()))
            + f"), median of {real['passes']} pass(es). The naive side: each pattern as an anchored "
            "`NSRegularExpression` (`*`→`.*`, `?`→`.`, the rest escaped, variables as alternations), first match wins; "
            "URLs pre-split for it, pre-parsed (`AASAURL`) for ours.\n"
        )
        lines.append("| matcher | URLs/s | compile ms |")
        lines.append("|---|---|---|")
        lines.append(f"| AASAMatcher | {real['oursURLsPerSecond']:,.0f} | {real['oursCompileMs']} |")
        lines.append(f"| naive regex | {real['regexURLsPerSecond']:,.0f} | {real['regexCompileMs']} |")
        lines.append(f"| **ratio** | **{real['ratio']:.2f}×** | |")
        lines.append("")
        lines.append(
            f"Decisions agree on {real['agreementPercent']}% of these URLs"
            + (
                " (this corpus avoids the cases where they differ: the naive translation has no path "
                "normalisation and no case folding beyond ASCII).\n"
                if real["agreementPercent"] >= 100
                else " (the naive translation has no path normalisation and no Unicode case folding).\n"
            )
        )
        adv = matcher["adversarial"]
        lines.append(
            f"Adversarial: `{adv['pattern']}` against `/aaa…a` (no `b`). The regex runs in a child process "
            f"killed after {adv['capSeconds']:.0f} s.\n"
        )
        lines.append("| input length | AASAMatcher per evaluate | naive regex |")
        lines.append("|---|---|---|")
        ours = {row["length"]: row for row in adv["ours"]}
        theirs = {row["length"]: row for row in adv["regex"]}
        for length in sorted(set(ours) | set(theirs)):
            mine = ours.get(length)
            other = theirs.get(length)
            mine_text = f"{mine['seconds'] * 1e6:,.1f} µs" if mine else "—"
            if not other:
                other_text = "—"
            elif other["capped"]:
                other_text = f"> {adv['capSeconds']:.0f} s"
            else:
                other_text = f"{other['seconds'] * 1e6:,.1f} µs"
            lines.append(f"| {length:,} | {mine_text} | {other_text} |")
        lines.append("")
        if adv["ours"]:
            largest = max(adv["ours"], key=lambda row: row["length"])
            smallest = min(adv["ours"], key=lambda row: row["length"])
            growth = (largest["seconds"] / smallest["seconds"]) / (largest["length"] / smallest["length"])
            lines.append(
                f"AASAMatcher: {largest['seconds'] / largest['length'] * 1e9:.0f} ns per input character at "
                f"{largest['length']:,}; time grows {growth:.2f}× as fast as the input (1.00 = linear). "
                "The regex blows up on short inputs (see the first rows), then stops growing: ICU gives "
                "up once its backtracking stack is full (a profile shows 75 % of the time in "
                "`icu::RegexMatcher::StateSave`) and `NSRegularExpression` reports *no match*, which is not an "
                "answer, after most of a second of CPU per URL."
                + (" No case reached the time cap." if not any(r["capped"] for r in adv["regex"]) else "")
                + "\n"
            )

    lines.append("## Method\n")
    lines.append(
        "- Sites: `aasa-bench sites` writes 1,000 (and 10,000) valid files of ~1.9 KB (two apps, 20 rules with "
        "excludes, query dictionaries, fragments, `defaults`; `aasa validate`: 0 errors, 0 warnings), as "
        "`DIR/aasa/<host>/apple-app-site-association` for `aasa serve`, hard-linked at "
        "`DIR/www/<host>/.well-known/apple-app-site-association` for nginx \"files\", and inline in a "
        "`map $host $aasa_body { … }` for nginx \"map\"."
    )
    lines.append(
        "- nginx (both): `worker_processes 1; access_log off; keepalive_requests 1000000;` and "
        "`add_header Cache-Control \"max-age=300\"; add_header X-Content-Type-Options nosniff;`, "
        "`default_type application/json`. \"files\": `root DIR/www/$host; location = "
        "/.well-known/apple-app-site-association { try_files $uri =404; }` (nginx adds ETag and "
        "Last-Modified). \"map\": `return 200 $aasa_body;` (no ETag; unknown hosts get an empty 200, its "
        "fastest form). aasa: `serve --admin-port 0 --no-access-log --poll-interval 0` (ETag, "
        "Last-Modified, Cache-Control, Vary, nosniff)."
    )
    lines.append(
        "- Load: `wrk -t1 --timeout 5s -s Benchmarks/wrk/aasa.lua` with `Host`, `User-Agent: AASA-Bot/1.0.0`, "
        "`Accept: */*`; the rotating load pre-formats one request per host and cycles through them in "
        "`request()`; `done()` prints the percentiles as JSON. Warm-up run first, not counted."
    )
    lines.append(
        "- Scale: wall time from launching the server until a request for the last host answers 200 "
        "(polled every 10 ms, capped). Reload: SIGHUP until the server logs `reloaded` "
        "(`reload.duration` is the loader's own figure)."
    )
    lines.append(
        f"- This run ({machine.get('parts', 'all parts')}) took {fmt(machine.get('run_seconds'), '{:.0f}')} s after "
        "the builds (the first release builds of `aasa` and of `Benchmarks/` take about ten minutes each on "
        "2 cores). `run.sh links` (or `startup`, `serve`, `matcher`) reruns one part and prints its tables only."
    )
    lines.append("")

    # The machine
    lines.append("## Machine\n")
    ticks = machine.get("ticks_per_s", 100)
    steal_share = None
    if machine.get("load_seconds"):
        steal_share = machine.get("steal_ticks", 0) / ticks / (machine["load_seconds"] * machine.get("nproc", 1)) * 100
    lines.append(f"- date: {machine.get('date')}")
    lines.append(f"- nproc: {machine.get('nproc')}; CPU: {machine.get('cpu')}")
    lines.append(f"- kernel: {machine.get('kernel')}")
    lines.append(f"- Swift: {machine.get('swift')}; nginx: {machine.get('nginx')}; wrk: {machine.get('wrk')}")
    lines.append(
        f"- run: {'--quick' if machine.get('quick') else 'full'}, {machine.get('runs')} run(s) × {machine.get('duration')} s; "
        f"served file {machine.get('file_bytes')} bytes; throughput phase {machine.get('load_seconds')} s, "
        f"hypervisor steal {fmt(steal_share, '{:.1f}')}% of CPU time during it; load average at the start "
        f"{machine.get('loadavg_start')}, at the end {machine.get('loadavg')}"
    )
    lines.append(f"- aasa: `{machine.get('aasa_binary')}`, repository at {machine.get('git')}")
    if machine.get("busy_start"):
        lines.append(f"- other processes using ≥ 10 % CPU when the run started: {machine['busy_start']}")
    if machine.get("note"):
        lines.append(f"- note: {machine['note']}")
    lines.append("")

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
                f"aasa/{base}": {
                    key: (round(ratio(servers["aasa"][key], servers[base][key]), 3) if ratio(servers["aasa"][key], servers[base][key]) is not None else None)
                    for key, *_ in METRICS
                }
                for base in BASES
                if "aasa" in servers and base in servers
            }
            for load, servers in summary.items()
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
                "Figures are from one shared 2-core virtual machine: compare ratios, not absolute numbers, and "
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
