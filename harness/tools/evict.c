/*
 * evict: drops files from the page cache without root and verifies it.
 * For each file (directories are walked): fdatasync (only clean pages can be dropped),
 * posix_fadvise(POSIX_FADV_DONTNEED), then mmap + mincore to count pages still resident.
 * Pages another process touches at the same moment (readahead, a busy machine's writeback) can
 * stay resident for a moment, so a pass that leaves any is repeated, up to ATTEMPTS times with a
 * growing pause. Prints one JSON line {"files":N,"pages":P,"resident":R,"attempts":A} and exits 0
 * when R == 0, 3 when pages stayed resident after every attempt (eviction not verified), 1 on errors.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static long files, pages, resident;

static int evict_file(const char *path) {
  int fd = open(path, O_RDONLY);
  if (fd < 0) { fprintf(stderr, "evict: %s: %s\n", path, strerror(errno)); return -1; }
  struct stat st;
  if (fstat(fd, &st) < 0) { fprintf(stderr, "evict: %s: %s\n", path, strerror(errno)); close(fd); return -1; }
  fdatasync(fd);
  int rc = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  if (rc != 0) { fprintf(stderr, "evict: %s: posix_fadvise: %s\n", path, strerror(rc)); close(fd); return -1; }
  files++;
  if (st.st_size > 0) {
    long ps = sysconf(_SC_PAGESIZE);
    size_t n = (st.st_size + ps - 1) / ps;
    void *map = mmap(NULL, st.st_size, PROT_READ, MAP_SHARED, fd, 0);
    if (map == MAP_FAILED) { fprintf(stderr, "evict: %s: mmap: %s\n", path, strerror(errno)); close(fd); return -1; }
    unsigned char *vec = malloc(n);
    if (!vec || mincore(map, st.st_size, vec) < 0) { fprintf(stderr, "evict: %s: mincore: %s\n", path, strerror(errno)); munmap(map, st.st_size); free(vec); close(fd); return -1; }
    for (size_t i = 0; i < n; i++) resident += vec[i] & 1;
    pages += n;
    free(vec);
    munmap(map, st.st_size);
  }
  close(fd);
  return 0;
}

static int walk(const char *path) {
  struct stat st;
  if (stat(path, &st) < 0) { fprintf(stderr, "evict: %s: %s\n", path, strerror(errno)); return -1; }
  if (!S_ISDIR(st.st_mode)) return S_ISREG(st.st_mode) ? evict_file(path) : 0;
  DIR *d = opendir(path);
  if (!d) { fprintf(stderr, "evict: %s: %s\n", path, strerror(errno)); return -1; }
  struct dirent *e;
  int rc = 0;
  while ((e = readdir(d)) != NULL) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    char child[4096];
    snprintf(child, sizeof child, "%s/%s", path, e->d_name);
    if (walk(child) < 0) rc = -1;
  }
  closedir(d);
  return rc;
}

#define ATTEMPTS 5

int main(int argc, char **argv) {
  if (argc < 2) { fprintf(stderr, "usage: evict FILE|DIR...\n"); return 1; }
  int rc = 0, attempt = 0;
  do {
    if (attempt > 0) {
      // 20, 40, 80, 160 ms: long enough for a competing reader or writeback to finish.
      struct timespec pause = {0, 20000000L << (attempt - 1)};
      nanosleep(&pause, NULL);
    }
    files = pages = resident = 0;
    rc = 0;
    for (int i = 1; i < argc; i++) if (walk(argv[i]) < 0) rc = 1;
    attempt++;
  } while (rc == 0 && resident > 0 && attempt < ATTEMPTS);
  printf("{\"files\":%ld,\"pages\":%ld,\"resident\":%ld,\"attempts\":%d}\n", files, pages, resident, attempt);
  if (rc) return 1;
  return resident ? 3 : 0;
}
