// The weekly digest's content from a seeded store (SQLite, or a real PostgreSQL server) at a fixed clock.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, expect, test } from 'vitest'
import { databaseUrlFor } from '../../../tests/helpers/postgres.ts'
import { openStore } from '../store/index.ts'
import type { NewInquiry, Store } from '../store/types.ts'
import { composeDigest, digestWeek, QUIET_DAYS } from './digest.ts'
import type { DomainCheck } from '../../shared/domain-checks.ts'

const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function open(): Promise<Store> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'digest-'))
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }))
  const store = await openStore({ dataDir, databaseUrl: await databaseUrlFor(dataDir) })
  cleanups.push(() => store.close())
  return store
}

const DAY = 86_400_000
// Monday 2 November 2026, 08:00 in Berlin.
const DUE = Date.parse('2026-11-02T07:00:00Z')
const week = digestWeek(DUE)
let counter = 0
async function save(store: Store, overrides: Partial<NewInquiry>, queue = true) {
  counter++
  const saved = await store.saveInquiry(
    {
      token: `dtoken${String(counter).padStart(10, '0')}`,
      contentHash: `h${counter}`,
      domain: 'example.de',
      name: 'Besucher',
      email: `b${counter}@example.org`,
      message: 'Hallo',
      language: 'de',
      spamReason: null,
      offer: null,
      belowMinimum: false,
      createdAt: DUE - 2 * DAY,
      ...overrides,
    },
    queue ? { queue: true, mailTo: null } : { queue: false },
  )
  if (saved.status !== 'created') throw new Error('not created')
  return saved.id
}

test('the digest reports views, inquiries, spam, offers, the names with most interest, quiet names and failed mail', async () => {
  const store = await open()
  await store.addPageViews([
    { domain: 'example.de', day: '2026-10-26', views: 40 },
    { domain: 'example.de', day: '2026-11-01', views: 2 },
    // The report's own day and the day before the week are not in it.
    { domain: 'example.de', day: '2026-11-02', views: 1000 },
    { domain: 'example.de', day: '2026-10-25', views: 1000 },
    { domain: 'xn--mnchen-3ya.de', day: '2026-10-28', views: 500 },
    { domain: 'ruhig.de', day: '2026-10-01', views: 3 },
  ])
  for (const amount of [1000, 5000, 3000, 2000]) await save(store, { offer: { amount, currency: 'EUR' } })
  await save(store, { offer: { amount: 900, currency: 'USD' } })
  await save(store, { offer: { amount: 99_999, currency: 'EUR' }, belowMinimum: true })
  await save(store, { spamReason: 'decoy-filled', offer: { amount: 1_000_000, currency: 'EUR' } }, false)
  await save(store, { domain: 'xn--mnchen-3ya.de' })
  const failed = await save(store, { domain: 'xn--mnchen-3ya.de', createdAt: DUE - DAY })
  await store.markFailed((await store.listMail(['pending'])).find((mail) => mail.inquiryId === failed)!.id, '550 no', DUE - DAY)
  // Outside the week: before it, and the report's own Monday morning after 08:00.
  await save(store, { createdAt: week.since - 1 })
  await save(store, { createdAt: DUE + 1 })
  // Last asked 100 days ago.
  await save(store, { domain: 'alt.de', createdAt: DUE - 100 * DAY })

  const facts = await store.digestFacts({ ...week, quietSince: DUE - QUIET_DAYS * DAY })
  const { subject, text } = composeDigest(facts, week, ['example.de', 'nie-besucht.de', '*.portfolio.de'])
  expect(subject).toBe('Wochenbericht 26.10.2026 – 01.11.2026')
  expect(text).toContain('Wochenbericht vom 26.10.2026 bis 01.11.2026')
  expect(text).toContain('Zusammen: 542 Seitenaufrufe, 8 Anfragen, 1 Spam, 1 fehlgeschlagene Mail.')
  // example.de: 6 genuine (4 EUR, 1 USD, 1 below the minimum) + 0; münchen.de: 2 inquiries and 500 views.
  expect(text).toContain('  1. example.de: 6 Anfragen, 42 Seitenaufrufe\n  2. münchen.de: 2 Anfragen, 500 Seitenaufrufe\n\nJe Domain:')
  // Intl puts a no-break space between amount and currency sign.
  expect(text.replaceAll('\u00a0', ' ')).toContain(
    [
      'example.de',
      '  Seitenaufrufe: 42',
      '  Anfragen: 6',
      '  Spam: 1',
      '  Angebote: höchstes 5.000 €, Median 2.500 € (4 Angebote)',
      '  Angebote: höchstes 900 $, Median 900 $ (1 Angebot)',
      '  Fehlgeschlagene Mails: 0',
    ].join('\n'),
  )
  expect(text).toContain(['münchen.de', '  Seitenaufrufe: 500', '  Anfragen: 2', '  Spam: 0', '  Angebote: keine', '  Fehlgeschlagene Mails: 1'].join('\n'))
  expect(text).toContain(`Seit ${QUIET_DAYS} Tagen ohne Anfrage:\n  alt.de\n  nie-besucht.de\n  ruhig.de\n`)
  expect(text).not.toContain('portfolio')
})

