/*
 * sandbox-replay: bubblewrap as a transcript recording shows it to the recorded harness
 * (harness/src/pairs/harness-shift/sandbox-replay.ts). Bound over /usr/bin/bwrap inside the
 * recording; strace records its execve as it would the real one's (argv, environment, folder, CPUs,
 * limits, descriptors). A sandbox whose start equals an earlier one of the same recording in
 * everything the sandboxed command can see is not run again: what the first one wrote to its
 * standard output and error and left in its writable folders is played back, and it exits as the
 * first one did. Anything else runs the real bwrap (REAL) and is remembered.
 *
 * What "everything it can see" is, compared byte for byte (the key):
 *   - its argv, its whole environment, its working directory, umask, CPU set and every limit
 *     (/proc/self/status, /proc/self/limits), and what its descriptors 0-2 are (a sandbox that
 *     inherits any other descriptor runs, always: each is shown to strace, see show_inherited);
 *   - every writable folder it binds (--bind SRC DST): each entry's path, type and mode, and each
 *     file's size and content, except a file a sandbox left and nothing touched since (same inode,
 *     size, times and content as when that sandbox ended), which is named by its path and mode
 *     alone: its content is the doing of a start the transcript records.
 * The recorded checkout is read-only to the recorded harness (the recording binds it so), and the
 * shared cache's read-only folders (inputs, builds, runtimes, tools) are named by their content's
 * keys in the command lines: both sides of a recording already read each other's entries as what
 * their keys say.
 * An option that hands bwrap a descriptor or another writable place runs the real bwrap, always.
 * Whether played back or not, each start first shows strace its other inherited descriptors
 * (show_inherited) and the content of what its command names in the read-only binds (show_reads).
 *
 * Built with -DREAL=... -DMEMO=... (string literals) and -lcrypto (Debian's libssl-dev). Exit status: the sandbox's.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <stdint.h>
#include <unistd.h>
#include <openssl/evp.h>

/* SHA-256 from the system's libcrypto (OpenSSL's EVP interface): the key digests the writable files' contents. */
#define DIGEST_LENGTH 32
typedef struct { EVP_MD_CTX *ctx; } digest;
static void digest_init(digest *c) {
  c->ctx = EVP_MD_CTX_new();
  if (!c->ctx || EVP_DigestInit_ex(c->ctx, EVP_sha256(), NULL) != 1) {
    fputs("sandbox-replay: libcrypto has no SHA-256\n", stderr);
    exit(125);
  }
}
static void digest_update(digest *c, const void *data, size_t n) {
  if (EVP_DigestUpdate(c->ctx, data, n) != 1) { fputs("sandbox-replay: SHA-256 failed\n", stderr); exit(125); }
}
static void digest_final(unsigned char *out, digest *c) {
  if (EVP_DigestFinal_ex(c->ctx, out, NULL) != 1) { fputs("sandbox-replay: SHA-256 failed\n", stderr); exit(125); }
  EVP_MD_CTX_free(c->ctx);
}
static void digest_of(const unsigned char *p, size_t n, unsigned char *out) {
  digest c;
  digest_init(&c);
  digest_update(&c, p, n);
  digest_final(out, &c);
}

/* A growing byte buffer (the key material). */
typedef struct { char *p; size_t n, cap; } buf;

static void put(buf *b, const void *s, size_t n) {
  if (b->n + n + 1 > b->cap) {
    b->cap = (b->n + n + 1) * 2;
    b->p = realloc(b->p, b->cap);
    if (!b->p) { perror("sandbox-replay"); exit(125); }
  }
  memcpy(b->p + b->n, s, n);
  b->n += n;
}
static void puts0(buf *b, const char *s) { put(b, s, strlen(s) + 1); }

static int read_file(const char *path, buf *b) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  char chunk[65536];
  ssize_t r;
  while ((r = read(fd, chunk, sizeof chunk)) > 0) put(b, chunk, (size_t)r);
  close(fd);
  return r < 0 ? -1 : 0;
}

/*
 * The files sandboxes left, by "dev ino size mtime ctime sha256" (MEMO/left, one a line), and the files
 * the writable folders held before this sandbox: only what it wrote or changed counts as left.
 */
static buf left, before;

