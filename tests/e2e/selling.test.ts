// A page that sells, in a real Chromium against the production server process, light and dark: the domain name at
// 320 px (one line when short, never broken inside a label when long), the price and the call to action within the
// first 640 px of a 360x640 phone, "Jetzt kaufen" to a real HTTPS checkout on loopback, axe, and no console or
// hydration error on the way.
import type { BrowserContextOptions, Page } from 'playwright-core'
import { afterAll, describe, expect } from 'vitest'
import { axeViolations, browserTest, type Pages } from '../helpers/chromium.ts'
import { startReceiver, type Receiver } from '../helpers/receiver.ts'

const SCHEMES = ['light', 'dark'] as const
const LABEL_63 = `${'abcdefghij'.repeat(6)}xyz`
const SHORT_NAMES = ['a.de', 'kaufen.de', 'münchen.de', 'xn--pple-43d.com']
const LONG_NAMES = [
  `${LABEL_63}.de`,
  `shop.${LABEL_63}.com`,
  'größenwahn-ist-auch-eine-schöne-sache-am-bodensee.de',
  'ferienwohnungen-und-pensionen-im-schwarzwald.de',
]

let checkout: Receiver
let buyUrl: string
const test = browserTest({
  // The checkout "Jetzt kaufen" leads to runs before the server: its address is in the domains file.
  domains: async () => {
    checkout = await startReceiver({ tlsName: 'checkout.example' })
    checkout.answer = () => ({ status: 200, body: '<!doctype html><title>Kasse</title><p>Kasse</p>', headers: { 'content-type': 'text/html; charset=utf-8' } })
    buyUrl = `https://checkout.example:${new URL(checkout.url).port}/kaufen?domain=kaufen.de&ref=owner#angebot`
    return `domains:
  kaufen.de:
    price: 4900
    priceType: negotiable
    vat: included
    buyUrl: "${buyUrl}"
    description: Kurz, einprägsam, seit 2004 registriert, für Ferienwohnungen, Pensionen und Hofcafés.
  preis.de:
    price: 12000
    priceType: fixed
    vat: excluded
    minOffer: 9000
    description: Kurz, einprägsam, seit 2004 registriert, für Ferienwohnungen, Pensionen und Hofcafés.
  verhandelbar.de:
    price: 12000
    priceType: negotiable
    vat: excluded
    minOffer: 9000
    description: Kurz, einprägsam, seit 2004 registriert, für Ferienwohnungen, Pensionen und Hofcafés.
  anfrage.de:
    price: 4900
    priceType: on-request
  reserviert.de:
    price: 4900
    status: reserved
    buyUrl: "${buyUrl}"
`
  },
})
afterAll(() => checkout?.close())

/** `host`'s page in a fresh context: hydrated if it has a form, its attributes as the server sent them. */
const visit = async (pages: Pages, host: string, options: BrowserContextOptions): Promise<Page> => (await pages.open(host, options)).page

/** Every character of the title with the line it is drawn on, and whether anything sticks out of the screen. */
function titleLayout(page: Page) {
  return page.evaluate(() => {
    const title = document.querySelector('h1')!
    const range = document.createRange()
    const chars: { char: string; top: number; right: number }[] = []
    const walker = document.createTreeWalker(title, NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
      for (let i = 0; i < node.data.length; i++) {
        range.setStart(node, i)
        range.setEnd(node, i + 1)
        const rect = range.getBoundingClientRect()
        chars.push({ char: node.data[i]!, top: Math.round(rect.top), right: rect.right })
      }
    }
    const viewport = document.documentElement.clientWidth
    return { chars, viewport, scrolls: document.documentElement.scrollWidth > viewport, fontSize: parseFloat(getComputedStyle(title).fontSize) }
  })
}

describe('the domain name at 320 px', () => {
  test.for(SCHEMES)('a short name stays on one line, large (%s)', async (colorScheme, { pages }) => {
    for (const name of SHORT_NAMES) {
      const { chars, viewport, scrolls, fontSize } = await titleLayout(await visit(pages, name, { viewport: { width: 320, height: 640 }, colorScheme }))
      expect(new Set(chars.map((c) => c.top)).size, name).toBe(1)
      expect(Math.max(...chars.map((c) => c.right)), name).toBeLessThanOrEqual(viewport)
      expect(scrolls, name).toBe(false)
      expect(fontSize, name).toBeGreaterThanOrEqual(24)
    }
  })

  test.for(SCHEMES)('a long name wraps only after a dot or hyphen, and never sticks out (%s)', async (colorScheme, { pages }) => {
    for (const name of LONG_NAMES) {
      const { chars, viewport, scrolls } = await titleLayout(await visit(pages, name, { viewport: { width: 320, height: 640 }, colorScheme }))
      const breaksAfter = chars.flatMap((c, i) => (i + 1 < chars.length && chars[i + 1]!.top > c.top ? [c.char] : []))
      expect(
        breaksAfter.every((char) => char === '.' || char === '-'),
        `${name} breaks after ${breaksAfter.join(' ')}`,
      ).toBe(true)
      expect(Math.max(...chars.map((c) => c.right)), name).toBeLessThanOrEqual(viewport)
      expect(scrolls, name).toBe(false)
    }
  })

  test('the 63-character label is on one line of its own, and the IDN name is shown in Unicode', async ({ pages }) => {
    const page = await visit(pages, `${LABEL_63}.de`, { viewport: { width: 320, height: 640 } })
    const { chars } = await titleLayout(page)
    expect(new Set(chars.slice(0, 63).map((c) => c.top)).size).toBe(1)
    const idn = await visit(pages, 'größenwahn-ist-auch-eine-schöne-sache-am-bodensee.de', { viewport: { width: 320, height: 640 } })
    expect(await idn.getByRole('heading', { level: 1 }).textContent()).toBe('größenwahn-ist-auch-eine-schöne-sache-am-bodensee.de')
  })
})

