// The visitor statistics as the console, the CLI and the digest read them, from a real store (SQLite or PostgreSQL).
import { parse } from 'csv-parse/sync'
import { expect, test } from 'vitest'
import { newInquiry, openTestStore } from '../../../tests/helpers/store.ts'
import { domainsConfigOf } from '../sites/domains-document.ts'
import type { Store } from '../store/types.ts'
import { composeDigest, digestWeek } from '../jobs/digest.ts'
import { statsCsv } from './csv.ts'
import { visitorStats } from './report.ts'

const DAY = 86_400_000
/** Sunday 22 November 2026, noon in Berlin. */
const NOW = Date.UTC(2026, 10, 22, 11)

const registry = (domains: Record<string, object | null>) => {
  const config = domainsConfigOf({ domains })
  return { current: () => config, fromFile: true }
}

async function seed(store: Store) {
  await store.addVisitCounts([
    { domain: 'viel-besucht.de', day: '2026-11-20', metric: 'visit', key: '', count: 80 },
    { domain: 'viel-besucht.de', day: '2026-11-20', metric: 'visitor', key: '', count: 60 },
    { domain: 'viel-besucht.de', day: '2026-11-20', metric: 'filtered', key: 'bot', count: 500 },
    { domain: 'viel-besucht.de', day: '2026-11-20', metric: 'filtered', key: 'repeat', count: 9 },
    { domain: 'viel-besucht.de', day: '2026-11-20', metric: 'source', key: 'market:sedo', count: 50 },
    { domain: 'viel-besucht.de', day: '2026-11-20', metric: 'source', key: 'site:=cmd|calc', count: 30 },
    { domain: 'viel-besucht.de', day: '2026-11-20', metric: 'language', key: 'de', count: 80 },
    { domain: 'gefragt.de', day: '2026-11-21', metric: 'visit', key: '', count: 10 },
    { domain: 'gefragt.de', day: '2026-11-21', metric: 'form', key: '', count: 4 },
    // Before the range: not in it, but it says counting has run for more than 90 days.
    { domain: 'gefragt.de', day: '2026-07-01', metric: 'visit', key: '', count: 3 },
  ])
  // Today's visitors are still hashes.
  await store.addVisitorHashes([
    { domain: 'gefragt.de', day: '2026-11-22', hash: 'aaaaaaaaaaaaaaaaaaaaaa' },
    { domain: 'gefragt.de', day: '2026-11-22', hash: 'bbbbbbbbbbbbbbbbbbbbbb' },
  ])
  for (const amount of [1000, 1900, 2000]) {
    await store.saveInquiry(newInquiry({ domain: 'gefragt.de', offer: { amount, currency: 'EUR' }, createdAt: NOW - 2 * DAY }), { queue: false })
  }
  await store.saveInquiry(newInquiry({ domain: 'gefragt.de', spamReason: 'honeypot', createdAt: NOW - DAY }), { queue: false })
}

const domains = registry({ 'viel-besucht.de': { price: 5000 }, 'gefragt.de': { price: 2000 }, 'vergessen.de': null })

test('per name and for the portfolio: visitors, visits, bots, sources, the turn to the form, inquiries and offers against the price', async () => {
  const store = await openTestStore()
  await seed(store)
  const stats = await visitorStats({ store, domains }, { days: 7, now: NOW })
  expect([stats.firstDay, stats.lastDay, stats.daily.length]).toEqual(['2026-11-16', '2026-11-22', 7])
  const byName = Object.fromEntries(stats.names.map((name) => [name.domainAscii, name]))
  expect(byName['viel-besucht.de']).toMatchObject({
    visitors: 60,
    visits: 80,
    botsFiltered: 500,
    repeats: 9,
    formTurns: 0,
    inquiries: 0,
    offers: 0,
    highestShare: null,
  })
  expect(byName['viel-besucht.de']!.sources).toEqual([
    { key: 'market:sedo', count: 50 },
    { key: 'site:=cmd|calc', count: 30 },
  ])
  expect(byName['gefragt.de']).toMatchObject({
    visitors: 2,
    visits: 10,
    formTurns: 4,
    inquiries: 3,
    offers: 3,
    highestOffer: { amount: 2000, currency: 'EUR' },
    medianOffer: { amount: 1900, currency: 'EUR' },
    askingPrice: { amount: 2000, currency: 'EUR' },
    highestShare: 100,
  })
  expect(stats.total).toMatchObject({ visitors: 62, visits: 90, botsFiltered: 500, formTurns: 4, inquiries: 3, offers: 3 })
  expect(stats.daily.find((day) => day.day === '2026-11-22')).toEqual({ day: '2026-11-22', visitors: 2, visits: 0, formTurns: 0, inquiries: 0 })
})