test('a week without anything says so, and the top list holds at most five names', async () => {
  const store = await open()
  const empty = composeDigest(await store.digestFacts({ ...week, quietSince: DUE - QUIET_DAYS * DAY }), week)
  expect(empty).toMatchObject({ text: expect.stringContaining('Keine Seitenaufrufe und keine Anfragen in dieser Woche.') })
  expect(empty.text).toContain('Zusammen: 0 Seitenaufrufe, 0 Anfragen, 0 Spam, 0 fehlgeschlagene Mails.')
  await store.addPageViews(['a', 'b', 'c', 'd', 'e', 'f'].map((name, i) => ({ domain: `${name}.de`, day: '2026-10-30', views: 10 + i })))
  const { text } = composeDigest(await store.digestFacts({ ...week, quietSince: DUE - QUIET_DAYS * DAY }), week)
  expect(text).toContain('  1. f.de: 0 Anfragen, 15 Seitenaufrufe\n  2. e.de')
  expect(text).toContain('  5. b.de: 0 Anfragen, 11 Seitenaufrufe\n\n')
  expect(text).not.toContain('6. ')
})

test('the open deals are listed, next deadline first, passed deadlines marked, without the buyer', async () => {
  const store = await open()
  const saved = await save(store, { domain: 'verkauf.de', offer: { amount: 900, currency: 'EUR' } })
  const unpaid = await store.accept(saved, {
    body: 'Angenommen',
    to: 'erika@example.de',
    replyTo: 'owner@example.org',
    now: DUE - 9 * DAY,
    amount: 900,
    deal: { linkHash: 'h-digest-1', linkSealed: 'v1.x', amount: 90_000, currency: 'EUR', paymentDueAt: DUE - 2 * DAY, transferDays: 5 },
  })
  expect(unpaid.status).toBe('queued')
  const other = await save(store, { domain: 'spaeter.de', offer: { amount: 500, currency: 'EUR' } })
  await store.accept(other, {
    body: 'Angenommen',
    to: 'erika@example.de',
    replyTo: 'owner@example.org',
    now: DUE - DAY,
    amount: 500,
    deal: { linkHash: 'h-digest-2', linkSealed: 'v1.x', amount: 50_000, currency: 'EUR', paymentDueAt: DUE + 6 * DAY, transferDays: 5 },
  })
  const { text } = composeDigest(await store.digestFacts({ ...week, quietSince: DUE - QUIET_DAYS * DAY }), week, [], await store.listDeals())
  const plain = text.replaceAll('\u00a0', ' ')
  expect(plain).toMatch(
    /Offene Verkäufe \(nächste Frist zuerst\):\n {2}DL-\d{4}-\d{4} verkauf\.de: Wartet auf Zahlung, 900 €, Zahlung bis .+ – FRIST VERSTRICHEN\n {2}DL-\d{4}-\d{4} spaeter\.de: Wartet auf Zahlung, 500 €, Zahlung bis [^–\n]+\n/,
  )
  expect(plain).toContain('Verstrichene Fristen: 1 ')
  expect(plain).not.toContain('@example.org')
  expect(plain).not.toContain('Besucher')
  const none = composeDigest(await store.digestFacts({ ...week, quietSince: DUE - QUIET_DAYS * DAY }), week)
  expect(none.text).toContain('Offene Verkäufe (nächste Frist zuerst):\n  keine')
})

test("the daily checks' findings are listed every week while they last: not pointing here, records, expiring soon", async () => {
  const store = await open()
  const facts = await store.digestFacts({ ...week, quietSince: DUE - QUIET_DAYS * DAY })
  const check = (domain: string, overrides: Partial<DomainCheck>): DomainCheck => ({
    domain,
    checkedAt: DUE - DAY,
    pointing: 'here',
    pointingDetail: '192.0.2.10',
    records: 'ok',
    recordsDetail: '',
    expiry: 'known',
    expiresAt: DUE + 300 * DAY,
    expiryDetail: 'RDAP',
    rdapCheckedAt: DUE - DAY,
    ...overrides,
  })
  const { text } = composeDigest(
    facts,
    week,
    [],
    [],
    [
      check('hier.de', {}),
      check('xn--mnchen-3ya.de', { pointing: 'elsewhere', pointingDetail: '198.51.100.7' }),
      check('fehlt.de', { records: 'missing' }),
      check('bald.de', { expiresAt: Date.parse('2026-11-12T10:00:00Z') }),
      check('unbekannt.de', { pointing: 'unknown', records: 'unknown', expiry: 'unknown', expiresAt: null }),
    ],
  )
  expect(text).toContain(
    [
      'Tägliche Prüfung der Namen (5 Namen geprüft):',
      '  Zeigen nicht hierher:',
      '    münchen.de (198.51.100.7)',
      '  _for-sale-Eintrag nicht aktuell:',
      '    fehlt.de: Eintrag fehlt',
      '  Laufen in weniger als 30 Tagen ab:',
      '    bald.de: läuft ab am 12.11.2026',
    ].join('\n'),
  )
  expect(composeDigest(facts, week, [], [], [check('hier.de', {})]).text).toContain('Tägliche Prüfung der Namen (1 Name geprüft):\n  alles in Ordnung')
  expect(composeDigest(facts, week).text).not.toContain('Tägliche Prüfung')
})
