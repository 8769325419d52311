#!/usr/bin/env bash
# Publishes to a branch (gh-pages) without losing anyone's work: start from the remote branch,
# run the (idempotent) update command, commit, push; if another publisher pushed first, start
# again from their result. Usage: publish-to-branch.sh DIR BRANCH MESSAGE -- COMMAND [ARGS...]
# DIR is a clone whose `origin` is the repository; COMMAND runs inside DIR.
# PUBLISH_TOKEN (optional) is the token for fetch and push. It reaches git only through
# environment-only configuration (GIT_CONFIG_COUNT/KEY/VALUE: an http.extraheader for
# https://github.com/), never in a URL or a file, so nothing on disk (.git/config included) holds
# it; the update command does not see it at all.
set -euo pipefail
token="${PUBLISH_TOKEN:-}"
unset PUBLISH_TOKEN
# git for the commands that talk to the remote: with the token, when there is one.
net() {
  if [ -z "$token" ]; then git "$@"; return; fi
  local n="${GIT_CONFIG_COUNT:-0}" header
  header="AUTHORIZATION: basic $(printf 'x-access-token:%s' "$token" | base64 | tr -d '\n')"
  env GIT_CONFIG_COUNT=$((n + 1)) "GIT_CONFIG_KEY_$n=http.https://github.com/.extraheader" "GIT_CONFIG_VALUE_$n=$header" git "$@"
}
usage='usage: publish-to-branch.sh DIR BRANCH MESSAGE -- COMMAND [ARGS...]'
case "${1:-}" in -h | --help)
  echo "$usage"
  echo 'Runs COMMAND inside the clone DIR on a fresh copy of origin/BRANCH, commits it with MESSAGE and pushes, retrying when another publisher pushed first.'
  exit 0
  ;;
esac
# Before any git command: a missing argument must not reach `git clean` in some other folder.
[ "$#" -ge 3 ] || { echo "publish-to-branch: $usage" >&2; exit 2; }
dir="$1"
branch="$2"
message="$3"
shift 3
[ "${1:-}" = "--" ] && shift
[ "$#" -gt 0 ] || { echo "publish-to-branch: no update command given" >&2; exit 2; }
tries="${PUBLISH_TRIES:-6}"
cd "$dir"
for attempt in $(seq 1 "$tries"); do
  if net fetch --quiet origin "$branch" 2>/dev/null; then
    git checkout --quiet -B "$branch" "origin/$branch"
    git reset --quiet --hard "origin/$branch"
    git clean --quiet -fdx
  else
    # First publish: the branch does not exist yet. A rejected first push left a local branch of
    # that name (with its commit): drop it, or --orphan refuses and the retry never happens.
    git update-ref -d "refs/heads/$branch" 2>/dev/null || true
    git checkout --quiet --orphan "$branch"
    git rm --quiet -rf --cached . >/dev/null 2>&1 || true
    git clean --quiet -fdx
  fi
  "$@"
  git add -A
  if git diff --cached --quiet; then
    echo "publish-to-branch: nothing changed"
    exit 0
  fi
  git -c user.name="${GIT_AUTHOR_NAME:-jsio-bench}" -c user.email="${GIT_AUTHOR_EMAIL:-jsio-bench@users.noreply.github.com}" commit --quiet -m "$message"
  if net push --quiet origin "HEAD:$branch"; then
    echo "publish-to-branch: pushed to $branch (attempt $attempt)"
    exit 0
  fi
  echo "publish-to-branch: push rejected (attempt $attempt of $tries); starting again from the remote" >&2
  sleep $((attempt + RANDOM % 3))
done
echo "publish-to-branch: gave up after $tries attempts" >&2
exit 1
