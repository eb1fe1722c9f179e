#!/usr/bin/env python3
"""Writes configmap.yaml and the volume items of deployment.yaml from aasa/.

A ConfigMap cannot hold subdirectories, so each file becomes a key
`<host>--<file>`, and deployment.yaml maps it back to `sites/<host>/<file>`
with `items:`. The `sites/` level matters: the kubelet makes every top-level
entry of the volume a symlink into its hidden `..data/` directory (that is how
it swaps a new version in atomically), and `aasa serve` refuses a host
directory that is a symlink leading elsewhere than to a sibling. Below the
top level the entries are real directories, so the pods serve
`--dir /srv/aasa/sites`. Symlinked (alias) host directories are skipped: the Deployment
declares them with AASA_HOSTS_ALIASES instead.

    deploy/kubernetes/configmap-from-dir.py            # rewrite configmap.yaml, print the items
    deploy/kubernetes/configmap-from-dir.py --check    # exit 1 if configmap.yaml or the
                                                       # deployment's items are out of date
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SOURCE = os.path.join(REPO, "aasa")
FILES = ("apple-app-site-association", "assetlinks.json")
NAME = "aasa-files"


def collect():
    out = []
    for host in sorted(os.listdir(SOURCE)):
        path = os.path.join(SOURCE, host)
        if host.startswith(".") or not os.path.isdir(path) or os.path.islink(path):
            continue
        for name in FILES:
            f = os.path.join(path, name)
            if os.path.isfile(f):
                with open(f, encoding="utf-8") as fh:
                    out.append((f"{host}--{name}", f"sites/{host}/{name}", fh.read()))
    return out


def render(entries):
    lines = [
        "# Generated from aasa/ by deploy/kubernetes/configmap-from-dir.py — do not edit by hand.",
        "# Keys are <host>--<file>; deployment.yaml maps them back to sites/<host>/<file> (items:).",
        "# Replace the data with your own files; the pods pick the change up by polling",
        "# (files.pollInterval), after the kubelet refreshes the volume (up to ~1 min).",
        "apiVersion: v1",
        "kind: ConfigMap",
        "metadata:",
        f"  name: {NAME}",
        "  labels:",
        "    app.kubernetes.io/name: aasa",
        "    app.kubernetes.io/component: files",
        "data:",
    ]
    for key, _, text in entries:
        lines.append(f"  {key}: |")
        lines.extend(("    " + line).rstrip() for line in text.rstrip("\n").split("\n"))
    return "\n".join(lines) + "\n"


def items_yaml(entries):
    return "".join(f"              - key: {key}\n                path: {path}\n" for key, path, _ in entries)


def main():
    entries = collect()
    target = os.path.join(HERE, "configmap.yaml")
    if "--check" not in sys.argv:
        with open(target, "w", encoding="utf-8") as fh:
            fh.write(render(entries))
        print(items_yaml(entries), end="")
        return 0
    problems = []
    try:
        import yaml
    except ImportError:
        print("configmap-from-dir: PyYAML is needed for --check", file=sys.stderr)
        return 2
    with open(target, encoding="utf-8") as fh:
        data = yaml.safe_load(fh).get("data", {})
    want = {key: text for key, _, text in entries}
    for key, text in want.items():
        if key not in data:
            problems.append(f"configmap.yaml lacks {key}")
        elif json.loads(data[key]) != json.loads(text):
            problems.append(f"configmap.yaml {key} differs from aasa/")
    problems += [f"configmap.yaml has {k}, not in aasa/" for k in data if k not in want]
    with open(os.path.join(HERE, "deployment.yaml"), encoding="utf-8") as fh:
        deployment = yaml.safe_load(fh)
    volumes = deployment["spec"]["template"]["spec"]["volumes"]
    cm = next((v["configMap"] for v in volumes if v.get("configMap", {}).get("name") == NAME), None)
    if cm is None:
        problems.append(f"deployment.yaml has no volume from ConfigMap {NAME}")
    else:
        have = {(i["key"], i["path"]) for i in cm.get("items", [])}
        need = {(key, path) for key, path, _ in entries}
        problems += [f"deployment.yaml items lack {k} -> {p}" for k, p in sorted(need - have)]
        problems += [f"deployment.yaml items has stale {k} -> {p}" for k, p in sorted(have - need)]
    for p in problems:
        print(f"configmap-from-dir: {p}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
