// Price terms, the buy button, "So läuft der Kauf ab" and the icon per name, answered by the app in process: the
// page's HTML for every priceType and vat, where the buy button and the steps show, what "on request" keeps out of
// the page, its JSON-LD and the DNS records, and the buyUrl values a domains file may not have.
import fs from 'node:fs'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { TEXT } from '../../src/shared/texts.ts'
import { buildTestApp, tempDataDir, type InProcessApp } from '../helpers/app.ts'
import { runCli } from '../helpers/cli.ts'
import { removeTestFiles, writeTestFile } from '../helpers/domains.ts'
import { startServerProcess } from '../helpers/server.ts'

const PRICE_TYPES = [undefined, 'fixed', 'negotiable', 'on-request'] as const
const VATS = [undefined, 'included', 'excluded', 'none'] as const
/** One name per combination: "fixed-included.de", "unset-unset.de" … */
const nameOf = (priceType: string | undefined, vat: string | undefined) => `${priceType ?? 'unset'}-${vat ?? 'unset'}.de`
const COMBINATIONS = PRICE_TYPES.flatMap((priceType) => VATS.map((vat) => ({ priceType, vat, name: nameOf(priceType, vat) })))

const BUY_URL = 'https://escrow.example/kaufen?domain=kaufen.de&lang=de#angebot'
const DOMAINS = `
unknownHosts: not-found
domains:
${COMBINATIONS.map(({ priceType, vat, name }) => `  ${name}: { price: 4900${priceType ? `, priceType: ${priceType}` : ''}${vat ? `, vat: ${vat}` : ''} }`).join('\n')}
  dollar.de: { price: 12000, currency: USD, priceType: negotiable, vat: excluded }
  kaufen.de: { price: 4900, priceType: fixed, buyUrl: "${BUY_URL}" }
  reserviert.de: { price: 4900, status: reserved, buyUrl: "${BUY_URL}" }
  verkauft.de: { price: 4900, status: sold, buyUrl: "${BUY_URL}", description: Kurz und gut. }
  ohne-preis.de: { buyUrl: "${BUY_URL}", description: Nur ein Link. }
  eigene-schritte.de: { price: 100, howToBuy: "Erst dies.\\nDann das." }
  ein-satz.de: { price: 100, howToBuy: "Wir schicken Ihnen einen Vertrag." }
  keine-schritte.de: { price: 100, howToBuy: "" }
  anfrage.de: { price: 4900, priceType: on-request, vat: included, description: Fragen Sie uns. }
`

let server: InProcessApp
let file: string
/** The CLI's DATA_DIR (`dns` opens no store). */
let cliDir: string
beforeAll(async () => {
  file = writeTestFile(DOMAINS)
  cliDir = tempDataDir()
  server = await buildTestApp({ DOMAINS_FILE: file })
})
afterAll(async () => {
  await server?.close()
  removeTestFiles()
  fs.rmSync(cliDir, { recursive: true, force: true })
})

const getPage = (url: string, host: string) => server.requestAs(host, `${url}/`)
const requestAs: InProcessApp['requestAs'] = (...args) => server.requestAs(...args)

/** The text of the first element with this class, tags and React's text separators taken out. */
function textOf(html: string, className: string): string | undefined {
  const element = new RegExp(`<(\\w+) class="${className}"[^>]*>([\\s\\S]*?)</\\1>`).exec(html)
  return element?.[2]!.replace(/<!-- -->/g, '').replace(/<[^>]*>/g, '')
}
const jsonLdOf = (html: string) => JSON.parse(/<script type="application\/ld\+json">([^<]*)<\/script>/.exec(html)![1]!) as { offers: Record<string, unknown> }
const AMOUNT = '4.900\u00a0€'

