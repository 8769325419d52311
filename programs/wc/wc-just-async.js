// wc-just-async: count stdin bytes on just(js)'s epoll loop. stdin is made non-blocking and
// registered level-triggered for EPOLLIN; each readiness event gets exactly one read.
const { net, sys } = just
const { EPOLLIN } = just.loop
const loop = just.factory.loop

const arg = just.args[2]
const bs = arg === undefined ? 65536 : Number(arg)
if (!Number.isInteger(bs) || bs <= 0) {
  just.error(`wc-just-async: block size must be a positive integer, got "${arg}"`)
  just.exit(2)
}

const fd = sys.STDIN_FILENO
const flags = sys.fcntl(fd, sys.F_GETFL, 0)
if (flags < 0 || sys.fcntl(fd, sys.F_SETFL, flags | net.O_NONBLOCK) < 0) {
  just.error(`wc-just-async: fcntl: ${sys.strerror(sys.errno())}`)
  just.exit(1)
}

const EAGAIN = 11
const buf = new ArrayBuffer(bs)
let bytes = 0
let reads = 0
loop.add(fd, () => {
  const n = net.read(fd, buf, 0, bs)
  if (n > 0) {
    bytes += n
    reads++
    return
  }
  if (n < 0) {
    const errno = sys.errno()
    if (errno === EAGAIN || errno === 4) return // spurious wakeup or EINTR: wait for the next event
    just.error(`wc-just-async: read: ${sys.strerror(errno)} (errno ${errno})`)
    just.exit(1)
  }
  // EOF: leave the loop so the runtime can exit.
  loop.remove(fd)
  just.print(JSON.stringify({ bytes, reads }))
}, EPOLLIN)
