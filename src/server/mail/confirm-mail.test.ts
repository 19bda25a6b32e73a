import { describe, expect, test } from 'vitest'
import type { StoredInquiry } from '../store/types.ts'
import { composeConfirmMail, confirmText } from './confirm-mail.ts'

const inquiry: StoredInquiry = {
  id: 7,
  token: 'AbCdEfGhIjKlMnO',
  contentHash: 'h',
  domain: 'xn--mnchen-3ya.de',
  name: 'boss@example.org Kaufen Sie jetzt',
  email: 'erika@example.de',
  message: 'Klicken Sie hier: https://evil.example/phish\nBcc: many@example.org',
  language: 'de',
  spamReason: null,
  offer: { amount: 999, currency: 'EUR' },
  belowMinimum: false,
  createdAt: Date.UTC(2026, 2, 1, 9),
}
const addresses = { from: 'Domain Lander <lander@example.org>', to: 'owner@example.org', visitor: 'erika@example.de', secret: 'a-secret-of-at-least-16' }
const reply = (kind: 'notice' | 'verify') => ({
  id: 3,
  kind,
  amount: null,
  body: '',
  replyTo: null,
  inquiryMessageId: '<inquiry-7-AbCdEfGhIjKlMnO@xn--mnchen-3ya.de>',
})

describe('the confirmation mails', () => {
  test.each(['notice', 'verify'] as const)('%s: fixed text with the domain, nothing the visitor typed, threaded under the inquiry', (kind) => {
    const mail = composeConfirmMail(inquiry, reply(kind), '<m@x>', addresses)
    const everything = JSON.stringify(mail)
    for (const typed of ['boss@example.org', 'Kaufen', 'evil.example', 'Bcc', '999']) expect(everything).not.toContain(typed)
    expect(mail.subject).toContain('münchen.de')
    expect(mail.to).toBe('erika@example.de')
    expect(mail.replyTo).toBe('owner@example.org')
    expect(mail.inReplyTo).toBe('<inquiry-7-AbCdEfGhIjKlMnO@xn--mnchen-3ya.de>')
    expect(mail.headers).toMatchObject({ 'Auto-Submitted': 'auto-generated' })
  })

  test('notice says the inquiry arrived; verify carries the signed link', () => {
    expect(composeConfirmMail(inquiry, reply('notice'), '<m@x>', addresses).subject).toBe('Ihre Anfrage zu münchen.de ist angekommen')
    const verify = composeConfirmMail(inquiry, reply('verify'), '<m@x>', addresses)
    expect(verify.subject).toBe('Bitte bestätigen Sie Ihre Anfrage zu münchen.de')
    expect(String(verify.text)).toMatch(/^https:\/\/xn--mnchen-3ya\.de\/bestaetigen\?t=7\./m)
  })

  test('an inquiry from an English page gets its mail in English, nothing German in it', () => {
    const english = { ...inquiry, language: 'en' as const }
    const notice = composeConfirmMail(english, reply('notice'), '<m@x>', addresses)
    expect(notice.subject).toBe('Your inquiry about münchen.de has arrived')
    expect(String(notice.text)).toMatch(/^Hello,\n\nYour inquiry about münchen\.de has arrived\./)
    const verify = composeConfirmMail(english, reply('verify'), '<m@x>', addresses)
    expect(verify.subject).toBe('Please confirm your inquiry about münchen.de')
    expect(String(verify.text)).toMatch(/^https:\/\/xn--mnchen-3ya\.de\/bestaetigen\?t=7\./m)
    expect(String(verify.text)).toContain('The link is valid for 48 hours.')
    for (const mail of [notice, verify]) {
      expect(String(mail.text).replaceAll('münchen.de', '')).not.toMatch(/[äöüß]|\b(?:Sie|Anfrage|Guten)\b/)
      for (const typed of ['boss@example.org', 'Kaufen', 'evil.example', 'Bcc', '999']) expect(JSON.stringify(mail)).not.toContain(typed)
    }
  })

  test("the text the console shows has a placeholder for the link, in the inquiry's language", () => {
    expect(confirmText('verify', 'example.com', 'en').text).toContain('\n[confirmation link]\n')
    expect(confirmText('verify', 'example.de', 'de').text).toContain('\n[Bestätigungslink]\n')
  })
})
