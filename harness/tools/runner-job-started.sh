#!/usr/bin/env bash
# The benchmark machine's own gate, run by the GitHub Actions runner before every job
# (ACTIONS_RUNNER_HOOK_JOB_STARTED; see docs/runners.md, "The machine's own gate"). The
# administrator installs a copy outside every directory the runner's account can write
# (e.g. /opt/jsio-bench/, owned by root): nothing in the repository, and so nothing in a pull
# request, can change what it admits. A non-zero exit fails the job before any of its steps.
#
# It admits a job only when all of these hold, and says which one failed otherwise:
#   - GITHUB_REPOSITORY is the configured repository;
#   - the job's workflow file is one of ours, from the default branch (GITHUB_WORKFLOW_REF
#     "<repo>/.github/workflows/<file>@refs/heads/<branch>"): bench.yml, calibrate.yml, pr.yml;
#     a fork's workflow, a pull request's copy of ours, or a file on another branch is refused;
#   - the event is one that workflow is run by (pr.yml: pull_request_target only).
# Then it empties the job's workspace, so every job starts from nothing another job left.
#
# Configuration: /etc/jsio-bench/runner.conf (JSIO_RUNNER_CONF overrides the path), plain
# KEY=value lines, read (never sourced):
#   repository=owner/jsio-bench      required
#   branch=main                      optional (default main)
set -euo pipefail
conf="${JSIO_RUNNER_CONF:-/etc/jsio-bench/runner.conf}"
refuse() { echo "jsio-bench runner gate: REFUSED: $*" >&2; exit 1; }

[ -r "$conf" ] || refuse "cannot read $conf (see docs/runners.md)"
repository="$(sed -n 's/^repository=\([A-Za-z0-9._/-]*\)$/\1/p' "$conf" | tail -n 1)"
branch="$(sed -n 's/^branch=\([A-Za-z0-9._/-]*\)$/\1/p' "$conf" | tail -n 1)"
branch="${branch:-main}"
[[ "$repository" =~ ^[A-Za-z0-9-]+/[A-Za-z0-9._-]+$ ]] || refuse "$conf has no valid repository=owner/name line"

[ "${GITHUB_REPOSITORY:-}" = "$repository" ] || refuse "repository '${GITHUB_REPOSITORY:-}' is not $repository"
ref="${GITHUB_WORKFLOW_REF:-}"
event="${GITHUB_EVENT_NAME:-}"
prefix="$repository/.github/workflows/"
suffix="@refs/heads/$branch"
case "$ref" in
  "${prefix}bench.yml${suffix}") events="push schedule workflow_dispatch" ;;
  "${prefix}calibrate.yml${suffix}") events="workflow_dispatch" ;;
  "${prefix}pr.yml${suffix}") events="pull_request_target" ;;
  *) refuse "workflow '$ref' is not one of bench.yml, calibrate.yml, pr.yml of $repository at refs/heads/$branch" ;;
esac
case " $events " in
  *" $event "*) ;;
  *) refuse "workflow '$ref' is not run by '$event' here (allowed: $events)" ;;
esac

# An empty workspace: only a directory inside the runner's work folder, never / or $HOME.
ws="${GITHUB_WORKSPACE:-}"
if [ -n "$ws" ] && [ -d "$ws" ]; then
  real="$(cd "$ws" && pwd -P)"
  case "$real" in
    / | "$HOME" | "$(cd "$HOME" 2>/dev/null && pwd -P)") refuse "GITHUB_WORKSPACE '$ws' is not a job workspace" ;;
  esac
  if [ -n "${RUNNER_WORKSPACE:-}" ]; then
    rw="$(cd "$RUNNER_WORKSPACE" 2>/dev/null && pwd -P)" || refuse "RUNNER_WORKSPACE '$RUNNER_WORKSPACE' is not a directory"
    case "$real/" in "$rw/"?*) ;; *) refuse "GITHUB_WORKSPACE '$ws' is not inside RUNNER_WORKSPACE '$RUNNER_WORKSPACE'" ;; esac
  fi
  find "$real" -mindepth 1 -maxdepth 1 -exec rm -rf -- {} +
fi
echo "jsio-bench runner gate: admitted $ref ($event); workspace emptied"
