// A purchase at the fixed price as a buyer makes it (GET /kaufen, then the form posted without script), confirmed by
// the owner in the console, or an offer accepted: for tests of what comes after (invoices). And a binary GET with a
// Host header.
import http from 'node:http'
import { expect } from 'vitest'
import type { InboxPage } from '../../src/shared/console-api.ts'
import type { consoleClient } from './console.ts'
import { fetchForm, requestAs, VISITOR } from './contact.ts'

let buyers = 0

/** The buyer's fields of the checkout form (a business in Germany unless overridden). */
function buyerFields(fields: Record<string, string> = {}) {
  const email = `rechnung${++buyers}-${process.pid}@example.net`
  return {
    name58fnlsd: `Käufer ${buyers}`,
    name58fnlsdbee: '',
    themail3h6: email,
    themail3h6bee: '',
    company: 'Beispiel GmbH',
    street: 'Hauptstraße 1',
    postcode: '10115',
    city: 'Berlin',
    country: 'DE',
    vat_id: 'DE123456789',
    binding: 'on',
    ...fields,
  }
}

/** A checkout sent to `url` for `host` and confirmed by the owner: the deal's id and the buyer's address. */
export async function confirmedPurchase(
  url: string,
  host: string,
  client: ReturnType<typeof consoleClient>,
  cookie: string,
  fields: Record<string, string> = {},
) {
  const form = await requestAs(host, `${url}/kaufen`)
  expect(form.status, form.html).toBe(200)
  const token = /name="token" value="([^"]+)"/.exec(form.html)![1]!
  const hash = /name="hash" value="([^"]+)"/.exec(form.html)![1]!
  const terms = /name="terms" value="([^"]+)"/.exec(form.html)![1]!
  const values = { ...buyerFields(fields), token, hash, terms }
  const answer = await requestAs(host, `${url}/kaufen`, {
    method: 'POST',
    form: values,
    headers: { origin: `http://${host}`, 'sec-fetch-site': 'same-origin' },
  })
  expect(answer.status, answer.html).toBe(303)
  const inbox = (await (await client.call('/api/inbox', { cookie })).json()) as InboxPage
  const inquiry = inbox.items.find((item) => item.email === values.themail3h6)!
  const accepted = await client.call(`/api/inquiries/${inquiry.id}/accept`, { method: 'POST', body: {}, cookie })
  expect(accepted.status, await accepted.clone().text()).toBe(200)
  const deal = (await (await client.call(`/api/inquiries/${inquiry.id}/deal`, { cookie })).json()) as { deal: { id: number } }
  return { dealId: deal.deal.id, email: values.themail3h6, inquiryId: inquiry.id }
}

/** An offer written from `host` and accepted by the owner (a deal from a negotiation: no postal address yet). */
export async function acceptedOffer(url: string, host: string, client: ReturnType<typeof consoleClient>, cookie: string, offer = '1.500') {
  const email = `angebot${++buyers}-${process.pid}@example.net`
  const { token, hash } = await fetchForm(url, host)
  const sent = await requestAs(host, `${url}/api/contact`, {
    method: 'POST',
    body: { ...VISITOR, themail3h6: email, message: 'Mein Angebot', offer, token, hash },
  })
  expect(sent.status, sent.html).toBe(200)
  const inbox = (await (await client.call('/api/inbox', { cookie })).json()) as InboxPage
  const inquiry = inbox.items.find((item) => item.email === email)!
  const accepted = await client.call(`/api/inquiries/${inquiry.id}/accept`, { method: 'POST', body: {}, cookie })
  expect(accepted.status, await accepted.clone().text()).toBe(200)
  const deal = (await (await client.call(`/api/inquiries/${inquiry.id}/deal`, { cookie })).json()) as { deal: { id: number } }
  return { dealId: deal.deal.id, email, inquiryId: inquiry.id }
}

/** GET with a Host header, the body as bytes. */
export function getBytes(host: string, url: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { host } }, (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }))
      })
      .on('error', reject)
  })
}
