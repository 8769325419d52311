/*
 * scan-c: walk the project from index.js following imports, counting files, imports,
 * constants and functions with the line rules in generate.mjs. Two modes:
 *   blocking  — read() each file in a depth-first loop;
 *   eventloop — one processing thread hands reads to a pthread pool that grows (one thread
 *               per request while none is idle) up to BOUND threads; completed reads come back
 *               on a queue and are scanned by the processing thread, like an event loop.
 * Visited paths live in an open-addressing hash set. Prints one JSON line.
 * Usage: scan-c blocking|eventloop PROJECT_DIR [BOUND]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *root;
static long files, imports, constants, functions;

static void *xmalloc(size_t n) {
  void *p = malloc(n);
  if (!p) { fprintf(stderr, "scan-c: out of memory\n"); exit(1); }
  return p;
}

/* ---- visited set: open addressing, FNV-1a, doubles at half full ---- */
static char **slots;
static size_t cap = 1024, used;

static uint64_t fnv(const char *s) {
  uint64_t h = 1469598103934665603ULL;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ULL;
  return h;
}

static int insert_slot(char **tab, size_t n, char *key) {
  for (size_t i = fnv(key) & (n - 1);; i = (i + 1) & (n - 1)) {
    if (!tab[i]) { tab[i] = key; return 1; }
    if (strcmp(tab[i], key) == 0) return 0;
  }
}

/* Adds key (taking ownership) and returns 1, or returns 0 (and frees it) if already seen. */
static int visit(char *key) {
  if (!slots) slots = calloc(cap, sizeof *slots);
  if ((used + 1) * 2 > cap) {
    char **bigger = calloc(cap * 2, sizeof *bigger);
    if (!bigger) { fprintf(stderr, "scan-c: out of memory\n"); exit(1); }
    for (size_t i = 0; i < cap; i++) if (slots[i]) insert_slot(bigger, cap * 2, slots[i]);
    free(slots);
    slots = bigger;
    cap *= 2;
  }
  if (insert_slot(slots, cap, key)) { used++; return 1; }
  free(key);
  return 0;
}

/* ---- reading and scanning ---- */
static char *read_file(const char *rel, size_t *len) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", root, rel);
  int fd = open(path, O_RDONLY);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) < 0) { fprintf(stderr, "scan-c: %s: %s\n", path, strerror(errno)); exit(1); }
  char *buf = xmalloc(st.st_size + 1);
  size_t got = 0;
  while (got < (size_t)st.st_size) {
    ssize_t n = read(fd, buf + got, st.st_size - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) { fprintf(stderr, "scan-c: read %s: %s\n", path, strerror(errno)); exit(1); }
    if (n == 0) break;
    got += n;
  }
  close(fd);
  buf[got] = '\0';
  *len = got;
  return buf;
}

static int starts(const char *line, const char *end, const char *word) {
  size_t n = strlen(word);
  return (size_t)(end - line) >= n && memcmp(line, word, n) == 0;
}

/* Scans one file; calls found(path) for each import, with a freshly allocated project path. */
static void scan(const char *rel, const char *buf, size_t len, void (*found)(char *)) {
  const char *slash = strrchr(rel, '/');
  size_t dirlen = slash ? (size_t)(slash - rel + 1) : 0;
  files++;
  for (const char *line = buf, *stop = buf + len; line < stop;) {
    const char *end = memchr(line, '\n', stop - line);
    if (!end) end = stop;
    if (starts(line, end, "import ")) {
      const char *from = memmem(line, end - line, " from './", 9);
      const char *spec = from ? from + 9 : NULL;
      const char *close = spec ? memchr(spec, '\'', end - spec) : NULL;
      if (close) {
        char *dep = xmalloc(dirlen + (close - spec) + 1);
        memcpy(dep, rel, dirlen);
        memcpy(dep + dirlen, spec, close - spec);
        dep[dirlen + (close - spec)] = '\0';
        imports++;
        found(dep);
      }
    } else if (starts(line, end, "const ") || starts(line, end, "export const ")) constants++;
    else if (starts(line, end, "function ") || starts(line, end, "export function ")) functions++;
    line = end + 1;
  }
}

/* ---- blocking: a depth-first loop of read() calls ---- */
static char **stack;
static size_t depth, stack_cap;

static void push_unvisited(char *dep) {
  char *copy = strdup(dep);
  if (!copy) { fprintf(stderr, "scan-c: out of memory\n"); exit(1); }
  if (!visit(copy)) { free(dep); return; }
  if (depth == stack_cap) {
    stack_cap = stack_cap ? stack_cap * 2 : 256;
    stack = realloc(stack, stack_cap * sizeof *stack);
    if (!stack) { fprintf(stderr, "scan-c: out of memory\n"); exit(1); }
  }
  stack[depth++] = dep;
}