static void sig_of(const struct stat *st, char *out, size_t n) {
  snprintf(out, n, "%lu %lu %lld %ld.%09ld %ld.%09ld\n", (unsigned long)st->st_dev, (unsigned long)st->st_ino,
           (long long)st->st_size, (long)st->st_mtim.tv_sec, st->st_mtim.tv_nsec, (long)st->st_ctim.tv_sec,
           st->st_ctim.tv_nsec);
}

/* A file's SHA-256 in hex (65 bytes with the NUL), or -1. */
static int file_hex(int dir, const char *name, char *hex) {
  int fd = openat(dir, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return -1;
  digest c;
  digest_init(&c);
  char chunk[65536];
  ssize_t r;
  while ((r = read(fd, chunk, sizeof chunk)) > 0) digest_update(&c, chunk, (size_t)r);
  close(fd);
  unsigned char d[DIGEST_LENGTH];
  digest_final(d, &c);
  for (int i = 0; i < DIGEST_LENGTH; i++) snprintf(hex + 2 * i, 3, "%02x", d[i]);
  return r < 0 ? -1 : 0;
}

/*
 * Whether the file is one a sandbox left, untouched since: its signature is in MEMO/left and so is
 * its content's digest (file times tick coarsely: a rewrite of the same size within one tick keeps
 * the signature, not the content).
 */
static int was_left(int dir, const char *name, const struct stat *st) {
  char s[164] = "\n";
  sig_of(st, s + 1, sizeof s - 1);
  s[strlen(s) - 1] = ' ';
  size_t n = strlen(s);
  char hex[65];
  int hashed = 0;
  for (const char *at = left.p, *end = left.p + left.n; at && at < end; at += n) {
    at = memmem(at, (size_t)(end - at), s, n);
    if (!at) break;
    if (!hashed && file_hex(dir, name, hex) < 0) return 0;
    hashed = 1;
    if (end - (at + n) >= 64 && !memcmp(at + n, hex, 64)) return 1;
  }
  return 0;
}

/* One file's content into the key, by its SHA-256. */
static int hash_file(int dir, const char *name, buf *b) {
  char hex[65];
  if (file_hex(dir, name, hex) < 0) return -1;
  puts0(b, hex);
  return 0;
}

/*
 * A writable folder's entries into the key: each one's path, mode and size, and a file's content
 * (or "left", for a file a sandbox left). Returns -1 when it cannot be read.
 */
static int walk(int dir, const char *rel, buf *b) {
  int fd = dup(dir);
  DIR *d = fd < 0 ? NULL : fdopendir(fd);
  if (!d) { if (fd >= 0) close(fd); return -1; }
  struct dirent *e;
  int rc = 0;
  while (rc == 0 && (e = readdir(d))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    struct stat st;
    if (fstatat(dir, e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) { rc = -1; break; }
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", rel, e->d_name);
    /* A file a sandbox left is named by path and mode alone: its size is its content's too. */
    int by_sandbox = S_ISREG(st.st_mode) && was_left(dir, e->d_name, &st);
    char line[PATH_MAX + 200];
    snprintf(line, sizeof line, "%s %o %lld", path, st.st_mode,
             S_ISDIR(st.st_mode) || by_sandbox ? 0LL : (long long)st.st_size);
    puts0(b, line);
    if (S_ISDIR(st.st_mode)) {
      int sub = openat(dir, e->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
      if (sub < 0) { rc = -1; break; }
      rc = walk(sub, path, b);
      close(sub);
    } else if (S_ISREG(st.st_mode)) {
      char s[160];
      sig_of(&st, s, sizeof s);
      put(&before, "\n", 1);
      put(&before, s, strlen(s));
      if (by_sandbox) puts0(b, "left");
      else rc = hash_file(dir, e->d_name, b);
    } else if (S_ISLNK(st.st_mode)) {
      char to[PATH_MAX];
      ssize_t n = readlinkat(dir, e->d_name, to, sizeof to - 1);
      if (n < 0) { rc = -1; break; }
      to[n] = 0;
      puts0(b, to);
    }
  }
  closedir(d);
  return rc;
}

static int walk_path(const char *path, buf *b) {
  int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return -1;
  int rc = walk(fd, "", b);
  close(fd);
  return rc;
}

/*
 * The sources of the writable folders, or -1 when bwrap is asked for something not played back: an
 * option that hands it a descriptor or another writable place, or one this does not know. Options
 * are read with their arguments (a value may look like an option or like `--`).
 */
/* The read-only binds (--ro-bind, --ro-bind-try SRC DST) and where the command starts: found by writable(). */
typedef struct { const char *src, *dst; } ro_bind;
static ro_bind ro[256];
static int nro, command_at = -1;

static int writable(int argc, char **argv, const char **out, int max) {
  static const char *none[] = {"--unshare-all", "--share-net", "--unshare-user", "--unshare-user-try",
                               "--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts",
                               "--unshare-cgroup", "--unshare-cgroup-try", "--die-with-parent", "--as-pid-1",
                               "--new-session", "--clearenv", "--disable-userns", "--assert-userns-disabled", NULL};
  static const char *one[] = {"--argv0", "--chdir", "--unsetenv", "--remount-ro", "--proc", "--dev", "--tmpfs",
                              "--mqueue", "--dir", "--uid", "--gid", "--hostname", "--cap-add", "--cap-drop",
                              "--perms", "--size", NULL};
  static const char *two[] = {"--setenv", "--ro-bind", "--ro-bind-try", "--symlink", "--chmod", NULL};
  int n = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--")) {
      command_at = i + 1;
      return i + 1 < argc ? n : -1;
    }
    if (strncmp(a, "--", 2)) { /* the command */
      command_at = i;
      return n;
    }
    if ((!strcmp(a, "--ro-bind") || !strcmp(a, "--ro-bind-try")) && i + 2 < argc && nro < 256)
      ro[nro++] = (ro_bind){argv[i + 1], argv[i + 2]};
    int skip = -1;
    for (const char **o = none; *o; o++) if (!strcmp(a, *o)) skip = 0;
    for (const char **o = one; *o; o++) if (!strcmp(a, *o)) skip = 1;
    for (const char **o = two; *o; o++) if (!strcmp(a, *o)) skip = 2;
    if (!strcmp(a, "--bind")) {
      if (i + 2 >= argc || n == max) return -1;
      out[n++] = argv[i + 1];
      skip = 2;
    }
    if (skip < 0 || i + skip >= argc) return -1;
    i += skip;
  }
  return -1; /* no command: nothing to play back */
}

/* What descriptor `fd` is: a pipe or socket by its kind, anything else by its path. */
static void describe_fd(int fd, buf *b) {
  struct stat st;
  char line[PATH_MAX + 32];
  if (fstat(fd, &st) < 0) snprintf(line, sizeof line, "%d closed", fd);
  else if (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)) snprintf(line, sizeof line, "%d kind %o", fd, st.st_mode & S_IFMT);
  else {
    char at[64], to[PATH_MAX];
    snprintf(at, sizeof at, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(at, to, sizeof to - 1);
    to[n < 0 ? 0 : n] = 0;
    snprintf(line, sizeof line, "%d path %s flags %d", fd, to, fcntl(fd, F_GETFL));
  }
  puts0(b, line);
}

static void keep_lines(const char *file, const char *prefixes[], buf *b) {
  buf t = {0};
  if (read_file(file, &t) < 0) { puts0(b, "?"); return; }
  put(&t, "", 1);
  for (char *line = t.p, *next; line && *line; line = next) {
    next = strchr(line, '\n');
    if (next) *next++ = 0;
    for (const char **p = prefixes; *p; p++)
      if (!strncmp(line, *p, strlen(*p))) puts0(b, line);
  }
  free(t.p);
}

static void run_real(char **argv) {
  execv(REAL, argv);
  perror("sandbox-replay: " REAL);
  _exit(127);
}

/*
 * The descriptors it inherited besides 0-2 (those the sandboxed program inherits besides its
 * streams), each shown to the recording's strace: dup2 of a descriptor onto itself changes nothing,
 * and strace -y prints what it is. Returns how many there were, or -1.
 */
static int show_inherited(void) {
  DIR *d = opendir("/proc/self/fd");
  if (!d) return -1;
  int own = dirfd(d), n = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    char *end;
    long fd = strtol(e->d_name, &end, 10);
    if (end == e->d_name || *end || fd < 3 || fd == own) continue;
    dup2((int)fd, (int)fd);
    n++;
  }
  closedir(d);
  return n;
}

