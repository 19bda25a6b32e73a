// The process that loads the domains file (registry.ts starts one per load): parsing and checking 100,000 entries
// takes most of a second of CPU and a hundred MiB or more, none of which the requests should wait for, and none of
// which the server should keep. A thread would keep it: memory a worker thread used stays with the process after it
// ends (glibc and V8 keep the freed pages), a process gives it all back when it exits. The table's buffer goes back
// as the file the server named, the rest over the IPC channel.
import fs from 'node:fs'
import { DomainsFileError } from './domains-document.ts'
import { loadDomainsFile } from './domains-file.ts'

// A hangup of the terminal, or a SIGHUP sent to the whole group, must not end a load (the server reloads on it).
process.on('SIGHUP', () => {})

const [file, tableFile] = process.argv.slice(2) as [string, string]
let answer
try {
  const { buffer, ...data } = loadDomainsFile(file)
  // In the server's private directory; "wx": never through a file or link that is already there.
  fs.writeFileSync(tableFile, new Uint8Array(buffer), { flag: 'wx', mode: 0o600 })
  answer = { ok: true, data }
} catch (error) {
  // A DomainsFileError is the owner's to fix, its message says how; anything else is a bug, with its stack.
  answer = { ok: false, message: error instanceof DomainsFileError ? error.message : `${file}: ${(error as Error)?.stack ?? String(error)}` }
}
process.send!(answer, () => process.disconnect())
