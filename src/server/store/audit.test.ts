// The audit trail's part of the store (decision 043), on the store of the test project (SQLite, or PostgreSQL in the
// project "postgres"): rows newest first, filtered and paged; pruned by age; read and erased with a person's data.
import { describe, expect, test } from 'vitest'
import { newInquiry, openTestStore, testStoreConfig } from '../../../tests/helpers/store.ts'
import { loadConfig } from '../config.ts'
import { takeDealStep } from '../deal/actions.ts'
import { accessReport } from '../privacy/report.ts'
import { domainsConfigOf } from '../sites/domains-document.ts'
import { AUDIT_DETAIL_MAX } from './tables/audit-log.ts'

const T0 = Date.UTC(2026, 10, 2, 12)
const SECRET = 's'.repeat(40)

describe('the audit trail in the store', () => {
  test('rows come newest first, filtered by time, action and subject, and page on by (time, id)', async () => {
    const store = await openTestStore(await testStoreConfig('audit-'))
    await store.addAuditEntry({ at: T0, actor: 'CLI', action: 'reply', outcome: 'ok', inquiryId: 1, domain: 'a.example' })
    await store.addAuditEntry({ at: T0 + 1000, actor: 'session:abcdefgh', action: 'deal-paid', outcome: 'ok', inquiryId: 2, dealId: 7, domain: 'b.example' })
    await store.addAuditEntry({ at: T0 + 1000, actor: 'none', action: 'sign-in', outcome: 'refused', detail: 'password · 203.0.x.x' })
    await store.addAuditEntry({ at: T0 + 2000, actor: 'CLI', action: 'reply', outcome: 'refused', inquiryId: 3, domain: 'a.example' })

    const all = await store.auditEntries({ limit: 10 })
    expect(all.map((entry) => [entry.at - T0, entry.action])).toEqual([
      [2000, 'reply'],
      [1000, 'sign-in'],
      [1000, 'deal-paid'],
      [0, 'reply'],
    ])
    expect(all[1]).toEqual({
      id: all[1]!.id,
      at: T0 + 1000,
      actor: 'none',
      action: 'sign-in',
      outcome: 'refused',
      inquiryId: null,
      dealId: null,
      domain: null,
      detail: 'password · 203.0.x.x',
    })
    expect(all[2]).toMatchObject({ actor: 'session:abcdefgh', inquiryId: 2, dealId: 7, domain: 'b.example' })

    expect((await store.auditEntries({ action: 'reply', limit: 10 })).map((entry) => entry.inquiryId)).toEqual([3, 1])
    expect((await store.auditEntries({ domain: 'a.example', since: T0 + 1, limit: 10 })).map((entry) => entry.inquiryId)).toEqual([3])
    expect((await store.auditEntries({ until: T0 + 1000, limit: 10 })).map((entry) => entry.inquiryId)).toEqual([1])
    expect((await store.auditEntries({ dealId: 7, limit: 10 })).map((entry) => entry.action)).toEqual(['deal-paid'])
    expect((await store.auditEntries({ inquiryId: 2, limit: 10 })).map((entry) => entry.action)).toEqual(['deal-paid'])

    // Two rows at the same moment: the page after the first still gets the second, and nothing twice.
    const first = await store.auditEntries({ limit: 2 })
    const last = first.at(-1)!
    const rest = await store.auditEntries({ before: { at: last.at, id: last.id }, limit: 10 })
    expect([...first, ...rest].map((entry) => entry.id)).toEqual(all.map((entry) => entry.id))
  })

  test('a detail is cut to its length: a mistake never stores a whole text', async () => {
    const store = await openTestStore(await testStoreConfig('audit-'))
    await store.addAuditEntry({ at: T0, actor: 'CLI', action: 'import', outcome: 'ok', detail: 'x'.repeat(5000) })
    expect((await store.auditEntries({ limit: 1 }))[0]!.detail).toHaveLength(AUDIT_DETAIL_MAX)
  })

  test('rows older than the retention limit are removed, newer ones stay', async () => {
    const store = await openTestStore(await testStoreConfig('audit-'))
    await store.addAuditEntry({ at: T0 - 1, actor: 'CLI', action: 'password', outcome: 'ok' })
    await store.addAuditEntry({ at: T0, actor: 'CLI', action: 'password', outcome: 'refused' })
    expect(await store.pruneAudit(T0)).toBe(1)
    expect((await store.auditEntries({ limit: 10 })).map((entry) => entry.outcome)).toEqual(['refused'])
  })

  test("access lists the rows naming a person's inquiry or deal; forget keeps them without the link to the person", async () => {
    const storeConfig = await testStoreConfig('audit-')
    const store = await openTestStore(storeConfig)
    const config = loadConfig({ DATA_DIR: storeConfig.dataDir })
    const saved = await store.saveInquiry(
      newInquiry({ domain: 'audit-privacy.de', email: 'erika@example.de', offer: { amount: 900, currency: 'EUR' }, createdAt: T0 }),
      { queue: false },
    )
    const other = await store.saveInquiry(newInquiry({ domain: 'audit-privacy.de', email: 'max@example.de', createdAt: T0 }), { queue: false })
    if (saved.status !== 'created' || other.status !== 'created') throw new Error('not created')
    const accepted = await takeDealStep({ store, config, secret: SECRET, domains: domainsConfigOf({}) }, saved.id, { kind: 'accept' }, T0)
    if (accepted.status !== 'queued' || !accepted.deal) throw new Error('not accepted')
    await store.addAuditEntry({ at: T0 + 1, actor: 'CLI', action: 'accept', outcome: 'ok', inquiryId: saved.id, domain: 'audit-privacy.de' })
    // A deal step's row from before the inquiry id was noted: found through the deal.
    await store.addAuditEntry({ at: T0 + 2, actor: 'session:abcdefgh', action: 'deal-paid', outcome: 'ok', dealId: accepted.deal.id })
    await store.addAuditEntry({ at: T0 + 3, actor: 'CLI', action: 'reply', outcome: 'ok', inquiryId: other.id, domain: 'audit-privacy.de' })
    await store.addAuditEntry({ at: T0 + 4, actor: 'none', action: 'sign-in', outcome: 'refused' })

    const report = accessReport('erika@example.de', await store.personData('erika@example.de'), T0 + 10)
    expect(report.inquiries[0]!.audit).toEqual([
      { at: new Date(T0 + 1).toISOString(), action: 'accept', outcome: 'ok', dealId: null, actor: 'CLI' },
      { at: new Date(T0 + 2).toISOString(), action: 'deal-paid', outcome: 'ok', dealId: accepted.deal.id, actor: 'session:abcdefgh' },
    ])

    const erased = await store.eraseByEmail('erika@example.de')
    expect(erased.auditRows).toBe(2)
    // What the owner did stays, by whom and when; the ids that led to her are only words of the detail now.
    const kept = await store.auditEntries({ limit: 10 })
    expect(kept.map(({ id: _, ...entry }) => entry)).toEqual([
      { at: T0 + 4, actor: 'none', action: 'sign-in', outcome: 'refused', inquiryId: null, dealId: null, domain: null, detail: null },
      { at: T0 + 3, actor: 'CLI', action: 'reply', outcome: 'ok', inquiryId: other.id, dealId: null, domain: 'audit-privacy.de', detail: null },
      {
        at: T0 + 2,
        actor: 'session:abcdefgh',
        action: 'deal-paid',
        outcome: 'ok',
        inquiryId: null,
        dealId: null,
        domain: null,
        detail: `Verkauf ${accepted.deal.id} (gelöscht)`,
      },
      {
        at: T0 + 1,
        actor: 'CLI',
        action: 'accept',
        outcome: 'ok',
        inquiryId: null,
        dealId: null,
        domain: 'audit-privacy.de',
        detail: `Anfrage ${saved.id} (gelöscht)`,
      },
    ])
    expect(await store.auditEntries({ inquiryId: saved.id, limit: 10 })).toEqual([])
    expect(await store.auditEntries({ dealId: accepted.deal.id, limit: 10 })).toEqual([])
    expect(await store.personData('erika@example.de')).toEqual([])
    expect(accessReport('max@example.de', await store.personData('max@example.de'), T0 + 10).inquiries[0]!.audit).toHaveLength(1)
  })

  test("an erased row's detail names both ids before what it said, and stays within its length", async () => {
    const storeConfig = await testStoreConfig('audit-')
    const store = await openTestStore(storeConfig)
    const config = loadConfig({ DATA_DIR: storeConfig.dataDir })
    const saved = await store.saveInquiry(
      newInquiry({ domain: 'audit-detail.de', email: 'otto@example.de', offer: { amount: 900, currency: 'EUR' }, createdAt: T0 }),
      {
        queue: false,
      },
    )
    if (saved.status !== 'created') throw new Error('not created')
    const accepted = await takeDealStep({ store, config, secret: SECRET, domains: domainsConfigOf({}) }, saved.id, { kind: 'accept' }, T0)
    if (accepted.status !== 'queued' || !accepted.deal) throw new Error('not accepted')
    const subject = { inquiryId: saved.id, dealId: accepted.deal.id, domain: 'audit-detail.de' }
    await store.addAuditEntry({ at: T0 + 1, actor: 'CLI', action: 'bank-statement', outcome: 'ok', ...subject, detail: '3 Buchungen' })
    await store.addAuditEntry({ at: T0 + 2, actor: 'CLI', action: 'bank-statement', outcome: 'ok', ...subject, detail: 'x'.repeat(AUDIT_DETAIL_MAX) })
    expect((await store.eraseInquiries([saved.id])).auditRows).toBe(2)
    const [long, short] = await store.auditEntries({ limit: 10 })
    const ids = `Anfrage ${saved.id}, Verkauf ${accepted.deal.id} (gelöscht)`
    expect(short!.detail).toBe(`${ids} · 3 Buchungen`)
    expect(long!.detail).toHaveLength(AUDIT_DETAIL_MAX)
    expect(long!.detail!.startsWith(`${ids} · xxx`)).toBe(true)
  })
})
