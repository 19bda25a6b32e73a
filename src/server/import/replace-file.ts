// Replaces a file so that a reader (the server's reload, a crash, a full disk) sees either the old or the new file,
// never half of one: a temporary file beside it, written and fsynced, checked, renamed over it, then the directory
// fsynced so that the rename itself survives a power cut.
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

/**
 * Writes `text` as `file`; the new file keeps the old one's mode (and owner, where the process may set it).
 * `check` sees the complete temporary file before the rename: when it throws, the file stays as it was.
 */
export async function replaceFile(file: string, text: string, check: (written: string) => Promise<void> = async () => {}): Promise<void> {
  // Through a symbolic link to the file it names: the link stays a link.
  const target = fs.existsSync(file) ? fs.realpathSync(file) : path.resolve(file)
  const old = fs.existsSync(target) ? fs.statSync(target) : null
  const dir = path.dirname(target)
  // The target's extension last: the server's loader tells JSON from YAML by it, and `check` runs that loader.
  const temp = path.join(dir, `.${randomBytes(6).toString('hex')}.tmp.${path.basename(target)}`)
  // A new file gets what the umask allows of rw-r--r--; a replaced one its old mode, set once it is written.
  const fd = fs.openSync(temp, 'wx', old ? 0o600 : 0o644)
  try {
    try {
      fs.writeFileSync(fd, text)
      if (old) {
        fs.fchmodSync(fd, old.mode & 0o7777)
        // A root shell importing into the service user's file must leave it readable for the service.
        if (old.uid !== process.getuid?.() || old.gid !== process.getgid?.()) tryOwner(fd, old.uid, old.gid)
      }
      fs.fsyncSync(fd)
    } finally {
      fs.closeSync(fd)
    }
    await check(temp)
    fs.renameSync(temp, target)
  } catch (error) {
    fs.rmSync(temp, { force: true })
    throw error
  }
  const dirFd = fs.openSync(dir, 'r')
  try {
    fs.fsyncSync(dirFd)
  } finally {
    fs.closeSync(dirFd)
  }
}

function tryOwner(fd: number, uid: number, gid: number) {
  try {
    fs.fchownSync(fd, uid, gid)
  } catch (error) {
    // Only root may give a file away; anyone else keeps it as their own, as an editor would.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') throw error
  }
}
