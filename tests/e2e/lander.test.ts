// The page in a real Chromium, against the production server process and a real SMTP server. Nothing may go wrong in
// a page: no console errors or warnings, and no hydration mismatch (React reports text and structure as a console
// error; the fixture's pages.open compares attributes).
import type { Page } from 'playwright-core'
import { expect } from 'vitest'
import { axeViolations, browserTest, type Pages } from '../helpers/chromium.ts'
import { attributeMismatches, hydrate } from '../helpers/hydration.ts'
import type { ServerProcess } from '../helpers/server.ts'
import type { SmtpSink } from '../helpers/smtp.ts'

const test = browserTest()
let server: ServerProcess
let smtp: SmtpSink
test.beforeAll(({ stack }) => void ({ server, smtp } = stack))

const INVALID = 'Fehler. Bitte füllen Sie alle Felder aus.'
const SUCCESS = 'Anfrage erfolgreich versendet.'
const FAILED = 'Senden fehlgeschlagen. Bitte versuchen Sie es später erneut.'

/** The mail whose text contains `words`, once it has arrived (tests share one SMTP server, mails may overlap). */
async function mailWith(words: string) {
  await expect.poll(() => smtp.messages.some((mail) => mail.parsed.text?.includes(words)), { timeout: 15_000 }).toBe(true)
  return smtp.messages.find((mail) => mail.parsed.text?.includes(words))!
}

const urlFor = (host: string) => `http://${host}:${server.port}/`

async function fill(page: Page, values: { name: string; email: string; message: string }) {
  await field(page, 'Name').fill(values.name)
  await field(page, 'E-Mail').fill(values.email)
  await field(page, 'Nachricht').fill(values.message)
}

// By role, as assistive technology sees the form: the hidden decoys (also labelled Name and E-Mail) are not there.
const field = (page: Page, name: string) => page.getByRole('textbox', { name, exact: true })
const status = (page: Page) => page.getByRole('status')

test('the page shows the texts for the requested host, punycode in Unicode', async ({ pages }) => {
  const { page } = await pages.open('xn--mnchen-3ya.de')
  await expect.poll(() => page.getAttribute('html', 'lang')).toBe('de')
  expect(await page.title()).toBe('münchen.de steht zum Verkauf')
  expect(await page.locator('meta[name="description"]').getAttribute('content')).toContain('münchen.de')
  const texts = await page.locator('h2, h1, p.for-sale').allTextContents()
  expect(texts).toEqual(['Haben Sie Interesse an dieser Domain?', 'münchen.de', 'Die Domain münchen.de ist zu verkaufen.', 'Schreiben Sie uns eine Nachricht'])
  expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('münchen.de')
  expect(await page.locator('footer').innerHTML()).toBe('')
  expect(await page.getByRole('button', { name: 'Senden' }).getAttribute('value')).toBe('Senden')
  expect(await field(page, 'Nachricht').getAttribute('rows')).toBe('8')
  expect(await status(page).getAttribute('aria-live')).toBe('polite')
})

test('the decoys are invisible and a keyboard user tabs from Name to E-Mail to Nachricht to Senden', async ({ pages }) => {
  const { page } = await pages.open('example.de')
  for (const name of ['name58fnlsdbee', 'themail3h6bee']) {
    const decoy = page.locator(`input[name="${name}"]`)
    expect(await decoy.isVisible()).toBe(false)
    expect(await decoy.getAttribute('class')).toBe('ohnobee')
    expect(await decoy.getAttribute('tabindex')).toBe('10')
    expect(await decoy.getAttribute('autocomplete')).toBe('off')
  }
  await field(page, 'Name').focus()
  const order = [await page.evaluate(() => document.activeElement?.getAttribute('name'))]
  for (let i = 0; i < 3; i++) {
    await page.keyboard.press('Tab')
    order.push(await page.evaluate(() => document.activeElement?.getAttribute('name') ?? document.activeElement?.textContent ?? ''))
  }
  expect(order).toEqual(['name58fnlsd', 'themail3h6', 'message', 'Senden'])
  // Screen readers do not meet them either.
  const snapshot = await page.locator('form').ariaSnapshot()
  expect(snapshot.match(/textbox/g)).toHaveLength(3)
})

