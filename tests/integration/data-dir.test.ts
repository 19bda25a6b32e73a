// DATA_DIR on disk, against the real server process: private files, one server per SQLite store (PostgreSQL
// instances may share a DATA_DIR by design), and one plain line when the directory cannot be used.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, expect, test } from 'vitest'
import { tempDataDir } from '../helpers/app.ts'
import { submitInquiry } from '../helpers/contact.ts'
import { onPostgres, queryStore, storeEnv } from '../helpers/postgres.ts'
import { startServerProcess, type ServerProcess } from '../helpers/server.ts'
import { startSmtpSink, type SmtpSink } from '../helpers/smtp.ts'

const MAIN = path.resolve(import.meta.dirname, '../../dist/server/main.js')

let servers: ServerProcess[] = []
let dirs: string[] = []
let smtp: SmtpSink | undefined
afterEach(async () => {
  for (const server of servers) await server.kill()
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true })
  await smtp?.close()
  servers = []
  dirs = []
  smtp = undefined
})

function newDataDir() {
  const dir = tempDataDir()
  dirs.push(dir)
  return dir
}

async function start(env: Record<string, string>) {
  const server = await startServerProcess(env)
  servers.push(server)
  return server
}

/** Every file and directory under `dir`, with its permission bits in octal. */
function modesUnder(dir: string): Record<string, string> {
  const modes: Record<string, string> = {}
  for (const entry of fs.readdirSync(dir, { recursive: true }) as string[]) {
    modes[entry] = (fs.statSync(path.join(dir, entry)).mode & 0o777).toString(8)
  }
  return modes
}

const jsonLines = (server: ServerProcess) =>
  server.output.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as { level: number; msg: string })

test('in a DATA_DIR that exists with mode 0755, every file the server creates is 0600, and the start warns about the directory', async () => {
  const dataDir = newDataDir()
  fs.chmodSync(dataDir, 0o755)
  const server = await start({ DATA_DIR: dataDir })
  expect((await submitInquiry(server.url)).status).toBe(200)
  const mailDir = path.join(dataDir, 'mail')
  await expect.poll(() => fs.existsSync(mailDir) && fs.readdirSync(mailDir).filter((name) => name.endsWith('.eml')).length, { timeout: 15_000 }).toBe(1)

  const modes = modesUnder(dataDir)
  // While it runs, SQLite's -wal and -shm files are there too.
  if (!onPostgres())
    expect(Object.keys(modes)).toEqual(expect.arrayContaining(['domain-lander.sqlite', 'domain-lander.sqlite-wal', 'domain-lander.sqlite-shm']))
  const expected = Object.fromEntries(Object.keys(modes).map((entry) => [entry, fs.statSync(path.join(dataDir, entry)).isDirectory() ? '700' : '600']))
  expect(modes).toEqual(expected)

  const warnings = jsonLines(server).filter((line) => line.level === 40 && line.msg.includes(`DATA_DIR ${dataDir}`))
  expect(warnings.map((line) => line.msg)).toEqual([
    `DATA_DIR ${dataDir} has mode 0755: other users may read or change the inquiries in it; chmod 700 ${dataDir}`,
  ])
})

test('a DATA_DIR of mode 0700 gives no warning', async () => {
  const server = await start({ DATA_DIR: newDataDir() })
  expect(jsonLines(server).filter((line) => line.level >= 40)).toEqual([expect.objectContaining({ msg: expect.stringMatching(/^SMTP_URL is not set/) })])
})

/** The one line a server that cannot start printed, after the helper's "exited (1)". */
async function refusal(starting: Promise<ServerProcess>): Promise<string> {
  const error = await starting.then(
    (server) => {
      servers.push(server)
      throw new Error('the server started')
    },
    (e: Error) => e,
  )
  expect(error.message).toMatch(/exited \(1\) before it was ready/)
  const lines = error.message.split('\n').slice(1).filter(Boolean)
  // No stack trace, no JSON log: one sentence for the owner.
  expect(lines).toHaveLength(1)
  return lines[0]!
}

