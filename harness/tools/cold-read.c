/*
 * cold-read: what one 4 KiB read from a cold page cache costs on this machine's disk, the
 * condition behind every cold-cache answer (a host-cached virtual disk answers in tens of
 * microseconds, an SSD in 80-200, a spinning disk in milliseconds).
 * Usage: cold-read DIR. Writes DIR/cold-read.bin (BLOCKS blocks of random bytes) once, then per
 * round: fdatasync, posix_fadvise(DONTNEED) and RANDOM (no readahead), mincore to verify that no
 * page is resident, then READS preads of distinct random blocks, each timed. Prints one JSON line
 * {"reads":N,"block_bytes":4096,"median_us":M,"p90_us":P} and exits 0; 3 when the file's pages
 * could not be evicted (nothing timed); 1 on errors.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define BLOCK 4096
#define BLOCKS 2048
#define ROUNDS 4
#define READS 32

static unsigned long long state = 88172645463325252ULL;
static unsigned long long next(void) {
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return state;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static int ensure_file(const char *path) {
  struct stat st;
  if (stat(path, &st) == 0 && st.st_size == (off_t)BLOCK * BLOCKS) return 0;
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return -1;
  unsigned long long buf[BLOCK / 8];
  for (int b = 0; b < BLOCKS; b++) {
    for (int i = 0; i < BLOCK / 8; i++) buf[i] = next();
    if (write(fd, buf, BLOCK) != BLOCK) { close(fd); return -1; }
  }
  fdatasync(fd);
  close(fd);
  return 0;
}

/* Pages of the file still in the page cache after asking the kernel to drop them. */
static long evict(int fd) {
  fdatasync(fd);
  posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);
  size_t len = (size_t)BLOCK * BLOCKS;
  long ps = sysconf(_SC_PAGESIZE);
  void *map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
  if (map == MAP_FAILED) return -1;
  unsigned char vec[(size_t)BLOCK * BLOCKS / 4096 + 1];
  long resident = 0;
  if (mincore(map, len, vec) < 0) resident = -1;
  else for (size_t i = 0; i < len / ps; i++) resident += vec[i] & 1;
  munmap(map, len);
  return resident;
}

int main(int argc, char **argv) {
  if (argc != 2) { fprintf(stderr, "usage: cold-read DIR\n"); return 1; }
  char path[4096];
  snprintf(path, sizeof path, "%s/cold-read.bin", argv[1]);
  if (ensure_file(path) < 0) { fprintf(stderr, "cold-read: %s: %s\n", path, strerror(errno)); return 1; }
  int fd = open(path, O_RDONLY);
  if (fd < 0) { fprintf(stderr, "cold-read: %s: %s\n", path, strerror(errno)); return 1; }
  static double us[ROUNDS * READS];
  int n = 0;
  char buf[BLOCK];
  for (int r = 0; r < ROUNDS; r++) {
    long resident = evict(fd);
    if (resident != 0) { fprintf(stderr, "cold-read: %ld pages stayed resident\n", resident); close(fd); return 3; }
    for (int i = 0; i < READS; i++) {
      /* A random stride of READS blocks, the i-th block of it: no read lands next to an earlier one. */
      off_t block = (off_t)((next() % (BLOCKS / READS)) * READS + i);
      struct timespec t0, t1;
      clock_gettime(CLOCK_MONOTONIC, &t0);
      if (pread(fd, buf, BLOCK, block * BLOCK) != BLOCK) { fprintf(stderr, "cold-read: short read\n"); close(fd); return 1; }
      clock_gettime(CLOCK_MONOTONIC, &t1);
      us[n++] = (t1.tv_sec - t0.tv_sec) * 1e6 + (t1.tv_nsec - t0.tv_nsec) / 1e3;
    }
  }
  close(fd);
  qsort(us, n, sizeof us[0], cmp);
  printf("{\"reads\":%d,\"block_bytes\":%d,\"median_us\":%.2f,\"p90_us\":%.2f}\n", n, BLOCK, us[n / 2], us[n * 9 / 10]);
  return 0;
}
