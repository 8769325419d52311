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
#     "<repo>/.github/workflows/<file>@refs/heads/<branch>"): bench.yml, calibrate.yml,
#     releases.yml (the trusted level's) or pr.yml (the pull-request level's);
#     a fork's workflow, a pull request's copy of ours, or a file on another branch is refused;
#   - the event is one that workflow is run by (pr.yml: pull_request_target only).
# Then it empties the job's workspace, so every job starts from nothing another job left.
#
# With two agents on one machine, one per trust level and account (docs/runners.md, "One account
# per trust level"), it also admits only its level's workflows, checks that it runs as its account,
# and waits until the machine is free: one job at a time on the machine, whichever agent runs it.
#
# Configuration: /etc/jsio-bench/runner.conf (JSIO_RUNNER_CONF overrides the path), plain
# KEY=value lines, read (never sourced); harness/tools/setup-runner.sh writes one per level:
#   repository=owner/jsio-bench      required
#   branch=main                      optional (default main)
#   level=trusted|pr                 optional: trusted admits bench.yml, calibrate.yml and releases.yml,
#                                    pr pr.yml
#   account=NAME                     optional: the agent's account; the hooks refuse any other
#   lock=DIR                         optional: the machine's lock directory (mode 1777)
#   lock_wait=SECONDS                optional: how long to wait for the machine (default 21600)
set -euo pipefail
conf="${JSIO_RUNNER_CONF:-/etc/jsio-bench/runner.conf}"
refuse() { echo "jsio-bench runner gate: REFUSED: $*" >&2; exit 1; }

[ -r "$conf" ] || refuse "cannot read $conf (see docs/runners.md)"
setting() { sed -n "s/^$1=\\([A-Za-z0-9._/-]*\\)\$/\\1/p" "$conf" | tail -n 1; }
repository="$(setting repository)"
branch="$(setting branch)"
branch="${branch:-main}"
level="$(setting level)"
account="$(setting account)"
lock="$(setting lock)"
lock_wait="$(setting lock_wait)"
lock_wait="${lock_wait:-21600}"
[[ "$repository" =~ ^[A-Za-z0-9-]+/[A-Za-z0-9._-]+$ ]] || refuse "$conf has no valid repository=owner/name line"
[[ "$lock_wait" =~ ^[0-9]+$ ]] || refuse "$conf: lock_wait must be a number of seconds"
if [ -n "$account" ] && [ "$(id -un)" != "$account" ]; then
  refuse "this agent runs as $(id -un), not as its level's account $account"
fi

[ "${GITHUB_REPOSITORY:-}" = "$repository" ] || refuse "repository '${GITHUB_REPOSITORY:-}' is not $repository"
ref="${GITHUB_WORKFLOW_REF:-}"
event="${GITHUB_EVENT_NAME:-}"
prefix="$repository/.github/workflows/"
suffix="@refs/heads/$branch"
case "$ref" in
  "${prefix}bench.yml${suffix}") events="push schedule workflow_dispatch" wanted=trusted ;;
  "${prefix}calibrate.yml${suffix}") events="workflow_dispatch" wanted=trusted ;;
  "${prefix}releases.yml${suffix}") events="schedule workflow_dispatch" wanted=trusted ;;
  "${prefix}pr.yml${suffix}") events="pull_request_target" wanted=pr ;;
  *) refuse "workflow '$ref' is not one of bench.yml, calibrate.yml, releases.yml, pr.yml of $repository at refs/heads/$branch" ;;
esac
case "$level" in
  "" | "$wanted") ;;
  trusted | pr) refuse "workflow '$ref' is not for the $level level's agent (it runs on the $wanted level's)" ;;
  *) refuse "$conf: level must be trusted or pr" ;;
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

# One job at a time on the machine. The lock is a directory made in a sticky directory: only its
# owner (this level's account) can remove it. A lock of this account's own is from its previous
# job (an agent runs one job at a time) whose completed hook did not run: it is taken over.
if [ -n "$lock" ]; then
  [ -d "$lock" ] || refuse "lock directory $lock is missing (see docs/runners.md)"
  waited=0
  until mkdir "$lock/busy" 2>/dev/null; do
    if [ -O "$lock/busy" ]; then
      rm -rf "$lock/busy"
      continue
    fi
    [ "$waited" -lt "$lock_wait" ] || refuse "the machine is still busy with another level's job after ${lock_wait}s"
    [ "$waited" -gt 0 ] || echo "jsio-bench runner gate: waiting for the other level's job to finish" >&2
    sleep 1
    waited=$((waited + 1))
  done
fi
echo "jsio-bench runner gate: admitted $ref ($event); workspace emptied"