test('a second server on the DATA_DIR of a running one refuses to start on SQLite, naming the directory and the PID; every mail is sent once', async () => {
  // A slow mail server keeps the first server's mail leased while the second one starts (for longer than the
  // tests' short lease on PostgreSQL, which would hand it to the other instance by design).
  smtp = await startSmtpSink({ delayMs: 1500 })
  const env = { SMTP_URL: smtp.url, MAIL_LEASE_SECONDS: '60' }
  const first = await start(env)
  dirs.push(first.dataDir)
  for (let i = 0; i < 3; i++) expect((await submitInquiry(first.url, { message: `Nachricht ${i}` })).status).toBe(200)
  await expect.poll(() => smtp!.receiving).toBeGreaterThan(0)

  const second = startServerProcess({ ...env, DATA_DIR: first.dataDir })
  if (onPostgres()) {
    // Several instances on one database are what PostgreSQL is for: DATA_DIR holds no store to protect.
    servers.push(await second)
  } else {
    expect(await refusal(second)).toBe(
      `domain-lander: another domain-lander server (PID ${first.child.pid}) is running on DATA_DIR ${first.dataDir}; stop it first or give this one its own DATA_DIR (for several processes on one store: WORKERS, or PostgreSQL via DATABASE_URL)`,
    )
  }
  await smtp.waitFor(3, 20_000)
  await expect.poll(async () => (await queryStore(first.dataDir, "SELECT id FROM outbox WHERE status <> 'sent'")).length, { timeout: 20_000 }).toBe(0)
  const messageIds = smtp.messages.map((mail) => mail.parsed.messageId)
  expect(messageIds).toHaveLength(3)
  expect(new Set(messageIds).size).toBe(3)
})

test('the workers of a cluster start on the DATA_DIR their primary holds, and another server still refuses it', async () => {
  const cluster = await start({ WORKERS: '2' })
  dirs.push(cluster.dataDir)
  await expect.poll(() => jsonLines(cluster).filter((line) => line.msg.startsWith('domain-lander is ready')).length, { timeout: 15_000 }).toBe(2)
  expect((await submitInquiry(cluster.url)).status).toBe(200)
  const second = startServerProcess({ DATA_DIR: cluster.dataDir })
  if (onPostgres()) servers.push(await second)
  else expect(await refusal(second)).toContain(`(PID ${cluster.child.pid}) is running on DATA_DIR ${cluster.dataDir}`)
})

test("a second server still refuses the DATA_DIR after someone deleted the running server's lock file", async () => {
  const first = await start({})
  dirs.push(first.dataDir)
  fs.rmSync(path.join(first.dataDir, 'server.lock'), { force: true })
  const second = startServerProcess({ DATA_DIR: first.dataDir })
  // PostgreSQL takes no lock: instances sharing the database are what it is for.
  if (onPostgres()) servers.push(await second)
  else expect(await refusal(second)).toContain(`(PID ${first.child.pid}) is running on DATA_DIR ${first.dataDir}`)
  expect((await submitInquiry(first.url)).status).toBe(200)
})

test('after the server was killed with -9, a new one starts on its DATA_DIR and has its inquiries', async () => {
  const first = await start({})
  dirs.push(first.dataDir)
  const sent = await submitInquiry(first.url)
  expect(sent.status).toBe(200)
  expect(await first.kill()).toBe('SIGKILL')
  // The dead server's PID is still written down; the lock itself went with the process.
  if (!onPostgres()) expect(fs.readFileSync(path.join(first.dataDir, 'server.pid'), 'utf8').trim()).toBe(String(first.child.pid))
  const next = await start({ DATA_DIR: first.dataDir })
  // Another message: a restart within the second would serve the same token, and the same content again is a repeat.
  expect((await submitInquiry(next.url, { message: 'Nach dem Neustart' })).status).toBe(200)
  expect(await queryStore(first.dataDir, 'SELECT token FROM inquiries ORDER BY id')).toHaveLength(2)
})

test('a DATA_DIR below a regular file stops the server with one line naming the path and the file in the way', async () => {
  const file = path.join(newDataDir(), 'kein-ordner')
  fs.writeFileSync(file, '')
  const dataDir = path.join(file, 'data')
  expect(await refusal(startServerProcess({ DATA_DIR: dataDir }))).toBe(
    `domain-lander: DATA_DIR ${dataDir} cannot be created: ${file} is a file, not a directory`,
  )
})

test('a DATA_DIR the server may not write to stops it with one line naming the path and the missing permission', async () => {
  const dataDir = newDataDir()
  // Root may write anywhere: then the server runs as nobody, in a directory root keeps (as with a wrong chown).
  const asRoot = process.getuid?.() === 0
  fs.chmodSync(dataDir, asRoot ? 0o755 : 0o555)
  const uid = asRoot ? 65534 : process.getuid!()
  const run = spawnSync(process.execPath, [MAIN], {
    env: {
      PATH: process.env.PATH,
      HOST: '127.0.0.1',
      PORT: '0',
      ADMIN_PORT: '0',
      NODE_DISABLE_COMPILE_CACHE: '1',
      ...(await storeEnv(dataDir)),
      DATA_DIR: dataDir,
    },
    encoding: 'utf8',
    timeout: 20_000,
    ...(asRoot && { uid, gid: 65534 }),
  })
  expect(run.status).toBe(1)
  expect(run.stderr.trim()).toBe(
    `domain-lander: DATA_DIR ${dataDir} is not usable: permission denied: the server runs as user ${uid}, which needs read, write and execute permission on it (chown it to that user, chmod 700)`,
  )
})
