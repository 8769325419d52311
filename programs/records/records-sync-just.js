// sync (just-js): blocking just.net.read loop over a file opened with just.fs.open, into one
// fixed record buffer. Reads only. Usage: just records-sync-just.js read RECORD BYTES IN_FILE OUT_FILE
// (the arguments of records-c.c). Reports records, bytes, checksum, io_seconds.
if (!just.library) just.library = name => just.load(name)
const net = just.net || just.library('net').net
const sys = just.sys || just.library('sys').sys
const fs = just.fs || just.library('fs').fs

const [op, recordArg, bytesArg, inFile] = just.args.slice(2)
const record = Number(recordArg)
const bytes = Number(bytesArg)
if (op !== 'read' || !(record >= 4 && record % 4 === 0) || !(bytes > 0 && bytes % record === 0) || !inFile) {
  just.error('usage: just records-sync-just.js read RECORD BYTES IN_FILE OUT_FILE')
  just.exit(2)
}
const fd = fs.open(inFile)
if (fd < 0) {
  just.error(`sync-just: open ${inFile}: ${sys.strerror(sys.errno())}`)
  just.exit(1)
}
const buf = new ArrayBuffer(record)
const words = new Uint32Array(buf)
let records = 0
let total = 0
let sum = 0
const t0 = Date.now()
for (;;) {
  let fill = 0
  while (fill < record) {
    const n = net.read(fd, buf, fill, record - fill)
    if (n === 0) break
    if (n < 0) {
      const errno = sys.errno()
      if (errno === 4) continue // EINTR
      just.error(`sync-just: read: ${sys.strerror(errno)} (errno ${errno})`)
      just.exit(1)
    }
    fill += n
  }
  total += fill
  if (fill < record) break
  records++
  for (let i = 0; i < words.length; i++) sum = (sum + words[i]) | 0
}
const io = (Date.now() - t0) / 1000
net.close(fd)
just.print(JSON.stringify({ records, bytes: total, checksum: sum >>> 0, io_seconds: io }))