/* Digests of the files commands named, per recording, by signature (a rewrite changes the ctime). */
static buf sums;

/* A named file's SHA-256 in hex: 0; 1 when it is no regular file (a folder: named only); -1 when missing. */
static int named_hex(const char *host, char *hex) {
  char real[PATH_MAX];
  struct stat st;
  if (!realpath(host, real) || stat(real, &st) < 0) return -1;
  if (!S_ISREG(st.st_mode)) return 1;
  char s[164] = "\n";
  sig_of(&st, s + 1, sizeof s - 1);
  s[strlen(s) - 1] = ' ';
  size_t n = strlen(s);
  const char *at = sums.n ? memmem(sums.p, sums.n, s, n) : NULL;
  if (at && (size_t)(sums.p + sums.n - (at + n)) >= 64) {
    memcpy(hex, at + n, 64);
    hex[64] = 0;
    return 0;
  }
  if (file_hex(AT_FDCWD, real, hex) < 0) return -1;
  put(&sums, s, n);
  put(&sums, hex, 64);
  int fd = open(MEMO "/sums", O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd >= 0) {
    char line[240];
    int len = snprintf(line, sizeof line, "%s%s", s, hex);
    if (len > 0 && (size_t)len < sizeof line && write(fd, line, (size_t)len) < 0) { /* a later start hashes it again */ }
    close(fd);
  }
  return 0;
}

