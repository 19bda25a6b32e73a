// One headless Chromium (Debian's, or CHROMIUM_PATH) per test file, driven by playwright-core.
import fs from 'node:fs'
import { createRequire } from 'node:module'
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core'
import { startServerProcess, type ServerProcess } from './server.ts'
import { startSmtpSink, type SmtpSink } from './smtp.ts'

async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      // Any host name resolves to loopback: pages for real-looking domains, and nothing can leave the machine.
      '--host-resolver-rules=MAP * 127.0.0.1',
    ],
  })
}

export interface WatchedPage {
  page: Page
  /** Console errors and warnings, page errors and failed requests: a test expects this to stay empty. */
  problems: string[]
  /** Every URL the page requested. */
  requests: string[]
}

/** A fresh context and page that record everything that goes wrong, so a test can insist nothing did. */
export async function openPage(browser: Browser, options: BrowserContextOptions = {}): Promise<WatchedPage> {
  const context = await browser.newContext(options)
  const page = await context.newPage()
  const problems: string[] = []
  const requests: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`console ${message.type()}: ${message.text()}`)
  })
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
  page.on('request', (request) => requests.push(request.url()))
  return { page, problems, requests }
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
  close(): Promise<void>
}

/** What a browser test file needs: a real SMTP server, the production server process on it, and one Chromium. */
export async function startE2eStack(env: Record<string, string> = {}): Promise<E2eStack> {
  const smtp = await startSmtpSink()
  const server = await startServerProcess({ SMTP_URL: smtp.url, ...env })
  const browser = await launchChromium()
  return {
    browser,
    server,
    smtp,
    async close() {
      await browser.close()
      await server.stop()
      server.cleanup()
      await smtp.close()
    },
  }
}

/** Closes the page's context and returns what went wrong in it, for the test to insist on nothing. */
export async function closePage(watched: WatchedPage | undefined): Promise<string[]> {
  const problems = watched?.problems ?? []
  await watched?.page.context().close()
  return problems
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
