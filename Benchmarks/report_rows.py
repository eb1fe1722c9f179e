"""The three rows of "where users wait" for report.py: the link list
(`links.py`), and startup and memory at 10,000 hosts (`startup.sh`), each
against the reference measured in the same run."""


def where_users_wait(rows):
    """Markdown lines and the compact figures; ([], None) when neither part ran."""
    links = next((r for r in rows if r.get("kind") == "links"), None)
    startup = next((r for r in rows if r.get("kind") == "startup-scale"), None)
    if not (links or startup):
        return [], None
    out = [
        "## Where users wait\n",
        "Each row against what a user would otherwise run, measured in the same run (release builds, "
        "timed from outside, process start to exit or to the first answer; median of the runs).\n",
        "| what | swift-aasa | same-run reference | ratio | target |",
        "|---|---|---|---|---|",
    ]
    compact = {}
    if links:
        python = links["python"]
        labelled = [
            ("test-links", "`aasa test-links` (the default text report)", "≥ 50×"),
            ("test-links-json", "`aasa test-links --format json`", "—"),
            ("match-list", "`aasa match - --format json`", "the speed of `test-links --format json`"),
        ]
        for name, label, target in labelled:
            row = links[name]
            out.append(
                f"| {label} over {links['urls']:,} URLs, one file of {links['rules']} rules (wildcards, excludes first) "
                f"| {row['seconds']:.3f} s ({row['urls_per_second']:,} URLs/s, {row['cpu_seconds']:.2f} s CPU) "
                f"| naive Python loop: {python['seconds']:.2f} s ({python['urls_per_second']:,} URLs/s) "
                f"| **{row['times_python']:.1f}×** | {target} |"
            )
        compact["links"] = {
            name: {"seconds": links[name]["seconds"], "times_python": links[name]["times_python"]}
            for name in ["python", "test-links", "test-links-json", "match-list"]
        }
    if startup:
        out.append(
            f"| `aasa serve` start → the last of {startup['hosts']:,} hosts answers 200 "
            f"(~{startup['mean_file_bytes']:,}-byte files) | {startup['aasa_last_host_200_seconds']:.3f} s "
            f"| Python reading and `json.loads`-ing the same files: {startup['python_read_parse_seconds']:.3f} s "
            f"| **{startup['startup_ratio']:.2f}×** | ≤ 3× |"
        )
        out.append(
            f"| RSS growth per host, {min(map(int, startup['rss_kib'])):,} → {startup['hosts']:,} hosts "
            f"| {startup['rss_growth_bytes_per_host']:,} B per host | the file itself: {startup['mean_file_bytes']:,} B "
            f"| **{startup['rss_growth_per_file_size']:.2f}×** | ≤ 3× |"
        )
        compact["startup"] = {
            key: startup.get(key)
            for key in ["aasa_last_host_200_seconds", "python_read_parse_seconds", "startup_ratio",
                        "rss_growth_bytes_per_host", "rss_growth_per_file_size"]
        }
    out.append("")
    if links:
        decisions = ", ".join(f"{name} {count:,}" for name, count in links["decisions"].items())
        out.append(
            f"Link list: `aasa-bench link-corpus` writes the file and the URLs (decisions: {decisions}); "
            "`Benchmarks/naive_links.py` is the reference: the file's patterns as anchored `re` expressions "
            "(`*` → `.*`, `?` → `.`), tried in order for each URL, first match wins, one process, printing one "
            "decision per URL. The decisions of `test-links --format json` and `match -` were checked identical "
            "to it, URL by URL (a difference fails the run), and both `test-links` reports said every URL passed. "
            "The target row is the command as a user runs it, with its default text report (a line per URL naming "
            "the deciding rule); the JSON report carries about 350 bytes per URL for scripts. "
            "aasa parses and matches across the "
            f"{links['cores']} cores it is given; Python uses one. Each figure is the median of "
            f"{links['runs']} rounds, each the Python reference and then each aasa command in turn. Load average "
            f"{links['loadavg_start']} → {links['loadavg_end']}.\n"
        )
        floors = links.get("report_floor", {})
        if floors:
            parts = [
                f"{kind} report: `cat` printing the same {floor['bytes']:,} bytes through the same harness took "
                f"{floor['seconds']:.3f} s, a ratio cap near {floor['times_python_at_most']:.0f}×"
                for kind, floor in floors.items()
            ]
            out.append(
                "The floor of each report, the pipe and Python's reading of it with nothing computed (a program "
                "printing the report takes at least about that long): " + "; ".join(parts) + ".\n"
            )
    if startup:
        out.append(
            f"Startup and memory: `Benchmarks/startup.sh` (median of {startup['runs']}; the server unpinned "
            f"on {startup['cores']} cores). Load average {startup['loadavg_start']} → {startup['loadavg_end']}.\n"
        )
    return out, compact
