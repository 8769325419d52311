/*
 * threadpool-c: the C reference for the threadpool experiment. A pool of POOL pthreads reads FILES
 * files (open, fstat, read all, close) that are all requested at once; like Node's event loop,
 * the main thread takes each completion from a queue, optionally parses the JSON (a validating
 * recursive-descent parser counting the elements of the top-level "jobs" array), and records
 * the file's latency from the batch start. Prints one JSON line like the JavaScript programs.
 * Usage: threadpool-c DIR FILES read|parse POOL
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

typedef struct done { struct done *next; long index; char *buf; size_t len; } done_t;

static const char *dir;
static long nfiles, next_file;
static done_t *head, *tail_;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ready = PTHREAD_COND_INITIALIZER;

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void die(const char *what, const char *path) {
  fprintf(stderr, "threadpool-c: %s %s: %s\n", what, path, strerror(errno));
  exit(1);
}

static char *read_file(const char *path, size_t *len) {
  int fd = open(path, O_RDONLY);
  if (fd < 0) die("open", path);
  struct stat st;
  if (fstat(fd, &st) < 0) die("fstat", path);
  char *buf = malloc(st.st_size + 1);
  if (!buf) die("malloc for", path);
  size_t got = 0;
  while (got < (size_t)st.st_size) {
    ssize_t n = read(fd, buf + got, st.st_size - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) die("read", path);
    if (n == 0) break;
    got += n;
  }
  close(fd);
  *len = got;
  return buf;
}

static void *worker(void *arg) {
  (void)arg;
  for (;;) {
    pthread_mutex_lock(&lock);
    long i = next_file < nfiles ? next_file++ : -1;
    pthread_mutex_unlock(&lock);
    if (i < 0) return NULL;
    char path[4096];
    snprintf(path, sizeof path, "%s/builds-%04ld.json", dir, i);
    done_t *d = malloc(sizeof *d);
    if (!d) die("malloc for", path);
    d->index = i;
    d->next = NULL;
    d->buf = read_file(path, &d->len);
    pthread_mutex_lock(&lock);
    if (tail_) tail_->next = d; else head = d;
    tail_ = d;
    pthread_cond_signal(&ready);
    pthread_mutex_unlock(&lock);
  }
}

/* A validating JSON parser that builds nothing: enough to cost what parsing costs. */
typedef struct { const char *p, *end; long jobs; } parser;
static int value(parser *s, int depth, int count_elements);

static void ws(parser *s) {
  while (s->p < s->end && (*s->p == ' ' || *s->p == '\n' || *s->p == '\r' || *s->p == '\t')) s->p++;
}

static int string(parser *s, const char **start, size_t *len) {
  if (s->p >= s->end || *s->p != '"') return -1;
  *start = ++s->p;
  while (s->p < s->end && *s->p != '"') {
    if ((unsigned char)*s->p < 0x20) return -1;
    if (*s->p == '\\') {
      if (++s->p >= s->end) return -1;
      if (*s->p == 'u') {
        for (int k = 0; k < 4; k++) {
          if (++s->p >= s->end) return -1;
          char c = *s->p;
          if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) return -1;
        }
      } else if (!strchr("\"\\/bfnrt", *s->p)) return -1;
    }
    s->p++;
  }
  if (s->p >= s->end) return -1;
  *len = s->p - *start;
  s->p++;
  return 0;
}

static int digits(parser *s) {
  const char *from = s->p;
  while (s->p < s->end && *s->p >= '0' && *s->p <= '9') s->p++;
  return s->p > from ? 0 : -1;
}

static int number(parser *s) {
  if (*s->p == '-') s->p++;
  if (digits(s) < 0) return -1;
  if (s->p < s->end && *s->p == '.') { s->p++; if (digits(s) < 0) return -1; }
  if (s->p < s->end && (*s->p == 'e' || *s->p == 'E')) {
    s->p++;
    if (s->p < s->end && (*s->p == '+' || *s->p == '-')) s->p++;
    if (digits(s) < 0) return -1;
  }
  return 0;
}

static int literal(parser *s, const char *word) {
  size_t n = strlen(word);
  if ((size_t)(s->end - s->p) < n || memcmp(s->p, word, n) != 0) return -1;
  s->p += n;
  return 0;
}