test('an empty submit shows the error, marks the fields and sends nothing', async ({ pages }) => {
  const { page } = await pages.open('example.de')
  const posts: string[] = []
  page.on('request', (request) => request.method() === 'POST' && posts.push(request.url()))
  await page.getByRole('button', { name: 'Senden' }).click()
  await expect.poll(() => status(page).textContent()).toBe(INVALID)
  expect(await field(page, 'Name').getAttribute('aria-invalid')).toBe('true')
  expect(await page.getByText('Bitte geben Sie eine gültige E-Mail-Adresse ein.').isVisible()).toBe(true)
  // The e-mail hint goes away as soon as the address is right.
  await field(page, 'E-Mail').fill('erika@example.de')
  await expect.poll(() => page.getByText('Bitte geben Sie eine gültige E-Mail-Adresse ein.').count()).toBe(0)
  expect(posts).toEqual([])
})

test('a valid message is confirmed, the form is emptied, and the owner gets the mail; a second one goes too', async ({ pages }) => {
  const { page } = await pages.open('xn--mnchen-3ya.de')
  const credentials = () => page.locator('input[type="hidden"]').evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value))
  const first = await credentials()
  await fill(page, { name: 'Erika Mustermann', email: 'erika@example.de', message: 'Was kostet münchen.de?' })
  const sent = page.waitForRequest((request) => request.url().endsWith('/api/contact'))
  const answered = page.waitForResponse((response) => response.url().endsWith('/api/contact'))
  await page.getByRole('button', { name: 'Senden' }).click()
  // The script posts JSON and asks for JSON back.
  const request = await sent
  expect(request.method()).toBe('POST')
  expect(request.headers()).toMatchObject({ 'content-type': 'application/json', accept: 'application/json' })
  expect(request.postDataJSON()).toMatchObject({ name58fnlsd: 'Erika Mustermann', themail3h6: 'erika@example.de', message: 'Was kostet münchen.de?' })
  await expect.poll(() => status(page).textContent()).toBe(SUCCESS)
  expect(await field(page, 'Name').inputValue()).toBe('')
  expect(await field(page, 'E-Mail').inputValue()).toBe('')
  expect(await field(page, 'Nachricht').inputValue()).toBe('')
  // The answer's token and hash replace the used ones. They are the current second's (decision 055), so they are
  // the page's own when the answer came within the second the page was served: compared with the answer, not the page.
  const answer = (await (await answered).json()) as { token: string; hash: string }
  expect(first).toHaveLength(2)
  expect(await credentials()).toEqual([answer.token, answer.hash])
  const mail = await mailWith('Was kostet münchen.de?')
  expect(mail.parsed.subject).toBe('Anfrage zu münchen.de')
  expect(mail.parsed.replyTo?.value[0]?.address).toBe('erika@example.de')

  await fill(page, { name: 'Erika Mustermann', email: 'erika@example.de', message: 'Und noch eine Frage.' })
  await page.getByRole('button', { name: 'Senden' }).click()
  await expect.poll(() => field(page, 'Nachricht').inputValue()).toBe('')
  expect(await status(page).textContent()).toBe(SUCCESS)
  expect((await mailWith('Und noch eine Frage.')).parsed.subject).toBe('Anfrage zu münchen.de')
})

test('a preview at NAME.TLD.localhost (LOCAL_PREVIEW) is the page of the name, hydrated, and its form sends for the name', async ({ pages }) => {
  const { page } = await pages.open('beispiel.de.localhost')
  expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('beispiel.de')
  await fill(page, { name: 'Erika Mustermann', email: 'erika@example.de', message: 'Vorschau vor dem DNS-Eintrag' })
  await page.getByRole('button', { name: 'Senden' }).click()
  await expect.poll(() => status(page).textContent()).toBe(SUCCESS)
  expect((await mailWith('Vorschau vor dem DNS-Eintrag')).parsed.subject).toBe('Anfrage zu beispiel.de')
})

test('a 500 answer keeps the input and says sending failed', async ({ pages }) => {
  const { page, allow } = await pages.open('example.de')
  // The browser reports the 500 itself; that one is expected.
  allow(/500/)
  await page.route('**/api/contact', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"x"}' }))
  await fill(page, { name: 'Erika', email: 'erika@example.de', message: 'Bitte nicht verlieren' })
  await page.getByRole('button', { name: 'Senden' }).click()
  await expect.poll(() => status(page).textContent()).toBe(FAILED)
  expect(await field(page, 'Nachricht').inputValue()).toBe('Bitte nicht verlieren')
  expect(await page.getByRole('button', { name: 'Senden' }).isEnabled()).toBe(true)
})

test('a network failure keeps the input and says sending failed', async ({ pages }) => {
  const { page, allow } = await pages.open('example.de')
  allow(/ERR_INTERNET_DISCONNECTED/)
  await page.route('**/api/contact', (route) => route.abort('internetdisconnected'))
  await fill(page, { name: 'Erika', email: 'erika@example.de', message: 'Offline geschrieben' })
  await page.getByRole('button', { name: 'Senden' }).click()
  await expect.poll(() => status(page).textContent()).toBe(FAILED)
  expect(await field(page, 'Name').inputValue()).toBe('Erika')
})

