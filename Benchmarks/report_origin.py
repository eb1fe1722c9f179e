"""The origin sections of report.py: nginx, NIOFloor and aasa under the
same loads, instructions per request, and aasa against an earlier run."""

from report_common import BASES, LOADS, METRICS, SERVERS, fmt, med, ratio, summarize_loads


def origin_intro(machine):
    """The "Origin vs nginx" heading and how the loads were run."""
    lines = []
    lines.append("## Origin vs nginx\n")
    lines.append(
        "Server pinned to CPU {server_cpu}, wrk (`-t1`) to CPU {client_cpu}; {duration} s per run after a warm-up; "
        "each run starts the server afresh; servers take turns (files, map, floor, floor again, aasa, files, …). "
        "nio-floor is `Benchmarks/Sources/NIOFloor`: NIO's HTTP/1 decoder, aasa's socket options and one "
        "handler writing one constant response (d0001's file with aasa's headers) for every request — no "
        "routing, clock, counters or timeouts; the least any server on NIO's decoder does per request. "
        "CPU µs/req = the server's CPU time over the run (the scheduler's nanoseconds, "
        "`/proc/PID/task/*/schedstat`, summed over its threads; nginx: master + worker) ÷ requests. "
        "RSS = VmRSS at the end of the run. Rows are medians of the runs; ratios are aasa ÷ the other, the "
        "median of each turn's ratio (aasa's run ÷ the other's run of the same turn): below 1 is better for "
        "latency, CPU and RSS, above 1 is better for req/s. The floor runs twice a turn, back to back (aasa is "
        "compared with the second): **nio-floor ÷ nio-floor** is the same ratio between two runs of one "
        "binary, how far from 1 this machine puts a ratio when nothing differs. Measured before adopting "
        "this estimator (docs/DECISIONS.md, \"CPU per request\"), 90 % of the A/A ratios of CPU µs/req over "
        "three turns fell within ±5.6 % for the floor and ±7.7 % for aasa, on a machine shared with other "
        "work.\n".format(
            server_cpu=machine.get("server_cpu", 0),
            client_cpu=machine.get("client_cpu", 1),
            duration=machine.get("duration", "?"),
        )
    )
    return lines


def throughput_tables(summary, ratios):
    """One table per load: a row per server, then aasa's ratios to each base
    and the floor's to itself (summarize_ratios)."""
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
        by_pair = ratios.get(load, {})
        for base in BASES:
            pair = by_pair.get(f"aasa/{base}")
            if pair:
                cells = [fmt(pair[key], "{:.2f}×") for key, *_ in METRICS]
                out.append(f"| **aasa ÷ {base}** | " + " | ".join(cells) + " | | |")
        floor_self = by_pair.get("nio-floor/nio-floor")
        if floor_self:
            cells = [fmt(floor_self[key], "{:.2f}×") for key, *_ in METRICS]
            out.append("| **nio-floor ÷ nio-floor** (A/A) | " + " | ".join(cells) + " | | |")
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


def instructions_per_request(rows):
    """The `perf stat` table and its compact figures; no rows when perf
    counted nothing (a VM without hardware counters)."""
    lines = []
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
    return lines, perf