static int path_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
         c == '/' || c == '-';
}

/* One path the command names: its content, if a read-only bind (not the whole machine's) holds it. */
static void show_read(const char *inside, buf *key, buf *shown) {
  const ro_bind *best = NULL;
  size_t best_len = 0;
  for (int i = 0; i < nro; i++) {
    size_t n = strlen(ro[i].dst);
    if (n <= 1 || n < best_len || strncmp(inside, ro[i].dst, n) || (inside[n] && inside[n] != '/')) continue;
    best = &ro[i];
    best_len = n;
  }
  if (!best) return;
  char mark[PATH_MAX + 100], host[PATH_MAX], hex[65];
  snprintf(host, sizeof host, "%s%s", best->src, inside + best_len);
  int r = named_hex(host, hex);
  if (r == 0) hex[32] = 0;
  snprintf(mark, sizeof mark, "/jsio-reads/%s %s", r == 0 ? hex : r == 1 ? "folder" : "missing", inside);
  char tag[PATH_MAX + 3];
  snprintf(tag, sizeof tag, "\n%s\n", inside);
  if (shown->n && memmem(shown->p, shown->n, tag, strlen(tag))) return;
  put(shown, tag, strlen(tag));
  /* Fails, changes nothing, and strace prints the path: the transcript's record of this read. */
  struct statfs sf;
  (void)statfs(mark, &sf);
  puts0(key, mark);
}

/*
 * What the command (every argument after bwrap's options, and every path-like word of one: a shell
 * command) names inside the read-only binds, by content: shown to strace (show_read) and put in
 * the key, so the same command line reading other bytes is another start. Paths the program finds
 * by itself (a module it requires) are not named here.
 */
static void show_reads(int argc, char **argv, buf *key) {
  if (command_at < 0) return;
  put(&sums, "\n", 1);
  read_file(MEMO "/sums", &sums);
  buf shown = {0};
  for (int i = command_at; i < argc; i++)
    for (const char *a = argv[i], *p = a; *p;) {
      if (*p != '/' || (p > a && path_char(p[-1]))) { p++; continue; }
      const char *e = p;
      while (*e && path_char(*e)) e++;
      char inside[PATH_MAX];
      if ((size_t)(e - p) < sizeof inside) {
        memcpy(inside, p, (size_t)(e - p));
        inside[e - p] = 0;
        show_read(inside, key, &shown);
      }
      p = e;
    }
  free(shown.p);
}

static void write_all(int fd, const char *p, size_t n) {
  while (n) {
    ssize_t w = write(fd, p, n);
    if (w < 0) { if (errno == EINTR) continue; return; }
    p += w;
    n -= (size_t)w;
  }
}

