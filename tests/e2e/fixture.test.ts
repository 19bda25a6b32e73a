// The browser tests' fixture (browserTest in tests/helpers/chromium.ts) tried on itself: a page in which something
// went wrong fails the test that opened it when that test ends, though the test's own assertions passed; an
// allowance lets through what it names and nothing else. Each test.fails notes what it failed with; the last test
// reads those notes, so that none of them passes by failing for another reason.
import type { Page } from 'playwright-core'
import { expect, type TestContext } from 'vitest'
import { browserTest } from '../helpers/chromium.ts'

const test = browserTest()

/** What each test.fails below failed with, by a short name: the problems the check at its end found (and nothing else). */
const failures = new Map<string, unknown[]>()
function noteFailure(onTestFailed: TestContext['onTestFailed'], name: string) {
  onTestFailed(
    ({ task }) =>
      void failures.set(
        name,
        (task.result?.errors ?? []).map((error) => error.actual),
      ),
  )
}

/** How the check reports problems it found: the list it expected to be empty. */
const found = (...problems: string[]) => [`[\n${problems.map((problem) => `  ${JSON.stringify(problem)},\n`).join('')}]`]

const throwLater = (page: Page, message: string) =>
  page.evaluate((text) => {
    // The wait is the subject: thrown after evaluate has returned, the error is the page's own (not evaluate's).
    setTimeout(() => {
      throw new Error(text)
    })
  }, message)

test.fails('a console error in the page fails the test when it ends', async ({ pages, onTestFailed }) => {
  noteFailure(onTestFailed, 'console error')
  const { page } = await pages.open('example.de')
  await page.evaluate(() => console.error('Absichtlicher Konsolenfehler'))
  expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('example.de')
})

test.fails('a page error in the second of two pages fails the test, though that page was closed before', async ({ pages, onTestFailed }) => {
  noteFailure(onTestFailed, 'page error')
  await pages.open('example.de')
  const second = await pages.open('zweite.de')
  await throwLater(second.page, 'Absichtlich geworfen')
  await expect.poll(() => second.problems.length).toBe(1)
  await pages.close(second)
})

test.fails('a dialog fails the test', async ({ pages, onTestFailed }) => {
  noteFailure(onTestFailed, 'dialog')
  const watched = await pages.open('example.de')
  // The wait is the subject: opened after evaluate has returned, the dialog is the page's own (as one a visitor's text made run).
  await watched.page.evaluate(() => setTimeout(() => alert('Absichtlicher Dialog')))
  await expect.poll(() => watched.problems.length).toBe(1)
})

test.fails('an allowance lets through what it names and nothing else', async ({ pages, onTestFailed }) => {
  noteFailure(onTestFailed, 'allowance')
  const watched = await pages.open('example.de')
  watched.allow(/Erlaubter Fehler/)
  await watched.page.evaluate(() => {
    console.error('Erlaubter Fehler')
    console.warn('Nicht erlaubte Warnung')
  })
  await expect.poll(() => watched.problems.length).toBe(2)
})

test('a problem the test allowed passes', async ({ pages }) => {
  const watched = await pages.open('example.de')
  // As a test that provokes a failed request on purpose says so.
  watched.allow(/Erlaubter Fehler/)
  await watched.page.evaluate(() => console.error('Erlaubter Fehler'))
  await expect.poll(() => watched.problems.length).toBe(1)
})

let kept: Page
test.fails('a page kept for the whole file fails the test in which something went wrong in it', async ({ filePages, onTestFailed }) => {
  noteFailure(onTestFailed, 'kept page')
  kept = (await filePages.open('example.de')).page
  await kept.evaluate(() => console.warn('Absichtliche Warnung'))
})

test('the kept page is still open in the next test, and its problem counted once', async () => {
  expect(await kept.getByRole('heading', { level: 1 }).textContent()).toBe('example.de')
})

test('each test above failed with the problem it caused, from the check at its end', () => {
  expect(Object.fromEntries(failures)).toEqual({
    'console error': found('console error: Absichtlicher Konsolenfehler'),
    'page error': found('page error: Absichtlich geworfen'),
    dialog: found('a dialog opened: Absichtlicher Dialog'),
    allowance: found('console warning: Nicht erlaubte Warnung'),
    'kept page': found('console warning: Absichtliche Warnung'),
  })
})
