// A name's `status` in the domains file, answered by the app in process: reserved keeps the form for back-up
// offers, sold shows that it is sold, has no form and answers 410 to every POST; /tls-check is unchanged for both.
import { afterAll, beforeAll, expect, test } from 'vitest'
import { TEXT } from '../../src/shared/texts.ts'
import { buildTestApp, type InProcessApp } from '../helpers/app.ts'
import { fetchForm, VISITOR } from '../helpers/contact.ts'
import { removeTestFiles, writeTestFile } from '../helpers/domains.ts'

const DOMAINS = `
unknownHosts: not-found
domains:
  frei.de:
    price: 4900
  reserviert.de:
    price: 4900
    status: reserved
  verkauft.de:
    price: 4900
    status: sold
`

let server: InProcessApp
let file: string
beforeAll(async () => {
  file = writeTestFile(DOMAINS)
  server = await buildTestApp({ DOMAINS_FILE: file, MIN_FILL_SECONDS: '0' })
})
afterAll(async () => {
  await server?.close()
  removeTestFiles()
})

const getPage = (url: string, host: string) => server.requestAs(host, `${url}/`)
const requestAs: InProcessApp['requestAs'] = (...args) => server.requestAs(...args)
const availabilityOf = (html: string) =>
  (JSON.parse(/<script type="application\/ld\+json">([^<]*)<\/script>/.exec(html)![1]!) as { offers: { availability: string } }).offers.availability

test('an available name says nothing of a status, and its Offer is in stock', async () => {
  const { status, html } = await getPage(server.url, 'frei.de')
  expect(status).toBe(200)
  expect(html).not.toContain(TEXT.reserved)
  expect(html).not.toContain(TEXT.sold)
  expect(availabilityOf(html)).toBe('https://schema.org/InStock')
})

test('a reserved name says so and keeps the form, which still takes back-up offers', async () => {
  const { html } = await getPage(server.url, 'reserviert.de')
  expect(html).toContain(`<p class="sale-status">${TEXT.reserved}</p>`)
  expect(html).toContain('<form')
  expect(availabilityOf(html)).toBe('https://schema.org/LimitedAvailability')
  const { token, hash } = await fetchForm(server.url, 'reserviert.de', {}, server.fetch)
  const sent = await requestAs('reserviert.de', `${server.url}/api/contact`, { method: 'POST', body: { ...VISITOR, token, hash } })
  expect(sent.status).toBe(200)
})

test('a sold name says so, has no form, and answers 410 to a POST, with or without script', async () => {
  const { status, html } = await getPage(server.url, 'verkauft.de')
  expect(status).toBe(200)
  expect(html).toContain(`<p class="sale-status">${TEXT.sold}</p>`)
  // Nothing in the head says it is still for sale.
  expect(html).toContain(`<title>${TEXT.titleSold('verkauft.de')}</title>`)
  expect(html).toContain(`<meta name="description" content="${TEXT.sold}" />`)
  expect(html).toContain(`<meta property="og:title" content="${TEXT.titleSold('verkauft.de')}" />`)
  expect(html).not.toContain('zu verkaufen')
  expect(html).not.toContain('zum Verkauf')
  expect(html).not.toContain('<form')
  expect(availabilityOf(html)).toBe('https://schema.org/SoldOut')
  // A token from before the sale (any token: the answer does not depend on it).
  const json = await requestAs('verkauft.de', `${server.url}/api/contact`, { method: 'POST', body: { ...VISITOR, token: 'x', hash: 'y' } })
  expect(json.status).toBe(410)
  expect(JSON.parse(json.html)).toEqual({ error: TEXT.sold })
  const form = await requestAs('verkauft.de', `${server.url}/api/contact`, { method: 'POST', form: { ...VISITOR, token: 'x', hash: 'y' } })
  expect(form.status).toBe(410)
  expect(form.headers['content-type']).toMatch(/^text\/html/)
  expect(form.html).toContain(TEXT.sold)
  expect(form.html).not.toContain('<form')
})

test('/tls-check answers 200 for reserved and sold names alike: their pages are still served over HTTPS', async () => {
  for (const domain of ['frei.de', 'reserviert.de', 'verkauft.de']) {
    expect((await server.fetch(`${server.url}/tls-check?domain=${domain}`)).status, domain).toBe(200)
  }
})
