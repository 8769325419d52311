// wc-just-sync: count stdin bytes with a blocking just.net.read loop into one fixed buffer.
// The same file is built into a standalone static app (wc-just-static.config.js): there the
// runtime's bootstrap does not run, so modules are loaded explicitly, and the first user
// argument is args[1] instead of args[2].
const standalone = !just.args[1] || !just.args[1].endsWith('.js')
if (!just.library) just.library = name => just.load(name)
const net = just.net || just.library('net').net
const sys = just.sys || just.library('sys').sys

const arg = standalone ? just.args[1] : just.args[2]
const bs = arg === undefined ? 65536 : Number(arg)
if (!Number.isInteger(bs) || bs <= 0) {
  just.error(`wc-just-sync: block size must be a positive integer, got "${arg}"`)
  just.exit(2)
}

const buf = new ArrayBuffer(bs)
let bytes = 0
let reads = 0
for (;;) {
  const n = net.read(sys.STDIN_FILENO, buf, 0, bs)
  if (n > 0) {
    bytes += n
    reads++
  } else if (n === 0) {
    break
  } else {
    const errno = sys.errno()
    if (errno === 4) continue // EINTR
    just.error(`wc-just-sync: read: ${sys.strerror(errno)} (errno ${errno})`)
    just.exit(1)
  }
}
just.print(JSON.stringify({ bytes, reads }))
