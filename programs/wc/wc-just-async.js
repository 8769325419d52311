// wc-just-async: count the bytes piped to stdin on just(js)'s default epoll loop. stdin is made
// non-blocking and registered level-triggered for EPOLLIN; each readiness event gets exactly
// one read, so the cost measured is one epoll_wait plus one read per block.
// Usage: just wc-just-async.js [block-size]   (runtime only: it needs the bootstrap's loop)
const { net, sys } = just
const { read, O_NONBLOCK } = net
const { STDIN_FILENO, F_GETFL, F_SETFL, fcntl, errno, strerror } = sys
const { EPOLLIN } = just.loop
const { loop } = just.factory

const arg = just.args[2]
const MAX_BS = 1 << 30
const bs = arg === undefined ? 65536 : /^[1-9][0-9]{0,9}$/.test(arg) ? Number(arg) : 0
if (bs < 1 || bs > MAX_BS) {
  just.error(`wc-just-async: block size must be an integer from 1 to ${MAX_BS}, got "${arg}"`)
  sys.exit(2) // exit(3): flushes stdio
}

function fail (what, err = errno()) {
  just.error(`wc-just-async: ${what}: ${strerror(err)} (errno ${err})`)
  sys.exit(1)
}

const EINTR = 4
const EAGAIN = 11 // Linux: nothing to read yet; level-triggered epoll reports the fd again
const flags = fcntl(STDIN_FILENO, F_GETFL, 0)
if (flags < 0 || fcntl(STDIN_FILENO, F_SETFL, flags | O_NONBLOCK) < 0) fail('fcntl')

const buf = new ArrayBuffer(bs)
let bytes = 0
let reads = 0

function onReadable (fd) {
  const n = read(fd, buf, 0, bs) // offset and length are required in 0.1.13
  if (n > 0) {
    bytes += n
    reads++
    return
  }
  if (n < 0) {
    const err = errno()
    if (err === EAGAIN || err === EINTR) return // wait for the next event
    fail('read', err)
  }
  // EOF: with no fd left the runtime's loop ends and the process exits 0. Put the blocking
  // flag back, since the pipe's open file description may outlive us.
  loop.remove(fd)
  fcntl(fd, F_SETFL, flags)
  just.print(JSON.stringify({ bytes, reads }))
}

// epoll refuses regular files (EPERM): the input must be a pipe.
if (loop.add(STDIN_FILENO, onReadable, EPOLLIN) < 0) fail('epoll_ctl(stdin)')