test('hints come with their figures: many visitors and no inquiry, offers at the price, no visitor in 90 days', async () => {
  const store = await openTestStore()
  await seed(store)
  const stats = await visitorStats({ store, domains }, { days: 30, now: NOW })
  expect(stats.hints).toEqual([
    { kind: 'no-inquiries', domain: 'viel-besucht.de', visitors: 60, visits: 80, formTurns: 0 },
    {
      kind: 'offers-near-price',
      domain: 'gefragt.de',
      offers: 3,
      highestOffer: { amount: 2000, currency: 'EUR' },
      askingPrice: { amount: 2000, currency: 'EUR' },
      highestShare: 100,
    },
    { kind: 'no-visitors', domain: 'vergessen.de', days: 90 },
  ])
  // Before counting has run for 90 days, nobody is called quiet.
  const fresh = await openTestStore()
  await fresh.addVisitCounts([{ domain: 'gefragt.de', day: '2026-11-21', metric: 'visit', key: '', count: 1 }])
  expect((await visitorStats({ store: fresh, domains }, { days: 30, now: NOW })).hints).toEqual([])
})

test('the CSV has a row per name, numbers bare, a hostile Referer host defused', async () => {
  const store = await openTestStore()
  await seed(store)
  const stats = await visitorStats({ store, domains }, { days: 7, now: NOW })
  stats.names[0]!.sources = [{ key: 'site:=cmd|calc', count: 1 }]
  const text = statsCsv(stats, ';')
  const rows = parse(text, { bom: true, delimiter: ';' }) as string[][]
  expect(rows[0]!.slice(0, 3)).toEqual(['Domain', 'Besucher', 'Besuche'])
  expect(rows[1]!.slice(0, 3)).toEqual(['viel-besucht.de', '60', '80'])
  expect(rows[1]![15]).toBe('Andere Website: =cmd|calc')
  for (const cell of rows.flat()) expect(cell).not.toMatch(/^[=+\-@]/)
})

test('the weekly digest shows the same numbers and hints as the Übersicht', async () => {
  const store = await openTestStore()
  await seed(store)
  // Monday 23 November 2026, 08:00 in Berlin: the week 16 to 22 November.
  const week = digestWeek(Date.parse('2026-11-23T07:00:00Z'))
  const stats = await visitorStats({ store, domains }, { days: 7, now: week.until - DAY })
  const { text } = composeDigest(await store.digestFacts({ ...week, quietSince: week.until - 90 * DAY }), week, [], [], [], stats)
  expect(text).toContain('Besucher (ganze Tage 2026-11-16 bis 2026-11-22, ohne Bots, wie in der Übersicht):')
  expect(text).toContain('62 Besucher, 90 Besuche, 500 Bot-Aufrufe gefiltert, 4 zum Formular, 3 Anfragen, 3 Angebote, 0 Abschlüsse.')
  expect(text).toContain('viel-besucht.de: 60 Besucher (80 Besuche, 0 zum Formular) und keine Anfrage.')
})