describe('price terms on the page', () => {
  test.each(COMBINATIONS)('priceType $priceType, vat $vat', async ({ priceType, vat, name }) => {
    const { status, html } = await getPage(server.url, name)
    expect(status).toBe(200)
    const price =
      priceType === 'on-request'
        ? TEXT.priceOnRequest
        : priceType === 'fixed'
          ? `${TEXT.priceFixed} ${AMOUNT}`
          : priceType === 'negotiable'
            ? `${TEXT.priceNegotiable} ${AMOUNT}`
            : `Preis: ${AMOUNT}`
    expect(textOf(html, 'price')).toBe(price)
    const vatText = priceType === 'on-request' ? undefined : vat === 'included' ? TEXT.vatIncluded : vat === 'excluded' ? TEXT.vatExcluded : undefined
    expect(textOf(html, 'vat')).toBe(vatText)
    if (priceType === 'on-request') {
      // Nowhere: not in the markup, the props for hydration, the JSON-LD or the head's tags.
      expect(html).not.toMatch(/4\.?900/)
      expect(jsonLdOf(html).offers).not.toHaveProperty('price')
      expect(jsonLdOf(html).offers).not.toHaveProperty('priceCurrency')
    } else {
      expect(jsonLdOf(html).offers).toMatchObject({ price: 4900, priceCurrency: 'EUR' })
    }
  })

  test('without priceType and vat the price is shown exactly as before', async () => {
    expect((await getPage(server.url, 'unset-unset.de')).html).toContain(`<p class="price">Preis: ${AMOUNT}</p>`)
  })

  test('the amount is in the domain’s currency, the German way', async () => {
    const { html } = await getPage(server.url, 'dollar.de')
    expect(textOf(html, 'price')).toBe(`${TEXT.priceNegotiable} 12.000\u00a0$`)
    expect(textOf(html, 'vat')).toBe(TEXT.vatExcluded)
  })
})

describe('the buy button', () => {
  test('links to the file’s URL exactly, in the same tab, with nothing added', async () => {
    const { html } = await getPage(server.url, 'kaufen.de')
    const links = [...html.matchAll(/<a class="buy"([^>]*)>([^<]*)<\/a>/g)]
    expect(links).toHaveLength(1)
    const [, attributes, label] = links[0]!
    expect(label).toBe(TEXT.buyNow)
    expect(attributes).toBe(` href="${BUY_URL.replaceAll('&', '&amp;')}"`)
    expect(textOf(html, 'buy-via')).toBe('Kaufabwicklung über escrow.example')
  })

  test('is left out for a reserved and a sold name, whose pages do not carry the URL at all', async () => {
    for (const name of ['reserviert.de', 'verkauft.de']) {
      const { html } = await getPage(server.url, name)
      expect(html, name).not.toContain('class="buy"')
      expect(html, name).not.toContain('escrow.example')
    }
  })

  test('shows for a name without a price, and not for names without a buyUrl but at a fixed price', async () => {
    expect((await getPage(server.url, 'ohne-preis.de')).html).toContain('class="buy"')
    expect((await getPage(server.url, 'negotiable-unset.de')).html).not.toContain('class="buy"')
    expect((await getPage(server.url, 'unset-unset.de')).html).not.toContain('class="buy"')
  })

  test('at a fixed price without a buyUrl leads to the checkout on this host (decision 035)', async () => {
    const { html } = await getPage(server.url, 'fixed-unset.de')
    expect(html).toContain('<a class="buy" href="/kaufen">Jetzt kaufen</a>')
    expect(html).not.toContain('class="buy-via"')
  })

  test('nothing of the page’s address goes with it but the origin: the Referrer-Policy', async () => {
    const { headers } = await getPage(server.url, 'kaufen.de')
    expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin')
  })
})

