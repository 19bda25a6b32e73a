// The Übersicht's "Domains mit Handlungsbedarf" (GET /api/domain-checks?attention=1) with a portfolio of thousands of
// checked names: the answer is the one the rule of shared/domain-checks.ts gives (needsAttention, names in the file
// only, most urgent first), while the store hands the route only the rows it shows. Rows read are counted at the
// driver (node:sqlite's statements, pg's client), so a query that reads every row and filters in JavaScript fails
// here on either store.
import { StatementSync } from 'node:sqlite'
import pg from 'pg'
import { afterAll, beforeAll, expect, test, vi } from 'vitest'
import { needsAttention, type DomainCheck, type DomainChecksPage } from '../../src/shared/domain-checks.ts'
import { buildTestApp, type InProcessApp } from '../helpers/app.ts'
import { consoleClient } from '../helpers/console.ts'
import { removeTestFiles, writeTestFile } from '../helpers/domains.ts'

const NAMES = 1_200
/** What the route lists at most (the rest is counted). */
const SHOWN = 200
const DAY = 86_400_000

const name = (i: number) => `name-${i}.de`
let app: InProcessApp
let cookie: string
let client: ReturnType<typeof consoleClient>
let saved: DomainCheck[]

beforeAll(async () => {
  const lines = Array.from({ length: NAMES }, (_, i) => `  ${name(i)}: {price: ${1000 + i}}`)
  const file = writeTestFile(`domains:\n${lines.join('\n')}\n  "*.wild.de": {}\n`)
  app = await buildTestApp({ DOMAINS_FILE: file })
  client = consoleClient(app)
  expect((await client.setPassword()).code).toBe(0)
  ;({ cookie } = await client.signIn())
  const now = Date.now()
  const check = (domain: string, i: number, overrides: Partial<DomainCheck> = {}): DomainCheck => ({
    domain,
    checkedAt: now,
    pointing: 'here',
    pointingDetail: '192.0.2.10',
    records: 'ok',
    recordsDetail: '',
    expiry: 'known',
    // Distinct dates, a day clear of the 30-day line either way (the route takes its own "now").
    expiresAt: now + 300 * DAY + i * 1000,
    expiryDetail: 'RDAP rdap.example',
    rdapCheckedAt: now,
    ...overrides,
  })
  const states: ((domain: string, i: number) => DomainCheck)[] = [
    (domain, i) => check(domain, i, { pointing: 'elsewhere', pointingDetail: '198.51.100.7' }),
    (domain, i) => check(domain, i, { records: 'missing', recordsDetail: 'no _for-sale record' }),
    (domain, i) => check(domain, i, { expiresAt: now + 10 * DAY + i * 1000 }),
    (domain, i) => check(domain, i, { pointing: 'unknown', records: 'unknown', expiresAt: now + 29 * DAY }),
    (domain, i) => check(domain, i, { pointing: 'elsewhere', expiry: 'none', expiresAt: null }),
    (domain, i) => check(domain, i, { records: 'left-over', expiry: 'unknown', expiresAt: null }),
    (domain, i) => check(domain, i, { expiresAt: now + 31 * DAY }),
    check,
  ]
  saved = [
    // Every 50th name is not checked yet.
    ...Array.from({ length: NAMES }, (_, i) => i)
      .filter((i) => i % 50 !== 7)
      .map((i) => states[i % states.length]!(name(i), i)),
    // Names no longer in the file, pointing elsewhere: not the owner's worry, neither listed nor counted.
    ...Array.from({ length: 40 }, (_, i) => check(`weg-${i}.de`, i, { pointing: 'elsewhere', expiresAt: now - DAY })),
  ]
  const store = await app.store()
  await store.saveDomainChecks(saved, { now, expiringMs: 30 * DAY, notify: () => [] })
})
afterAll(async () => {
  await app?.close()
  removeTestFiles()
})

/** Rows the app's store read from its database while `work` ran. */
async function rowsRead(work: () => Promise<Response>): Promise<{ response: Response; rows: number }> {
  const sqliteAll = vi.spyOn(StatementSync.prototype, 'all')
  const sqliteGet = vi.spyOn(StatementSync.prototype, 'get')
  const pgQuery = vi.spyOn(pg.Client.prototype, 'query')
  try {
    const response = await work()
    let rows = sqliteAll.mock.results.reduce((sum, result) => sum + (result.type === 'return' ? (result.value as unknown[]).length : 0), 0)
    rows += sqliteGet.mock.results.filter((result) => result.type === 'return' && result.value !== undefined).length
    for (const result of pgQuery.mock.results) {
      const answer = (await Promise.resolve(result.value).catch(() => null)) as { rows?: unknown[] } | null
      rows += answer?.rows?.length ?? 0
    }
    return { response, rows }
  } finally {
    sqliteAll.mockRestore()
    sqliteGet.mockRestore()
    pgQuery.mockRestore()
  }
}

test(`of ${NAMES} checked names, the Übersicht gets those that need attention, most urgent first, and the store reads only the ${SHOWN} shown`, async () => {
  const { response, rows } = await rowsRead(() => client.call('/api/domain-checks?attention=1', { cookie }))
  expect(response.status).toBe(200)
  const page = (await response.json()) as DomainChecksPage
  const listed = saved.filter((check) => check.domain.startsWith('name-'))
  const attention = listed.filter((check) => needsAttention(check, page.now))
  const urgency = (check: DomainCheck) => (check.pointing === 'elsewhere' ? 0 : check.expiresAt !== null ? 1 : 2)
  attention.sort((a, b) => urgency(a) - urgency(b) || (a.expiresAt ?? 0) - (b.expiresAt ?? 0) || a.domain.localeCompare(b.domain))
  expect(attention.length).toBeGreaterThan(SHOWN)
  expect(page.total).toBe(attention.length)
  expect(page.unchecked).toBe(NAMES - listed.length)
  expect(page.checks).toEqual(attention.slice(0, SHOWN).map((check) => ({ ...check, name: check.domain })))
  // The rows shown, a count, the session: not one row per name.
  expect(rows).toBeLessThanOrEqual(SHOWN + 10)
})
