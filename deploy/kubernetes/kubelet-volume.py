#!/usr/bin/env python3
"""Lays out a ConfigMap volume the way the kubelet does, for test-volume.sh.

    kubelet-volume.py DEST [--edit HOST]

Reads configmap.yaml and the `files` volume of deployment.yaml and writes DEST
as the kubelet's atomic writer would: the data under a hidden timestamped
directory, a `..data` symlink to it, and one symlink per top-level entry
(`sites -> ..data/sites`). Run again on the same DEST, it swaps a new
version in the same way (new timestamped dir, `..data` replaced by rename,
old dir removed). `--edit HOST` appends a marker component to HOST's file in
the new version, so a test can see that the swap was picked up.
"""
import json
import os
import shutil
import sys
import time

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
MARKER = "/kubelet-volume-swap-marker/*"


def main():
    dest = sys.argv[1]
    edit = sys.argv[sys.argv.index("--edit") + 1] if "--edit" in sys.argv else None
    with open(os.path.join(HERE, "configmap.yaml"), encoding="utf-8") as fh:
        data = yaml.safe_load(fh)["data"]
    with open(os.path.join(HERE, "deployment.yaml"), encoding="utf-8") as fh:
        pod = yaml.safe_load(fh)["spec"]["template"]["spec"]
    volume = next(v for v in pod["volumes"] if v["name"] == "files")
    items = volume["configMap"]["items"]

    os.makedirs(dest, exist_ok=True)
    stamp = time.strftime("..%Y_%m_%d_%H_%M_%S.") + f"{time.time_ns() % 10**9:09d}"
    version = os.path.join(dest, stamp)
    top = set()
    for item in items:
        text = data[item["key"]]
        host = item["path"].split("/")[-2]
        if edit and host == edit and item["path"].endswith("apple-app-site-association"):
            doc = json.loads(text)
            doc["applinks"]["details"][0]["components"].append({"/": MARKER})
            text = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
        path = os.path.join(version, item["path"])
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.chmod(path, volume["configMap"].get("defaultMode", 0o644))
        top.add(item["path"].split("/")[0])

    data_link = os.path.join(dest, "..data")
    old = os.path.realpath(data_link) if os.path.islink(data_link) else None
    tmp_link = os.path.join(dest, "..data_tmp")
    os.symlink(stamp, tmp_link)
    os.rename(tmp_link, data_link)  # the atomic swap
    for name in top:
        link = os.path.join(dest, name)
        if not os.path.islink(link):
            os.symlink(os.path.join("..data", name), link)
    if old and os.path.isdir(old):
        shutil.rmtree(old)


if __name__ == "__main__":
    main()
