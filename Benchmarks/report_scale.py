"""The scale sections of report.py: start-up and memory by number of
hosts, reloads, and the server under load while it reloads."""

from report_common import fmt, med, parse_duration


def scale_section(rows):
    """The "Scale" table (empty when no start-up or reload ran) and its figures."""
    lines = []
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
    return lines, scale, reload_wall, reload_internal


def reload_under_load(rows, machine):
    """The "Reload under load" table and its figures (None when it did not run)."""
    lines = []
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
    return lines, reload_load
