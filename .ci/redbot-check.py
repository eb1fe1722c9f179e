#!/usr/bin/env python3
"""Lint every response `aasa serve` sends with REDbot ("lint for HTTP").

    redbot-check.py PORT

Runs REDbot against an origin on 127.0.0.1:PORT serving the demo brand plus
tiny.example (started by .ci/check-http.sh), once per target below: each
route, with and without gzip, as GET and HEAD, plus the 304, 400, 404, 405,
412 and 431 answers. Every host
name resolves to 127.0.0.1 here (like curl's --resolve): REDbot derives Host
from the URL, so each request names its real host and gets that host's files.

A target fails when REDbot reports any BAD or WARN note, when the status is not
the one expected (a 404 everywhere would otherwise lint clean), or when the
validation and negotiation checks REDbot runs on a 200 did not find what the
origin promises (304 for If-None-Match and If-Modified-Since, gzip where it is
smaller). Prints one line per target and a closing "N passed, N failed" line;
exits 1 when any target failed.
"""

import configparser
import http.client
import socket
import sys
from dataclasses import dataclass, field
from typing import List, Optional, Tuple

import thor
import thor.dns
from httplint.note import levels
from redbot.resource import HttpResource

AASA = "/.well-known/apple-app-site-association"
LEGACY = "/apple-app-site-association"
ASSETLINKS = "/.well-known/assetlinks.json"
GZIP = [("Accept-Encoding", "gzip")]
DEADLINE_SECONDS = 120


@dataclass
class Target:
    description: str
    host: str
    path: str
    status: int
    method: str = "GET"
    headers: List[Tuple[str, str]] = field(default_factory=list)
    # For a 200: whether REDbot's negotiation check must find gzip (None: no
    # negotiation check runs, because the request already asks for gzip).
    gzip: Optional[bool] = None
    # Notes about the request, not the response, that this target provokes
    # on purpose: REDbot warns on every 400 that it "didn't understand".
    expected_notes: Tuple[str, ...] = ()


def targets(etag: str, last_modified: str) -> List[Target]:
    "Every kind of answer the origin gives; etag/last_modified are the demo file's."
    found = []
    for path in (AASA, LEGACY, ASSETLINKS):
        found += [
            Target(f"GET {path}", "pastaio.example", path, 200, gzip=True),
            Target(f"GET {path} (gzip)", "pastaio.example", path, 200, headers=GZIP),
            Target(f"HEAD {path}", "pastaio.example", path, 200, method="HEAD", gzip=True),
        ]
    return found + [
        # A file too small for gzip to pay: always identity.
        Target("GET, gzip not smaller", "tiny.example", AASA, 200, gzip=False),
        Target("GET, gzip not smaller (gzip)", "tiny.example", AASA, 200, headers=GZIP),
        Target("HEAD, gzip not smaller", "tiny.example", AASA, 200, method="HEAD", gzip=False),
        Target("304 If-None-Match", "pastaio.example", AASA, 304, headers=[("If-None-Match", etag)]),
        Target("304 If-Modified-Since", "pastaio.example", AASA, 304, headers=[("If-Modified-Since", last_modified)]),
        Target("412 If-Match", "pastaio.example", AASA, 412, headers=[("If-Match", '"stale"')]),
        Target("404 unknown path", "pastaio.example", "/index.html", 404),
        Target("404 unknown host", "unknown.example", AASA, 404),
        Target("405 POST", "pastaio.example", AASA, 405, method="POST"),
        Target("400 invalid Host", "-bad.example", AASA, 400, expected_notes=("STATUS_BAD_REQUEST",)),
        Target("431 oversized head", "pastaio.example", AASA, 431, headers=[("X-Padding", "x" * 9000)]),
    ]


def resolve_to_loopback(host: bytes, port: int, socktype: int):
    "Every name is 127.0.0.1: the test never leaves the machine."
    return [(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_IP, "", ("127.0.0.1", port))]


def run_all(config: configparser.SectionProxy, port: int, targets: List[Target]) -> List[HttpResource]:
    "Runs every target at once in one event loop (thor's loop runs once per process)."
    resources = []
    pending = len(targets)

    def finished() -> None:
        nonlocal pending
        pending -= 1
        if pending == 0:
            thor.stop()

    for target in targets:
        resource = HttpResource(config)
        resource.set_request(f"http://{target.host}:{port}{target.path}", method=target.method, headers=target.headers)
        resource.on("check_done", finished)
        resources.append(resource)
    # A deadline for the whole run: a hung exchange fails its target, never the job.
    thor.schedule(DEADLINE_SECONDS, thor.stop)
    for resource in resources:
        resource.check()
    thor.run()
    return resources


def validators(port: int) -> Tuple[int, Optional[str], Optional[str]]:
    "Status, ETag and Last-Modified of the demo file, fetched directly."
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("GET", AASA, headers={"Host": "pastaio.example"})
    response = connection.getresponse()
    response.read()
    connection.close()
    return response.status, response.getheader("ETag"), response.getheader("Last-Modified")


def problems(resource: HttpResource, target: Target) -> List[str]:
    found = []
    if not resource.check_done:
        return [f"REDbot did not finish within {DEADLINE_SECONDS} s"]
    response = resource.response
    if resource.fetch_error is not None:
        found.append(f"fetch failed: {resource.fetch_error.desc}")
    if response.status_code != target.status:
        found.append(f"status {response.status_code}, expected {target.status}")
    for note in response.notes:
        if note.level in (levels.BAD, levels.WARN) and type(note).__name__ not in target.expected_notes:
            found.append(f"{note.level.name} {type(note).__name__}: {note.summary}")
    if target.status == 200:
        # The active checks must have run and found the validators working:
        # without them a server ignoring every condition would lint clean.
        if resource.inm_support is not True:
            found.append("If-None-Match revalidation did not answer 304")
        if resource.ims_support is not True:
            found.append("If-Modified-Since revalidation did not answer 304")
        if target.gzip is not None and resource.gzip_support is not target.gzip:
            found.append(f"gzip negotiation: expected {target.gzip}, REDbot found {resource.gzip_support}")
    return found


def main() -> int:
    port = int(sys.argv[1])
    thor.dns._lookup = resolve_to_loopback  # pylint: disable=protected-access
    parser = configparser.ConfigParser()
    parser.read_dict({"redbot": {"enable_local_access": "True"}})
    config = parser["redbot"]

    # The validators to revalidate with, read from the origin itself.
    status, etag, last_modified = validators(port)
    if status != 200 or etag is None or last_modified is None:
        print(f"FAIL probe: no 200 with ETag and Last-Modified from 127.0.0.1:{port} (status {status})")
        print("0 passed, 1 failed")
        return 1

    passed = failed = 0
    planned = targets(etag, last_modified)
    for target, resource in zip(planned, run_all(config, port, planned)):
        found = problems(resource, target)
        if found:
            failed += 1
            print(f"FAIL {target.description}")
            for problem in found:
                print(f"     {problem}")
        else:
            passed += 1
            print(f"PASS {target.description} ({resource.response.status_code})")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
