// The run's one headless Chromium (started by the global setup: tests/helpers/chromium-server.ts), connected to once
// per test file, and a fresh browser context for every page a test opens. A browser test file takes its `test` from
// browserTest(): the server, the SMTP server and the connection for the file, and pages that fail the test they were
// opened in when anything went wrong in them. Per file and not per worker: vitest runs each file in a process of its
// own (isolate), which ends with the file, so nothing at module level outlives it. The connection is made beside the
// servers' start.
import fs from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { chromium, type Browser, type BrowserContextOptions, type Page, type Response } from 'playwright-core'
import { test as baseTest, expect, inject } from 'vitest'
import { attributeMismatches, hydrate } from './hydration.ts'
import { startServerProcess, type ServerProcess } from './server.ts'
import { startSmtpSink, type SmtpSink } from './smtp.ts'
import './chromium-server.ts'

async function connectChromium(): Promise<Browser> {
  const endpoint = inject('chromium')
  if (endpoint.startsWith('error: ')) throw new Error(`Chromium could not be started for the browser tests: ${endpoint.slice(7)}`)
  return chromium.connect(endpoint)
}

export interface WatchedPage {
  page: Page
  /**
   * Console errors and warnings (among them the requests Chromium failed to load), page errors, dialogs and hydration
   * mismatches: the test fails if one is left when it ends, unless allowed.
   */
  problems: string[]
  /** Every URL the page requested. */
  requests: string[]
  /** Lets the problems that match `patterns` pass: the ones a test provokes on purpose, and says so beside the call. */
  allow(...patterns: RegExp[]): void
}

/** A fresh context and page that record everything that goes wrong, so a test can insist nothing did. */
async function openPage(browser: Browser, options: BrowserContextOptions = {}): Promise<WatchedPage & { allowed: RegExp[] }> {
  const context = await browser.newContext(options)
  const page = await context.newPage()
  const problems: string[] = []
  const requests: string[] = []
  const allowed: RegExp[] = []
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`console ${message.type()}: ${message.text()}`)
  })
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
  // Neither the page nor the console opens a dialog: one is what a visitor's text made run (alert(1)).
  page.on('dialog', (dialog) => {
    problems.push(`a dialog opened: ${dialog.message()}`)
    void dialog.dismiss()
  })
  page.on('request', (request) => requests.push(request.url()))
  return { page, problems, requests, allowed, allow: (...patterns) => allowed.push(...patterns) }
}

/** Takes the page's problems that no allowance covers, leaving it with none. */
function takeProblems(watched: WatchedPage & { allowed: RegExp[] }): string[] {
  return watched.problems.splice(0).filter((problem) => !watched.allowed.some((pattern) => pattern.test(problem)))
}

const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

/** Runs axe-core in the page. Injected through the debugger protocol, which the page's CSP does not govern. */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource)
  const result = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: { id: string; help: string; nodes: unknown[] }[] }> } }).axe
    return axe.run()
  })
  return result.violations.map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.length})`)
}

export interface E2eStack {
  browser: Browser
  server: ServerProcess
  smtp: SmtpSink
  /** The domains file the server reads (DOMAINS_FILE), when the file gave one. */
  domainsFile: string | undefined
  close(): Promise<void>
}

/** What a browser test file needs: a real SMTP server, the production server process on it, and one Chromium. */
async function startE2eStack(env: Record<string, string>, domains: string | undefined): Promise<E2eStack> {
  const dir = domains === undefined ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), 'domain-lander-e2e-'))
  const domainsFile = dir && path.join(dir, 'domains.yaml')
  if (domainsFile) fs.writeFileSync(domainsFile, domains!)
  const launching = connectChromium()
  // A connection that fails while the servers start is reported by the await below, not as an unhandled rejection.
  launching.catch(() => {})
  let smtp: SmtpSink | undefined
  let server: ServerProcess | undefined
  try {
    smtp = await startSmtpSink()
    server = await startServerProcess({ SMTP_URL: smtp.url, ...(domainsFile && { DOMAINS_FILE: domainsFile }), ...env })
    const browser = await launching
    const started = { smtp, server }
    return {
      browser,
      server,
      smtp,
      domainsFile,
      async close() {
        // The file's contexts are closed already (filePages), so the server has no browser connection to drain.
        await Promise.all([browser.close(), started.server.stop()])
        started.server.cleanup()
        await started.smtp.close()
        if (dir) fs.rmSync(dir, { recursive: true, force: true })
      },
    }
  } catch (error) {
    // What did start is stopped, so that a file whose stack failed leaves no Chromium or server behind.
    await Promise.allSettled([launching.then((browser) => browser.close()), server?.stop().then(() => server?.cleanup()), smtp?.close()])
    if (dir) fs.rmSync(dir, { recursive: true, force: true })
    throw error
  }
}

/** The pages of a test (or of a file), opened in the file's Chromium. */
export interface Pages {
  /** A fresh context and page, watched from the start; nothing is loaded yet. */
  watch(options?: BrowserContextOptions): Promise<WatchedPage>
  /**
   * Loads `target` (a host name of the server, or a URL) in the page as a visitor would: with script on, the form is
   * turned to (which loads React) and hydrated, and an attribute that hydration changed is a problem of the page.
   */
  load(watched: WatchedPage, target: string): Promise<Response | null>
  /** A fresh watched page with `target` loaded (see load), which must have answered 200. */
  open(target: string, options?: BrowserContextOptions): Promise<WatchedPage>
  /** Closes the page's context now; what went wrong in it still counts when the test ends. */
  close(watched: WatchedPage): Promise<void>
}

function watchedPages(stack: E2eStack) {
  const opened: (WatchedPage & { allowed: RegExp[] })[] = []
  const withScript = new WeakSet<WatchedPage>()
  const pages = {
    async watch(options: BrowserContextOptions = {}) {
      const watched = await openPage(stack.browser, options)
      opened.push(watched)
      if (options.javaScriptEnabled !== false) withScript.add(watched)
      return watched
    },
    async load(watched: WatchedPage, target: string) {
      const { page } = watched
      const response = await page.goto(/^https?:\/\//.test(target) ? target : `http://${target}:${stack.server.port}/`)
      if (!withScript.has(watched)) return response
      // React's text and structure mismatches are console errors already; its production build does not compare
      // attributes, attributeMismatches does.
      if (await page.locator('form.contact').count()) await hydrate(page)
      watched.problems.push(...(await attributeMismatches(page, response)))
      return response
    },
    async open(target: string, options: BrowserContextOptions = {}) {
      const watched = await pages.watch(options)
      expect((await pages.load(watched, target))?.status(), target).toBe(200)
      return watched
    },
    async close(watched: WatchedPage) {
      await watched.page.context().close()
    },
    /** What went wrong in the pages so far, and not allowed; each problem is taken once. */
    problems: () => opened.flatMap(takeProblems),
    /** Closes every page; resolves with the problems no one took yet. */
    async closeAll() {
      for (const watched of opened) await watched.page.context().close()
      return opened.splice(0).flatMap(takeProblems)
    },
  }
  return pages satisfies Pages
}