static int value(parser *s, int depth, int count_elements) {
  if (depth > 512) return -1;
  ws(s);
  if (s->p >= s->end) return -1;
  const char *str; size_t len;
  switch (*s->p) {
  case '{':
    s->p++; ws(s);
    if (s->p < s->end && *s->p == '}') { s->p++; return 0; }
    for (;;) {
      ws(s);
      if (string(s, &str, &len) < 0) return -1;
      ws(s);
      if (s->p >= s->end || *s->p++ != ':') return -1;
      int jobs = depth == 0 && len == 4 && memcmp(str, "jobs", 4) == 0;
      if (value(s, depth + 1, jobs) < 0) return -1;
      ws(s);
      if (s->p >= s->end) return -1;
      if (*s->p == ',') { s->p++; continue; }
      if (*s->p++ == '}') return 0;
      return -1;
    }
  case '[':
    s->p++; ws(s);
    if (s->p < s->end && *s->p == ']') { s->p++; return 0; }
    for (;;) {
      if (value(s, depth + 1, 0) < 0) return -1;
      if (count_elements) s->jobs++;
      ws(s);
      if (s->p >= s->end) return -1;
      if (*s->p == ',') { s->p++; continue; }
      if (*s->p++ == ']') return 0;
      return -1;
    }
  case '"': return string(s, &str, &len);
  case 't': return literal(s, "true");
  case 'f': return literal(s, "false");
  case 'n': return literal(s, "null");
  default: return number(s);
  }
}

int main(int argc, char **argv) {
  if (argc != 5) { fprintf(stderr, "usage: threadpool-c DIR FILES read|parse POOL\n"); return 2; }
  dir = argv[1];
  nfiles = atol(argv[2]);
  int parse = strcmp(argv[3], "parse") == 0;
  long pool = atol(argv[4]);
  if (nfiles < 1 || pool < 1 || (!parse && strcmp(argv[3], "read") != 0)) {
    fprintf(stderr, "threadpool-c: bad arguments: FILES and POOL must be positive, work read or parse\n");
    return 2;
  }
  double *latency = calloc(nfiles, sizeof *latency);
  pthread_t *threads = calloc(pool, sizeof *threads);
  if (!latency || !threads) { fprintf(stderr, "threadpool-c: out of memory\n"); return 1; }
  double t0 = now_ms();
  for (long t = 0; t < pool; t++) {
    int rc = pthread_create(&threads[t], NULL, worker, NULL);
    if (rc) { fprintf(stderr, "threadpool-c: pthread_create: %s\n", strerror(rc)); return 1; }
  }
  unsigned long long bytes = 0;
  long jobs = 0;
  for (long got = 0; got < nfiles; got++) {
    pthread_mutex_lock(&lock);
    while (!head) pthread_cond_wait(&ready, &lock);
    done_t *d = head;
    head = d->next;
    if (!head) tail_ = NULL;
    pthread_mutex_unlock(&lock);
    bytes += d->len;
    if (parse) {
      parser s = { d->buf, d->buf + d->len, 0 };
      if (value(&s, 0, 0) < 0) { fprintf(stderr, "threadpool-c: file %ld: invalid JSON at byte %ld\n", d->index, (long)(s.p - d->buf)); return 1; }
      ws(&s);
      if (s.p != s.end) { fprintf(stderr, "threadpool-c: file %ld: trailing data\n", d->index); return 1; }
      jobs += s.jobs;
    }
    latency[d->index] = now_ms() - t0;
    free(d->buf);
    free(d);
  }
  double ms = now_ms() - t0;
  for (long t = 0; t < pool; t++) pthread_join(threads[t], NULL);
  printf("{\"files\":%ld,\"bytes\":%llu,\"jobs\":%ld,\"batch_ms\":%.3f,\"files_per_s\":%.3f,\"mb_per_s\":%.3f,\"latency\":[",
         nfiles, bytes, jobs, ms, nfiles / (ms / 1e3), bytes / (ms / 1e3) / 1e6);
  for (long i = 0; i < nfiles; i++) printf("%s%.3f", i ? "," : "", latency[i]);
  printf("]}\n");
  return 0;
}