test('the button is disabled while the message is being sent', async ({ pages }) => {
  const { page } = await pages.open('example.de')
  let release!: () => void
  const held = new Promise<void>((resolve) => (release = resolve))
  await page.route('**/api/contact', async (route) => {
    await held
    await route.continue()
  })
  await fill(page, { name: 'Erika', email: 'erika@example.de', message: 'Geduld' })
  await page.getByRole('button', { name: 'Senden' }).click()
  await expect.poll(() => page.getByRole('button', { name: 'Senden' }).isDisabled()).toBe(true)
  release()
  await expect.poll(() => status(page).textContent()).toBe(SUCCESS)
  expect(await page.getByRole('button', { name: 'Senden' }).isEnabled()).toBe(true)
})

test('without JavaScript the form still delivers and shows the result', async ({ pages }) => {
  const { page } = await pages.open('example.de', { javaScriptEnabled: false })
  await fill(page, { name: 'Ohne Skript', email: 'noscript@example.de', message: 'Geht auch ohne JavaScript.' })
  await page.getByRole('button', { name: 'Senden' }).click()
  await page.waitForURL(/gesendet=1/)
  expect(await status(page).textContent()).toBe(SUCCESS)
  expect((await mailWith('Geht auch ohne JavaScript.')).parsed.replyTo?.value[0]?.address).toBe('noscript@example.de')
})

test('without JavaScript an invalid form comes back with the error and the input kept', async ({ pages }) => {
  const { page, allow } = await pages.open('example.de', { javaScriptEnabled: false })
  // The 400 of the page is reported by the browser; that one is expected.
  allow(/400/)
  await field(page, 'Name').fill('Ohne Skript')
  await field(page, 'E-Mail').fill('keine-adresse@')
  await field(page, 'Nachricht').fill('Text')
  // The browser's own check would stop this address; a visitor's older browser might not.
  await page.evaluate(() => document.querySelector('form')!.setAttribute('novalidate', ''))
  await page.getByRole('button', { name: 'Senden' }).click()
  await expect.poll(() => status(page).textContent()).toBe(INVALID)
  expect(await field(page, 'Name').inputValue()).toBe('Ohne Skript')
})

/** Opens the page that answers `form` posted without script (as the browser would get it before any script ran). */
async function openAnswerTo(pages: Pages, form: Record<string, string>) {
  const watched = await pages.watch()
  // The browser reports the page's own 400 or 403; those are expected.
  watched.allow(/\b(400|403)\b/)
  const url = `${urlFor('example.de')}api/contact`
  await watched.page.route(url, (route) =>
    route.continue({
      method: 'POST',
      headers: { ...route.request().headers(), 'content-type': 'application/x-www-form-urlencoded' },
      postData: new URLSearchParams({ name58fnlsdbee: '', themail3h6bee: '', ...form }).toString(),
    }),
  )
  await pages.load(watched, url)
  return watched.page
}

test('a page answering a form sent without script is taken over by the script as it is, input and error kept', async ({ pages }) => {
  // A form can be sent natively before the script has loaded; the page that answers it is then hydrated.
  const page = await openAnswerTo(pages, { name58fnlsd: 'Ohne Skript', themail3h6: 'keine-adresse@', message: 'Zeile eins\nZeile zwei', token: 'x', hash: 'y' })
  expect(await status(page).textContent()).toBe(INVALID)
  expect(await field(page, 'Name').inputValue()).toBe('Ohne Skript')
  expect(await field(page, 'Nachricht').inputValue()).toBe('Zeile eins\nZeile zwei')
  expect(await field(page, 'E-Mail').getAttribute('aria-invalid')).toBe('true')
  // The script's own check runs on the next change.
  await field(page, 'E-Mail').fill('erika@example.de')
  await expect.poll(() => field(page, 'E-Mail').getAttribute('aria-invalid')).toBe(null)
})

test('a page answering a form with a stale token is hydrated without a mismatch and says sending failed', async ({ pages }) => {
  const page = await openAnswerTo(pages, { name58fnlsd: 'Ohne Skript', themail3h6: 'erika@example.de', message: 'Alt', token: 'A'.repeat(15), hash: 'y' })
  expect(await status(page).textContent()).toBe('Das Formular ist abgelaufen oder ungültig. Bitte laden Sie die Seite neu.')
  expect(await field(page, 'Nachricht').inputValue()).toBe('Alt')
})

