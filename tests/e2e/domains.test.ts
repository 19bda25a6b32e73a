// A domain with a price and a minimum offer, in a real Chromium against the production server process.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Page } from 'playwright-core'
import { expect } from 'vitest'
import { axeViolations, browserTest } from '../helpers/chromium.ts'

const test = browserTest({
  domains: `unknownHosts: not-found
legal:
  imprintUrl: https://verkauf.example.org/impressum
  privacyText: Wir speichern Ihre Anfrage nur, um sie zu beantworten.
domains:
  example.de:
    price: 4900
    minOffer: 1500
    description: Kurz und einprägsam.
  attack.de:
    description: </script><script>alert(1)</script>
  verkauft.de:
    price: 4900
    status: sold
`,
})

const field = (page: Page, name: string | RegExp) => page.getByRole('textbox', { name })

async function fillAndSend(page: Page, offer: string, message: string) {
  await field(page, 'Name').fill('Erika')
  await field(page, 'E-Mail').fill('erika@example.de')
  await field(page, 'Nachricht').fill(message)
  await field(page, /^Angebot in EUR/).fill(offer)
  await page.getByRole('button', { name: 'Senden' }).click()
}

test('the page shows the price, the description, the offer field with its minimum, and the legal links', async ({ pages }) => {
  const { page } = await pages.open('example.de')
  expect(await page.locator('.price').textContent()).toBe('Preis: 4.900\u00a0€')
  expect(await page.getByText('Kurz und einprägsam.').isVisible()).toBe(true)
  expect(await field(page, /^Angebot in EUR/).isVisible()).toBe(true)
  expect(await page.getByText('Mindestangebot: 1.500\u00a0€').isVisible()).toBe(true)
  expect(await page.getByRole('link', { name: 'Impressum' }).getAttribute('href')).toBe('https://verkauf.example.org/impressum')
  expect(await page.getByRole('link', { name: 'Datenschutzerklärung' }).getAttribute('href')).toBe('/datenschutz')
  expect(await axeViolations(page)).toEqual([])
})

test('an offer at the minimum is mailed with the offer', async ({ pages, stack: { smtp } }) => {
  const { page } = await pages.open('example.de')
  await fillAndSend(page, '1.500', 'Mein Angebot steht.')
  await expect.poll(() => page.getByRole('status').textContent()).toBe('Anfrage erfolgreich versendet.')
  await expect
    .poll(() => smtp.messages.find((mail) => mail.parsed.text?.includes('Mein Angebot steht.'))?.parsed.text, { timeout: 15_000 })
    .toContain('Angebot: 1.500\u00a0€')
})

test('an offer below the minimum is accepted politely but not mailed', async ({ pages, stack: { smtp } }) => {
  const { page } = await pages.open('example.de')
  await fillAndSend(page, '200', 'Nur ein kleines Angebot.')
  await expect.poll(() => page.getByRole('status').textContent()).toBe('Anfrage erfolgreich versendet.')
  // A genuine one after it arrives; the low offer never does.
  await fillAndSend(page, '', 'Ohne Angebot.')
  await expect.poll(() => smtp.messages.some((mail) => mail.parsed.text?.includes('Ohne Angebot.')), { timeout: 15_000 }).toBe(true)
  expect(smtp.messages.some((mail) => mail.parsed.text?.includes('Nur ein kleines Angebot.'))).toBe(false)
})

test('an offer that is not an amount gets a hint at the field and nothing is sent', async ({ pages }) => {
  const { page } = await pages.open('example.de')
  const posts: string[] = []
  page.on('request', (request) => request.method() === 'POST' && posts.push(request.url()))
  await fillAndSend(page, 'viel', 'Text')
  await expect.poll(() => page.getByRole('status').textContent()).toBe('Fehler. Bitte füllen Sie alle Felder aus.')
  expect(await page.getByText('Bitte geben Sie Ihr Angebot als ganzen Betrag in der genannten Währung ein').isVisible()).toBe(true)
  expect(posts).toEqual([])
})

