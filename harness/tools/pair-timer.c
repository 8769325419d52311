/*
 * pair-timer: runs a schedule of shell commands back to back and times each process precisely,
 * for paired PR diffs (harness/src/pairs/engine/pair-timer.ts). Spawning every process from Node would add
 * the event loop's own jitter between the two processes of a pair; here the harness starts one
 * timer per batch and sleeps while it runs.
 *
 *   pair-timer TIMEOUT_MS PREPARE N CMD_0 ... CMD_{N-1} I_0 I_1 ...
 *
 * For each index I_k: runs PREPARE (untimed; skipped when empty, e.g. a cache evictor), then
 * `bash -c 'set -o pipefail; CMD_I'` with stdin and stdout on /dev/null (stderr inherited), and
 * prints "I_k <nanoseconds> <exit status>" on stdout. The clock (CLOCK_MONOTONIC) brackets fork
 * and wait, as hyperfine's does without its shell-start-up correction (both sides pay the same
 * bash start-up). A process that fails or times out ends the schedule: its line says why
 * ("status 1", "signal 9", "timeout", "prepare 3") and the tool exits 1.
 *
 *   pair-timer --gated TIMEOUT_MS PREPARE N CMD_0 ... I_0 ...
 *
 * The same, for commands that start a sandbox (bubblewrap) whose program is `pair-timer --gate
 * PROG ARG...`: the clock starts when the gate, already inside the sandbox, says it is ready on
 * fd 3, and the gate execs PROG once the timer answers on fd 4. A sandbox's start (several ms)
 * is never timed. A command that ends before its gate opened is reported as "sandbox <status>".
 *
 *   pair-timer --gate PROG ARG...
 *
 * The gate: writes one byte to fd 3, waits for one byte on fd 4, closes both, execs PROG.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile pid_t child;
static volatile sig_atomic_t timed_out;

static void on_alarm(int sig) {
  (void)sig;
  timed_out = 1;
  if (child > 0) kill(-child, SIGKILL);
}

static long long now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Set when a gated command ended before its gate opened (the sandbox did not start). */
static int gate_missed;

/*
 * Runs one command line under bash in its own process group; returns the wait status, -1 on
 * timeout. `gated`: the clock starts when the command's gate (fd 3 in the child) says it is ready.
 */
static int run(const char *cmd, long timeout_ms, int quiet, int gated, long long *ns) {
  char line[32 + strlen(cmd)];
  snprintf(line, sizeof line, "set -o pipefail; %s", cmd);
  timed_out = 0;
  gate_missed = 0;
  int ready[2] = { -1, -1 }, go[2] = { -1, -1 };
  if (gated && (pipe2(ready, O_CLOEXEC) < 0 || pipe2(go, O_CLOEXEC) < 0)) { perror("pair-timer: pipe"); exit(2); }
  long long t0 = now_ns();
  pid_t pid = fork();
  if (pid < 0) { perror("pair-timer: fork"); exit(2); }
  if (pid == 0) {
    setpgid(0, 0);
    signal(SIGPIPE, SIG_DFL);
    if (gated) {
      /* Above the low fds first, so that moving one to 3 or 4 cannot close the other. */
      int r = fcntl(ready[1], F_DUPFD_CLOEXEC, 10), g = fcntl(go[0], F_DUPFD_CLOEXEC, 10);
      if (r < 0 || g < 0 || dup2(r, 3) < 0 || dup2(g, 4) < 0) _exit(126);
    }
    int null = open("/dev/null", O_RDWR);
    if (null >= 0) {
      dup2(null, 0);
      if (quiet) dup2(null, 1);
    }
    execl("/bin/bash", "bash", "-c", line, (char *)0);
    _exit(127);
  }
  child = pid;
  setpgid(pid, pid);
  struct itimerval it = { { 0, 0 }, { timeout_ms / 1000, (timeout_ms % 1000) * 1000 } };
  setitimer(ITIMER_REAL, &it, 0);
  if (gated) {
    close(ready[1]);
    close(go[0]);
    char b = 0;
    ssize_t n;
    while ((n = read(ready[0], &b, 1)) < 0 && errno == EINTR && !timed_out) {}
    if (n == 1) {
      t0 = now_ns();
      (void)!write(go[1], "g", 1);
    } else {
      gate_missed = 1;
    }
    close(ready[0]);
    close(go[1]);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  long long t1 = now_ns();
  struct itimerval off = { { 0, 0 }, { 0, 0 } };
  setitimer(ITIMER_REAL, &off, 0);
  child = 0;
  *ns = t1 - t0;
  return timed_out ? -1 : status;
}

/* Inside the sandbox: ready on fd 3, wait for the timer on fd 4, then become the program. */
static int gate(char **argv) {
  char b = 'r';
  if (write(3, &b, 1) != 1) { perror("pair-timer --gate: fd 3"); return 126; }
  if (read(4, &b, 1) != 1) { fprintf(stderr, "pair-timer --gate: the timer went away\n"); return 126; }
  close(3);
  close(4);
  execv(argv[0], argv);
  perror("pair-timer --gate: exec");
  return 127;
}

int main(int argc, char **argv) {
  if (argc >= 3 && strcmp(argv[1], "--gate") == 0) return gate(argv + 2);
  int gated = argc >= 2 && strcmp(argv[1], "--gated") == 0;
  if (gated) {
    argv++;
    argc--;
  }
  if (argc < 4) {
    fprintf(stderr, "usage: pair-timer TIMEOUT_MS PREPARE N CMD... INDEX...\n");
    return 2;
  }
  long timeout_ms = atol(argv[1]);
  const char *prepare = argv[2];
  int n = atoi(argv[3]);
  if (timeout_ms <= 0 || n <= 0 || argc < 4 + n) {
    fprintf(stderr, "pair-timer: bad arguments\n");
    return 2;
  }
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_alarm;
  sigaction(SIGALRM, &sa, 0);
  /* A gate that died before reading its byte must not kill the timer (children get SIGPIPE back). */
  signal(SIGPIPE, SIG_IGN);
  char **cmds = argv + 4;
  /* Results go out line by line, so a schedule cut short still reports what it measured. */
  setvbuf(stdout, 0, _IOLBF, 0);
  for (int k = 4 + n; k < argc; k++) {
    int i = atoi(argv[k]);
    if (i < 0 || i >= n) { fprintf(stderr, "pair-timer: index %d out of range\n", i); return 2; }
    long long ns = 0;
    if (prepare[0]) {
      int st = run(prepare, timeout_ms, 1, 0, &ns);
      if (st != 0) {
        printf("%d -1 prepare %d\n", i, st < 0 ? -1 : WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
        return 1;
      }
    }
    int st = run(cmds[i], timeout_ms, 1, gated, &ns);
    if (st < 0) { printf("%d %lld timeout\n", i, ns); return 1; }
    if (gate_missed) {
      printf("%d -1 sandbox %d\n", i, WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
      return 1;
    }
    if (WIFSIGNALED(st)) { printf("%d %lld signal %d\n", i, ns, WTERMSIG(st)); return 1; }
    if (WEXITSTATUS(st) != 0) { printf("%d %lld status %d\n", i, ns, WEXITSTATUS(st)); return 1; }
    printf("%d %lld 0\n", i, ns);
  }
  return 0;
}