test('the success page after a form sent without script is hydrated without a mismatch', async ({ pages }) => {
  const watched = await pages.open('example.de')
  const { page } = watched
  await pages.load(watched, `${urlFor('example.de')}?gesendet=1`)
  expect(await status(page).textContent()).toBe(SUCCESS)
})

/** Opens the page without turning to the form; React's script is answered only when `release` is called. */
async function openHoldingReact(pages: Pages) {
  const { page } = await pages.watch()
  let release!: () => void
  const held = new Promise<void>((resolve) => (release = resolve))
  const asked: string[] = []
  await page.route('**/assets/client-*.js', async (route) => {
    asked.push(route.request().url())
    await held
    await route.continue()
  })
  await page.goto(urlFor('example.de'))
  return { page, release, asked }
}

const isHydrated = (page: Page) => page.evaluate(() => document.documentElement.dataset.hydrated === 'true')

test('the first load is the page alone: React is fetched when the visitor turns to the form', async ({ pages }) => {
  const watched = await pages.watch()
  const page = watched.page
  await page.goto(urlFor('example.de'))
  await page.waitForLoadState('networkidle')
  const origin = new URL(urlFor('example.de')).origin
  // The page and its icon; the loader is inside the page.
  expect(watched.requests.filter((url) => !url.startsWith(`${origin}/favicon.svg`))).toEqual([urlFor('example.de')])
  await field(page, 'E-Mail').focus()
  await page.waitForSelector('html[data-hydrated]', { state: 'attached' })
  expect(watched.requests.filter((url) => url.includes('/assets/client-'))).toHaveLength(1)
})

test('what a visitor typed before React arrived is kept by hydration and sent', async ({ pages }) => {
  const { page, release, asked } = await openHoldingReact(pages)
  await fill(page, { name: 'Frühe Eingabe', email: 'frueh@example.de', message: 'Getippt, bevor React da war.' })
  await expect.poll(() => asked.length).toBe(1)
  expect(await isHydrated(page)).toBe(false)
  release()
  await page.waitForSelector('html[data-hydrated]', { state: 'attached' })
  expect(await field(page, 'Name').inputValue()).toBe('Frühe Eingabe')
  expect(await field(page, 'Nachricht').inputValue()).toBe('Getippt, bevor React da war.')
  await page.getByRole('button', { name: 'Senden' }).click()
  await expect.poll(() => status(page).textContent()).toBe(SUCCESS)
  expect((await mailWith('Getippt, bevor React da war.')).parsed.replyTo?.value[0]?.address).toBe('frueh@example.de')
})

test('Senden on the empty form right after the page loaded shows what the hydrated form shows', async ({ pages }) => {
  const { page, release } = await openHoldingReact(pages)
  const posts: string[] = []
  page.on('request', (request) => request.method() === 'POST' && posts.push(request.url()))
  await page.getByRole('button', { name: 'Senden' }).click()
  // Held until React is there: no bubble from the browser, no post, no text yet.
  expect(await status(page).textContent()).toBe('')
  release()
  await expect.poll(() => status(page).textContent()).toBe(INVALID)
  expect(await field(page, 'Name').getAttribute('aria-invalid')).toBe('true')
  expect(await page.getByText('Bitte geben Sie eine gültige E-Mail-Adresse ein.').isVisible()).toBe(true)
  expect(posts).toEqual([])
})

test('Senden on the empty form immediately after load, without waiting for anything, shows the same error', async ({ pages }) => {
  const watched = await pages.watch()
  const page = watched.page
  await page.goto(urlFor('example.de'))
  await page.getByRole('button', { name: 'Senden' }).click()
  await expect.poll(() => status(page).textContent()).toBe(INVALID)
  expect(await field(page, 'Name').getAttribute('aria-invalid')).toBe('true')
})

test('a filled form sent before React arrived is sent once, by the script, and confirmed', async ({ pages }) => {
  const watched = await pages.watch()
  const page = watched.page
  await page.goto(urlFor('example.de'))
  // Filled by the browser's autofill, say: no focus, so nothing has loaded React yet.
  await page.evaluate(() => {
    const set = (name: string, value: string) => ((document.querySelector(`[name="${name}"]`) as HTMLInputElement).value = value)
    set('name58fnlsd', 'Schnell')
    set('themail3h6', 'schnell@example.de')
    set('message', 'Sofort nach dem Laden gesendet.')
  })
  const posts: string[] = []
  page.on('request', (request) => request.method() === 'POST' && posts.push(request.headers()['content-type'] ?? ''))
  await page.getByRole('button', { name: 'Senden' }).click()
  await expect.poll(() => status(page).textContent()).toBe(SUCCESS)
  expect(posts).toEqual(['application/json'])
  expect(await field(page, 'Nachricht').inputValue()).toBe('')
  await mailWith('Sofort nach dem Laden gesendet.')
})

