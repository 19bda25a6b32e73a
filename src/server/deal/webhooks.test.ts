// A deal's webhooks (deal.created … deal.cancelled, deal.overdue) through the outbox to a real HTTP receiver on
// loopback, on the store of the test project (SQLite, or a real PostgreSQL): each event once, signed like an
// inquiry's, and never the transfer code, its sealed form or the deal page's link, whatever is stored.
import pino from 'pino'
import { afterEach, describe, expect, test } from 'vitest'
import { startReceiver, type Receiver } from '../../../tests/helpers/receiver.ts'
import { startSmtpSink } from '../../../tests/helpers/smtp.ts'
import { newInquiry, openTestStore, testStoreConfig } from '../../../tests/helpers/store.ts'
import { loadConfig } from '../config.ts'
import { createOutboxWorker } from '../mail/outbox.ts'
import { createMailTransport } from '../mail/transport.ts'
import { signatureOf } from '../notify/send.ts'
import { domainsConfigOf } from '../sites/domains-document.ts'
import { takeDealStep } from './actions.ts'
import { sendDealReminders } from './deadlines.ts'
import { cancelDeal, completeDeal, markPaid, recordTransfer } from './steps.ts'

const DAY = 86_400_000
const SECRET = 'n'.repeat(40)
const CODE = 'AUTH-Geheim-4711-xyz'
const log = pino({ level: 'silent' })

const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function setUp(personal: boolean) {
  const receiver = await startReceiver()
  const sink = await startSmtpSink()
  cleanups.push(
    () => receiver.close(),
    () => sink.close(),
  )
  const storeConfig = await testStoreConfig('deal-webhooks-')
  const store = await openTestStore(storeConfig)
  cleanups.push(() => store.close())
  const config = loadConfig({
    DATA_DIR: storeConfig.dataDir,
    NOTIFY_URLS: receiver.url,
    NOTIFY_SECRET: SECRET,
    NOTIFY_PERSONAL: personal ? 'true' : 'false',
    MAIL_TO: 'owner@example.org',
  })
  const domains = domainsConfigOf({})
  const context = { store, config, domains }
  const transport = createMailTransport({ dataDir: storeConfig.dataDir, smtpUrl: sink.url })
  const worker = createOutboxWorker({
    store,
    transport,
    addresses: { from: 'lander@example.org', to: 'owner@example.org' },
    log,
    owner: 'test',
    leaseMs: 30_000,
    secret: SECRET,
    notify: { secret: SECRET, personal, consoleUrl: () => 'http://127.0.0.1:1' },
  })
  worker.start()
  cleanups.push(
    () => transport.close(),
    () => worker.stop(),
  )
  /** An inquiry with an offer, accepted: a deal; its page's link as the acceptance mail has it. */
  async function acceptedDeal(domain: string, now: number) {
    const saved = await store.saveInquiry(
      newInquiry({ domain, name: 'Erika <b>Käuferin</b>', email: `buyer@${domain}`, offer: { amount: 900, currency: 'EUR' }, createdAt: now }),
      { queue: false },
    )
    if (saved.status !== 'created') throw new Error('not created')
    const outcome = await takeDealStep({ ...context, secret: SECRET }, saved.id, { kind: 'accept' }, now)
    if (outcome.status !== 'queued' || !outcome.deal) throw new Error(`not accepted: ${outcome.status}`)
    worker.kick()
    return outcome.deal
  }
  const payloads = (requests: Receiver['requests']) => requests.map((request) => JSON.parse(request.body) as Record<string, unknown>)
  return { store, context, receiver, worker, acceptedDeal, payloads }
}

describe('deal webhooks', () => {
  test('every step of a deal is posted once, signed, with the deal but never its transfer code or page link', async () => {
    const { store, context, receiver, worker, acceptedDeal, payloads } = await setUp(false)
    const t0 = Date.now()
    const sold = await acceptedDeal('sold.de', t0)
    await markPaid(context, sold.id, t0 + 1)
    await recordTransfer(context, sold.id, { code: CODE, note: 'Push' }, t0 + 2)
    await completeDeal(context, sold.id, 'buyer', t0 + 3)
    // A second click, another instance: refused, nothing posted twice.
    expect((await completeDeal(context, sold.id, 'owner', t0 + 4)).status).toBe('wrong-state')
    const cancelled = await acceptedDeal('cancelled.de', t0)
    await cancelDeal(context, cancelled.id, 'owner', 'Zu spät', t0 + 5)
    const late = await acceptedDeal('late.de', t0 - 8 * DAY)
    await sendDealReminders(context, t0)
    await sendDealReminders(context, t0)
    worker.kick()
    await receiver.waitFor(8)
    // A duplicate, were there one, is a row of the outbox too: once none is left unsent, every post has arrived (the
    // outbox marks one sent after the receiver's answer, which comes after it kept the request).
    await expect.poll(async () => (await store.outboxHealth()).pending).toBe(0)
    const bodies = payloads(receiver.requests)
    const eventsOf = (id: number) => bodies.filter((body) => body.id === id).map((body) => body.event)
    expect(eventsOf(sold.id)).toEqual(['deal.created', 'deal.paid', 'deal.transferred', 'deal.completed'])
    expect(eventsOf(cancelled.id)).toEqual(['deal.created', 'deal.cancelled'])
    expect(eventsOf(late.id)).toEqual(['deal.created', 'deal.overdue'])
    expect(receiver.requests).toHaveLength(8)

    const completed = bodies.find((body) => body.event === 'deal.completed')!
    expect(completed).toMatchObject({
      domain: 'sold.de',
      status: 'completed',
      amount: { minor: 90_000, currency: 'EUR' },
      reference: expect.stringMatching(/^DL-\d{4}-\d{4}$/),
    })
    expect(completed).not.toHaveProperty('email')
    expect(completed).not.toHaveProperty('name')

    const sealed = (await store.dealTransferCode(sold.id))!
    const token = sold.url.split('/kauf/')[1]!
    for (const request of receiver.requests) {
      // Signed as an inquiry's notification is (docs/notifications.md).
      const t = Number(/t=(\d+)/.exec(String(request.headers['x-domain-lander-signature']))![1])
      expect(request.headers['x-domain-lander-signature']).toBe(signatureOf(SECRET, request.body, t))
      for (const secret of [CODE, sealed, token, token.split('.')[0]!, 'buyer@', 'Käuferin']) expect(request.body).not.toContain(secret)
    }
  })

  test('with NOTIFY_PERSONAL the buyer’s name and address go along, as text', async () => {
    const { receiver, acceptedDeal, payloads } = await setUp(true)
    await acceptedDeal('personal.de', Date.now())
    await receiver.waitFor(1)
    const [created] = payloads(receiver.requests)
    expect(created).toMatchObject({
      event: 'deal.created',
      name: 'Erika <b>Käuferin</b>',
      email: 'buyer@personal.de',
      console: expect.stringMatching(/^http:\/\/127\.0\.0\.1:1\/anfragen\/\d+$/),
    })
    // What the buyer typed is escaped for a receiver that pastes the JSON into HTML.
    expect(receiver.requests[0]!.body).not.toContain('<b>')
  })
})