test('the search and sharing head breaks no CSP rule, and a description that closes its script stays data', async ({ pages }) => {
  const scripts: number[] = []
  for (const host of ['example.de', 'attack.de']) {
    // A dialog the description opened would be a problem of the page.
    const watched = await pages.watch()
    const { page } = watched
    await page.addInitScript(() => {
      const seen: string[] = ((window as unknown as { violations: string[] }).violations = [])
      document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`))
    })
    await pages.load(watched, host)
    const head = await page.evaluate(() => ({
      violations: (window as unknown as { violations: string[] }).violations,
      jsonLd: [...document.querySelectorAll('script[type="application/ld+json"]')].map((script) => JSON.parse(script.textContent!)),
      scripts: document.scripts.length,
      canonical: document.querySelector('link[rel="canonical"]')?.getAttribute('href'),
      robots: document.querySelector('meta[name="robots"]')?.getAttribute('content'),
    }))
    scripts.push(head.scripts)
    expect(head.violations).toEqual([])
    expect(head.canonical).toBe(`https://${host}/`)
    expect(head.robots).toBe('index,follow')
    expect(head.jsonLd).toHaveLength(1)
    expect(head.jsonLd[0]).toMatchObject(
      host === 'example.de'
        ? { name: 'example.de', offers: { price: 4900, priceCurrency: 'EUR', availability: 'https://schema.org/InStock' } }
        : { name: 'attack.de', description: '</script><script>alert(1)</script>' },
    )
  }
  // The description added no script element of its own.
  expect(scripts[1]).toBe(scripts[0])
})

test('a sold name shows that it is sold, without a form, and its page has no error and no accessibility violation', async ({ pages }) => {
  const { page } = await pages.open('verkauft.de')
  expect(await page.getByText('Diese Domain wurde verkauft.').isVisible()).toBe(true)
  expect(await page.locator('form').count()).toBe(0)
  await page.mouse.click(10, 10)
  expect(await axeViolations(page)).toEqual([])
})

/**
 * A proxy in front of the server that passes everything through but GET /, whose page it gets uncompressed and sends
 * on with `inject` put before </body> and the server's headers. In front of the server rather than page.route(): a
 * page Playwright fulfils counts as public to Chromium, which then refuses its requests to loopback.
 */
async function injectingProxy(target: URL, inject: string): Promise<{ port: number; seen: { html?: string; csp?: string }; close(): Promise<void> }> {
  const seen: { html?: string; csp?: string } = {}
  const proxy = http.createServer((request, response) => {
    const page = request.method === 'GET' && request.url === '/'
    const headers = { ...request.headers }
    if (page) delete headers['accept-encoding']
    // A connection of its own per request (agent: false): nothing of the proxy's stays open on the server when it stops.
    const upstream = http.request({ host: target.hostname, port: target.port, path: request.url, method: request.method, headers, agent: false }, (answer) => {
      if (!page) {
        response.writeHead(answer.statusCode!, answer.headers)
        answer.pipe(response)
        return
      }
      let html = ''
      answer.setEncoding('utf8')
      answer.on('data', (chunk: string) => (html += chunk))
      answer.on('end', () => {
        Object.assign(seen, { html, csp: answer.headers['content-security-policy'] })
        const body = html.replace('</body>', `${inject}</body>`)
        const { 'content-length': _length, 'transfer-encoding': _chunked, ...kept } = answer.headers
        response.writeHead(answer.statusCode!, { ...kept, 'content-length': Buffer.byteLength(body) })
        response.end(body)
      })
    })
    upstream.on('error', (error) => response.destroy(error))
    request.pipe(upstream)
  })
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
  return {
    port: (proxy.address() as AddressInfo).port,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        proxy.close(() => resolve())
        proxy.closeAllConnections()
      }),
  }
}

test("a script that slipped into the page does not run: the page's one policy allows no inline script but its own loader", async ({ pages, stack }) => {
  // The description above reaches the page as text (the test before). Should an escaping bug ever let it through as
  // markup, the policy is the second wall: the server's answer with its headers, the owner's text put in raw, as an
  // inline script and as an inline event handler. Neither may run, and the page's own loader still must.
  const proxy = await injectingProxy(
    new URL(stack.server.url),
    `<script>window.injected = 'script'; alert(1)</script><svg onload="window.injected = 'handler'; alert(2)"></svg>`,
  )
  try {
    const watched = await pages.watch()
    const { page } = watched
    // Chromium reports what the policy blocked as console errors: here they are the point.
    watched.allow(/Executing inline (script|event handler) violates the following Content Security Policy directive/)
    await page.addInitScript(() => {
      const seen: string[] = ((window as unknown as { violations: string[] }).violations = [])
      document.addEventListener('securitypolicyviolation', (event) => seen.push(event.effectiveDirective))
    })
    expect((await pages.load(watched, `http://attack.de:${proxy.port}/`))?.status()).toBe(200)
    // The text part: the renderer escaped the description.
    expect(proxy.seen.html).toContain('&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;')
    expect(proxy.seen.html).not.toContain('<script>alert(1)')
    expect(proxy.seen.csp).toMatch(/(^|;)script-src 'self' 'sha256-[^';]+'(;|$)/)
    // The page hydrated (pages.load turned to the form), so its loader ran; the injected script and handler did not
    // (Chromium may report the handler's more than once: which directives blocked something is what counts).
    await expect
      .poll(async () => [...new Set(await page.evaluate(() => (window as unknown as { violations: string[] }).violations))].sort())
      .toEqual(['script-src-attr', 'script-src-elem'])
    expect(await page.evaluate(() => (window as unknown as { injected?: string }).injected)).toBeUndefined()
    await pages.close(watched)
  } finally {
    await proxy.close()
  }
})
