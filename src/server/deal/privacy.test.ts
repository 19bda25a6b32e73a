// GDPR and deals, on the store of the test project (SQLite, or a real PostgreSQL): `access` (the console's Auskunft
// and the CLI's `access --email` make the same report) lists the person's deals with domain, amount, state and dates,
// and never the transfer code or the deal page's link; `forget` erases the deal, its code and its webhooks with the
// inquiry.
import { describe, expect, test } from 'vitest'
import { newInquiry, openTestStore, testStoreConfig } from '../../../tests/helpers/store.ts'
import { loadConfig } from '../config.ts'
import { accessReport } from '../privacy/report.ts'
import { erasePerson } from '../privacy/erase.ts'
import { domainsConfigOf } from '../sites/domains-document.ts'
import { takeDealStep } from './actions.ts'
import { markRatePaid } from './rates.ts'
import { markPaid, recordTransfer } from './steps.ts'

const SECRET = 's'.repeat(40)
const CODE = 'AUTH-Auskunft-0815'
const T0 = Date.UTC(2026, 10, 2, 12)

describe('deals in access and forget', () => {
  test('access lists the deal without its code or link; forget erases it with the inquiry', async () => {
    const storeConfig = await testStoreConfig('deal-privacy-')
    const store = await openTestStore(storeConfig)
    const config = loadConfig({ DATA_DIR: storeConfig.dataDir, NOTIFY_URLS: 'http://127.0.0.1:9/hook', NOTIFY_SECRET: SECRET })
    const context = { store, config, domains: domainsConfigOf({}) }
    const saved = await store.saveInquiry(
      newInquiry({ domain: 'auskunft.de', email: 'Erika@Example.de', offer: { amount: 1200, currency: 'EUR' }, createdAt: T0 }),
      { queue: false },
    )
    if (saved.status !== 'created') throw new Error('not created')
    const accepted = await takeDealStep({ ...context, secret: SECRET }, saved.id, { kind: 'accept' }, T0)
    if (accepted.status !== 'queued' || !accepted.deal) throw new Error('not accepted')
    await markPaid(context, accepted.deal.id, T0 + 1000)
    await recordTransfer(context, accepted.deal.id, { code: CODE }, T0 + 2000)
    const sealed = (await store.dealTransferCode(accepted.deal.id))!
    const stored = (await store.getDeal(accepted.deal.id))!

    const report = accessReport('erika@example.de', await store.personData('erika@example.de'), T0 + 3000)
    expect(report.inquiries[0]!.deals).toEqual([
      expect.objectContaining({
        id: accepted.deal.id,
        domain: 'auskunft.de',
        reference: stored.reference,
        status: 'transferred',
        amount: { minor: 120_000, currency: 'EUR' },
        createdAt: new Date(T0).toISOString(),
        paidAt: new Date(T0 + 1000).toISOString(),
        transferredAt: new Date(T0 + 2000).toISOString(),
      }),
    ])
    const json = JSON.stringify(report)
    const token = accepted.deal.url.split('/kauf/')[1]!
    for (const secret of [CODE, sealed, token, token.split('.')[0]!, stored.linkHash, stored.linkSealed]) expect(json).not.toContain(secret)
    // The mails that carried the link are in it, the link cut to its path.
    expect(report.inquiries[0]!.replies.find((reply) => reply.kind === 'accept')!.body).toContain('https://auskunft.de/kauf/[…]')
    // The deal's webhooks are listed by their receiver's host only.
    expect(report.inquiries[0]!.mails.filter((mail) => mail.kind === 'webhook').map((mail) => mail.to)).toEqual([
      'Webhook an 127.0.0.1:9',
      'Webhook an 127.0.0.1:9',
      'Webhook an 127.0.0.1:9',
    ])

    const erased = await erasePerson(store, storeConfig.dataDir, 'erika@example.de')
    expect(erased.inquiries.map(({ id }) => id)).toEqual([saved.id])
    expect(await store.getDeal(accepted.deal.id)).toBeNull()
    expect(await store.dealTransferCode(accepted.deal.id)).toBeNull()
    expect(await store.listDeals()).toEqual([])
    expect((await store.listOutbox()).filter((row) => row.inquiryId === saved.id)).toEqual([])
    expect(await store.personData('erika@example.de')).toEqual([])
    await store.close()
  })

  test("access lists an instalment plan's rates (due date, amount, paid date, reference) and the deal's invoice numbers", async () => {
    const storeConfig = await testStoreConfig('deal-privacy-rates-')
    const store = await openTestStore(storeConfig)
    const config = loadConfig({
      DATA_DIR: storeConfig.dataDir,
      SELLER_NAME: 'Jürgen Müller',
      SELLER_STREET: 'Hauptstraße 5',
      SELLER_POSTCODE: '10115',
      SELLER_CITY: 'Berlin',
      SELLER_TAX_NUMBER: '27/123/45678',
    })
    const context = { store, config, domains: domainsConfigOf({}) }
    const saved = await store.saveInquiry(
      newInquiry({ domain: 'raten-auskunft.de', email: 'kaeufer@example.de', offer: { amount: 900, currency: 'EUR' }, createdAt: T0 }),
      { queue: false },
    )
    if (saved.status !== 'created') throw new Error('not created')
    const accepted = await takeDealStep({ ...context, secret: SECRET }, saved.id, { kind: 'accept', plan: { rates: 3 } }, T0)
    if (accepted.status !== 'queued' || !accepted.deal) throw new Error('not accepted')
    const id = accepted.deal.id
    expect(
      await store.keepInvoiceAddress(id, {
        name: 'Erika Käufer',
        company: null,
        street: 'Marktplatz 1',
        postcode: '80331',
        city: 'München',
        country: 'DE',
        vatId: null,
      }),
    ).toBe('done')
    await markRatePaid(context, id, 1, 'bank', T0 + 1000)
    const stored = (await store.getDeal(id))!

    const [deal] = accessReport('kaeufer@example.de', await store.personData('kaeufer@example.de'), T0 + 3000).inquiries[0]!.deals
    expect(deal!.rates).toEqual(
      stored.plan!.rates.map((rate) => ({
        number: rate.number,
        dueAt: new Date(rate.dueAt).toISOString(),
        amount: { minor: 30_000, currency: 'EUR' },
        paidAt: rate.number === 1 ? new Date(T0 + 1000).toISOString() : null,
        reference: `${stored.reference}-R0${rate.number}`,
      })),
    )
    expect(deal!.invoices).toEqual([{ number: 'RE-00001', kind: 'advance', issuedAt: new Date(T0 + 1000).toISOString() }])
    await store.close()
  })
})
