// Another site's posts are refused before they count (issue 20/27, break 12): a page the visitor opens elsewhere can
// make the visitor's browser post to the contact form, the checkout and the confirmation, from the visitor's own
// address. Were those counted first, a few dozen of them would lock the visitor out of the form for an hour. In
// process: the subject is what the routes answer.
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { buildTestApp, type InProcessApp } from '../helpers/app.ts'
import { removeTestFiles, writeTestFile } from '../helpers/domains.ts'

let app: InProcessApp
beforeAll(async () => {
  const domainsFile = writeTestFile(`domains:
  fest.de: { price: 4900, priceType: fixed, vat: included }
  bestaetigt.de: { price: 3000, confirm: verify }
`)
  // One accepted post an hour, ten posts of any kind (POST_LIMIT_FACTOR, LIMIT_FACTOR).
  app = await buildTestApp({ MAIL_TO: 'owner@example.org', DOMAINS_FILE: domainsFile, CONTACT_RATE_LIMIT: '1' })
})
afterAll(async () => {
  await app?.close()
  removeTestFiles()
})

/** What another site can make a browser send: each says so in its own way. */
const CROSS_SITE: Record<string, string>[] = [
  { 'sec-fetch-site': 'cross-site' },
  { origin: 'https://evil.example' },
  { origin: 'null' },
  { 'sec-fetch-site': 'same-site' },
]

interface Route {
  route: string
  host: string
  path: string
  body?: Record<string, string>
  form?: Record<string, string>
}

describe.each<Route>([
  { route: 'the contact form', host: 'bestaetigt.de', path: '/api/contact', body: { message: 'x' } },
  { route: 'the checkout', host: 'fest.de', path: '/kaufen', form: { binding: 'on' } },
  { route: 'the confirmation', host: 'bestaetigt.de', path: '/bestaetigen', form: { t: 'kein-link' } },
])('$route', ({ host, path, body, form }) => {
  test('answers twelve posts of another site with 403, and the visitor’s own post after them is not refused for their number', async () => {
    const remoteAddress = `203.0.113.${path.length}`
    const post = (headers: Record<string, string>) =>
      app.requestAs(host, `${app.url}${path}`, { method: 'POST', ...(body && { body }), ...(form && { form }), headers, remoteAddress })
    for (let i = 0; i < 12; i++) expect((await post(CROSS_SITE[i % CROSS_SITE.length]!)).status, JSON.stringify(CROSS_SITE[i % CROSS_SITE.length])).toBe(403)
    const own = await post({ origin: `http://${host}`, 'sec-fetch-site': 'same-origin' })
    expect(own.status).not.toBe(429)
    expect(own.status).not.toBe(403)
  })
})
