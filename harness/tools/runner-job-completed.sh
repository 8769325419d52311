#!/usr/bin/env bash
# Run by the GitHub Actions runner after every job (ACTIONS_RUNNER_HOOK_JOB_COMPLETED; see
# docs/runners.md). Installed, like runner-job-started.sh, outside every directory the runner's
# account can write. It removes what the job left in its workspace and the per-job HOME the
# workflows use ($RUNNER_TEMP/home), so no file of a pull-request job stays on the machine for
# the next job (the pull-request level caches under $RUNNER_TOOL_CACHE/jsio-bench/pr are kept:
# only pull-request jobs read them).
#
# When its configuration names the agent's account (`account=`, as setup-runner.sh writes it) and
# the hook runs as that account (never as root), it also ends the job for good:
#   - every process of the account that is not this hook or one of its ancestors (the runner
#     agent) is stopped, then killed: a job's background processes, double-forked or not, do not
#     outlive it (the account runs nothing but the agent);
#   - every entry of the account in the temporary directories (`tmpdirs=`, default
#     "/tmp /var/tmp /dev/shm") is removed, but the .NET runtime's own (the agent's);
#   - its crontab, at jobs and systemd user units (in its home from the passwd database) are
#     removed, so no work it scheduled runs during a later job;
#   - the machine's lock (`lock=`, taken by the job-started hook) is released.
# The configuration is read as runner-job-started.sh reads it (JSIO_RUNNER_CONF).
set -euo pipefail
conf="${JSIO_RUNNER_CONF:-/etc/jsio-bench/runner.conf}"
setting() { [ -r "$conf" ] && sed -n "s/^$1=\\([A-Za-z0-9._/ -]*\\)\$/\\1/p" "$conf" | tail -n 1; }
account="$(setting account || true)"
lock="$(setting lock || true)"
tmpdirs="$(setting tmpdirs || true)"
tmpdirs="${tmpdirs:-/tmp /var/tmp /dev/shm}"

for dir in "${GITHUB_WORKSPACE:-}" "${RUNNER_TEMP:+$RUNNER_TEMP/home}"; do
  if [ -z "$dir" ] || [ ! -d "$dir" ]; then continue; fi
  real="$(cd "$dir" && pwd -P)"
  case "$real" in
    / | "$(cd "$HOME" 2>/dev/null && pwd -P)") echo "jsio-bench runner cleanup: not emptying '$dir'" >&2; continue ;;
  esac
  find "$real" -mindepth 1 -maxdepth 1 -exec rm -rf -- {} +
done
echo "jsio-bench runner cleanup: workspace and per-job HOME emptied"

me="$(id -u)"
if [ -z "$account" ] || [ "$me" -eq 0 ] || [ "$(id -un)" != "$account" ]; then exit 0; fi

# Scheduled work would outlive the job and run during a later (trusted) one: the account's
# crontab, at jobs and systemd user units go first, before its processes (a job cron or at starts
# meanwhile is then killed with the rest).
if command -v crontab >/dev/null 2>&1; then crontab -r 2>/dev/null || true; fi
if command -v atq >/dev/null 2>&1; then
  for job in $(atq 2>/dev/null | awk '{print $1}' || true); do atrm "$job" 2>/dev/null || true; done
fi
home="$(getent passwd "$account" | cut -d: -f6 || true)"
for units in ${home:+"$home/.config/systemd/user" "$home/.local/share/systemd/user"}; do
  if [ -d "$units" ] && [ ! -L "$units" ]; then find "$units" -mindepth 1 -maxdepth 1 -exec rm -rf -- {} +; fi
done
if command -v systemctl >/dev/null 2>&1; then systemctl --user daemon-reload >/dev/null 2>&1 || true; fi
echo "jsio-bench runner cleanup: crontab, at jobs and systemd user units of $account removed"

# The parent of a process, from /proc (the command name in field 2 may hold spaces).
parent() { local s; s="$(cat "/proc/$1/stat" 2>/dev/null)" || return 1; s="${s##*) }"; s="${s#* }"; echo "${s%% *}"; }
state() { local s; s="$(cat "/proc/$1/stat" 2>/dev/null)" || return 1; s="${s##*) }"; echo "${s%% *}"; }
keep=" $$ "
agent_bins=" "
p=$$
while [ "$p" -gt 1 ] && p="$(parent "$p")"; do
  keep+="$p "
  exe="$(readlink "/proc/$p/exe" 2>/dev/null || true)"
  case "${exe##*/}" in Runner.*) agent_bins+="${exe%/*} " ;; esac
done

killed=0
for _round in 1 2 3 4 5; do
  victims=()
  for d in /proc/[0-9]*; do
    pid="${d#/proc/}"
    case "$keep" in *" $pid "*) continue ;; esac
    [ "$(stat -c %u "$d" 2>/dev/null)" = "$me" ] || continue
    # A zombie is already dead (its parent, often PID 1, has not reaped it yet): not a leftover.
    [ "$(state "$pid")" != Z ] || continue
    # This hook's own helpers (command substitutions) are its children; the agent's own helper
    # processes (a Runner.* binary of the agent, started by the agent) are not the job's.
    pp="$(parent "$pid" || true)"
    [ "$pp" != "$$" ] || continue
    exe="$(readlink "$d/exe" 2>/dev/null || true)"
    case "$keep" in *" $pp "*) case "$agent_bins" in *" ${exe%/*} "*) continue ;; esac ;; esac
    victims+=("$pid")
  done
  [ "${#victims[@]}" -gt 0 ] || break
  # Stopped first, so none of them forks a replacement between the listing and the kill.
  kill -STOP "${victims[@]}" 2>/dev/null || true
  kill -KILL "${victims[@]}" 2>/dev/null || true
  killed=$((killed + ${#victims[@]}))
  sleep 0.2
done
echo "jsio-bench runner cleanup: $killed leftover process(es) of $account killed"

for t in $tmpdirs; do
  [ -d "$t" ] || continue
  find "$t" -xdev -mindepth 1 -maxdepth 1 -user "$me" \
    ! -name 'dotnet-diagnostic-*' ! -name 'clr-debug-pipe-*' ! -name '.dotnet' \
    -exec rm -rf -- {} + 2>/dev/null || true
done
echo "jsio-bench runner cleanup: files of $account removed from $tmpdirs"

if [ -n "$lock" ] && [ -O "$lock/busy" ]; then
  rm -rf "$lock/busy"
  echo "jsio-bench runner cleanup: the machine is free"
fi
