"""What every section of report.py shares: the servers and loads of the
origin benchmark, reading results.jsonl, medians, ratios and formatting."""

import json
import re
import statistics

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
    # The scheduler's nanoseconds where the run recorded them (results from
    # before they were, or a kernel without schedstat: utime + stime ticks).
    cpu_s = row["cpu_ns"] / 1e9 if row.get("cpu_ns") is not None else row["cpu_ticks"] / row["ticks_per_s"]
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


def load_runs(rows, load, server, repeat=False):
    """The runs of a server under a load; `repeat`: the floor's second run of
    each turn (serve-part.sh), which only the A/A row reads."""
    return [
        r
        for r in rows
        if r.get("kind") == "load" and r["load"] == load and r["server"] == server and bool(r.get("repeat")) == repeat
    ]


def summarize_loads(rows):
    summary = {}
    for load, _ in LOADS:
        summary[load] = {}
        for server in SERVERS:
            runs = [per_run(r) for r in load_runs(rows, load, server)]
            if not runs:
                continue
            entry = {key: med([run[key] for run in runs]) for key, *_ in METRICS}
            entry["runs"] = len(runs)
            entry["non2xx"] = sum(run["non2xx"] for run in runs)
            entry["socket_errors"] = sum(run["socket_errors"] for run in runs)
            entry["conns"] = next(r["conns"] for r in rows if r.get("kind") == "load" and r["load"] == load)
            summary[load][server] = entry
    return summary


def paired_ratios(numerators, denominators):
    """Per metric, the median over the runs of each run's ratio (runs paired
    by their number: the same turn). The estimator whose A/A spread was the
    smallest (docs/DECISIONS.md, "CPU per request"): a drift of the machine
    over the minutes of a part moves both runs of a pair."""
    by_run = {r["run"]: per_run(r) for r in denominators}
    pairs = [(per_run(r), by_run[r["run"]]) for r in numerators if r["run"] in by_run]
    if not pairs:
        return None
    return {key: med([ratio(a[key], b[key]) for a, b in pairs]) for key, *_ in METRICS}


def summarize_ratios(rows):
    """{load: {"aasa/BASE": ratios, "nio-floor/nio-floor": the A/A ratios}}:
    aasa against each base, and the floor's run against its repeat."""
    out = {}
    for load, _ in LOADS:
        entry = {}
        aasa = load_runs(rows, load, "aasa")
        for base in BASES:
            ratios = paired_ratios(aasa, load_runs(rows, load, base))
            if ratios:
                entry[f"aasa/{base}"] = ratios
        floor_self = paired_ratios(load_runs(rows, load, "nio-floor"), load_runs(rows, load, "nio-floor", repeat=True))
        if floor_self:
            entry["nio-floor/nio-floor"] = floor_self
        out[load] = entry
    return out


def ratio(a, b):
    if a is None or b in (None, 0):
        return None
    return a / b


def fmt(value, pattern):
    return "—" if value is None else pattern.format(value)


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
