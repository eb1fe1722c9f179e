#!/usr/bin/env bash
# shellcheck disable=SC2317 # the check functions are called through check
# The release as a user gets it:
#
#   .ci/check-release.sh
#
# builds it with scripts/release.sh (a static release build: several minutes
# on two cores; the dependencies are kept in .build-release between runs),
# checks the SHA-256 file, installs the tarball into a temporary prefix the
# way the README says, and from there runs `aasa --version` (it must name the
# version and this commit) and `aasa validate` (the demo passes, a broken
# file fails with file:line:column). Needs a clean checkout: the release
# refuses uncommitted changes, since its commit would not describe them.
# Prints one line per check and "release: N passed, N failed".
set -uo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo" || exit 1
version="0.0.0-check"
work="$(mktemp -d "${TMPDIR:-/tmp}/aasa-check-release.XXXXXX")"
trap 'rm -rf "$work"' EXIT
passed=0
failed=0

# check NAME COMMAND...: one line per check; the command's output only on failure.
check() {
    local name="$1"
    shift
    if "$@" > "$work/check.log" 2>&1; then
        printf 'ok    %s\n' "$name"
        passed=$((passed + 1))
    else
        printf 'FAIL  %s\n' "$name"
        sed 's/^/      | /' "$work/check.log"
        failed=$((failed + 1))
    fi
}

finish() {
    echo "release: ${passed} passed, ${failed} failed"
    ((failed == 0))
    exit
}

started=$SECONDS
if ! AASA_RELEASE_SCRATCH="$repo/.build-release" scripts/release.sh "$version" --output "$work/dist" \
    > "$work/release.log" 2>&1; then
    tail -n 40 "$work/release.log"
    failed=$((failed + 1))
    finish
fi
grep '^release: ' "$work/release.log"
echo "check-release: release made in $((SECONDS - started))s"

commit="$(git rev-parse --short=12 HEAD)"
arch="$(uname -m)"
[[ $arch == amd64 ]] && arch=x86_64
[[ $arch == arm64 ]] && arch=aarch64
release_name="aasa-$version-linux-$arch"
prefix="$work/prefix"
aasa="$prefix/bin/aasa"

check "the SHA-256 file matches the tarball" bash -c "cd '$work/dist' && sha256sum -c '$release_name.tar.gz.sha256'"

install_tarball() {
    # The README's two lines, with a temporary prefix for /usr/local.
    mkdir -p "$prefix" && tar -xzf "$work/dist/$release_name.tar.gz" -C "$prefix" --strip-components=1
}
check "the tarball installs into a prefix" install_tarball

contents() {
    local path
    for path in bin/aasa libexec/aasa/aasa libexec/aasa/swift-aasa_AASAKit.resources \
        libexec/aasa/swift-aasa_AASAServer.resources share/aasa/schema/aasa-config.schema.json \
        share/doc/aasa/README.md share/doc/aasa/LICENSE share/aasa/schema/apple-app-site-association.schema.json; do
        [[ -e "$prefix/$path" ]] || { echo "missing: $path"; return 1; }
    done
}
check "it holds the binary, its resources, README, LICENSE, schema" contents

version_line() {
    local out
    out="$("$aasa" --version)" || return 1
    echo "$out"
    [[ $out == "aasa $version (commit $commit)" ]]
}
check "aasa --version names the version and commit" version_line

# The copy in the prefix, run from elsewhere, with the build tree out of the
# way: SwiftPM's Bundle.module falls back to the build directory's resources,
# which would hide a tarball that lacks them.
validate_demo() {
    local hidden="$repo/.build-release-hidden" status
    mv "$repo/.build-release" "$hidden" || return 1
    (cd "$work" && "$aasa" validate "$repo/aasa")
    status=$?
    mv "$hidden" "$repo/.build-release"
    return "$status"
}
check "aasa validate passes the demo from the prefix" validate_demo

validate_broken() {
    local file="$work/broken/apple-app-site-association" out status
    mkdir -p "$work/broken"
    printf '{"applinks":\n  {"details": 1}}\n' > "$file"
    out="$("$aasa" validate "$file")"
    status=$?
    echo "$out"
    [[ $status == 1 && $out == "$file:2:15: error: applinks.details: "* ]]
}
check "aasa validate fails a broken file with file:line:column (exit 1)" validate_broken

usage_error() {
    "$aasa" validate --no-such-option
    [[ $? == 2 ]]
}
check "a usage error exits 2" usage_error

no_swift_runtime_libraries() {
    local libraries
    libraries="$(ldd "$prefix/libexec/aasa/aasa")" || return 1
    echo "$libraries"
    ! grep -Eq 'libswift|libFoundation|libdispatch|libBlocksRuntime' <<< "$libraries"
}
check "the Swift runtime and Foundation are linked in" no_swift_runtime_libraries

stripped() {
    local sections
    sections="$(readelf -S "$prefix/libexec/aasa/aasa")" || return 1
    ! grep -q '\.symtab' <<< "$sections" || { echo "the binary has a symbol table"; return 1; }
}
check "the binary is stripped" stripped

finish