test('deals and revenue: every deal made in the range counts, a cancelled one does not; revenue is what completed, per currency', async () => {
  const store = await openTestStore()
  let links = 0
  const deal = async (domain: string, amount: number, currency: string) => {
    const saved = await store.saveInquiry(newInquiry({ domain, offer: { amount: amount / 100, currency }, createdAt: NOW - 3 * DAY }), { queue: false })
    if (saved.status !== 'created') throw new Error('not created')
    const made = await store.accept(saved.id, {
      body: 'Angenommen',
      to: 'erika@example.de',
      replyTo: 'owner@example.org',
      now: NOW - 3 * DAY,
      amount: amount / 100,
      deal: { linkHash: `report-${++links}`, linkSealed: 'v1.sealed-link', amount, currency, paymentDueAt: NOW + 4 * DAY, transferDays: 5 },
    })
    return (made as { dealId: number }).dealId
  }
  const completed = await deal('gefragt.de', 200_000, 'EUR')
  await store.changeDeal(completed, { from: ['awaiting_payment'], to: 'paid', now: NOW - 2 * DAY, paidAt: NOW - 2 * DAY })
  await store.changeDeal(completed, { from: ['paid'], to: 'completed', now: NOW - DAY, completedAt: NOW - DAY })
  // Paid, not yet completed: a deal, but no revenue yet.
  const paid = await deal('viel-besucht.de', 450_000, 'EUR')
  await store.changeDeal(paid, { from: ['awaiting_payment'], to: 'paid', now: NOW - DAY, paidAt: NOW - DAY })
  // One open deal per name (decision 037): the dollars are another name's.
  const dollars = await deal('vergessen.de', 90_000, 'USD')
  await store.changeDeal(dollars, { from: ['awaiting_payment'], to: 'paid', now: NOW - DAY, paidAt: NOW - DAY })
  await store.changeDeal(dollars, { from: ['paid'], to: 'completed', now: NOW - DAY, completedAt: NOW - DAY })
  // Made after the first one completed; then cancelled.
  const cancelled = await deal('gefragt.de', 150_000, 'EUR')
  await store.changeDeal(cancelled, { from: ['awaiting_payment'], to: 'cancelled', now: NOW - DAY, cancelledAt: NOW - DAY, cancelledBy: 'owner' })

  const stats = await visitorStats({ store, domains }, { days: 7, now: NOW })
  const byName = Object.fromEntries(stats.names.map((name) => [name.domainAscii, name]))
  expect(byName['gefragt.de']).toMatchObject({ deals: 1, revenue: [{ amount: 200_000, currency: 'EUR' }] })
  expect(byName['viel-besucht.de']).toMatchObject({ deals: 1, revenue: [] })
  expect(byName['vergessen.de']).toMatchObject({ deals: 1, revenue: [{ amount: 90_000, currency: 'USD' }] })
  expect(stats.total.deals).toBe(3)
  expect(stats.total.revenue).toEqual(
    expect.arrayContaining([
      { amount: 200_000, currency: 'EUR' },
      { amount: 90_000, currency: 'USD' },
    ]),
  )
  expect(stats.total.revenue).toHaveLength(2)
  // Out of the range: the week before these deals counts none of them, nor a later day's visits.
  await store.addVisitCounts([{ domain: 'gefragt.de', day: '2026-11-20', metric: 'visit', key: '', count: 5 }])
  const before = await visitorStats({ store, domains }, { days: 7, now: NOW - 7 * DAY })
  expect([before.total.deals, before.total.revenue, before.total.visits]).toEqual([0, [], 0])
})

test('offers count in the range of Berlin days they were made in: not those made after a past range, nor late on the day before it', async () => {
  const store = await openTestStore()
  const offer = (amount: number, createdAt: number) =>
    store.saveInquiry(newInquiry({ domain: 'gefragt.de', offer: { amount, currency: 'EUR' }, createdAt }), { queue: false })
  // The range of 7 days ending 2026-11-15 (Berlin) runs from 2026-11-09 00:00 Berlin, which is 2026-11-08 23:00 UTC.
  const rangeEnd = NOW - 7 * DAY
  await offer(1500, Date.UTC(2026, 10, 8, 22, 30)) // 23:30 Berlin on the day before the range
  await offer(1800, Date.UTC(2026, 10, 8, 23, 30)) // 00:30 Berlin on its first day
  await offer(1900, Date.UTC(2026, 10, 15, 22, 30)) // 23:30 Berlin on its last day
  await offer(2500, NOW - DAY) // after the range
  const past = await visitorStats({ store, domains }, { days: 7, now: rangeEnd })
  expect(past.names.find((name) => name.domainAscii === 'gefragt.de')).toMatchObject({ offers: 2, highestOffer: { amount: 1900, currency: 'EUR' } })
  const current = await visitorStats({ store, domains }, { days: 7, now: NOW })
  expect(current.names.find((name) => name.domainAscii === 'gefragt.de')).toMatchObject({ offers: 1, highestOffer: { amount: 2500, currency: 'EUR' } })
})
