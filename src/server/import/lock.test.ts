import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, onTestFinished, test, vi } from 'vitest'
import { LOCK_STALE_MS, LockBusy, lockDomainsFile, lockFileOf } from './lock.ts'

let dir: string
let file: string
let lock: string
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-lock-'))
  file = path.join(dir, 'domains.yaml')
  fs.writeFileSync(file, 'domains: {}\n')
  lock = lockFileOf(file)
})
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }))

/** A process id that has ended: a child that ran and exited. */
const endedPid = () => spawnSync(process.execPath, ['-e', ''], { stdio: 'ignore' }).pid!

const writeLock = (holder: object, ageMs = 0) => {
  fs.writeFileSync(lock, JSON.stringify(holder))
  const at = new Date(Date.now() - ageMs)
  fs.utimesSync(lock, at, at)
}

describe("the domains file's lock", () => {
  test('sits beside the file (the one a link names), taken and let go; the file itself is not touched', async () => {
    expect(lock).toBe(path.join(dir, '.domains.yaml.lock'))
    const unlock = await lockDomainsFile(file)
    expect(JSON.parse(fs.readFileSync(lock, 'utf8'))).toMatchObject({ pid: process.pid, host: os.hostname() })
    expect(fs.statSync(lock).mode & 0o777).toBe(0o644)
    unlock()
    expect(fs.readdirSync(dir)).toEqual(['domains.yaml'])
    fs.mkdirSync(path.join(dir, 'real'))
    fs.renameSync(file, path.join(dir, 'real', 'domains.yaml'))
    fs.symlinkSync(path.join(dir, 'real', 'domains.yaml'), file)
    expect(lockFileOf(file)).toBe(path.join(dir, 'real', '.domains.yaml.lock'))
  })

  test('a second taker waits until the first lets go', async () => {
    const unlock = await lockDomainsFile(file)
    // Each try to take the lock creates its file: counted, to see the second taker find it held and try again.
    const original = fs.openSync
    let tries = 0
    const spy = vi.spyOn(fs, 'openSync').mockImplementation((...args: Parameters<typeof fs.openSync>) => {
      if (args[0] === lock) tries++
      return original(...args)
    })
    onTestFinished(() => spy.mockRestore())
    let second = false
    const waiting = lockDomainsFile(file).then((release) => {
      second = true
      return release
    })
    // Tried, found it held, waited and tried again: still waiting.
    await expect.poll(() => tries).toBeGreaterThanOrEqual(3)
    expect(second).toBe(false)
    unlock()
    const release = await waiting
    expect(second).toBe(true)
    release()
    expect(fs.existsSync(lock)).toBe(false)
  })

  test('held longer than the wait, it is refused with who holds it, and the holder keeps it', async () => {
    const unlock = await lockDomainsFile(file)
    await expect(lockDomainsFile(file, 100)).rejects.toThrow(LockBusy)
    await expect(lockDomainsFile(file, 100)).rejects.toThrow(`another import (process ${process.pid} on ${os.hostname()}) is writing it and holds ${lock}`)
    expect(JSON.parse(fs.readFileSync(lock, 'utf8')).pid).toBe(process.pid)
    unlock()
  })

  test('left by a process that has ended (on this host), it is taken over at once', async () => {
    writeLock({ pid: endedPid(), host: os.hostname(), since: Date.now(), token: 'dead' })
    const unlock = await lockDomainsFile(file, 0)
    expect(JSON.parse(fs.readFileSync(lock, 'utf8')).pid).toBe(process.pid)
    unlock()
    expect(fs.readdirSync(dir)).toEqual(['domains.yaml'])
  })

  test('of another host, it is waited for while young and taken over when older than any import runs', async () => {
    writeLock({ pid: 1, host: 'other-host.invalid', since: Date.now(), token: 'other' })
    await expect(lockDomainsFile(file, 100)).rejects.toThrow('process 1 on other-host.invalid')
    writeLock({ pid: 1, host: 'other-host.invalid', since: Date.now(), token: 'other' }, LOCK_STALE_MS + 1000)
    const unlock = await lockDomainsFile(file, 0)
    unlock()
  })

  test('an empty one (its maker died before writing it) is taken over after a few seconds, not at once', async () => {
    writeLock({}, 0)
    fs.writeFileSync(lock, '')
    await expect(lockDomainsFile(file, 100)).rejects.toThrow('another import (another process)')
    const at = new Date(Date.now() - 10_000)
    fs.utimesSync(lock, at, at)
    ;(await lockDomainsFile(file, 0))()
  })

  test('letting go removes only its own lock: one taken over meanwhile stays', async () => {
    const unlock = await lockDomainsFile(file)
    writeLock({ pid: process.pid, host: os.hostname(), since: Date.now(), token: 'someone-else' })
    unlock()
    expect(JSON.parse(fs.readFileSync(lock, 'utf8')).token).toBe('someone-else')
  })

  test("a directory where no lock can be made is the system's error", async () => {
    await expect(lockDomainsFile(path.join(dir, 'fehlt', 'domains.yaml'))).rejects.toThrow('ENOENT')
  })
})
