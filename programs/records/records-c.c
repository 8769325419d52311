// records-c: fixed-size records with blocking read()/write() on one fixed buffer.
// Usage: records-c read|write RECORD BYTES IN_FILE OUT_FILE
//   read:  reads IN_FILE record by record; reports records, bytes, checksum (sum of the
//          little-endian 32-bit words mod 2^32), io_seconds (the read loop).
//   write: writes BYTES in records to OUT_FILE, then fsync; reports records, bytes (the size
//          on disk after fsync), io_seconds (the write loop) and fsync_seconds.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

static void die(const char *what, const char *path) {
  fprintf(stderr, "records-c: %s %s: %s\n", what, path, strerror(errno));
  exit(1);
}

int main(int argc, char **argv) {
  if (argc != 6) {
    fprintf(stderr, "usage: records-c read|write RECORD BYTES IN_FILE OUT_FILE\n");
    return 2;
  }
  const char *op = argv[1];
  long record = atol(argv[2]);
  long long bytes = atoll(argv[3]);
  if (record < 4 || record % 4 != 0 || bytes <= 0 || bytes % record != 0) {
    fprintf(stderr, "records-c: RECORD must be a positive multiple of 4 dividing BYTES\n");
    return 2;
  }
  uint32_t *buf = aligned_alloc(64, record);
  if (!buf) return 1;
  long long records = 0, total = 0;
  if (strcmp(op, "read") == 0) {
    int fd = open(argv[4], O_RDONLY);
    if (fd < 0) die("open", argv[4]);
    uint32_t sum = 0;
    double t0 = now();
    for (;;) {
      long fill = 0;
      while (fill < record) { // a regular file gives full records except at the end
        ssize_t n = read(fd, (char *)buf + fill, record - fill);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) die("read", argv[4]);
        if (n == 0) break;
        fill += n;
      }
      total += fill;
      if (fill < record) break;
      records++;
      for (long i = 0; i < record / 4; i++) sum += buf[i];
    }
    double io = now() - t0;
    close(fd);
    printf("{\"records\":%lld,\"bytes\":%lld,\"checksum\":%u,\"io_seconds\":%.9f}\n", records, total, sum, io);
  } else if (strcmp(op, "write") == 0) {
    for (long i = 0; i < record; i++) ((unsigned char *)buf)[i] = (unsigned char)i;
    int fd = open(argv[5], O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) die("open", argv[5]);
    double t0 = now();
    for (long long k = bytes / record; k > 0; k--) {
      long done = 0;
      while (done < record) {
        ssize_t n = write(fd, (char *)buf + done, record - done);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) die("write", argv[5]);
        done += n;
      }
      records++;
    }
    double t1 = now();
    if (fsync(fd) != 0) die("fsync", argv[5]);
    double t2 = now();
    struct stat st;
    if (fstat(fd, &st) != 0) die("fstat", argv[5]);
    close(fd);
    printf("{\"records\":%lld,\"bytes\":%lld,\"io_seconds\":%.9f,\"fsync_seconds\":%.9f}\n", records, (long long)st.st_size, t1 - t0, t2 - t1);
  } else {
    fprintf(stderr, "records-c: op must be read or write, got \"%s\"\n", op);
    return 2;
  }
  return 0;
}
