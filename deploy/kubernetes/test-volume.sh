#!/usr/bin/env bash
# Runs the pod's view of the Kubernetes recipe without a cluster: the
# ConfigMap volume laid out as the kubelet does (kubelet-volume.py), and
# `aasa serve` started with the container's args and env from
# deployment.yaml (paths moved into a temp dir, ports made free). Checks that
# every host and the configured staging alias answer, that the probes'
# endpoints answer, and that an atomic ConfigMap swap is served after a poll.
#
#   deploy/kubernetes/test-volume.sh [path/to/aasa]     (default: .build/debug/aasa)
set -euo pipefail

test_name=k8s-volume-test
# shellcheck source=SCRIPTDIR/../lib/proxy-test.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/proxy-test.sh"

aasa_bin="${1:-.build/debug/aasa}"
[[ "$aasa_bin" == /* ]] || aasa_bin="$PWD/$aasa_bin"
[[ -x "$aasa_bin" ]] || fail "no aasa binary at $aasa_bin"
require_tools curl python3

kube="$repo/deploy/kubernetes"
volume="$work/volume"
python3 "$kube/kubelet-volume.py" "$volume" || fail "could not lay out the volume"

port="$(free_port)"
admin_port="$(free_port)"

# The container's args and env, with its mount path moved to the temp volume
# and a 1 s poll so the test is quick.
mapfile -t spec < <(python3 - "$kube/deployment.yaml" "$volume" "$port" "$admin_port" << 'PY'
import sys, yaml
path, volume, port, admin = sys.argv[1:]
pod = yaml.safe_load(open(path))["spec"]["template"]["spec"]
c = pod["containers"][0]
mount = next(m["mountPath"] for m in c["volumeMounts"] if m["name"] == "files")
args = [a.replace(mount, volume, 1) if a.startswith(mount) else a for a in c["args"]]
override = {"--port": port, "--admin-port": admin}
for i, a in enumerate(args[:-1]):
    if a in override:
        args[i + 1] = override[a]
env = {e["name"]: e["value"] for e in c["env"]}
env["AASA_FILES_POLL_INTERVAL"] = "1"
for k, v in env.items():
    print(f"env:{k}={v}")
for a in args:
    print(f"arg:{a}")
PY
)
args=()
envs=()
for line in "${spec[@]}"; do
    case "$line" in
        env:*) envs+=("${line#env:}") ;;
        arg:*) args+=("${line#arg:}") ;;
    esac
done
note "aasa ${args[*]}"

env "${envs[@]}" "$aasa_bin" "${args[@]}" > "$work/origin.log" 2>&1 &
origin_pid=$!
track_pid "$origin_pid"
# AASA_ADMIN_BIND=0.0.0.0 from the pod spec: reachable on loopback too.
wait_http "http://127.0.0.1:${admin_port}/healthz" "aasa serve" "$origin_pid"

check "readiness probe /readyz on the admin port: 200" expect_status http 127.0.0.1 "$admin_port" /readyz 200
check "liveness probe /healthz on the admin port: 200" expect_status http 127.0.0.1 "$admin_port" /healthz 200
for host in pastaio.example www.pastaio.example pastaio-de.example accounts.pastaio.example; do
    check "$host from the ConfigMap volume: 200, same bytes as aasa/" \
        expect_file http "$host" "$port" /.well-known/apple-app-site-association "aasa/$host/apple-app-site-association"
done
check "staging.pastaio.example via AASA_HOSTS_ALIASES: pastaio.example's file" \
    expect_file http staging.pastaio.example "$port" /.well-known/apple-app-site-association aasa/pastaio.example/apple-app-site-association
check "assetlinks.json from the volume" \
    expect_file http pastaio.example "$port" /.well-known/assetlinks.json aasa/pastaio.example/assetlinks.json

# The ConfigMap is updated: the kubelet swaps ..data atomically.
python3 "$kube/kubelet-volume.py" "$volume" --edit www.pastaio.example || fail "could not swap the volume"
swap_served() {
    local i
    for i in $(seq 1 50); do
        fetch http www.pastaio.example "$port" /.well-known/apple-app-site-association > /dev/null
        grep -q kubelet-volume-swap-marker "$work/body" && return 0
        sleep 0.2
    done
    echo "    the swapped file was not served within 10 s (poll interval 1 s)" >&2
    return 1
}
check "ConfigMap swap (..data renamed) served after a poll, no restart" swap_served
check "other hosts still served after the swap" \
    expect_file http pastaio.example "$port" /.well-known/apple-app-site-association aasa/pastaio.example/apple-app-site-association

finish
