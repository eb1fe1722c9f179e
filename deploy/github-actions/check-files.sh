#!/usr/bin/env bash
# The checks the swift-aasa action (action.yml at the repository root) runs,
# configured by the environment its inputs set:
#
#   AASA             the aasa executable (default: aasa on PATH)
#   DIRECTORY        the directory laid out for `aasa serve` (default: aasa)
#   LINKS            links files, one per line; empty: every DIRECTORY/<host>/links.json; none: skip
#   BUNDLE_ID        | APP_ID: the app the deep-linkable URLs must open
#   PACKAGE          the Android package for "platform": "android" entries
#   STRICT           true: warnings fail too (default: true)
#   FORMAT           github (annotations) or text (default: github)
#   JUNIT_DIRECTORY  also write the link tests' JUnit report there (aasa-links.xml)
#   SARIF_FILE       also write validate's findings as SARIF 2.1.0 there
#   CDN_DIFF         true: also compare Apple's CDN copy with the files
#
# Every check runs even when an earlier one fails, so one run reports
# everything; the exit status is the worst: 2 bad input, 1 findings, 0 clean.
set -uo pipefail

aasa="${AASA:-aasa}"
directory="${DIRECTORY:-aasa}"
format="${FORMAT:-github}"
worst=0

fail() {
    echo "::error title=swift-aasa::$1"
    exit 2
}

case "$format" in
    github | text) ;;
    *) fail "format must be github or text, not '$format'" ;;
esac
case "${STRICT:-true}" in
    true) strict=(--strict) ;;
    false) strict=() ;;
    *) fail "strict must be true or false, not '${STRICT}'" ;;
esac
case "${CDN_DIFF:-false}" in
    true | false) ;;
    *) fail "cdn-diff must be true or false, not '${CDN_DIFF}'" ;;
esac
[[ -d $directory ]] || fail "directory '$directory' does not exist"
app=()
[[ -n ${BUNDLE_ID:-} ]] && app+=(--bundle-id "$BUNDLE_ID")
[[ -n ${APP_ID:-} ]] && app+=(--app-id "$APP_ID")
[[ -n ${PACKAGE:-} ]] && app+=(--package "$PACKAGE")

# record STATUS: keeps the worst exit status seen (2 over 1 over 0; any
# other failure, such as a crash, counts as 2).
record() {
    local status=$1
    ((status > 1 || status < 0)) && status=2
    ((status > worst)) && worst=$status
    return 0
}

echo "::group::aasa validate $directory"
if [[ -n ${SARIF_FILE:-} ]]; then
    mkdir -p "$(dirname "$SARIF_FILE")"
    # Findings (1) are reported by the run below; only bad input fails here.
    "$aasa" validate "$directory" "${strict[@]}" --format sarif > "$SARIF_FILE"
    status=$?
    ((status == 1)) || record "$status"
fi
"$aasa" validate "$directory" "${strict[@]}" --format "$format"
record $?
echo "::endgroup::"

links_files=()
if [[ ${LINKS:-} == none ]]; then
    :
elif [[ -n ${LINKS:-} ]]; then
    while IFS= read -r line; do
        line="${line#"${line%%[![:space:]]*}"}"
        line="${line%"${line##*[![:space:]]}"}"
        [[ -n $line ]] && links_files+=("$line")
    done <<< "$LINKS"
else
    for host in "$directory"/*/; do
        host="${host%/}"
        # A symlinked host directory is an alias: its links are the target's.
        [[ -L $host || ! -f $host/links.json ]] && continue
        links_files+=("$host/links.json")
    done
    ((${#links_files[@]})) || echo "::notice title=swift-aasa::no links.json under $directory: no link tests"
fi

if ((${#links_files[@]})); then
    # One run for the whole brand: each URL against its own host's file.
    links_arguments=()
    for links in "${links_files[@]}"; do
        [[ -f $links ]] || { echo "::error title=swift-aasa::links file '$links' does not exist"; record 2; }
        links_arguments+=(--links "$links")
    done
    test_links=("$aasa" test-links --dir "$directory" "${links_arguments[@]}" "${app[@]}" "${strict[@]}")
    echo "::group::aasa test-links --dir $directory (${#links_files[@]} links files)"
    "${test_links[@]}" --format "$format"
    record $?
    if [[ -n ${JUNIT_DIRECTORY:-} ]]; then
        mkdir -p "$JUNIT_DIRECTORY"
        "${test_links[@]}" --format junit > "$JUNIT_DIRECTORY/aasa-links.xml"
        status=$?
        # The run above already counted failed links; a report that could
        # not be written is bad input.
        ((status == 1)) || record "$status"
    fi
    echo "::endgroup::"
fi

if [[ ${CDN_DIFF:-false} == true ]]; then
    echo "::group::aasa cdn-diff --from-dir $directory"
    "$aasa" cdn-diff --from-dir "$directory" "${strict[@]}"
    record $?
    echo "::endgroup::"
fi

case $worst in
    0) echo "swift-aasa: all checks passed" ;;
    1) echo "swift-aasa: findings (see above)" ;;
    *) echo "swift-aasa: bad input (see above)" ;;
esac
exit "$worst"
