#!/usr/bin/env bash
# Builds a release of the `aasa` command for Linux:
#
#   scripts/release.sh VERSION [--commit SHA] [--output DIR]
#
#   dist/aasa-VERSION-linux-ARCH.tar.gz         the install tree (below)
#   dist/aasa-VERSION-linux-ARCH.tar.gz.sha256  its SHA-256, for `sha256sum -c`
#
# The binary is built with `swift build -c release --static-swift-stdlib`
# (the Swift runtime and Foundation linked in; it needs only glibc, libstdc++
# and zlib from the system), linked with `--no-export-dynamic` (see below) and
# stripped. The tarball holds one directory:
#
#   aasa-VERSION-linux-ARCH/bin/aasa -> ../libexec/aasa/aasa
#   aasa-VERSION-linux-ARCH/libexec/aasa/    the binary and the resource bundles
#                                            SwiftPM loads from beside it
#   aasa-VERSION-linux-ARCH/share/aasa/schema/   the published JSON Schemas
#   aasa-VERSION-linux-ARCH/share/doc/aasa/      README.md, LICENSE
#
# so `tar -xzf aasa-….tar.gz -C /usr/local --strip-components=1` installs it.
#
# `aasa --version` must say what was built: the script builds a staged copy of
# the sources (never the working tree) in which Sources/aasa/Support/BuildInfo.swift
# carries VERSION and the commit. In a git checkout the commit is HEAD, and
# uncommitted changes to tracked files are refused (they would not be in the
# release the commit names). Outside git (a Docker build context), pass
# --commit. The Dockerfile runs this script, so the image holds the same binary.
#
# AASA_RELEASE_SCRATCH=DIR keeps the build directory (and the staged sources,
# at DIR/src) there between runs, so the dependencies are not rebuilt each
# time; by default both live in a temporary directory: a clean build.
set -euo pipefail

usage() {
    echo "usage: scripts/release.sh VERSION [--commit SHA] [--output DIR]" >&2
    exit 2
}

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
version=""
commit=""
output="$repo/dist"
while (($#)); do
    case "$1" in
        --commit) [[ $# -ge 2 ]] || usage; commit="$2"; shift 2 ;;
        --output) [[ $# -ge 2 ]] || usage; output="$2"; shift 2 ;;
        -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}"; exit 0 ;;
        -*) echo "release: unknown option $1" >&2; usage ;;
        *) [[ -z $version ]] || usage; version="$1"; shift ;;
    esac
done
[[ -n $version ]] || usage
# Semantic versioning (SARIF and package managers read it): 1.2.3, 1.2.3-rc.1.
if [[ ! $version =~ ^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]]; then
    echo "release: '$version' is not a version like 1.2.3 or 1.2.3-rc.1" >&2
    exit 2
fi
if [[ -n $commit && ! $commit =~ ^([0-9a-f]{7,40}|unknown)$ ]]; then
    echo "release: --commit takes a hexadecimal commit id (or 'unknown'), not '$commit'" >&2
    exit 2
fi
if [[ "$(uname -s)" != Linux ]]; then
    echo "release: builds the static Linux binary; on $(uname -s) build from source: swift build -c release" >&2
    exit 2
fi
case "$(uname -m)" in
    x86_64 | amd64) arch=x86_64 ;;
    aarch64 | arm64) arch=aarch64 ;;
    *) arch="$(uname -m)" ;;
esac
name="aasa-$version-linux-$arch"

work="$(mktemp -d "${TMPDIR:-/tmp}/aasa-release.XXXXXX")"
trap 'rm -rf "$work"' EXIT
if [[ -n ${AASA_RELEASE_SCRATCH:-} ]]; then
    # A fixed path: SwiftPM's build products are keyed by source paths.
    scratch="$AASA_RELEASE_SCRATCH"
    src="$scratch/src"
    rm -rf "$src"
else
    scratch="$work/build"
    src="$work/src"
fi
mkdir -p "$src"