describe('So läuft der Kauf ab', () => {
  const stepsOf = (html: string) => {
    const block = /<section class="how-to-buy"[^>]*>([\s\S]*?)<\/section>/.exec(html)?.[1]
    return block === undefined
      ? undefined
      : { heading: /<h2[^>]*>([^<]*)<\/h2>/.exec(block)?.[1], items: [...block.matchAll(/<(?:li|p)>([^<]*)<\/(?:li|p)>/g)].map((m) => m[1]) }
  }

  test('the standard steps, numbered, on a page with a price, also one on request', async () => {
    for (const name of ['unset-unset.de', 'anfrage.de', 'reserviert.de']) {
      const steps = stepsOf((await getPage(server.url, name)).html)
      expect(steps, name).toEqual({ heading: TEXT.howToBuyTitle, items: TEXT.howToBuy.split('\n') })
    }
    expect((await getPage(server.url, 'unset-unset.de')).html).toMatch(/<section class="how-to-buy"[^>]*><h2[^>]*>[^<]*<\/h2><ol>/)
  })

  test('the owner’s own text, one step a line; one line is a paragraph; an empty one leaves the block out', async () => {
    expect(stepsOf((await getPage(server.url, 'eigene-schritte.de')).html)?.items).toEqual(['Erst dies.', 'Dann das.'])
    const single = (await getPage(server.url, 'ein-satz.de')).html
    expect(stepsOf(single)?.items).toEqual(['Wir schicken Ihnen einen Vertrag.'])
    expect(single).not.toMatch(/<section class="how-to-buy"[\s\S]*<ol>/)
    expect(stepsOf((await getPage(server.url, 'keine-schritte.de')).html)).toBeUndefined()
  })

  test('not without a price, and not for a sold name, which shows no price either', async () => {
    expect(stepsOf((await getPage(server.url, 'ohne-preis.de')).html)).toBeUndefined()
    const sold = (await getPage(server.url, 'verkauft.de')).html
    expect(stepsOf(sold)).toBeUndefined()
    expect(textOf(sold, 'price')).toBeUndefined()
    expect(textOf(sold, 'description')).toBe('Kurz und gut.')
    expect(textOf(sold, 'sale-status')).toBe(TEXT.sold)
    // Not "ist zu verkaufen" beside "wurde verkauft".
    expect(textOf(sold, 'for-sale')).toBeUndefined()
    expect(textOf((await getPage(server.url, 'reserviert.de')).html, 'for-sale')).toBe(TEXT.forSale('reserviert.de'))
  })
})

describe('a price on request', () => {
  test('is not in the page’s JSON-LD, and the DNS records carry no fval, though the file has a price', async () => {
    const { html } = await getPage(server.url, 'anfrage.de')
    expect(jsonLdOf(html).offers).toEqual({ '@type': 'Offer', url: 'https://anfrage.de/', availability: 'https://schema.org/InStock' })
    const printed = await runCli(cliDir, { DOMAINS_FILE: file }, 'dns', '--domain', 'anfrage.de', '--format', 'json')
    expect(printed.code).toBe(0)
    expect(printed.out).toContain('furi=https://anfrage.de/')
    expect(printed.out).not.toContain('fval')
    expect(printed.out).not.toContain('4900')
    const priced = await runCli(cliDir, { DOMAINS_FILE: file }, 'dns', '--domain', 'fixed-unset.de', '--format', 'json')
    expect(priced.out).toContain('fval=EUR4900')
  })
})

describe('the icon of each page', () => {
  test('is the first letter of the host’s name, kept for a day; hosts without a page get a neutral one', async () => {
    const icon = await requestAs('kaufen.de', `${server.url}/favicon.svg`)
    expect(icon.status).toBe(200)
    expect(icon.headers['content-type']).toBe('image/svg+xml')
    expect(icon.headers['cache-control']).toBe('public, max-age=86400')
    expect(icon.html).toMatch(/<text [^>]*>K<\/text><\/svg>$/)
    expect((await requestAs('verkauft.de', `${server.url}/favicon.svg`)).html).toMatch(/>V<\/text>/)
    const neutral = await requestAs('nicht-gelistet.de', `${server.url}/favicon.svg`)
    expect(neutral.status).toBe(200)
    expect(neutral.html).toMatch(/^<svg [^>]*>/)
    expect(neutral.html).not.toContain('<text')
  })

  test('the page links it', async () => {
    expect((await getPage(server.url, 'kaufen.de')).html).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml" />')
  })
})

describe('a buyUrl the file may not have', () => {
  test.each(['http://escrow.example/kaufen', 'javascript:alert(document.cookie)'])('%s stops the start, naming the key', async (buyUrl) => {
    const broken = writeTestFile(`domains:\n  example.de:\n    buyUrl: "${buyUrl}"\n`)
    await expect(startServerProcess({ DOMAINS_FILE: broken })).rejects.toThrow(/domains\.example\.de\.buyUrl: must be an https:\/\/ address/)
  })
})
