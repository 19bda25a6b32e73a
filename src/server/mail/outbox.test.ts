import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { FastifyBaseLogger } from 'fastify'
import { expect, test, vi } from 'vitest'
import { createSqliteStore } from '../store/sqlite.ts'
import type { Store } from '../store/types.ts'
import { RETRY, createOutboxWorker, isPermanent, retryDelay } from './outbox.ts'

test('the first retry comes within 5 seconds and the delay doubles up to 15 minutes', () => {
  const delays = Array.from({ length: 14 }, (_, i) => retryDelay(i + 1))
  expect(delays[0]).toBeLessThanOrEqual(5000)
  for (let i = 1; i < delays.length; i++) expect(delays[i]).toBe(Math.min(delays[i - 1]! * 2, 15 * 60_000))
  expect(delays.at(-1)).toBe(15 * 60_000)
})

test('retrying goes on for at least 5 days', () => {
  expect(RETRY.giveUpAfterMs).toBeGreaterThanOrEqual(5 * 24 * 60 * 60_000)
})

test('only SMTP 5xx replies are permanent', () => {
  expect(isPermanent(Object.assign(new Error('no such user'), { responseCode: 550 }))).toBe(true)
  expect(isPermanent(Object.assign(new Error('try later'), { responseCode: 451 }))).toBe(false)
  expect(isPermanent(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }))).toBe(false)
  expect(isPermanent(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' }))).toBe(false)
})

test('a batch that takes longer than half its lease is given back and claimed anew, so no mail is sent on an expired lease', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outbox-'))
  const store = await createSqliteStore(path.join(dir, 'store.sqlite'))
  let clock = Date.now()
  const claimedAt = new Map<number, number>()
  let claims = 0
  const watched: Store = {
    ...store,
    queues: {
      ...store.queues,
      outbox: {
        ...store.queues.outbox,
        async claim(now, limit, owner, leaseMs) {
          claims++
          const items = await store.queues.outbox.claim(now, limit, owner, leaseMs)
          items.forEach((item) => claimedAt.set(item.inquiry.id, now))
          return items
        },
      },
    },
  }
  for (let i = 0; i < 6; i++) {
    await store.saveInquiry(
      {
        token: `token${i}`.padEnd(15, 'x'),
        contentHash: `h${i}`,
        domain: 'example.de',
        name: 'Erika',
        email: 'erika@example.de',
        message: `Nachricht ${i}`,
        language: 'de',
        spamReason: null,
        offer: null,
        belowMinimum: false,
        createdAt: clock - 1000,
      },
      { queue: true, mailTo: null },
    )
  }
  const sentWithLeaseAge: number[] = []
  const silent = { debug() {}, info() {}, warn() {}, error() {} } as unknown as FastifyBaseLogger
  const worker = createOutboxWorker({
    store: watched,
    // Each mail takes 400 ms of the (simulated) clock; the lease is 1 s.
    transport: {
      async send(message) {
        const inquiryId = Number(/inquiry-(\d+)-/.exec(String(message.messageId))?.[1])
        sentWithLeaseAge.push(clock - claimedAt.get(inquiryId)!)
        clock += 400
      },
      close() {},
    },
    addresses: { from: 'lander@example.org', to: 'owner@example.org' },
    log: silent,
    owner: 'this-process',
    leaseMs: 1000,
    secret: 'test-secret-of-16-chars',
    now: () => clock,
  })
  await worker.drain()
  expect((await store.outboxHealth()).pending).toBe(0)
  await worker.stop()
  await store.close()
  fs.rmSync(dir, { recursive: true, force: true })
  expect(sentWithLeaseAge).toHaveLength(6)
  expect(Math.max(...sentWithLeaseAge)).toBeLessThan(1000)
  expect(claims).toBeGreaterThan(1)
})

