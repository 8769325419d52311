// wc-just-sync: count the bytes piped to stdin with a blocking just.net.read loop into one
// fixed ArrayBuffer: one read(2) per iteration, like wc-c.
// Usage: just wc-just-sync.js [block-size]   or, built standalone: ./wc-just-sync [block-size]
//
// The same file is the main of the static app (wc-just-static.config.js). A standalone app
// skips the runtime's bootstrap: there is no just.library, just.net or just.sys, and argv has
// no script name. So modules are always loaded through just.library with literal names (the
// builder finds the modules to link by scanning for those calls), which works in both modes.
if (!just.library) just.library = name => just.load(name)
const { net } = just.library('net')
const { sys } = just.library('sys')
const { read } = net
const { STDIN_FILENO, errno, strerror } = sys

// The bootstrap defines just.require and leaves the script path in args[1]; a standalone app
// has neither, so its first user argument is args[1].
const arg = just.args[typeof just.require === 'function' ? 2 : 1]
const MAX_BS = 1 << 30
const bs = arg === undefined ? 65536 : /^[1-9][0-9]{0,9}$/.test(arg) ? Number(arg) : 0
if (bs < 1 || bs > MAX_BS) {
  just.error(`wc-just-sync: block size must be an integer from 1 to ${MAX_BS}, got "${arg}"`)
  sys.exit(2) // sys.exit is exit(3): present in both modes, and it flushes stdio
}

const EINTR = 4
const buf = new ArrayBuffer(bs)
let bytes = 0
let reads = 0
for (;;) {
  // Offset and length are required: in 0.1.13 read(fd, buf) alone passes length 0 to read(2).
  const n = read(STDIN_FILENO, buf, 0, bs)
  if (n > 0) {
    bytes += n
    reads++
  } else if (n === 0) {
    break // EOF
  } else {
    const err = errno()
    if (err === EINTR) continue
    just.error(`wc-just-sync: read: ${strerror(err)} (errno ${err})`)
    sys.exit(1)
  }
}
just.print(JSON.stringify({ bytes, reads }))