# ------------------------------------------------------------ staged sources
if [[ -z $commit ]] && git -C "$repo" rev-parse --is-inside-work-tree > /dev/null 2>&1; then
    if ! git -C "$repo" diff --quiet HEAD --; then
        echo "release: the working tree has uncommitted changes; commit them or stash them first" >&2
        git -C "$repo" status --short --untracked-files=no >&2
        exit 2
    fi
    commit="$(git -C "$repo" rev-parse --short=12 HEAD)"
    source_date="$(git -C "$repo" log -1 --format=%ct HEAD)"
    git -C "$repo" archive --format=tar HEAD | tar -x -C "$src"
elif [[ -n $commit ]]; then
    source_date="${SOURCE_DATE_EPOCH:-0}"
    tar -C "$repo" -c --exclude=./.git --exclude=./.build --exclude='./.build-*' --exclude='./.build_*' \
        --exclude=./dist . | tar -x -C "$src"
else
    echo "release: not a git checkout; say which commit the sources are with --commit SHA" >&2
    exit 2
fi

build_info="$src/Sources/aasa/Support/BuildInfo.swift"
sed -i -e "s/^\(    static let version = \)\".*\"$/\1\"$version\"/" \
    -e "s/^\(    static let commit = \)\".*\"$/\1\"$commit\"/" "$build_info"
if ! grep -qxF "    static let version = \"$version\"" "$build_info" \
    || ! grep -qxF "    static let commit = \"$commit\"" "$build_info"; then
    echo "release: could not set the version in $build_info (its two constants moved?)" >&2
    exit 1
fi

# ------------------------------------------------------------------- build
# The toolchain's static-stdlib link exports every symbol of the program's own
# objects (42,000): the loader then has a table to search and the runtime's
# start-up `dladdr` walks all of it. Nothing resolves them from outside; kept
# unexported, `aasa --version` starts in 3.3 ms of CPU instead of 3.6.
build=(swift build -c release --static-swift-stdlib -Xlinker --no-export-dynamic --product aasa
    --package-path "$src" --scratch-path "$scratch")
echo "release: ${build[*]}"
started=$SECONDS
"${build[@]}"
bin="$("${build[@]}" --show-bin-path)"
echo "release: built in $((SECONDS - started))s"

# ------------------------------------------------------------------- stage
tree="$work/$name"
mkdir -p "$tree/bin" "$tree/libexec/aasa" "$tree/share/aasa/schema" "$tree/share/doc/aasa"
cp "$bin/aasa" "$tree/libexec/aasa/aasa"
strip --strip-all "$tree/libexec/aasa/aasa"
# SwiftPM's Bundle.module looks for the resource bundles beside the executable.
find -L "$bin" -maxdepth 1 -name '*.resources' -exec cp -RL {} "$tree/libexec/aasa/" \;
ln -s ../libexec/aasa/aasa "$tree/bin/aasa"
cp "$src"/schema/*.json "$tree/share/aasa/schema/"
cp "$src/README.md" "$src/LICENSE" "$tree/share/doc/aasa/"

# The binary says what it is, and it works from the staged tree (resources found).
expected="aasa $version (commit $commit)"
actual="$("$tree/bin/aasa" --version)"
if [[ $actual != "$expected" ]]; then
    echo "release: aasa --version says '$actual', expected '$expected'" >&2
    exit 1
fi
"$tree/bin/aasa" validate "$src/aasa" > /dev/null

# ----------------------------------------------------------------- package
mkdir -p "$output"
output="$(cd "$output" && pwd)"
tarball="$output/$name.tar.gz"
# Reproducible: fixed order, owner and times (the commit's date).
tar -C "$work" --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$source_date" \
    -c "$name" | gzip -9n > "$tarball"
(cd "$output" && sha256sum "$name.tar.gz" > "$name.tar.gz.sha256")

size() { stat -c %s "$1"; }
echo "release: $expected"
echo "release: binary $(size "$tree/libexec/aasa/aasa") bytes (static Swift runtime, stripped)"
echo "release: $tarball ($(size "$tarball") bytes)"
echo "release: $output/$name.tar.gz.sha256: $(cut -d' ' -f1 "$output/$name.tar.gz.sha256")"