static void run_blocking(void) {
  push_unvisited(strdup("index.js"));
  while (depth) {
    char *rel = stack[--depth];
    size_t len;
    char *buf = read_file(rel, &len);
    scan(rel, buf, len, push_unvisited);
    free(buf);
    free(rel);
  }
}

/* ---- event loop: one processing thread, a bounded growing read pool ---- */
typedef struct job { struct job *next; char *rel; char *buf; size_t len; } job_t;
static job_t *req_head, *req_tail, *done_head, *done_tail;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t have_req = PTHREAD_COND_INITIALIZER, have_done = PTHREAD_COND_INITIALIZER;
static int idle, nthreads, bound, shutting_down;
static long outstanding;
static pthread_t *threads;

static void enqueue(job_t **head, job_t **tail, job_t *j) {
  j->next = NULL;
  if (*tail) (*tail)->next = j; else *head = j;
  *tail = j;
}

static job_t *dequeue(job_t **head, job_t **tail) {
  job_t *j = *head;
  if (j) { *head = j->next; if (!*head) *tail = NULL; }
  return j;
}

static void *reader(void *arg) {
  (void)arg;
  pthread_mutex_lock(&lock);
  for (;;) {
    job_t *j;
    while (!(j = dequeue(&req_head, &req_tail)) && !shutting_down) {
      idle++;
      pthread_cond_wait(&have_req, &lock);
      idle--;
    }
    if (!j) break;
    pthread_mutex_unlock(&lock);
    j->buf = read_file(j->rel, &j->len);
    pthread_mutex_lock(&lock);
    enqueue(&done_head, &done_tail, j);
    pthread_cond_signal(&have_done);
  }
  pthread_mutex_unlock(&lock);
  return NULL;
}

static void dispatch(char *dep) {
  char *copy = strdup(dep);
  if (!copy) { fprintf(stderr, "scan-c: out of memory\n"); exit(1); }
  if (!visit(copy)) { free(dep); return; }
  job_t *j = xmalloc(sizeof *j);
  j->rel = dep;
  outstanding++;
  pthread_mutex_lock(&lock);
  enqueue(&req_head, &req_tail, j);
  if (idle == 0 && nthreads < bound) {
    int rc = pthread_create(&threads[nthreads], NULL, reader, NULL);
    if (rc) { fprintf(stderr, "scan-c: pthread_create: %s\n", strerror(rc)); exit(1); }
    nthreads++;
  } else pthread_cond_signal(&have_req);
  pthread_mutex_unlock(&lock);
}

static void run_eventloop(void) {
  threads = xmalloc(sizeof *threads * bound);
  dispatch(strdup("index.js"));
  while (outstanding) {
    pthread_mutex_lock(&lock);
    job_t *j;
    while (!(j = dequeue(&done_head, &done_tail))) pthread_cond_wait(&have_done, &lock);
    pthread_mutex_unlock(&lock);
    scan(j->rel, j->buf, j->len, dispatch);
    outstanding--;
    free(j->buf);
    free(j->rel);
    free(j);
  }
  pthread_mutex_lock(&lock);
  shutting_down = 1;
  pthread_cond_broadcast(&have_req);
  pthread_mutex_unlock(&lock);
  for (int t = 0; t < nthreads; t++) pthread_join(threads[t], NULL);
}

int main(int argc, char **argv) {
  if (argc < 3 || argc > 4) { fprintf(stderr, "usage: scan-c blocking|eventloop PROJECT_DIR [BOUND]\n"); return 2; }
  root = argv[2];
  bound = argc == 4 ? atoi(argv[3]) : 8;
  if (bound < 1) { fprintf(stderr, "scan-c: BOUND must be a positive integer\n"); return 2; }
  // The walk's own time on the monotonic clock, start-up left out, as the JS programs report it.
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  if (strcmp(argv[1], "blocking") == 0) run_blocking();
  else if (strcmp(argv[1], "eventloop") == 0) run_eventloop();
  else { fprintf(stderr, "scan-c: mode must be blocking or eventloop (got \"%s\")\n", argv[1]); return 2; }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
  printf("{\"files\":%ld,\"imports\":%ld,\"constants\":%ld,\"functions\":%ld,\"scan_seconds\":%.9f}\n", files, imports,
         constants, functions, seconds);
  return 0;
}