/** What a browser test file starts its server with. */
export interface BrowserTestSetup {
  /** The server's environment (its SMTP server is the file's own). */
  env?: Record<string, string>
  /** The text of the domains file (DOMAINS_FILE, as stack.domainsFile); a function is called as the server starts. */
  domains?: string | (() => string | Promise<string>)
}

/**
 * The `test` of a browser test file. `stack` (the production server process, a real SMTP server and one Chromium)
 * starts once for the file, before its tests. Each test gets `pages`: every page it opens through them is closed when
 * it ends, and the test fails if anything went wrong in one (see WatchedPage.problems). `filePages` stay open for
 * the whole file (one browser's state across tests in order); what goes wrong in one fails the test it happened in.
 */
export function browserTest(setup: BrowserTestSetup = {}) {
  const test = baseTest
    // eslint-disable-next-line no-empty-pattern -- vitest reads a fixture's dependencies from its destructured argument
    .extend('stack', { scope: 'file' }, async ({}, { onCleanup }) => {
      const stack = await startE2eStack(setup.env ?? {}, typeof setup.domains === 'function' ? await setup.domains() : setup.domains)
      onCleanup(() => stack.close())
      return stack
    })
    .extend('filePages', { scope: 'file' }, async ({ stack }, { onCleanup }) => {
      const pages = watchedPages(stack)
      onCleanup(async () => expect(await pages.closeAll()).toEqual([]))
      return pages
    })
    .extend('pages', { auto: true }, async ({ stack, filePages }, { onCleanup }): Promise<Pages> => {
      const pages = watchedPages(stack)
      onCleanup(async () => {
        const problems = [...(await pages.closeAll()), ...filePages.problems()]
        expect(problems).toEqual([])
      })
      return pages
    })
  // Started in a hook, under the hook's longer timeout, not in the first test's.
  test.beforeAll(async ({ stack }) => void stack)
  return test
}

/** Signs in on the console's sign-in page as the owner would (by its labels); resolves on the Posteingang. */
export async function signInToConsole(page: Page, adminUrl: string, password: string): Promise<void> {
  await page.goto(`${adminUrl}/anmelden`)
  await page.waitForSelector('html[data-hydrated]', { state: 'attached' })
  await page.getByLabel('Passwort').fill(password)
  await page.getByRole('button', { name: 'Anmelden' }).click()
  await page.waitForURL(`${adminUrl}/`)
}

/** Follows a link of the console's menu; one behind "Verwaltung" by opening that first, as a person would. */
export async function followConsoleLink(page: Page, name: string): Promise<void> {
  const nav = page.getByRole('navigation', { name: 'Konsole' })
  const link = nav.getByRole('link', { name, exact: true })
  if (!(await link.isVisible())) await nav.getByText('Verwaltung', { exact: true }).click()
  await link.click()
}