/* Copies the tree at `from` into `to` (made first), file by file. */
static int copy_tree(const char *from, const char *to) {
  if (mkdir(to, 0700) < 0 && errno != EEXIST) return -1;
  DIR *d = opendir(from);
  if (!d) return -1;
  struct dirent *e;
  int rc = 0;
  while (rc == 0 && (e = readdir(d))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    char a[PATH_MAX], z[PATH_MAX];
    snprintf(a, sizeof a, "%s/%s", from, e->d_name);
    snprintf(z, sizeof z, "%s/%s", to, e->d_name);
    struct stat st;
    if (lstat(a, &st) < 0) { rc = -1; break; }
    if (S_ISDIR(st.st_mode)) {
      rc = copy_tree(a, z);
      if (rc == 0) rc = chmod(z, st.st_mode & 07777);
    } else if (S_ISLNK(st.st_mode)) {
      char t[PATH_MAX];
      ssize_t n = readlink(a, t, sizeof t - 1);
      if (n < 0) { rc = -1; break; }
      t[n] = 0;
      rc = symlink(t, z);
    } else if (S_ISREG(st.st_mode)) {
      int in = open(a, O_RDONLY | O_CLOEXEC);
      int out = open(z, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, st.st_mode & 07777);
      if (in < 0 || out < 0) rc = -1;
      for (off_t left_bytes = st.st_size; rc == 0 && left_bytes > 0;) {
        ssize_t s = sendfile(out, in, NULL, (size_t)left_bytes);
        if (s <= 0) rc = -1;
        else left_bytes -= s;
      }
      if (in >= 0) close(in);
      if (out >= 0) close(out);
    } else rc = -1; /* a device, fifo or socket: not something to play back */
  }
  closedir(d);
  return rc;
}