test('new mail kicked before the delayed start is sent at once by this process; after stop a kick sends nothing', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outbox-'))
  const store = await createSqliteStore(path.join(dir, 'store.sqlite'))
  const queue = (i: number) =>
    store.saveInquiry(
      {
        token: `kick${i}`.padEnd(15, 'x'),
        contentHash: `k${i}`,
        domain: 'example.de',
        name: 'Erika',
        email: 'erika@example.de',
        message: `Nachricht ${i}`,
        language: 'de',
        spamReason: null,
        offer: null,
        belowMinimum: false,
        createdAt: Date.now(),
      },
      { queue: true, mailTo: null },
    )
  const sent: string[] = []
  const silent = { debug() {}, info() {}, warn() {}, error() {} } as unknown as FastifyBaseLogger
  let claims = 0
  const worker = createOutboxWorker({
    store: {
      ...store,
      queues: {
        ...store.queues,
        outbox: {
          ...store.queues.outbox,
          claim(...args) {
            claims++
            return store.queues.outbox.claim(...args)
          },
        },
      },
    },
    transport: {
      async send(message) {
        sent.push(String(message.messageId))
      },
      close() {},
    },
    addresses: { from: 'lander@example.org', to: 'owner@example.org' },
    log: silent,
    owner: 'this-process',
    leaseMs: 60_000,
    secret: 'test-secret-of-16-chars',
  })
  await queue(1)
  worker.kick()
  await expect.poll(() => sent.length).toBe(1)
  await worker.stop()
  await queue(2)
  const claimsBefore = claims
  // Timers faked around the two calls: a timer either of them set shows here, instead of running unseen later.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'setImmediate', 'clearImmediate'] })
  try {
    worker.kick()
    worker.start()
    expect(vi.getTimerCount()).toBe(0)
  } finally {
    vi.useRealTimers()
  }
  expect((await store.outboxHealth()).pending).toBe(1)
  // A pass claims its mail before its first await: none began, now or after the promises of the calls above settled.
  expect(claims).toBe(claimsBefore)
  expect(sent).toHaveLength(1)
  await store.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

test('drain sends what is due now, also before start and after a pass in flight; a failure waits for its retry, and drain still ends', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outbox-'))
  const store = await createSqliteStore(path.join(dir, 'store.sqlite'))
  let clock = Date.now()
  const queue = (i: number) =>
    store.saveInquiry(
      {
        token: `drain${i}`.padEnd(15, 'x'),
        contentHash: `d${i}`,
        domain: 'example.de',
        name: 'Erika',
        email: 'erika@example.de',
        message: `Nachricht ${i}`,
        language: 'de',
        spamReason: null,
        offer: null,
        belowMinimum: false,
        createdAt: clock,
      },
      { queue: true, mailTo: null },
    )
  const sent: string[] = []
  let refuseOnce = true
  const worker = createOutboxWorker({
    store,
    transport: {
      async send(message) {
        // The second mail's first attempt meets a busy mail server.
        if (/Nachricht 2/.test(String(message.text)) && refuseOnce) {
          refuseOnce = false
          throw Object.assign(new Error('try later'), { responseCode: 451 })
        }
        sent.push(String(message.text).match(/Nachricht \d/)![0])
      },
      close() {},
    },
    addresses: { from: 'lander@example.org', to: 'owner@example.org' },
    log: { debug() {}, info() {}, warn() {}, error() {} } as unknown as FastifyBaseLogger,
    owner: 'this-process',
    leaseMs: 60_000,
    secret: 'test-secret-of-16-chars',
    now: () => clock,
  })
  for (const i of [1, 2, 3]) await queue(i)
  await worker.drain()
  expect(sent.sort()).toEqual(['Nachricht 1', 'Nachricht 3'])
  expect(await store.outboxHealth()).toMatchObject({ pending: 1 })
  // Not due yet: drain has nothing to send until the clock passes the retry's time.
  await worker.drain()
  expect(sent).toHaveLength(2)
  clock += retryDelay(1)
  // The poll's first pass is in flight (start): drain waits for it, then finds nothing left.
  await queue(4)
  worker.start()
  await worker.drain()
  expect(sent.sort()).toEqual(['Nachricht 1', 'Nachricht 2', 'Nachricht 3', 'Nachricht 4'])
  expect(await store.outboxHealth()).toMatchObject({ pending: 0 })
  await worker.stop()
  await queue(5)
  await worker.drain()
  expect(sent).toHaveLength(4)
  await store.close()
  fs.rmSync(dir, { recursive: true, force: true })
})
