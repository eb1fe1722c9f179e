#!/usr/bin/env python3
"""The link-list check a user would write without swift-aasa.

Reads an apple-app-site-association file and a links file in the format of
`aasa test-links` ({"deep_linkable_urls": [...], "non_deep_linkable_urls":
[...]}), translates every pattern of the app's entry into one anchored
regular expression (`*` -> `.*`, `?` -> `.`, everything else escaped), and
walks the rules in order for each URL: the first rule whose `/`, `?` and `#`
all match decides (`exclude` blocks). It prints one decision per URL
(matched, blocked or none), deep-linkable URLs first, so that
Benchmarks/run.sh can check that swift-aasa decides the same.

It handles what a hand-written script handles: `/`, `?` as a string or a
dictionary, `#`, `exclude` and `caseSensitive` with `applinks.defaults`. It
does not expand substitution variables or normalise paths; the benchmark's
corpus uses neither.

usage: naive_links.py AASA_FILE LINKS_FILE APP_ID
"""
import json
import re
import sys
from urllib.parse import urlsplit


def translate(pattern):
    return "".join(".*" if c == "*" else "." if c == "?" else re.escape(c) for c in pattern)


def compile_rules(aasa, app_id):
    applinks = aasa.get("applinks", {})
    defaults = applinks.get("defaults", {})
    for detail in applinks.get("details", []):
        if app_id not in detail.get("appIDs", []):
            continue
        rules = []
        for component in detail.get("components", []):
            keys = {**defaults, **detail.get("defaults", {}), **component}
            flags = 0 if keys.get("caseSensitive", True) else re.IGNORECASE

            def rx(pattern):
                return re.compile(translate(pattern), flags)

            query = keys.get("?")
            if isinstance(query, dict):
                query = {name: rx(value) for name, value in query.items()}
            elif isinstance(query, str):
                query = rx(query)
            fragment = rx(keys["#"]) if "#" in keys else None
            path = rx(keys["/"]) if "/" in keys else None
            rules.append((path, query, fragment, bool(keys.get("exclude", False))))
        return rules
    return []


def query_matches(query, text):
    if query is None:
        return True
    if not isinstance(query, dict):
        return query.fullmatch(text) is not None
    items = [item.partition("=") for item in text.split("&")] if text else []
    for name, rx in query.items():
        values = [value for key, _, value in items if key == name] or [""]
        if not all(rx.fullmatch(value) for value in values):
            return False
    return True


def decide(rules, url):
    parts = urlsplit(url)
    path = parts.path or "/"
    for path_rx, query, fragment_rx, exclude in rules:
        if path_rx is not None and not path_rx.fullmatch(path):
            continue
        if not query_matches(query, parts.query):
            continue
        if fragment_rx is not None and not fragment_rx.fullmatch(parts.fragment):
            continue
        return "blocked" if exclude else "matched"
    return "none"


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__.strip().splitlines()[-1])
    with open(sys.argv[1], encoding="utf-8") as handle:
        rules = compile_rules(json.load(handle), sys.argv[3])
    with open(sys.argv[2], encoding="utf-8") as handle:
        links = json.load(handle)
    urls = links.get("deep_linkable_urls", []) + links.get("non_deep_linkable_urls", [])
    sys.stdout.write("".join(decide(rules, url) + "\n" for url in urls))


if __name__ == "__main__":
    main()