test('a filled form sent while React is still on its way is held, then sent once and confirmed', async ({ pages }) => {
  const { page, release } = await openHoldingReact(pages)
  await fill(page, { name: 'Geduldig', email: 'geduldig@example.de', message: 'Gehalten und dann gesendet.' })
  const posts: string[] = []
  page.on('request', (request) => request.method() === 'POST' && posts.push(request.url()))
  await page.getByRole('button', { name: 'Senden' }).click()
  expect(posts).toEqual([])
  release()
  await expect.poll(() => status(page).textContent()).toBe(SUCCESS)
  expect(posts).toHaveLength(1)
  await mailWith('Gehalten und dann gesendet.')
})

test('when React cannot be loaded, Senden sends the form as it does without script', async ({ pages }) => {
  const watched = await pages.watch()
  const page = watched.page
  // The failed script request is what this test is about.
  watched.allow(/ERR_FAILED/, /dynamically imported module/)
  await page.route('**/assets/client-*.js', (route) => route.abort('failed'))
  await page.goto(urlFor('example.de'))
  await fill(page, { name: 'Ohne React', email: 'ohne-react@example.de', message: 'React kam nicht an.' })
  await page.getByRole('button', { name: 'Senden' }).click()
  await page.waitForURL(/gesendet=1/)
  expect(await status(page).textContent()).toBe(SUCCESS)
  await mailWith('React kam nicht an.')
})

test('loading the page and sending a message request nothing from any other host', async ({ pages }) => {
  const watched = await pages.open('example.de')
  const { page } = watched
  await fill(page, { name: 'Erika', email: 'erika@example.de', message: 'Nur hierher.' })
  await page.getByRole('button', { name: 'Senden' }).click()
  await expect.poll(() => status(page).textContent()).toBe(SUCCESS)
  await page.waitForLoadState('networkidle')
  const origin = new URL(urlFor('example.de')).origin
  expect(watched.requests).toContain(`${origin}/api/contact`)
  expect(watched.requests.filter((url) => new URL(url).origin !== origin)).toEqual([])
})

/** Opens the page with the props the script hydrates with edited before it runs, so they differ from the server's. */
async function openWithEditedProps(pages: Pages, from: string, to: string) {
  // An init script runs outside the page's CSP and edits the props once the parser has gone past them.
  const watched = await pages.watch()
  await watched.page.addInitScript(
    ([before, after]) => {
      new MutationObserver((_, observer) => {
        const props = document.getElementById('page-props')
        if (!props?.nextSibling) return
        props.textContent = props.textContent!.replace(before!, after!)
        observer.disconnect()
      }).observe(document, { childList: true, subtree: true })
    },
    [from, to],
  )
  const response = await watched.page.goto(urlFor('example.de'))
  await hydrate(watched.page)
  return { watched, response }
}

test('a text the script renders differently from the server is reported by React as a hydration error', async ({ pages }) => {
  // The checks of pages.open are only worth something if they see a mismatch.
  const { watched } = await openWithEditedProps(pages, '"host":"example.de"', '"host":"example.com"')
  const problems = watched.problems.splice(0)
  expect(problems.some((p) => p.startsWith('console error: hydration error:') && p.includes('418'))).toBe(true)
})

test('an attribute the script renders differently from the server is reported by the attribute check', async ({ pages }) => {
  const { watched, response } = await openWithEditedProps(pages, '"token":"', '"token":"x')
  const mismatches = await attributeMismatches(watched.page, response)
  expect(mismatches).toHaveLength(1)
  expect(mismatches[0]).toMatch(/^hydration mismatch: #app > .* > input: attribute value "[^"]+" became "x[^"]+"$/)
})

test.for(['light', 'dark'] as const)(
  'axe finds no accessibility violations in the %s colour scheme, also with errors shown',
  async (colorScheme, { pages }) => {
    const { page } = await pages.open('example.de', { colorScheme })
    expect(await axeViolations(page)).toEqual([])
    await page.getByRole('button', { name: 'Senden' }).click()
    await expect.poll(() => status(page).textContent()).toBe(INVALID)
    expect(await axeViolations(page)).toEqual([])
  },
)

test('at 320 px the page fits without sideways scrolling', async ({ pages }) => {
  const { page } = await pages.open('ein-sehr-langer-domainname-der-nicht-passt.de', { viewport: { width: 320, height: 640 } })
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320)
})