describe('a phone of 360x640', () => {
  const withinFold = async (page: Page, what: string, locator: ReturnType<Page['locator']>) => {
    const box = await locator.boundingBox()
    expect(box, what).not.toBeNull()
    expect(box!.y + box!.height, what).toBeLessThanOrEqual(640)
  }

  test.for(SCHEMES)('shows the price and "Jetzt kaufen" without scrolling (%s)', async (colorScheme, { pages }) => {
    const page = await visit(pages, 'kaufen.de', { viewport: { width: 360, height: 640 }, colorScheme })
    await withinFold(page, 'price', page.locator('.price'))
    await withinFold(page, 'VAT', page.locator('.vat'))
    await withinFold(page, 'buy button', page.getByRole('link', { name: 'Jetzt kaufen' }))
  })

  // A fixed price without buyUrl is bought on this host (decision 035): its button leads to the checkout here.
  test.for(SCHEMES)(
    'at a fixed price, shows the price and "Jetzt kaufen" to the checkout on this host without scrolling (%s)',
    async (colorScheme, { pages }) => {
      const page = await visit(pages, 'preis.de', { viewport: { width: 360, height: 640 }, colorScheme })
      await withinFold(page, 'price', page.locator('.price'))
      await withinFold(page, 'buy button', page.getByRole('link', { name: 'Jetzt kaufen' }))
      expect(await page.getByRole('link', { name: 'Jetzt kaufen' }).getAttribute('href')).toBe('/kaufen')
    },
  )

  test.for(SCHEMES)('without a buy button, shows the price and the form’s first field without scrolling (%s)', async (colorScheme, { pages }) => {
    const page = await visit(pages, 'verhandelbar.de', { viewport: { width: 360, height: 640 }, colorScheme })
    expect(await page.getByRole('link', { name: 'Jetzt kaufen' }).count()).toBe(0)
    await withinFold(page, 'price', page.locator('.price'))
    await withinFold(page, 'name field', page.getByRole('textbox', { name: 'Name' }))
  })
})

describe('Jetzt kaufen', () => {
  test('goes to the exact URL in the same tab, and the checkout learns only the page’s origin', async ({ pages, stack: { server } }) => {
    const page = await visit(pages, 'kaufen.de', { viewport: { width: 1280, height: 800 }, ignoreHTTPSErrors: true })
    const link = page.getByRole('link', { name: 'Jetzt kaufen' })
    expect(await link.getAttribute('target')).toBeNull()
    await link.click()
    await page.waitForURL(buyUrl)
    expect(page.url()).toBe(buyUrl)
    expect(page.context().pages()).toHaveLength(1)
    const [arrived] = await checkout.waitFor(1, (request) => request.url.startsWith('/kaufen'))
    // Path and query exactly as in the domains file: no parameter added (the fragment stays in the browser).
    expect(arrived!.url).toBe('/kaufen?domain=kaufen.de&ref=owner')
    expect(arrived!.headers.referer).toBe(`http://kaufen.de:${server.port}/`)
    expect(await page.getByText('Kasse').isVisible()).toBe(true)
  })

  test('a reserved name has no buy button, but its form', async ({ pages }) => {
    const page = await visit(pages, 'reserviert.de', { viewport: { width: 360, height: 640 } })
    expect(await page.getByRole('link', { name: 'Jetzt kaufen' }).count()).toBe(0)
    expect(await page.getByRole('textbox', { name: 'Name' }).isVisible()).toBe(true)
  })
})

describe('accessibility', () => {
  // One test per page: six pages and their axe runs in one test took 25-31 s beside the whole suite.
  const AXE_PAGES = SCHEMES.flatMap((colorScheme) =>
    [360, 1280].flatMap((width) => ['kaufen.de', 'anfrage.de', `${LABEL_63}.de`].map((host) => [host, width, colorScheme] as const)),
  )
  test.for(AXE_PAGES)(
    'price terms, buy button and the steps of a purchase break no axe rule: %s at %i px (%s)',
    async ([host, width, colorScheme], { pages }) => {
      const page = await visit(pages, host, { viewport: { width, height: 800 }, colorScheme })
      expect(await axeViolations(page)).toEqual([])
    },
  )

  test('the desktop sets the price beside the form, the phone above it', async ({ pages }) => {
    const desktop = await visit(pages, 'kaufen.de', { viewport: { width: 1280, height: 800 } })
    const [form, offer] = await Promise.all([desktop.locator('.card').boundingBox(), desktop.locator('.offer').boundingBox()])
    expect(offer!.x).toBeGreaterThan(form!.x + form!.width)
    expect(Math.abs(offer!.y - form!.y)).toBeLessThan(2)
    const phone = await visit(pages, 'kaufen.de', { viewport: { width: 360, height: 640 } })
    const [phoneForm, phoneOffer] = await Promise.all([phone.locator('.card').boundingBox(), phone.locator('.offer').boundingBox()])
    expect(phoneOffer!.y + phoneOffer!.height).toBeLessThanOrEqual(phoneForm!.y)
  })
})
