// DATA_DIR at start-up: usable (one line naming the path and what is missing when not), private, and used by one
// server only. Run once per server (the primary of a cluster; its workers share what it checked and holds).
import fs from 'node:fs'
import path from 'node:path'
import { DatabaseSync } from 'node:sqlite'

/** A problem the owner fixes on the machine: main.ts prints the message alone (no stack trace) and exits 1. */
export class DataDirError extends Error {
  override name = 'DataDirError'
}

export const whoAmI = () => (process.getuid ? `user ${process.getuid()}` : 'this user')

/** What the server needs of a path, in the owner's words, from the error the file system gave. */
export function describeFsError(target: string, error: NodeJS.ErrnoException, need: string): string {
  switch (error.code) {
    case 'EACCES':
    case 'EPERM':
      return `${target}: permission denied: the server runs as ${whoAmI()}, which needs ${need}`
    case 'ENOTDIR':
      return `${target}: ${nearestExisting(error.path ?? target)} is a file, not a directory`
    case 'EROFS':
      return `${target}: the file system is read-only; the server needs ${need}`
    default:
      return `${target}: ${error.message}`
  }
}

/** The closest part of `file`'s path that exists: what stood in the way of creating the rest. */
function nearestExisting(file: string): string {
  let current = file
  while (!fs.existsSync(current) && path.dirname(current) !== current) current = path.dirname(current)
  return current
}

/**
 * Creates DATA_DIR (mode 0700) if it is missing and checks that the server may write in it. Returns a warning
 * when other users may read or change it: it holds every inquiry.
 */
export function prepareDataDir(dir: string): { warning: string | null } {
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 })
  } catch (error) {
    const need = `write permission on ${nearestExisting(dir)} to create it`
    throw new DataDirError(describeFsError(`DATA_DIR ${dir} cannot be created`, error as NodeJS.ErrnoException, need))
  }
  const stat = fs.statSync(dir)
  if (!stat.isDirectory()) throw new DataDirError(`DATA_DIR ${dir} is not a directory`)
  try {
    fs.accessSync(dir, fs.constants.R_OK | fs.constants.W_OK | fs.constants.X_OK)
  } catch (error) {
    throw new DataDirError(
      describeFsError(
        `DATA_DIR ${dir} is not usable`,
        error as NodeJS.ErrnoException,
        `read, write and execute permission on it (chown it to that user, chmod 700)`,
      ),
    )
  }
  const mode = stat.mode & 0o777
  const warning =
    mode & 0o077 ? `DATA_DIR ${dir} has mode ${mode.toString(8).padStart(4, '0')}: other users may read or change the inquiries in it; chmod 700 ${dir}` : null
  return { warning }
}

/**
 * Makes this process the only server on DATA_DIR's SQLite store: a second one would end the first one's mail
 * leases and send its mail again. The lock is SQLite's own file lock (fcntl) on DATA_DIR/server.lock, which the
 * kernel drops when the process ends, however it ends, so a server killed with -9 leaves nothing stale behind.
 * server.pid names the holder for the message, and is the second line of defence: a lock file deleted under a
 * running server (a clean-up script, a careless `rm`) no longer protects it, so the server named there is asked
 * too.
 */
export function lockDataDir(dir: string): void {
  const pidFile = path.join(dir, 'server.pid')
  const recorded = readPid(pidFile)
  const refuse = (pid: string) =>
    new DataDirError(
      `another domain-lander server (PID ${pid}) is running on DATA_DIR ${dir}; stop it first or give this one its own DATA_DIR (for several processes on one store: WORKERS, or PostgreSQL via DATABASE_URL)`,
    )
  const db = new DatabaseSync(path.join(dir, 'server.lock'), { timeout: 0 })
  try {
    db.exec('PRAGMA locking_mode = EXCLUSIVE')
    db.exec('BEGIN EXCLUSIVE')
  } catch (error) {
    db.close()
    if ((error as { errcode?: number }).errcode !== 5) throw error
    // written right after the lock is taken: the other server may be just starting
    throw refuse(readPid(pidFile) ?? 'unknown')
  }
  if (recorded && Number(recorded) !== process.pid && holdsStore(Number(recorded), dir)) {
    db.close()
    throw refuse(recorded)
  }
  // Referenced until the process exits: a collected connection would take the lock with it.
  process.once('exit', () => db.close())
  fs.writeFileSync(pidFile, `${process.pid}\n`, { mode: 0o600 })
}

function readPid(file: string): string | null {
  try {
    const text = fs.readFileSync(file, 'utf8').trim()
    return /^\d+$/.test(text) ? text : null
  } catch {
    return null
  }
}

/**
 * Whether the process `pid`, or one of its children (the workers of a cluster), has DATA_DIR's database open: a
 * server, not a stranger that got the PID of one that died. Only Linux shows this (/proc); elsewhere the lock file
 * alone decides.
 */
function holdsStore(pid: number, dir: string): boolean {
  const database = path.join(fs.realpathSync(dir), 'domain-lander.sqlite')
  const opens = (id: number | string) => {
    try {
      return fs.readdirSync(`/proc/${id}/fd`).some((fd) => {
        try {
          return fs.readlinkSync(`/proc/${id}/fd/${fd}`).startsWith(database)
        } catch {
          return false // closed meanwhile
        }
      })
    } catch {
      return false // gone, or not ours to look at
    }
  }
  let children: string[] = []
  try {
    children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(' ').filter(Boolean)
  } catch {
    // no such process
  }
  return opens(pid) || children.some(opens)
}
