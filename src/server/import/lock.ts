// One writing import of the domains file at a time, across processes (the console's import in each server process
// of WORKERS, the CLI) and across servers sharing the file: a lock file beside it, created with O_EXCL, held from
// reading the file (and checking its fingerprint) to the rename of the new one. The "one import at a time" of
// admin/import/child.ts holds only within one server process; without this, two imports read the same file and the
// later rename silently dropped the earlier one's names (issue 12/19, decision 029).
//
// A lock left by an import that died (SIGKILL, a power cut) is taken over: its process is gone (same host), or it
// is older than any import runs. Node has no flock(); an O_EXCL file works on every local file system and on NFS.
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'

/** How long an import waits for another one to finish writing before it gives up and says so. */
const LOCK_WAIT_MS = 60_000
/** Older than this a lock is left over: an import takes seconds, the console's is stopped after 5 minutes. */
export const LOCK_STALE_MS = 10 * 60_000
/** A lock file still empty after this was made by a process that died between creating and writing it. */
const EMPTY_STALE_MS = 5_000
const POLL_MS = 50

interface Holder {
  pid: number
  host: string
  since: number
  token: string
}

/** Another import holds the lock and did not let go in time; the message names it. */
export class LockBusy extends Error {
  override name = 'LockBusy'
}

/** The lock file of a domains file: beside the file a symbolic link names (that is the one replaced). */
export function lockFileOf(file: string): string {
  const target = fs.existsSync(file) ? fs.realpathSync(file) : path.resolve(file)
  return path.join(path.dirname(target), `.${path.basename(target)}.lock`)
}

function tryCreate(lock: string, holder: Holder): boolean {
  let fd: number
  try {
    fd = fs.openSync(lock, 'wx', 0o644)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw error
  }
  try {
    // Readable by the other user (root's CLI and the service's console): it says only who holds it and since when.
    fs.fchmodSync(fd, 0o644)
    fs.writeSync(fd, JSON.stringify(holder))
  } finally {
    fs.closeSync(fd)
  }
  return true
}

interface Seen {
  holder: Holder | null
  /** The text as read: a lock is taken over only while it still says this. */
  text: string
  ageMs: number
}

/** The lock as it is now; undefined when there is none. */
function readLock(lock: string): Seen | undefined {
  try {
    const ageMs = Date.now() - fs.statSync(lock).mtimeMs
    let text: string
    try {
      text = fs.readFileSync(lock, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw error
      // Not readable by this user: judged by its age alone.
      return { holder: null, text: '\0unreadable', ageMs }
    }
    let holder: Holder | null = null
    try {
      const value = JSON.parse(text) as Partial<Holder>
      if (typeof value.pid === 'number' && typeof value.host === 'string' && typeof value.token === 'string') holder = value as Holder
    } catch {
      // Empty (the writer died before writing) or not ours: its age decides.
    }
    return { holder, text, ageMs }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it exists, as another user's process.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Why the lock is left over, or null while its holder may still be writing. */
function staleness({ holder, text, ageMs }: Seen): string | null {
  if (holder === null) return (text === '' && ageMs > EMPTY_STALE_MS) || ageMs > LOCK_STALE_MS ? 'left over' : null
  if (holder.host === os.hostname() && !alive(holder.pid)) return `process ${holder.pid} has ended`
  return ageMs > LOCK_STALE_MS ? `older than ${LOCK_STALE_MS / 60_000} minutes` : null
}

/**
 * Takes a left-over lock away: moved aside first, and removed only if what was moved is the lock judged left over;
 * another process may have taken it over and made a new one in between, which then goes back.
 */
function takeOver(lock: string, seen: Seen): void {
  const aside = `${lock}.${randomBytes(6).toString('hex')}.stale`
  try {
    fs.renameSync(lock, aside)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return
    throw error
  }
  let moved: string
  try {
    moved = fs.readFileSync(aside, 'utf8')
  } catch {
    // Unreadable as before: the same file.
    moved = seen.text
  }
  if (moved !== seen.text) {
    try {
      fs.linkSync(aside, lock)
    } catch {
      // A third import has the lock by now; the one moved aside will find its lock gone when it lets go.
    }
  }
  fs.rmSync(aside, { force: true })
}

function release(lock: string, token: string): void {
  const seen = readLock(lock)
  // Only its own: one that was taken over (after LOCK_STALE_MS) belongs to another import now.
  if (seen?.holder?.token === token) fs.rmSync(lock, { force: true })
}

/**
 * Waits for the domains file's lock (at most `waitMs`) and takes it; returns the function that lets it go. Throws
 * LockBusy when another import still holds it then, or the system's error when no lock file can be made there.
 */
export async function lockDomainsFile(file: string, waitMs = LOCK_WAIT_MS): Promise<() => void> {
  const lock = lockFileOf(file)
  const holder: Holder = { pid: process.pid, host: os.hostname(), since: Date.now(), token: randomBytes(12).toString('hex') }
  const deadline = Date.now() + waitMs
  for (;;) {
    if (tryCreate(lock, holder)) return () => release(lock, holder.token)
    const seen = readLock(lock)
    if (seen === undefined) continue
    if (staleness(seen) !== null) {
      takeOver(lock, seen)
      continue
    }
    if (Date.now() >= deadline) {
      const who = seen.holder ? `process ${seen.holder.pid} on ${seen.holder.host}` : 'another process'
      throw new LockBusy(`another import (${who}) is writing it and holds ${lock}; try again when it has finished`)
    }
    await sleep(POLL_MS)
  }
}
