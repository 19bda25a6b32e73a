// The console's fetch checks every answer against the schema its route answers by: an answer of another shape (a
// page older than the server, a proxy's page, a server bug) is an error the page shows as text, never data it
// renders from, and never an exception that takes the page down.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { inboxPageSchema, type InboxPage } from '../shared/console-api.ts'
import { MISMATCH, callApi, noContent } from './api.ts'

const page: InboxPage = {
  items: [
    {
      id: 7,
      domain: 'bücher.example',
      domainAscii: 'xn--bcher-kva.example',
      name: 'Erika',
      email: 'erika@example.de',
      firstLine: 'Guten Tag',
      offer: '1.500 €',
      createdAt: 1,
      status: 'new',
      mail: 'sent',
    },
  ],
  next: null,
  domains: [{ ascii: 'xn--bcher-kva.example', display: 'bücher.example' }],
}

let answer: Response
const fetch = vi.fn(async () => answer)
const assign = vi.fn()
const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

beforeEach(() => {
  vi.stubGlobal('fetch', fetch)
  vi.stubGlobal('window', { location: { assign } })
})
afterEach(() => {
  vi.unstubAllGlobals()
  fetch.mockClear()
  assign.mockClear()
})

describe('callApi', () => {
  it('hands the page an answer that matches its schema', async () => {
    answer = json(page)
    expect(await callApi('GET', '/api/inbox', inboxPageSchema)).toEqual({ status: 'success', data: page })
    expect(fetch).toHaveBeenCalledWith('/api/inbox', expect.objectContaining({ method: 'GET', credentials: 'same-origin' }))
  })

  it('answers a mismatching answer with the clear error, naming where it differs, and no data', async () => {
    answer = json({ ...page, items: [{ ...page.items[0], status: 'gelesen' }] })
    const result = await callApi('GET', '/api/inbox', inboxPageSchema)
    expect(result).toEqual({ status: 'error', error: `${MISMATCH} (items.0.status)`, code: 200 })
  })

  it('calls a missing field a mismatch too', async () => {
    answer = json({ items: [], next: null })
    expect(await callApi('GET', '/api/inbox', inboxPageSchema)).toEqual({ status: 'error', error: `${MISMATCH} (domains)`, code: 200 })
  })

  it('never names a value of the answer in the error (it is shown to the owner and may be copied anywhere)', async () => {
    answer = json({ ...page, items: [{ ...page.items[0], email: { secret: 'geheim@example.de' } }] })
    const result = await callApi('GET', '/api/inbox', inboxPageSchema)
    expect(result.status).toBe('error')
    expect(JSON.stringify(result)).not.toContain('geheim')
  })

  it('takes a body that is not JSON (a proxy’s HTML page with 200) as a mismatch, not an exception', async () => {
    answer = new Response('<html>Wartung</html>', { status: 200, headers: { 'content-type': 'text/html' } })
    expect(await callApi('GET', '/api/inbox', inboxPageSchema)).toEqual({ status: 'error', error: MISMATCH, code: 200 })
  })

  it('drops what the schema does not name: the page sees only the fields it knows', async () => {
    answer = json({ ...page, extra: 'x' })
    const result = await callApi('GET', '/api/inbox', inboxPageSchema)
    expect(result.status === 'success' && result.data).toEqual(page)
  })

  it('reads an empty answer (204) as null', async () => {
    answer = new Response(null, { status: 204 })
    expect(await callApi('DELETE', '/api/session', noContent)).toEqual({ status: 'success', data: null })
  })

  it('passes on the server’s error text without checking it against the answer’s schema', async () => {
    answer = json({ error: 'Die Anfrage gibt es nicht.' }, 404)
    expect(await callApi('GET', '/api/inbox', inboxPageSchema)).toEqual({ status: 'error', error: 'Die Anfrage gibt es nicht.', code: 404 })
  })

  it('sends the owner to the sign-in page on 401', async () => {
    answer = json({ error: 'x' }, 401)
    expect(await callApi('GET', '/api/inbox', inboxPageSchema)).toMatchObject({ status: 'error', code: 401 })
    expect(assign).toHaveBeenCalledWith('/anmelden')
  })
})
