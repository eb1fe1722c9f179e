"""The closing sections of report.py: how the benchmark was run, and on
what machine."""

import os

from report_common import fmt


def method_and_machine(machine):
    """The "Method" and "Machine" sections."""
    lines = []
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
    lines.append(f"- aasa: `{repository_relative(machine.get('aasa_binary'))}`, repository at {machine.get('git')}")
    if machine.get("linkage"):
        lines.append(f"- Swift runtime: {machine['linkage']} (the release links it in: `scripts/release.sh`)")
    if machine.get("busy_start"):
        lines.append(f"- other processes using ≥ 10 % CPU when the run started: {machine['busy_start']}")
    if machine.get("note"):
        lines.append(f"- note: {machine['note']}")
    lines.append("")
    return lines


def repository_relative(path):
    """`path` from the repository's root when it lies inside it: the report
    is read in clones, where the machine's own directories mean nothing."""
    if not path:
        return path
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    absolute = os.path.abspath(path)
    return os.path.relpath(absolute, root) if absolute.startswith(root + os.sep) else path
