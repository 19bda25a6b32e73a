// When the store cannot write, the visitor is told to try again (503 + Retry-After): never a 200 for
// something that was not stored.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { afterEach, describe, expect, test } from 'vitest'
import { startApp, type TestApp } from '../helpers/app.ts'
import { expectError, submitInquiry } from '../helpers/contact.ts'
import { startServerProcess } from '../helpers/server.ts'

let app: TestApp | undefined
afterEach(async () => {
  await app?.close()
  app = undefined
})

const submit = (url: string, message: string) => submitInquiry(url, { message })

async function expectUnavailable(response: Response) {
  expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0)
  await expectError(response, 503, 'Der Dienst ist vorübergehend nicht verfügbar. Bitte versuchen Sie es später erneut.')
}

const countInquiries = (file: string) => {
  const db = new DatabaseSync(file, { readOnly: true })
  try {
    return (db.prepare('SELECT COUNT(*) AS n FROM inquiries').get() as { n: number }).n
  } finally {
    db.close()
  }
}

// Each statement that meets the lock waits SQLite's busy timeout (2 s) first, which is the subject: about 25 s in
// all, near the default 30 s.
test('a locked database gets 503 with Retry-After, and the inquiry is taken once the lock is gone', { timeout: 90_000 }, async () => {
  app = await startApp()
  const file = path.join(app.dataDir, 'domain-lander.sqlite')
  const locker = new DatabaseSync(file)
  locker.exec('BEGIN EXCLUSIVE')
  try {
    await expectUnavailable(await submit(app.url, 'während der Sperre'))
    expect((await fetch(`${app.url}/readyz`)).status).toBe(503)
  } finally {
    locker.exec('ROLLBACK')
    locker.close()
  }
  expect(countInquiries(file)).toBe(0)
  expect((await submit(app.url, 'nach der Sperre')).status).toBe(200)
  expect(countInquiries(file)).toBe(1)
})

test('a database deleted under the running server gets 503 on POST and /readyz, and one error in the log', async () => {
  const server = await startServerProcess()
  try {
    expect((await submit(server.url, 'vor dem Löschen')).status).toBe(200)
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(path.join(server.dataDir, `domain-lander.sqlite${suffix}`), { force: true })
    // Written into a file no one will open again, these would be gone at the next start.
    await expectUnavailable(await submit(server.url, 'nach dem Löschen'))
    await expectUnavailable(await submit(server.url, 'noch einmal'))
    const ready = await fetch(`${server.url}/readyz`)
    expect(ready.status).toBe(503)
    expect(await ready.json()).toMatchObject({ status: 'unavailable', store: 'not writable' })
    const lost = server.output.filter((line) => line.includes('STORE LOST')).map((line) => JSON.parse(line) as { level: number; msg: string })
    expect(lost).toHaveLength(1)
    expect(lost[0]!.level).toBe(50)
    expect(lost[0]!.msg).toContain(path.join(server.dataDir, 'domain-lander.sqlite'))
  } finally {
    await server.stop()
    server.cleanup()
  }
})

const isRoot = process.getuid?.() === 0

// A real full disk needs a small file system of its own: a tmpfs, which only root may mount. CI runs as root.
describe.runIf(isRoot)('on a full disk', () => {
  let mountPoint: string | undefined
  afterEach(() => {
    if (mountPoint) {
      execFileSync('umount', ['-l', mountPoint])
      fs.rmSync(mountPoint, { recursive: true, force: true })
      mountPoint = undefined
    }
  })

  test('submissions get 503 with Retry-After, never 200, and every inquiry that got a 200 is stored', async () => {
    mountPoint = fs.mkdtempSync(path.join(os.tmpdir(), 'domain-lander-full-'))
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', mountPoint])
    app = await startApp({ DATA_DIR: mountPoint })
    const file = path.join(mountPoint, 'domain-lander.sqlite')
    // Fill the rest of the file system, as another program on the machine might.
    const filler = path.join(mountPoint, 'filler')
    try {
      fs.writeFileSync(filler, Buffer.alloc(1024 * 1024))
    } catch {
      // ENOSPC: the disk is now full, which is the point
    }
    const statuses: number[] = []
    const big = 'x'.repeat(4000)
    for (let i = 0; i < 20; i++) {
      const response = await submit(app.url, `${big} ${i}`)
      statuses.push(response.status)
      if (response.status === 503) await expectUnavailable(response)
    }
    expect(statuses.every((status) => status === 200 || status === 503)).toBe(true)
    expect(statuses).toContain(503)
    expect((await fetch(`${app.url}/readyz`)).status).toBe(503)
    fs.rmSync(filler, { force: true })
    expect(countInquiries(file)).toBe(statuses.filter((status) => status === 200).length)
    expect((await submit(app.url, 'Platz ist wieder da')).status).toBe(200)
  })
})
