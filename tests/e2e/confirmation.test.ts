// Double opt-in in a real Chromium against the production server process: the form of a `confirm: verify` domain,
// the link from the mail, the page with its button (no script, under the page's CSP), the owner's mail after it.
import type { Page } from 'playwright-core'
import { expect } from 'vitest'
import { TEXT } from '../../src/shared/texts.ts'
import { axeViolations, browserTest, type E2eStack } from '../helpers/chromium.ts'

const test = browserTest({ domains: 'domains:\n  pruefen.de: { confirm: verify }\n' })

async function send(page: Page, message: string) {
  await page.getByRole('textbox', { name: 'Name' }).fill('Erika')
  await page.getByRole('textbox', { name: 'E-Mail' }).fill('erika@example.de')
  await page.getByRole('textbox', { name: 'Nachricht' }).fill(message)
  await page.getByRole('button', { name: 'Senden' }).click()
}

/** The link of the verify mail, on this test server (the mail says https on port 443). */
async function linkFromMail({ server, smtp }: E2eStack): Promise<string> {
  await expect.poll(() => smtp.messages.filter((mail) => mail.envelope.to.includes('erika@example.de')).length).toBe(1)
  const mail = smtp.messages.find((m) => m.envelope.to.includes('erika@example.de'))!
  const link = new URL(/https:\/\/\S+/.exec(mail.parsed.text ?? '')![0])
  return `http://${link.hostname}:${server.port}${link.pathname}${link.search}`
}

test('the visitor is told to look in the mail, confirms on the linked page with its button, and the owner gets the inquiry', async ({ pages, stack }) => {
  const { page } = await pages.open('pruefen.de')
  const { smtp } = stack
  await send(page, 'Bestätigte Anfrage aus dem Browser.')
  await expect.poll(() => page.getByRole('status').textContent()).toBe(TEXT.successVerify)

  const link = await linkFromMail(stack)
  const response = await page.goto(link)
  expect(response?.status()).toBe(200)
  expect(response?.headers()['content-security-policy']).toContain("form-action 'self'")
  expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(TEXT.confirmTitle)
  expect(await axeViolations(page)).toEqual([])
  // Opening the page confirmed nothing.
  expect(smtp.messages.some((mail) => mail.parsed.text?.includes('Bestätigte Anfrage aus dem Browser.'))).toBe(false)

  await page.getByRole('button', { name: TEXT.confirmButton }).click()
  await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(TEXT.confirmedTitle)
  expect(await page.getByText(TEXT.confirmedText).isVisible()).toBe(true)
  await expect
    .poll(() => smtp.messages.find((mail) => mail.parsed.text?.includes('Bestätigte Anfrage aus dem Browser.'))?.envelope.to)
    .toEqual(['owner@example.org'])

  // The link opened again tells the visitor it is done.
  await page.goto(link)
  await page.getByText(TEXT.confirmedAlready).waitFor()
})
