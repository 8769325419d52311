/* wc-c: count the bytes on stdin, reading fixed-size blocks with read(2). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
  char *end = NULL;
  long bs = argc > 1 ? strtol(argv[1], &end, 10) : 65536;
  if (bs <= 0 || (end && *end != '\0')) {
    fprintf(stderr, "wc-c: block size must be a positive integer, got \"%s\"\n", argv[1]);
    return 2;
  }
  char *buf = malloc((size_t)bs);
  if (!buf) {
    fprintf(stderr, "wc-c: cannot allocate %ld bytes\n", bs);
    return 1;
  }
  unsigned long long bytes = 0, reads = 0;
  for (;;) {
    ssize_t n = read(STDIN_FILENO, buf, (size_t)bs);
    if (n > 0) {
      bytes += (unsigned long long)n;
      reads++;
    } else if (n == 0) {
      break;
    } else if (errno != EINTR) {
      fprintf(stderr, "wc-c: read: %s (errno %d)\n", strerror(errno), errno);
      return 1;
    }
  }
  printf("{\"bytes\":%llu,\"reads\":%llu}\n", bytes, reads);
  free(buf);
  return 0;
}
