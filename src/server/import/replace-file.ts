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
  const prepared = await prepareReplacement(file, text, check)
  commitReplacement(prepared)
}

export interface Replacement {
  /** The complete, checked temporary file beside the target. */
  temp: string
  target: string
}

/**
 * The first half of replaceFile: the temporary file, written, synced and checked, but not yet renamed. The domains
 * editor (domains-edit/) records the edit in the store between the two halves, so that another instance that wins
 * the same version leaves this file untouched (decision 044).
 */
export async function prepareReplacement(file: string, text: string, check: (written: string) => Promise<void> = async () => {}): Promise<Replacement> {
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
  } catch (error) {
    fs.rmSync(temp, { force: true })
    throw error
  }
  return { temp, target }
}

/** The second half: the rename, and the directory synced so that the rename itself survives a power cut. */
export function commitReplacement({ temp, target }: Replacement): void {
  try {
    fs.renameSync(temp, target)
  } catch (error) {
    fs.rmSync(temp, { force: true })
    throw error
  }
  const dirFd = fs.openSync(path.dirname(target), 'r')
  try {
    fs.fsyncSync(dirFd)
  } finally {
    fs.closeSync(dirFd)
  }
}

/** A prepared replacement that is not to be made. */
export const discardReplacement = ({ temp }: Replacement) => fs.rmSync(temp, { force: true })

function tryOwner(fd: number, uid: number, gid: number) {
  try {
    fs.fchownSync(fd, uid, gid)
  } catch (error) {
    // Only root may give a file away; anyone else keeps it as their own, as an editor would.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') throw error
  }
}
