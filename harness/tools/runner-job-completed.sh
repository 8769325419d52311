#!/usr/bin/env bash
# Run by the GitHub Actions runner after every job (ACTIONS_RUNNER_HOOK_JOB_COMPLETED; see
# docs/runners.md). Installed, like runner-job-started.sh, outside every directory the runner's
# account can write. It removes what the job left in its workspace and the per-job HOME the
# workflows use ($RUNNER_TEMP/home), so no file of a pull-request job stays on the machine for
# the next job (the pull-request level caches under $RUNNER_TOOL_CACHE/jsio-bench/pr are kept:
# only pull-request jobs read them).
set -euo pipefail
for dir in "${GITHUB_WORKSPACE:-}" "${RUNNER_TEMP:+$RUNNER_TEMP/home}"; do
  if [ -z "$dir" ] || [ ! -d "$dir" ]; then continue; fi
  real="$(cd "$dir" && pwd -P)"
  case "$real" in
    / | "$(cd "$HOME" 2>/dev/null && pwd -P)") echo "jsio-bench runner cleanup: not emptying '$dir'" >&2; continue ;;
  esac
  find "$real" -mindepth 1 -maxdepth 1 -exec rm -rf -- {} +
done
echo "jsio-bench runner cleanup: workspace and per-job HOME emptied"
