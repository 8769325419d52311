/* wc-c: count the bytes piped to stdin with a read(2) loop into one fixed buffer.
 * The baseline: every JavaScript variant makes the same read() calls as this loop.
 * Usage: wc-c [block-size]   (default 65536)
 * Prints {"bytes":N,"reads":N}; exit 1 on a read error, 2 on a bad block size. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_BS (1L << 30)

/* Decimal digits only, 1 .. 1 GiB: the same rule as the JavaScript variants
 * (strtol would also accept " 42", "+42" and silently saturate). */
static long parse_bs(const char *s) {
  long v = 0;
  if (*s < '1' || *s > '9') return -1;
  for (; *s; s++) {
    if (*s < '0' || *s > '9') return -1;
    v = v * 10 + (*s - '0');
    if (v > MAX_BS) return -1;
  }
  return v;
}

int main(int argc, char **argv) {
  long bs = argc > 1 ? parse_bs(argv[1]) : 65536;
  if (bs < 1) {
    fprintf(stderr, "wc-c: block size must be an integer from 1 to %ld, got \"%s\"\n", MAX_BS,
            argv[1]);
    return 2;
  }
  /* Heap, not a VLA: block sizes up to 1 GiB would overflow the stack. */
  char *buf = malloc((size_t)bs);
  if (buf == NULL) {
    fprintf(stderr, "wc-c: cannot allocate %ld bytes: %s\n", bs, strerror(errno));
    return 1;
  }
  unsigned long long bytes = 0, reads = 0;
  for (;;) {
    ssize_t n = read(STDIN_FILENO, buf, (size_t)bs);
    if (n > 0) {
      bytes += (unsigned long long)n;
      reads++;
    } else if (n == 0) {
      break; /* EOF: the writer closed the pipe */
    } else if (errno != EINTR) {
      int err = errno;
      fprintf(stderr, "wc-c: read: %s (errno %d)\n", strerror(err), err);
      return 1;
    }
  }
  free(buf);
  printf("{\"bytes\":%llu,\"reads\":%llu}\n", bytes, reads);
  return 0;
}