static int remove_tree(int dir) {
  int fd = dup(dir);
  DIR *d = fd < 0 ? NULL : fdopendir(fd);
  if (!d) { if (fd >= 0) close(fd); return -1; }
  struct dirent *e;
  int rc = 0;
  while (rc == 0 && (e = readdir(d))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    struct stat st;
    if (fstatat(dir, e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) { rc = -1; break; }
    if (S_ISDIR(st.st_mode)) {
      int sub = openat(dir, e->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
      rc = sub < 0 ? -1 : remove_tree(sub);
      if (sub >= 0) close(sub);
      if (rc == 0) rc = unlinkat(dir, e->d_name, AT_REMOVEDIR);
    } else rc = unlinkat(dir, e->d_name, 0);
  }
  closedir(d);
  return rc;
}

/*
 * The files under `dir` a sandbox wrote, appended to `out` (their signatures, MEMO/left). Recording
 * (`played` NULL): each file this sandbox changed or made, named in `wrote` ("<folder> <path>").
 * Playing back: the files the first sandbox wrote, as `played` names them (the rest were restored
 * as they were: they stay what they were).
 */
static void left_walk(int dir, const char *rel, int at, int out, buf *wrote, const buf *played) {
  int fd = dup(dir);
  DIR *d = fd < 0 ? NULL : fdopendir(fd);
  if (!d) { if (fd >= 0) close(fd); return; }
  struct dirent *e;
  while ((e = readdir(d))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    struct stat st;
    if (fstatat(dir, e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) continue;
    char path[PATH_MAX], name[PATH_MAX + 24];
    snprintf(path, sizeof path, "%s/%s", rel, e->d_name);
    snprintf(name, sizeof name, "\n%d %s\n", at, path);
    if (S_ISREG(st.st_mode)) {
      char s[164] = "\n";
      sig_of(&st, s + 1, sizeof s - 1);
      if (played ? !memmem(played->p, played->n, name, strlen(name))
                 : before.n && memmem(before.p, before.n, s, strlen(s)) != NULL)
        continue;
      char hex[65];
      if (file_hex(dir, e->d_name, hex) < 0) continue;
      s[strlen(s) - 1] = ' ';
      write_all(out, s + 1, strlen(s + 1));
      write_all(out, hex, 64);
      write_all(out, "\n", 1);
      if (wrote) put(wrote, name + 1, strlen(name + 1));
    } else if (S_ISDIR(st.st_mode)) {
      int sub = openat(dir, e->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
      if (sub >= 0) { left_walk(sub, path, at, out, wrote, played); close(sub); }
    }
  }
  closedir(d);
}

/* What the writable folders' files a sandbox wrote are now, appended to MEMO/left. */
static void remember_left(const char **binds, int nb, buf *wrote, const buf *played) {
  int out = open(MEMO "/left", O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  if (out < 0) return;
  for (int i = 0; i < nb; i++) {
    int fd = open(binds[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) { left_walk(fd, "", i, out, wrote, played); close(fd); }
  }
  close(out);
}

/*
 * A channel like descriptor `fd`: a socket pair of its type when it is a socket (as Node wires a
 * child's output), a pipe otherwise, so that the sandbox's programs see what they would.
 */
static int channel(int fd, int ends[2]) {
  struct stat st;
  int type;
  socklen_t len = sizeof type;
  if (fstat(fd, &st) == 0 && S_ISSOCK(st.st_mode) && getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len) == 0)
    return socketpair(AF_UNIX, type | SOCK_CLOEXEC, 0, ends);
  return pipe2(ends, O_CLOEXEC);
}

static pid_t child;
static void forward(int sig) { if (child > 0) kill(child, sig); }

/* The real sandbox, its output passed through and kept in `dir`; then what it left, kept too. */
static int record(char **argv, const char *dir, const char **binds, int nb, const buf *key) {
  int out[2], err[2];
  if (channel(1, out) < 0 || channel(2, err) < 0) run_real(argv);
  child = fork();
  if (child < 0) run_real(argv);
  if (child == 0) {
    dup2(out[1], 1);
    dup2(err[1], 2);
    run_real(argv);
  }
  signal(SIGTERM, forward);
  signal(SIGINT, forward);
  signal(SIGHUP, forward);
  close(out[1]);
  close(err[1]);
  char tmp[PATH_MAX], path[PATH_MAX];
  snprintf(tmp, sizeof tmp, "%s.tmp-%d", dir, (int)getpid());
  int keep = mkdir(tmp, 0700) == 0;
  snprintf(path, sizeof path, "%s/1", tmp);
  int k1 = keep ? open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600) : -1;
  snprintf(path, sizeof path, "%s/2", tmp);
  int k2 = keep ? open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600) : -1;
  struct pollfd p[2] = {{out[0], POLLIN, 0}, {err[0], POLLIN, 0}};
  int open_ends = 2;
  char chunk[65536];
  while (open_ends) {
    if (poll(p, 2, -1) < 0) { if (errno == EINTR) continue; break; }
    for (int i = 0; i < 2; i++) {
      if (p[i].fd < 0 || !p[i].revents) continue;
      ssize_t r = read(p[i].fd, chunk, sizeof chunk);
      if (r <= 0) { close(p[i].fd); p[i].fd = -1; open_ends--; continue; }
      write_all(i + 1, chunk, (size_t)r);
      if ((i ? k2 : k1) >= 0) write_all(i ? k2 : k1, chunk, (size_t)r);
    }
  }
  int status;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {}
  if (k1 >= 0) close(k1);
  if (k2 >= 0) close(k2);
  /* Kept only when whole: its key, what it left in each writable folder, its exit. */
  int ok = keep && k1 >= 0 && k2 >= 0;
  buf wrote = {0};
  put(&wrote, "\n", 1);
  remember_left(binds, nb, &wrote, NULL);
  snprintf(path, sizeof path, "%s/wrote", tmp);
  int wf = ok ? open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600) : -1;
  if (wf >= 0) { write_all(wf, wrote.p, wrote.n); close(wf); }
  ok = ok && wf >= 0;
  for (int i = 0; ok && i < nb; i++) {
    snprintf(path, sizeof path, "%s/w%d", tmp, i);
    ok = copy_tree(binds[i], path) == 0;
  }
  snprintf(path, sizeof path, "%s/key", tmp);
  int kf = ok ? open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600) : -1;
  if (kf >= 0) { write_all(kf, key->p, key->n); close(kf); }
  snprintf(path, sizeof path, "%s/status", tmp);
  FILE *sf = kf >= 0 ? fopen(path, "w") : NULL;
  if (sf) { fprintf(sf, "%d\n", status); fclose(sf); }
  if (!sf || rename(tmp, dir) < 0) {
    if (keep) {
      int t = open(tmp, O_RDONLY | O_DIRECTORY);
      if (t >= 0) { remove_tree(t); close(t); }
      rmdir(tmp);
    }
  }
  return status;
}

static int same_file(const char *path, const buf *key) {
  buf k = {0};
  int same = read_file(path, &k) == 0 && k.n == key->n && !memcmp(k.p, key->p, k.n);
  free(k.p);
  return same;
}

static void cat(const char *path, int fd) {
  buf b = {0};
  if (read_file(path, &b) == 0) write_all(fd, b.p, b.n);
  free(b.p);
}

/* The first sandbox's output and writable folders played back; its exit status returned. */
static int replay(const char *dir, const char **binds, int nb) {
  char path[PATH_MAX];
  for (int i = 0; i < nb; i++) {
    int fd = open(binds[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0 || remove_tree(fd) < 0) return -1;
    close(fd);
    snprintf(path, sizeof path, "%s/w%d", dir, i);
    if (copy_tree(path, binds[i]) < 0) return -1;
  }
  snprintf(path, sizeof path, "%s/1", dir);
  cat(path, 1);
  snprintf(path, sizeof path, "%s/2", dir);
  cat(path, 2);
  snprintf(path, sizeof path, "%s/status", dir);
  FILE *f = fopen(path, "r");
  int status = -1;
  if (!f || fscanf(f, "%d", &status) != 1) status = -1;
  if (f) fclose(f);
  buf played = {0};
  snprintf(path, sizeof path, "%s/wrote", dir);
  if (status != -1 && read_file(path, &played) < 0) status = -1;
  if (status != -1) remember_left(binds, nb, NULL, &played);
  free(played.p);
  return status;
}

static int exit_as(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) {
    signal(WTERMSIG(status), SIG_DFL);
    raise(WTERMSIG(status));
    return 128 + WTERMSIG(status);
  }
  return 125;
}

int main(int argc, char **argv) {
  /* First, before this opens anything. What the program may write to such a descriptor cannot be played back. */
  int inherited = show_inherited();
  const char *binds[64];
  int nb = writable(argc, argv, binds, 64);
  buf reads = {0};
  show_reads(argc, argv, &reads);
  if (inherited != 0) run_real(argv);
  struct stat st1, st2;
  /*
   * Played back only when the output goes to pipes or sockets (Node's pipes are socket pairs), as
   * the harness wires every sandbox: the player passes it through a pipe of its own.
   */
  if (nb < 0 || fstat(1, &st1) < 0 || fstat(2, &st2) < 0 || !(S_ISFIFO(st1.st_mode) || S_ISSOCK(st1.st_mode)) ||
      !(S_ISFIFO(st2.st_mode) || S_ISSOCK(st2.st_mode)))
    run_real(argv);
  buf key = {0};
  for (int i = 0; i < argc; i++) puts0(&key, argv[i]);
  puts0(&key, "\1environ");
  if (read_file("/proc/self/environ", &key) < 0) run_real(argv);
  char cwd[PATH_MAX];
  if (!getcwd(cwd, sizeof cwd)) run_real(argv);
  puts0(&key, cwd);
  static const char *status_lines[] = {"Umask:", "Uid:", "Gid:", "Groups:", "Cpus_allowed_list:", "NoNewPrivs:", "Seccomp:",
                                       "CapInh:", "CapPrm:", "CapEff:", "CapBnd:", "CapAmb:", NULL};
  keep_lines("/proc/self/status", status_lines, &key);
  puts0(&key, "\1limits");
  if (read_file("/proc/self/limits", &key) < 0) run_real(argv);
  for (int fd = 0; fd < 3; fd++) describe_fd(fd, &key);
  puts0(&key, "\1reads");
  put(&key, reads.p, reads.n);
  put(&left, "\n", 1);
  read_file(MEMO "/left", &left);
  for (int i = 0; i < nb; i++) {
    puts0(&key, "\1writable");
    puts0(&key, binds[i]);
    if (walk_path(binds[i], &key) < 0) run_real(argv);
  }
  unsigned char d[DIGEST_LENGTH];
  digest_of((const unsigned char *)key.p, key.n, d);
  char dir[PATH_MAX], path[PATH_MAX];
  int at = snprintf(dir, sizeof dir, "%s/", MEMO);
  for (int i = 0; i < 16; i++) at += snprintf(dir + at, sizeof dir - (size_t)at, "%02x", d[i]);
  snprintf(path, sizeof path, "%s/key", dir);
  if (same_file(path, &key)) {
    int status = replay(dir, binds, nb);
    if (status != -1) return exit_as(status);
    /* Its folders are half played back: running it now would show it what it would not see. */
    fprintf(stderr, "sandbox-replay: could not play back %s\n", dir);
    return 125;
  }
  return exit_as(record(argv, dir, binds, nb, &key));
}
