#!/usr/bin/env bash
# The shell steps of the GitHub Action (action.yml), kept here so that they run and are tested
# outside GitHub (Scripts/action-test). Usage: Scripts/action.sh install|check
#
# Reads only environment variables: action.yml maps every input to a POLICYC_ACTION_* variable,
# and GitHub sets GITHUB_OUTPUT, GITHUB_PATH, GITHUB_STEP_SUMMARY, GITHUB_EVENT_NAME, GITHUB_BASE_REF,
# GITHUB_REPOSITORY, RUNNER_OS and RUNNER_TEMP.
#
# install  puts policyc on the runner: POLICYC_ACTION_BINARY as is; or built from POLICYC_ACTION_PATH
#          with the runner's Swift (POLICYC_ACTION_BUILD_FROM_SOURCE=true); or the release tarball of
#          POLICYC_ACTION_VERSION (default: the action's tag, POLICYC_ACTION_REF) from
#          POLICYC_ACTION_RELEASE_URL (default: the GitHub release of POLICYC_ACTION_REPOSITORY; a
#          folder or file:// URL also works), its checksum verified against the release's SHA256SUMS.
#          Outputs: policyc (the path), version.
# check    runs lint --format github, generate --check and, on pull requests, diff --base with the
#          markdown report in the job summary and, with POLICYC_ACTION_COMMENT=true, as a comment.
#          Outputs: lint-status, generate-status, review-status, review-file. Exits 1 when a check
#          failed (2 when policyc could not read its input), after running all of them.
set -euo pipefail

fail() { printf '::error title=policyc action::%s\n' "$*"; printf 'policyc action: %s\n' "$*" >&2; exit 1; }
output() { printf '%s=%s\n' "$1" "$2" >> "${GITHUB_OUTPUT:-/dev/null}"; }
is_true() { [[ ${1:-} == true ]]; }

# Copies $1 (a URL, file:// URL or local path) to the file $2.
fetch() {
    case "$1" in
        http://*|https://*) curl --fail --silent --show-error --location --retry 3 --output "$2" "$1" ;;
        file://*) cp "${1#file://}" "$2" ;;
        *) cp "$1" "$2" ;;
    esac
}

install() {
    local policyc
    if [[ -n ${POLICYC_ACTION_BINARY:-} ]]; then
        [[ -x $POLICYC_ACTION_BINARY ]] || fail "binary: '$POLICYC_ACTION_BINARY' is not an executable file"
        policyc=$(cd "$(dirname "$POLICYC_ACTION_BINARY")" && pwd)/$(basename "$POLICYC_ACTION_BINARY")
    elif is_true "${POLICYC_ACTION_BUILD_FROM_SOURCE:-false}"; then
        local source=${POLICYC_ACTION_PATH:?}
        command -v swift >/dev/null || fail "build-from-source needs Swift 6 on the runner (e.g. swift-actions/setup-swift)"
        if ! pkg-config --exists yaml-0.1 2>/dev/null; then
            echo "installing libyaml-dev" >&2
            local sudo=; [[ $(id -u) == 0 ]] || sudo=sudo
            $sudo apt-get update -qq && $sudo apt-get install -y -qq libyaml-dev >/dev/null ||
                fail "build-from-source needs libyaml-dev, and apt-get could not install it"
        fi
        echo "::group::swift build -c release --product policyc (in $source)"
        swift build -c release --product policyc --package-path "$source" >&2
        echo "::endgroup::"
        policyc=$(swift build -c release --product policyc --package-path "$source" --show-bin-path)/policyc
    else
        local tag=${POLICYC_ACTION_VERSION:-${POLICYC_ACTION_REF:-}}
        [[ -n $tag ]] || fail "no release to download: the action is used from a path (uses: ./); set version, binary or build-from-source: true"
        local version=${tag#v}
        [[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.+-]*)?$ ]] ||
            fail "'$tag' is not a release tag: pin one (uses: OWNER/policyc@v0.3.0), or set version, binary or build-from-source: true"
        [[ ${RUNNER_OS:-Linux} == Linux ]] || fail "releases are Linux binaries; on ${RUNNER_OS} use build-from-source: true"
        . "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
        local arch=$policyc_arch
        [[ -n $arch ]] || fail "no release for the architecture $(uname -m); use build-from-source: true"
        local asset="policyc-$version-linux-$arch.tar.gz"
        local url=${POLICYC_ACTION_RELEASE_URL:-https://github.com/${POLICYC_ACTION_REPOSITORY:?}/releases/download/$tag}
        url=${url%/}
        local dir
        dir=$(mktemp -d "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/policyc-$version.XXXXXX")
        fetch "$url/SHA256SUMS" "$dir/SHA256SUMS" || fail "cannot download $url/SHA256SUMS"
        fetch "$url/$asset" "$dir/$asset" || fail "cannot download $url/$asset"
        # Exactly the line of this file; a missing line is a failure, not a skipped check.
        local line
        line=$(grep -E "^[0-9a-f]{64}  $asset\$" "$dir/SHA256SUMS") || fail "SHA256SUMS from $url has no line for $asset"
        (cd "$dir" && printf '%s\n' "$line" | sha256sum --check --status) ||
            fail "$asset does not match its SHA256SUMS line: refusing to run it"
        tar -xzf "$dir/$asset" -C "$dir" policyc
        policyc="$dir/policyc"
        echo "$asset: checksum verified ($url)" >&2
    fi
    local version
    version=$("$policyc" --version) || fail "$policyc does not run"
    echo "policyc $version at $policyc" >&2
    output policyc "$policyc"
    output version "$version"
    dirname "$policyc" >> "${GITHUB_PATH:-/dev/null}"
}

