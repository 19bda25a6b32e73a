import { describe, expect, test } from 'vitest'
import type { StoredInquiry } from '../store/types.ts'
import { composeInquiryMail, composeReplyMail, headerSafe } from './compose.ts'

const inquiry: StoredInquiry = {
  id: 7,
  token: 'abcdefghijklmno',
  contentHash: 'h',
  domain: 'xn--mnchen-3ya.de',
  name: 'Erika <Mustermann>',
  email: 'erika@example.de',
  message: 'Was kostet die Domain? <b>fett</b> & mehr',
  language: 'de',
  spamReason: null,
  offer: null,
  belowMinimum: false,
  createdAt: Date.UTC(2026, 10, 23, 9, 30, 0),
}
const addresses = { from: 'Verkauf <verkauf@example.org>', to: 'owner@example.org' }

describe('the owner mail', () => {
  const mail = composeInquiryMail(inquiry, '<inquiry-7-abcdefghijklmno@xn--mnchen-3ya.de>', addresses)

  test('goes from MAIL_FROM to MAIL_TO with the visitor as Reply-To', () => {
    expect(mail.from).toBe(addresses.from)
    expect(mail.to).toBe(addresses.to)
    expect(mail.replyTo).toEqual({ name: 'Erika <Mustermann>', address: 'erika@example.de' })
  })

  test('names the domain in Unicode in the subject', () => {
    expect(mail.subject).toBe('Anfrage zu münchen.de')
  })

  test('carries the stable Message-ID and the time of the inquiry', () => {
    expect(mail.messageId).toBe('<inquiry-7-abcdefghijklmno@xn--mnchen-3ya.de>')
    expect(mail.date).toEqual(new Date(inquiry.createdAt))
  })

  test('has a plain-text body with name, e-mail, message, domain and German time', () => {
    expect(mail.text).toContain('Name: Erika <Mustermann>')
    expect(mail.text).toContain('E-Mail: erika@example.de')
    expect(mail.text).toContain('Domain: münchen.de')
    expect(mail.text).toContain('Zeit: 23.11.2026, 10:30:00 (Europe/Berlin)')
    expect(mail.text).toContain('Was kostet die Domain? <b>fett</b> & mehr')
  })

  test('escapes the visitor input in the HTML body', () => {
    expect(mail.html).toContain('&lt;b&gt;fett&lt;/b&gt; &amp; mehr')
    expect(mail.html).toContain('Erika &lt;Mustermann&gt;')
    expect(mail.html).not.toContain('<b>fett</b>')
  })

  test('says in German which language the buyer wrote in: German for a German page, English for an English one', () => {
    expect(mail.text).toContain('Sprache: Deutsch')
    const english = composeInquiryMail({ ...inquiry, language: 'en' }, '<id@x>', addresses)
    expect(english.text).toContain('Sprache: Englisch')
    expect(english.html).toContain('<tr><th align="left">Sprache</th><td>Englisch</td></tr>')
    expect(english.subject).toBe('Anfrage zu münchen.de')
    expect(english.text).toMatch(/^Neue Anfrage zu münchen\.de\n/)
  })

  test('names the offer, and says when it is below the minimum', () => {
    expect(mail.text).not.toContain('Angebot')
    const offered = composeInquiryMail({ ...inquiry, offer: { amount: 4900, currency: 'EUR' }, belowMinimum: true }, '<id@x>', addresses)
    expect(offered.text).toContain('Angebot: 4.900\u00a0€ (unter dem Mindestangebot)')
  })

  test('a name that looks like an address stays out of Reply-To and is named in the body', () => {
    for (const name of ['boss@example.org', 'Chef <chef@bank.example>', 'ceo\uff20example.org']) {
      const mail = composeInquiryMail({ ...inquiry, name }, '<id@x>', addresses)
      expect(mail.replyTo).toBe('erika@example.de')
      expect(mail.text).toContain(`Name: ${name}`)
    }
  })

  test('never lets a line break into a header value', () => {
    const hostile = composeInquiryMail({ ...inquiry, name: 'Erika\r\nBcc: x@example.org', email: 'a@b.de\nCc: y@example.org' }, '<id@x>', addresses)
    expect(JSON.stringify(hostile.replyTo)).not.toMatch(/[\r\n]/)
    expect(headerSafe('a\r\nb\u2028c\u0085d\u0000e')).toBe('a  b c d e')
  })
})

describe("the owner's reply to the visitor", () => {
  const inquiryMessageId = '<inquiry-7-abcdefghijklmno@xn--mnchen-3ya.de>'
  const mail = composeReplyMail(
    { ...inquiry, message: 'Zeile 1\nZeile 2' },
    { body: 'Guten Tag,\nder Preis ist 5.000 €.', replyTo: 'sales@example.org', inquiryMessageId },
    '<reply-3-abcdefghijklmno@xn--mnchen-3ya.de>',
    { ...addresses, visitor: 'erika@example.de' },
  )

  test('goes from MAIL_FROM to the visitor, answered to the domain\'s recipient, as "Re: Anfrage zu {domain}"', () => {
    expect(mail).toMatchObject({ from: addresses.from, to: 'erika@example.de', replyTo: 'sales@example.org', subject: 'Re: Anfrage zu münchen.de' })
  })

  test('is threaded under the mail the owner got about the inquiry', () => {
    expect(mail.inReplyTo).toBe(inquiryMessageId)
    expect(mail.references).toEqual([inquiryMessageId])
    expect(mail.messageId).toBe('<reply-3-abcdefghijklmno@xn--mnchen-3ya.de>')
  })

  test("is plain text: the reply, then the visitor's message quoted", () => {
    expect(mail.html).toBeUndefined()
    expect(mail.text).toMatch(/^Guten Tag,\nder Preis ist 5\.000 €\.\n\n.* schrieben Sie zu münchen\.de:\n> Zeile 1\n> Zeile 2$/)
  })

  test('without a domain recipient it is answered to MAIL_TO', () => {
    const plain = composeReplyMail(inquiry, { body: 'x', replyTo: null, inquiryMessageId }, '<r@x>', { ...addresses, visitor: 'erika@example.de' })
    expect(plain.replyTo).toBe(addresses.to)
  })
})
