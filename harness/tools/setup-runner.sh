#!/usr/bin/env bash
# setup-runner.sh: lays out a benchmark machine for two runner agents, one per trust level and
# Unix account (docs/runners.md, "One account per trust level"). Run as root, from a reviewed
# checkout of main, after unpacking (and registering) the two agents; run it again after every
# agent update. Idempotent.
#
#   setup-runner.sh --repository OWNER/NAME --machine-id ID [--trusted-user jsio-trusted]
#                   [--pr-user jsio-pr] [--root DIR] [--tmpdirs "/tmp /var/tmp /dev/shm"]
#
# --machine-id names the machine in the trend store (JSIO_MACHINE_ID in both agents' .env, e.g. the
# trusted agent's label jsio-bench-1). Both levels must share it: otherwise each agent's runner name
# becomes its id, and a pull request's diff finds none of main's calibrations, counts and recordings.
#
# The accounts must exist (useradd --system --create-home --shell /bin/bash NAME), with no sudo,
# and the pull-request account in none of the trusted account's groups. Under --root (default /):
#   opt/actions-runner-trusted/, opt/actions-runner-pr/   the agents' directories: everything
#       owned by root and writable by nobody else, but _work/ and _diag/ (the account's, mode
#       0700); .credentials*, .runner readable by the account only; .env written here with the
#       hooks and the level's configuration. A job cannot edit its agent's .env, .path or
#       credentials, and the pull-request account cannot read anything of the trusted agent's
#       _work (its workspace and the trusted level's caches, $RUNNER_TOOL_CACHE/jsio-bench/trusted).
#   opt/jsio-bench/                 the two hooks, root's.
#   etc/jsio-bench/trusted.conf, pr.conf   each level's hook configuration (repository, level,
#       account, the machine's lock, the temporary directories the completed hook clears).
#   run/jsio-bench/                 the machine's lock directory (root's, mode 1777, sticky: only
#       the level holding the lock can release it), and etc/tmpfiles.d/jsio-bench.conf to make
#       it again at boot.
set -euo pipefail

die() { echo "setup-runner: error: $*" >&2; exit 2; }
log() { echo "setup-runner: $*" >&2; }

root=/
repository=
machine_id=
trusted_user=jsio-trusted
pr_user=jsio-pr
tmpdirs="/tmp /var/tmp /dev/shm"
while [ $# -gt 0 ]; do
  case $1 in
    --root) root=$2; shift 2 ;;
    --repository) repository=$2; shift 2 ;;
    --machine-id) machine_id=$2; shift 2 ;;
    --trusted-user) trusted_user=$2; shift 2 ;;
    --pr-user) pr_user=$2; shift 2 ;;
    --tmpdirs) tmpdirs=$2; shift 2 ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done

[ "$(id -u)" -eq 0 ] || die "run as root: the agents' directories become root's"
[[ "$repository" =~ ^[A-Za-z0-9-]+/[A-Za-z0-9._-]+$ ]] || die "--repository must be owner/name, got '$repository'"
[[ "$machine_id" =~ ^[a-z0-9][a-z0-9._-]{0,63}$ ]] || die "--machine-id must be the machine's id in the trend store (lower-case letters, digits, . _ -), e.g. jsio-bench-1; got '$machine_id'"
for u in "$trusted_user" "$pr_user"; do
  [[ "$u" =~ ^[a-z_][a-z0-9_-]{0,31}$ ]] || die "'$u' is not an account name"
  id -u "$u" >/dev/null 2>&1 || die "no account '$u': useradd --system --create-home --shell /bin/bash $u"
  [ "$(id -u "$u")" -ne 0 ] || die "'$u' is root: each level needs an account of its own"
done
[ "$(id -u "$trusted_user")" -ne "$(id -u "$pr_user")" ] || die "the two levels need two accounts"
for g in $(id -G "$trusted_user"); do
  for h in $(id -G "$pr_user"); do
    [ "$g" -ne "$h" ] || die "$pr_user shares group $(getent group "$g" | cut -d: -f1) with $trusted_user"
  done
done
for t in $tmpdirs; do [[ "$t" =~ ^/[A-Za-z0-9._/-]+$ ]] || die "--tmpdirs: '$t' is not an absolute path"; done
mkdir -p "$root"
root="$(cd "$root" && pwd -P)"
here="$(cd "$(dirname "$0")" && pwd -P)"
# Paths as the machine will see them: under --root for a test layout, else absolute.
at() { if [ "$root" = / ]; then echo "/$1"; else echo "$root/$1"; fi; }

hooks="$(at opt/jsio-bench)"
install -d -o root -g root -m 0755 "$hooks" "$(at etc/jsio-bench)" "$(at etc/tmpfiles.d)"
install -o root -g root -m 0755 "$here/runner-job-started.sh" "$here/runner-job-completed.sh" "$hooks/"
lock="$(at run/jsio-bench)"
install -d -o root -g root -m 1777 "$lock"
chmod 1777 "$lock"
echo "d $lock 1777 root root -" >"$(at etc/tmpfiles.d/jsio-bench.conf)"

setup_level() { # LEVEL ACCOUNT
  local level=$1 user=$2 dir conf env
  dir="$(at "opt/actions-runner-$level")"
  conf="$(at "etc/jsio-bench/$level.conf")"
  printf 'repository=%s\nbranch=main\nlevel=%s\naccount=%s\nlock=%s\ntmpdirs=%s\n' \
    "$repository" "$level" "$user" "$lock" "$tmpdirs" >"$conf"
  chown root:root "$conf"
  chmod 0644 "$conf"

  mkdir -p "$dir"
  # Root's, writable by nobody else, except the two directories the agent writes while it runs.
  find "$dir" -mindepth 1 -maxdepth 1 ! -name _work ! -name _diag -exec chown -R root:root {} + -exec chmod -R go-w {} +
  chown root:root "$dir"
  chmod 0755 "$dir"
  for d in _work _diag; do
    mkdir -p "$dir/$d"
    chown -R "$user:$user" "$dir/$d"
    chmod 0700 "$dir/$d"
  done
  for f in .credentials .credentials_rsaparams .runner; do
    if [ -f "$dir/$f" ]; then
      chown "root:$(id -gn "$user")" "$dir/$f"
      chmod 0640 "$dir/$f"
    fi
  done
  env="$dir/.env"
  {
    if [ -f "$env" ]; then grep -v -E '^(ACTIONS_RUNNER_HOOK_JOB_(STARTED|COMPLETED)|JSIO_RUNNER_CONF|JSIO_MACHINE_ID)=' "$env" || true; fi
    echo "ACTIONS_RUNNER_HOOK_JOB_STARTED=$hooks/runner-job-started.sh"
    echo "ACTIONS_RUNNER_HOOK_JOB_COMPLETED=$hooks/runner-job-completed.sh"
    echo "JSIO_RUNNER_CONF=$conf"
    # One id for both levels: a pull request's job reads what main's jobs stored under it.
    echo "JSIO_MACHINE_ID=$machine_id"
  } >"$env.new"
  chown root:root "$env.new"
  chmod 0644 "$env.new"
  mv "$env.new" "$env"
  log "$level level: agent in $dir runs as $user; hooks configured by $conf"
}

setup_level trusted "$trusted_user"
setup_level pr "$pr_user"
log "done: register the agents with --disableupdate (their directories are root's), labels in docs/runners.md"