# policyc verify --format github on the recordings POLICYC_ACTION_VERIFY's globs match (`**`
# crosses folders); sets verify_status and worst. A glob that matches nothing is an error: a
# check of no traffic must not look clean.
verify_recordings() {
    [[ -n ${POLICYC_ACTION_VERIFY:-} ]] || return 0
    local recordings=() pattern matched
    set -f
    # shellcheck disable=SC2206
    local patterns=(${POLICYC_ACTION_VERIFY})
    set +f
    shopt -s globstar nullglob
    for pattern in "${patterns[@]}"; do
        # shellcheck disable=SC2206
        matched=($pattern)
        ((${#matched[@]})) || { echo "::error title=policyc verify::no recording matches '$pattern'"; verify_status=2; }
        recordings+=("${matched[@]}")
    done
    shopt -u globstar nullglob
    if ((${#recordings[@]})); then
        local status=0
        echo "::group::policyc verify --format github"
        "$1" verify --format github "${recordings[@]}" > "$2/policyc-verify.txt" || status=$?
        cat "$2/policyc-verify.txt"
        echo "::endgroup::"
        verify_status=$((status > ${verify_status:-0} ? status : ${verify_status:-0}))
    fi
    worst=$((verify_status > worst ? verify_status : worst))
}

check() {
    local policyc=${POLICYC_ACTION_POLICYC:?the install step gave no policyc}
    local paths=() generate=() summary=${GITHUB_STEP_SUMMARY:-/dev/null}
    # Paths split on white space, never globbed.
    set -f
    # shellcheck disable=SC2206
    paths=(${POLICYC_ACTION_PATHS:-})
    set +f
    [[ -z ${POLICYC_ACTION_OUT:-} ]] || generate+=(--out "$POLICYC_ACTION_OUT")
    [[ -z ${POLICYC_ACTION_KOTLIN_PACKAGE:-} ]] || generate+=(--kotlin-package "$POLICYC_ACTION_KOTLIN_PACKAGE")

    local lint_status=0 generate_status= review_status= review_file= worst=0 generate_note=
    local scratch=${RUNNER_TEMP:-${TMPDIR:-/tmp}}
    echo "::group::policyc lint --format github"
    "$policyc" lint --format github "${paths[@]}" > "$scratch/policyc-lint.txt" || lint_status=$?
    cat "$scratch/policyc-lint.txt"
    echo "::endgroup::"
    output lint-status "$lint_status"
    worst=$((lint_status > worst ? lint_status : worst))

    if is_true "${POLICYC_ACTION_GENERATE_CHECK:-true}"; then
        generate_status=0
        echo "::group::policyc generate --check"
        "$policyc" generate --check "${generate[@]}" "${paths[@]}" > "$scratch/policyc-generate.txt" 2>&1 || generate_status=$?
        cat "$scratch/policyc-generate.txt"
        echo "::endgroup::"
        worst=$((generate_status > worst ? generate_status : worst))
        if ((generate_status == 1)); then
            generate_failure "$scratch/policyc-lint.txt" "$scratch/policyc-generate.txt"
        fi
    fi
    output generate-status "$generate_status"
    local verify_status=
    verify_recordings "$policyc" "$scratch"
    output verify-status "$verify_status"

    # Formatting, when asked for: the files that `policyc fmt` would change, each an error
    # annotation, and the diff in the log.
    local fmt_status=
    if is_true "${POLICYC_ACTION_FMT:-false}"; then
        fmt_status=0
        echo "::group::policyc fmt --check"
        "$policyc" fmt --check "${paths[@]}" > "$scratch/policyc-fmt.txt" || fmt_status=$?
        if ((fmt_status == 1)); then
            "$policyc" fmt --diff "${paths[@]}" || true
            while IFS= read -r file; do
                [[ -z $file ]] || echo "::error file=$file,title=policyc fmt::$file is not formatted; run policyc fmt"
            done < "$scratch/policyc-fmt.txt"
        fi
        echo "::endgroup::"
        worst=$((fmt_status > worst ? fmt_status : worst))
    fi
    output fmt-status "$fmt_status"

    {
        echo "### policyc $("$policyc" --version)"
        echo
        echo "| check | result |"
        echo "|---|---|"
        echo "| \`lint\` | $(verdict "$lint_status") |"
        [[ -z $generate_status ]] || echo "| \`generate --check\` | $(verdict "$generate_status")${generate_note:+ ($generate_note)} |"
        [[ -z $verify_status ]] || echo "| \`verify\` (recorded traffic) | $(verdict "$verify_status") |"
        [[ -z $fmt_status ]] || echo "| \`fmt --check\` | $(verdict "$fmt_status") |"
    } >> "$summary"

    case "${GITHUB_EVENT_NAME:-}" in pull_request|pull_request_target) ;; *) POLICYC_ACTION_REVIEW=false ;; esac
    if is_true "${POLICYC_ACTION_REVIEW:-true}"; then
        local base=${POLICYC_ACTION_BASE:-${POLICYC_ACTION_PR_BASE_SHA:-}}
        if [[ -z $base && -n ${GITHUB_BASE_REF:-} ]]; then
            base=$GITHUB_BASE_REF
            git rev-parse --verify --quiet "origin/$base^{commit}" >/dev/null && base="origin/$base"
        fi
        [[ -n $base ]] || fail "a pull request without a base: set the base input"
        # A shallow checkout (actions/checkout's default) lacks the base commit: fetch just it.
        if ! git rev-parse --verify --quiet "$base^{commit}" >/dev/null; then
            git fetch --quiet --no-tags --depth=1 origin "$base" 2>/dev/null ||
                echo "::warning title=policyc review::cannot fetch the base $base; use actions/checkout with fetch-depth: 0"
        fi
        # The pull request's own diff is against the merge base: a moved base branch is not part of it.
        local review_base=("$base")
        if merge_base=$(merge_base "$base"); then
            echo "reviewing against $merge_base, the merge base of $base and HEAD" >&2
            review_base=("$merge_base" --base-exact)
        else
            echo "::warning title=policyc review::no merge base of $base and HEAD in this checkout (fetch-depth: 0 gives it); policyc diff looks for it itself"
        fi
        local allow=()
        is_true "${POLICYC_ACTION_ALLOW_WORSE:-false}" && allow+=(--allow-worse)
        is_true "${POLICYC_ACTION_ALLOW_BREAKING:-false}" && allow+=(--allow-breaking)
        is_true "${POLICYC_ACTION_ALLOW_LOOSEN:-false}" && allow+=(--allow-loosen)
        is_true "${POLICYC_ACTION_ALLOW_WIDEN:-false}" && allow+=(--allow-widen)
        review_file="$scratch/policyc-review.md"
        review_status=0
        echo "::group::policyc diff --base ${review_base[*]} ${allow[*]} --format markdown"
        "$policyc" diff --base "${review_base[@]}" "${allow[@]}" --format markdown "${paths[@]}" > "$review_file" || review_status=$?
        cat "$review_file"
        echo "::endgroup::"
        worst=$((review_status > worst ? review_status : worst))
        {
            echo "| \`diff --base\` | $(verdict "$review_status") |"
            echo
            cat "$review_file"
        } >> "$summary"
        if is_true "${POLICYC_ACTION_COMMENT:-false}"; then comment "$review_file"; fi
    fi
    output review-status "$review_status"
    output review-file "$review_file"
    exit "$worst"
}

# The merge base of $1 and HEAD; a shallow checkout is deepened to find it. Fails when there is none.
merge_base() {
    git merge-base "$1" HEAD 2>/dev/null && return 0
    [[ $(git rev-parse --is-shallow-repository 2>/dev/null) == true ]] || return 1
    git fetch --quiet --no-tags --unshallow origin 2>/dev/null || return 1
    git merge-base "$1" HEAD 2>/dev/null
}

# Why generate --check failed, with an error annotation, and in words for the summary
# (generate_note): generate refuses policies with errors, and then nothing was compared (an
# expired waiver is named as that); else the generated code is out of date. $1: lint's
# annotations, $2: generate's output.
generate_failure() {
    local expired line
    if grep -q "errors\? to fix first" "$2"; then
        expired=$(sed -n 's/^::error [^:]*title=waiver-expired::\([^%]*\).*/\1/p' "$1" | head -n 3)
        if [[ -n $expired ]]; then
            while IFS= read -r line; do
                echo "::error title=policyc: a waiver expired::$line; renew the waiver with a new expiry or fix the policy (generate refuses the policies until then; the generated code was not compared)"
            done <<< "$expired"
            generate_note="a waiver expired: generate refuses the policies, the generated code was not compared"
        else
            echo "::error title=policyc generate --check::the policies have errors (see lint), so generate refuses them; the generated code was not compared"
            generate_note="the policies have errors: the generated code was not compared"
        fi
        return 0
    fi
    echo "::error title=policyc generate --check::the generated code is not what policyc generate makes from the policies; run policyc generate and commit the result"
    generate_note="the generated code is out of date"
}

verdict() {
    case "$1" in 0) echo "passed" ;; 1) echo "**failed**" ;; *) echo "**error** (exit $1)" ;; esac
}

# Posts the review on the pull request, or updates the one posted before (found by its marker).
# When it cannot, a warning says why: too large for a comment, a fork's read-only token, or what
# GitHub's API answered. The review is in the job summary either way.
comment() {
    local file="$1" marker='<!-- policyc review -->' body id size answer
    local pr=${POLICYC_ACTION_PR_NUMBER:-} why="the review is in the job summary"
    if [[ -z $pr ]] || ! command -v gh >/dev/null; then
        echo "::warning title=policyc review::no comment posted (needs gh and a pull request number); $why"
        return 0
    fi
    body="$(dirname "$file")/policyc-comment.md"
    { echo "$marker"; cat "$file"; } > "$body"
    size=$(LC_ALL=C.UTF-8 wc -m < "$body")
    if ((size > 65536)); then
        echo "::warning title=policyc review::no comment posted: the review is $size characters, over GitHub's limit of 65,536 for a comment; $why"
        return 0
    fi
    local head_repo=${POLICYC_ACTION_PR_HEAD_REPO:-}
    if [[ ${GITHUB_EVENT_NAME:-} == pull_request && -n $head_repo && $head_repo != "${GITHUB_REPOSITORY:-}" ]]; then
        echo "::warning title=policyc review::no comment posted: a pull request from a fork ($head_repo) runs with a read-only token; $why (to comment on forks, post it from a workflow_run or pull_request_target workflow)"
        return 0
    fi
    id=$(gh api "repos/$GITHUB_REPOSITORY/issues/$pr/comments" --paginate \
        --jq ".[] | select(.body | startswith(\"$marker\")) | .id" 2>/dev/null | tail -n 1) || id=
    if [[ -n $id ]]; then
        answer=$(gh api --method PATCH "repos/$GITHUB_REPOSITORY/issues/comments/$id" -F "body=@$body" 2>&1 >/dev/null)
    else
        answer=$(gh pr comment "$pr" --repo "$GITHUB_REPOSITORY" --body-file "$body" 2>&1 >/dev/null)
    fi && return 0
    answer=$(printf '%s' "$answer" | tr '\n' ' ' | cut -c1-300)
    case "$answer" in
        *"Resource not accessible by integration"*|*"HTTP 403"*|*"(403)"*)
            echo "::warning title=policyc review::no comment posted: the token may not write comments (give the job permissions: pull-requests: write; a fork's token is read-only); GitHub answered: $answer; $why" ;;
        *"body is too long"*|*"HTTP 422"*)
            echo "::warning title=policyc review::no comment posted: GitHub refused the body ($answer); $why" ;;
        *)
            echo "::warning title=policyc review::no comment posted: GitHub's API answered: ${answer:-nothing}; $why" ;;
    esac
}

case "${1:-}" in
    install) install ;;
    check) check ;;
    *) echo "usage: Scripts/action.sh install|check" >&2; exit 2 ;;
esac
