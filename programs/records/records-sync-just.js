// sync (just-js): blocking records on one fixed buffer, the just(js) twin of records-c.c.
//   read:  just.net.read of one record at a time from a file opened with just.fs.open;
//          reports records, bytes, checksum (sum of the little-endian 32-bit words mod 2^32)
//          and io_seconds (the read loop).
//   write: just.net.write of one record at a time, then just.fs.fsync; reports records, bytes
//          (the file's size after fsync), io_seconds (the write loop) and fsync_seconds.
// Usage: just records-sync-just.js read|write RECORD BYTES IN_FILE OUT_FILE  (as records-c.c)
// Runtime only (it uses the bootstrap's just.fs, just.net, just.sys and just.hrtime, which is a
// monotonic clock in nanoseconds since start-up).
const { fs, net, sys } = just

const [op, recordArg, bytesArg, inFile, outFile] = just.args.slice(2)
const record = Number(recordArg)
const bytes = Number(bytesArg)
if (!['read', 'write'].includes(op) || !(record >= 4 && record % 4 === 0) || !(bytes > 0 && bytes % record === 0) || !inFile || !outFile) {
  just.error('usage: just records-sync-just.js read|write RECORD BYTES IN_FILE OUT_FILE')
  just.exit(2)
}

const EINTR = 4
function fail (what, path) {
  const err = sys.errno()
  just.error(`records-sync-just: ${what} ${path}: ${sys.strerror(err)} (errno ${err})`)
  just.exit(1)
}
const seconds = (t0, t1) => (t1 - t0) / 1e9

const buf = new ArrayBuffer(record)
let records = 0

if (op === 'read') {
  const words = new Uint32Array(buf) // native order: little-endian on the machines measured
  const fd = fs.open(inFile, fs.O_RDONLY)
  if (fd < 0) fail('open', inFile)
  let total = 0
  let sum = 0
  const t0 = just.hrtime()
  for (;;) {
    let fill = 0
    while (fill < record) { // a regular file gives full records except at the end
      // Offset and length are required: in 0.1.13 read(fd, buf) alone passes length 0 to read(2).
      const n = net.read(fd, buf, fill, record - fill)
      if (n === 0) break
      if (n < 0) {
        if (sys.errno() === EINTR) continue
        fail('read', inFile)
      }
      fill += n
    }
    total += fill
    if (fill < record) break
    records++
    for (let i = 0; i < words.length; i++) sum = (sum + words[i]) | 0
  }
  const io = seconds(t0, just.hrtime())
  net.close(fd)
  just.print(JSON.stringify({ records, bytes: total, checksum: sum >>> 0, io_seconds: io }))
} else {
  const bytesView = new Uint8Array(buf)
  for (let i = 0; i < record; i++) bytesView[i] = i & 255
  const fd = fs.open(outFile, fs.O_WRONLY | fs.O_CREAT | fs.O_TRUNC, 0o644)
  if (fd < 0) fail('open', outFile)
  const t0 = just.hrtime()
  for (let k = bytes / record; k > 0; k--) {
    let done = 0
    while (done < record) {
      // net.write(fd, buf, length, offset): length before offset, unlike read.
      const n = net.write(fd, buf, record - done, done)
      if (n < 0) {
        if (sys.errno() === EINTR) continue
        fail('write', outFile)
      }
      done += n
    }
    records++
  }
  const t1 = just.hrtime()
  if (fs.fsync(fd) !== 0) fail('fsync', outFile)
  const t2 = just.hrtime()
  const stat = new BigUint64Array(20)
  if (fs.fstat(fd, stat) !== 0) fail('fstat', outFile)
  net.close(fd)
  just.print(JSON.stringify({ records, bytes: Number(stat[7]), io_seconds: seconds(t0, t1), fsync_seconds: seconds(t1, t2) }))
}
