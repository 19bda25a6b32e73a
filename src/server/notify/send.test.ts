import { createHmac } from 'node:crypto'
import { describe, expect, test } from 'vitest'
import { markdownText, safeJson, slackText, textOf, type Notice } from './message.ts'
import { signatureOf } from './send.ts'

const notice = (overrides: Partial<Notice> = {}): Notice => ({
  deliveryId: '17',
  inquiry: {
    id: 4,
    token: 'abcdefghijklmno',
    contentHash: 'h',
    domain: 'xn--mnchen-3ya.de',
    name: 'Erika',
    email: 'erika@example.de',
    message: 'Hallo',
    language: 'de',
    spamReason: null,
    offer: { amount: 4900, currency: 'EUR' },
    belowMinimum: true,
    createdAt: 0,
    status: 'new',
  },
  link: 'https://konsole.example.org/anfragen/4',
  personal: false,
  ...overrides,
})

describe('notification texts and signatures', () => {
  test('the signature is t=<seconds>,v1=<HMAC-SHA256 of "t.body">', () => {
    const expected = createHmac('sha256', 'k'.repeat(32)).update('1700000000.{"a":1}').digest('hex')
    expect(signatureOf('k'.repeat(32), '{"a":1}', 1700000000)).toBe(`t=1700000000,v1=${expected}`)
  })

  test('the German text names the domain in Unicode, the offer in its currency, and the link; the visitor only when personal', () => {
    expect(textOf(notice())).toBe('Neue Anfrage zu münchen.de: 4.900\u00a0€ (unter dem Mindestangebot)\n\nhttps://konsole.example.org/anfragen/4')
    expect(textOf(notice({ personal: true, link: null }))).toBe(
      'Neue Anfrage zu münchen.de: 4.900\u00a0€ (unter dem Mindestangebot)\nVon: Erika (erika@example.de)\n\nHallo',
    )
  })

  test('JSON keeps markup and line separators escaped, and parses back to the same text', () => {
    const text = '</script><b>&\u2028\u2029\u0000'
    const json = safeJson({ text })
    expect(json).not.toMatch(/[<>&\u2028\u2029\u0000]/)
    expect(JSON.parse(json)).toEqual({ text })
  })

  test('Slack and Markdown escaping leave no link, mention or markup', () => {
    expect(slackText('<!channel> <https://x|y> & ok')).toBe('&lt;!channel&gt; &lt;https://x|y&gt; &amp; ok')
    expect(markdownText('@all ![x](https://e/x.png) *b*')).toBe('\\@all \\!\\[x\\]\\(https\\://e/x\\.png\\) \\*b\\*')
  })
})
