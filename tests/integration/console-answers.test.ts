// The console's JSON answers are checked against their schemas in src/shared on the way out (decision 057): an answer
// that does not match is a 500 with the one error body, never the wrong data, and an answer carries only the fields
// its schema names.
import { afterAll, beforeAll, expect, test, vi } from 'vitest'
import { TEXT } from '../../src/shared/texts.ts'
import { buildTestApp, type InProcessApp } from '../helpers/app.ts'
import { consoleClient } from '../helpers/console.ts'
import { newInquiry } from '../helpers/store.ts'

let app: InProcessApp
let client: ReturnType<typeof consoleClient>
let cookie: string

beforeAll(async () => {
  app = await buildTestApp()
  client = consoleClient(app)
  expect((await client.setPassword()).code).toBe(0)
  ;({ cookie } = await client.signIn())
  await app.admin!.store.saveInquiry(newInquiry({ name: 'Erika Vertraulich', message: 'Geheimer Plan' }), { queue: false })
})
afterAll(async () => {
  vi.restoreAllMocks()
  await app?.close()
})

test('GET /api/inbox answers its rows while they match the schema', async () => {
  const response = await client.call('/api/inbox', { cookie })
  expect(response.status).toBe(200)
  expect((await response.json()).items).toEqual([expect.objectContaining({ name: 'Erika Vertraulich', firstLine: 'Geheimer Plan', status: 'new' })])
})

test('an answer that breaks its schema is a 500 with the one error body, and none of its data', async () => {
  const { store } = app.admin!
  const original = store.consoleInquiries.bind(store)
  // A status no version of the console knows (as a store written by a newer server would give it).
  const spy = vi
    .spyOn(store, 'consoleInquiries')
    .mockImplementation(async (filter) => (await original(filter)).map((row) => ({ ...row, status: 'verloren' as never })))
  try {
    const response = await client.call('/api/inbox', { cookie })
    expect(response.status).toBe(500)
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8')
    const body = await response.text()
    expect(JSON.parse(body)).toEqual({ error: TEXT.internal })
    expect(body).not.toMatch(/Erika|Geheim|verloren/)
    expect(spy).toHaveBeenCalled()
  } finally {
    spy.mockRestore()
  }
  expect((await client.call('/api/inbox', { cookie })).status).toBe(200)
})

test('a field the schema does not name never leaves the server (a row of the store passed on whole)', async () => {
  const { store } = app.admin!
  const check = {
    domain: 'example.de',
    checkedAt: 1,
    pointing: 'here' as const,
    pointingDetail: '',
    records: 'ok' as const,
    recordsDetail: '',
    expiry: 'unknown' as const,
    expiresAt: null,
    expiryDetail: '',
    rdapCheckedAt: null,
  }
  // The route spreads the store's row into its answer: a column added to the store must not reach the browser unnamed.
  const spy = vi.spyOn(store, 'domainChecks').mockResolvedValue([{ ...check, apiKey: 'sk-geheim' } as typeof check])
  try {
    const response = await client.call('/api/domain-checks?names=example.de', { cookie })
    expect(response.status).toBe(200)
    const body = await response.text()
    expect(body).not.toContain('geheim')
    expect(JSON.parse(body).checks).toEqual([{ ...check, name: 'example.de' }])
  } finally {
    spy.mockRestore()
  }
})
