import { describe, expect, test } from 'vitest'
import type { StoredInquiry } from '../store/types.ts'
import {
  DEFAULT_TEMPLATES,
  TEMPLATE_KINDS,
  composeDealMail,
  composeSoldNotice,
  renderDealText,
  templateFor,
  templateLanguage,
  templateProblem,
} from './deal-mail.ts'

// 8 November 2026, 12:00 UTC: 13:00 in Berlin (winter time).
const EXPIRES = Date.UTC(2026, 10, 8, 12)

describe('templates', () => {
  test('the defaults pass their own check', () => {
    for (const kind of TEMPLATE_KINDS) expect(templateProblem(kind, DEFAULT_TEMPLATES[kind])).toBeNull()
  })

  test('an unknown placeholder is refused with the allowed ones named', () => {
    expect(templateProblem('decline', 'Nein zu {domain} für {betrag}')).toBe(
      'Unbekannter Platzhalter {betrag} in der Vorlage „Ablehnung“. Erlaubt sind: {domain}, {notiz}.',
    )
    expect(templateProblem('counter', '{Betrag} {betrag} {frist} {}')).toMatch(/^Unbekannter Platzhalter \{Betrag\}, \{\} /)
  })

  test('a counter-offer’s template must name the amount and the deadline; empty and overlong ones are refused', () => {
    expect(templateProblem('counter', 'Mein Preis: {betrag}')).toBe('Die Vorlage „Gegenangebot“ braucht {frist}.')
    expect(templateProblem('accept', '   ')).toBe('Die Vorlage ist leer.')
    expect(templateProblem('accept', 'x'.repeat(5001))).toMatch(/zu lang/)
  })
})

describe('the text of a step', () => {
  test('fills in the amount in the domain’s currency, the deadline in Berlin time and the domain in Unicode', () => {
    const text = renderDealText('counter', DEFAULT_TEMPLATES.counter, {
      domain: 'xn--bcher-kva.de',
      amount: 4900,
      currency: 'EUR',
      expiresAt: EXPIRES,
      note: '',
    })
    expect(text).toContain('bücher.de')
    expect(text).toContain('4.900\u00a0€')
    expect(text).toContain('8. November 2026 um 13:00 Uhr')
    expect(text).not.toMatch(/\n\n\n/)
    expect(renderDealText('counter', '{betrag}', { domain: 'a.com', amount: 1500, currency: 'USD', note: '' })).toBe('1.500\u00a0$')
  })

  test('a note is filled in once: placeholders in it stay as typed, control characters and carriage returns go', () => {
    const text = renderDealText('decline', 'A {notiz} B', {
      domain: 'a.de',
      amount: null,
      currency: 'EUR',
      note: '{domain} <script>x</script>\r\nzweite\u001b[31m Zeile\u0000',
    })
    expect(text).toBe('A {domain} <script>x</script>\nzweite[31m Zeile B')
  })
})

test('the mail is threaded under the owner’s mail, answered to the owner, and quotes the visitor', () => {
  const inquiry = { id: 3, domain: 'example.de', language: 'de', email: 'k@example.net', message: 'Was kostet sie?\nGruß', createdAt: EXPIRES } as StoredInquiry
  const mail = composeDealMail(
    inquiry,
    { kind: 'counter', body: 'Mein Angebot', replyTo: 'sales@example.org', inquiryMessageId: '<inquiry-3-t@example.de>' },
    '<reply-9-t@example.de>',
    { from: 'lander@example.org', to: 'owner@example.org', visitor: 'k@example.net' },
  )
  expect(mail).toMatchObject({
    to: 'k@example.net',
    replyTo: 'sales@example.org',
    subject: 'Re: Anfrage zu example.de: Gegenangebot',
    inReplyTo: '<inquiry-3-t@example.de>',
    references: ['<inquiry-3-t@example.de>'],
    messageId: '<reply-9-t@example.de>',
  })
  expect(mail.text).toMatch(/^Mein Angebot\n\n.*schrieben Sie zu example\.de:\n> Was kostet sie\?\n> Gruß$/)
})

describe('the acceptance’s link to the deal page', () => {
  test('is in the default text, and its paragraph is left out when the acceptance made no deal', () => {
    const values = { domain: 'beispiel.de', amount: 2500, currency: 'EUR', note: '' }
    const withDeal = renderDealText('accept', DEFAULT_TEMPLATES.accept, { ...values, link: 'https://beispiel.de/kauf/abc.def' })
    expect(withDeal).toContain(
      'Alles Weitere (Zahlung, Übertragung der Domain) finden Sie auf Ihrer persönlichen Kaufseite:\nhttps://beispiel.de/kauf/abc.def\n\nBei Fragen',
    )
    const without = renderDealText('accept', DEFAULT_TEMPLATES.accept, { ...values, amount: null })
    expect(without).not.toContain('Kaufseite')
    expect(without).toContain('Vereinbarter Betrag: wie besprochen\n\nBei Fragen antworten Sie einfach auf diese Mail.')
    expect(templateProblem('accept', 'Angenommen: {betrag}, {link}')).toBeNull()
  })
})

describe('a checkout of an English buyer (decision 037)', () => {
  const checkout = { company: null, street: 'Main St 1', postcode: 'N1', city: 'London', country: 'GB', vatId: null }
  const addresses = { from: 'lander@example.org', to: 'owner@example.org', visitor: 'k@example.net' }

  test('is confirmed and declined with the English templates of a checkout; a German one keeps the German ones', () => {
    expect(templateFor('accept', { language: 'en', checkout })).toBe('checkout-accept-en')
    expect(templateFor('decline', { language: 'en', checkout })).toBe('checkout-decline-en')
    expect(templateFor('accept', { language: 'de', checkout })).toBe('accept')
    expect(templateFor('decline', { language: 'de', checkout })).toBe('decline')
  })

  test('its text writes the amount the English way', () => {
    const text = renderDealText('checkout-accept-en', DEFAULT_TEMPLATES['checkout-accept-en'], {
      domain: 'xn--bcher-kva.com',
      amount: 2000,
      currency: 'USD',
      note: '',
      link: 'https://bücher.com/kauf/a.b',
    })
    expect(text).toContain('sell you bücher.com at the fixed price of $2,000.')
    expect(renderDealText('checkout-accept-en', '{betrag}', { domain: 'a.com', amount: null, currency: 'USD', note: '' })).toBe('as agreed')
  })

  test('its mail has an English subject and no German quote of our summary', () => {
    const inquiry = {
      id: 3,
      domain: 'example.com',
      email: 'k@example.net',
      language: 'en',
      checkout,
      message: 'Kauf zum Festpreis: 2.000 $',
      createdAt: EXPIRES,
    } as StoredInquiry
    const mail = composeDealMail(inquiry, { kind: 'decline', body: 'Sorry', replyTo: null, inquiryMessageId: '<i@example.com>' }, '<r@example.com>', addresses)
    expect(mail).toMatchObject({
      subject: 'Re: Inquiry about example.com: Purchase declined',
      text: 'Sorry',
      replyTo: 'owner@example.org',
      inReplyTo: '<i@example.com>',
    })
  })
})

describe('"bereits verkauft"', () => {
  const addresses = { from: 'lander@example.org', to: 'owner@example.org', visitor: 'k@example.net' }
  test('is German or English by the inquirer’s language, and quotes what they wrote as text', () => {
    const base = { id: 4, domain: 'example.de', email: 'k@example.net', message: '<b>Preis?</b>\nGruß', createdAt: EXPIRES }
    const german = composeSoldNotice(
      { ...base, language: 'de' } as StoredInquiry,
      { body: 'Verkauft.', replyTo: null, inquiryMessageId: '<i@x>' },
      '<r@x>',
      addresses,
    )
    expect(german.subject).toBe('Re: Anfrage zu example.de: Bereits verkauft')
    expect(german.text).toMatch(/^Verkauft\.\n\n.*schrieben Sie zu example\.de:\n> <b>Preis\?<\/b>\n> Gruß$/)
    expect(german.html).toBeUndefined()
    const english = composeSoldNotice(
      { ...base, language: 'en' } as StoredInquiry,
      { body: 'Sold.', replyTo: null, inquiryMessageId: '<i@x>' },
      '<r@x>',
      addresses,
    )
    expect(english.subject).toBe('Re: Inquiry about example.de: Already sold')
    expect(english.text).toMatch(/^Sold\.\n\nOn 8 November 2026 at 13:00 \(Berlin time\) you wrote about example\.de:\n> <b>Preis\?<\/b>\n> Gruß$/)
  })
})

describe('the negotiation with an English buyer', () => {
  const addresses = { from: 'lander@example.org', to: 'owner@example.org', visitor: 'k@example.net' }
  const inquiry = {
    id: 5,
    domain: 'english.com',
    email: 'k@example.net',
    language: 'en',
    message: 'Would you take €2,000?\nJohn',
    createdAt: EXPIRES,
  } as StoredInquiry

  test('counter-offer, acceptance and refusal use the English templates; a German buyer keeps the German ones', () => {
    expect(templateFor('counter', { language: 'en' })).toBe('counter-en')
    expect(templateFor('accept', { language: 'en' })).toBe('accept-en')
    expect(templateFor('decline', { language: 'en' })).toBe('decline-en')
    for (const kind of ['counter', 'accept', 'decline'] as const) expect(templateFor(kind, { language: 'de' })).toBe(kind)
    expect(templateProblem('counter-en', 'My price: {betrag}')).toBe('Die Vorlage „Gegenangebot (englisch)“ braucht {frist}.')
  })

  test('the counter-offer writes the amount and the deadline the English way', () => {
    const text = renderDealText('counter-en', DEFAULT_TEMPLATES['counter-en'], {
      domain: 'english.com',
      amount: 3500,
      currency: 'EUR',
      expiresAt: EXPIRES,
      note: '',
    })
    expect(text).toContain('I can offer you the domain for €3,500. This offer is valid until 8 November 2026 at 13:00 (Berlin time).')
    expect(text).not.toMatch(/Guten Tag|Uhr|\n\n\n/)
    const accepted = renderDealText('accept-en', DEFAULT_TEMPLATES['accept-en'], {
      domain: 'english.com',
      amount: 3500,
      currency: 'EUR',
      note: '',
      link: 'https://english.com/kauf/a.b',
    })
    expect(accepted).toContain('Agreed amount: €3,500')
    expect(accepted).toContain('https://english.com/kauf/a.b')
    expect(renderDealText('accept-en', DEFAULT_TEMPLATES['accept-en'], { domain: 'english.com', amount: null, currency: 'EUR', note: '' })).toContain(
      'Agreed amount: as agreed\n\nIf you have any questions',
    )
    expect(
      renderDealText('decline-en', DEFAULT_TEMPLATES['decline-en'], { domain: 'english.com', amount: null, currency: 'EUR', note: 'Maybe next year.' }),
    ).toContain('Unfortunately I cannot accept your offer.\n\nMaybe next year.')
  })

  test('their mails have English subjects and quote the buyer under an English line, threaded as every reply', () => {
    const subjects = { counter: 'Counter-offer', accept: 'Offer accepted', decline: 'Offer declined' } as const
    for (const kind of ['counter', 'accept', 'decline'] as const) {
      const mail = composeDealMail(inquiry, { kind, body: 'Hello', replyTo: null, inquiryMessageId: '<i@english.com>' }, '<r@english.com>', addresses)
      expect(mail).toMatchObject({
        subject: `Re: Inquiry about english.com: ${subjects[kind]}`,
        replyTo: 'owner@example.org',
        inReplyTo: '<i@english.com>',
        references: ['<i@english.com>'],
      })
      expect(mail.text).toBe('Hello\n\nOn 8 November 2026 at 13:00 (Berlin time) you wrote about english.com:\n> Would you take €2,000?\n> John')
    }
  })
})

/** A checkout's details: only that there is one matters to the templates. */
const CHECKOUT = {} as NonNullable<StoredInquiry['checkout']>

describe('templates in the languages decision 048 added', () => {
  const ADDED = ['fr', 'es', 'it', 'nl', 'pl'] as const
  const placeholdersOf = (text: string) => [...text.matchAll(/\{([^{}\s]*)\}/g)].map((match) => match[1]).sort()

  test('every template of each language has the placeholders of its English one and is accepted as it is', () => {
    for (const language of ADDED) {
      for (const base of ['counter', 'accept', 'decline', 'checkout-accept', 'checkout-decline', 'sold'] as const) {
        const kind = `${base}-${language}` as const
        expect(placeholdersOf(DEFAULT_TEMPLATES[kind]), kind).toEqual(placeholdersOf(DEFAULT_TEMPLATES[`${base}-en`]))
        expect(templateProblem(kind, DEFAULT_TEMPLATES[kind]), kind).toBeNull()
        expect(templateLanguage(kind)).toBe(language)
      }
    }
  })

  test('a buyer gets the template of the language they wrote in; a checkout speaks of a purchase', () => {
    expect(templateFor('counter', { language: 'fr' })).toBe('counter-fr')
    expect(templateFor('accept', { language: 'pl', checkout: CHECKOUT })).toBe('checkout-accept-pl')
    expect(templateFor('decline', { language: 'nl', checkout: CHECKOUT })).toBe('checkout-decline-nl')
    expect(templateFor('accept', { language: 'de', checkout: CHECKOUT })).toBe('accept')
    expect(templateProblem('counter-it', 'Prezzo: {betrag}')).toBe('Die Vorlage „Gegenangebot (italienisch)“ braucht {frist}.')
  })

  test('amount and deadline are written as the buyer reads them', () => {
    const text = renderDealText('counter-fr', DEFAULT_TEMPLATES['counter-fr'], {
      domain: 'exemple.fr',
      amount: 3500,
      currency: 'EUR',
      expiresAt: EXPIRES,
      note: '',
    })
    expect(text).toContain('3\u202f500\u00a0€')
    expect(text).toMatch(/jusqu’au \d{1,2} \p{L}+ 2026 à \d{2}:\d{2} \(heure de Berlin\)/u)
    const polish = renderDealText('accept-pl', DEFAULT_TEMPLATES['accept-pl'], {
      domain: 'przyklad.pl',
      amount: null,
      currency: 'PLN',
      note: '',
      link: 'https://przyklad.pl/kauf/x',
    })
    expect(polish).toContain('Uzgodniona kwota: zgodnie z ustaleniami')
  })
})

test('a French buyer’s counter-offer and "already sold" come with French subjects and a French line above the quote', () => {
  const inquiry = { id: 4, domain: 'exemple.fr', email: 'c@example.fr', message: 'Quel est le prix ?', createdAt: EXPIRES, language: 'fr' } as StoredInquiry
  const reply = { kind: 'counter', body: 'Mon offre', replyTo: null, inquiryMessageId: '<inquiry-4-t@exemple.fr>' } as const
  const addresses = { from: 'lander@example.org', to: 'owner@example.org', visitor: 'c@example.fr' }
  const mail = composeDealMail(inquiry, reply, '<reply-10-t@exemple.fr>', addresses)
  expect(mail.subject).toBe('Re: Demande concernant exemple.fr: Contre-proposition')
  expect(mail.text).toMatch(
    /^Mon offre\n\nLe \d{1,2} novembre 2026 à \d{2}:\d{2} \(heure de Berlin\), vous avez écrit au sujet de exemple\.fr\u00a0:\n> Quel est le prix \?$/u,
  )
  expect(composeSoldNotice(inquiry, reply, '<reply-11-t@exemple.fr>', addresses).subject).toBe('Re: Demande concernant exemple.fr: Déjà vendu')
  const checkout = composeDealMail({ ...inquiry, checkout: CHECKOUT }, { ...reply, kind: 'accept' }, '<reply-12-t@exemple.fr>', addresses)
  expect(checkout.subject).toBe('Re: Demande concernant exemple.fr: Achat confirmé')
  expect(checkout.text).toBe('Mon offre')
})
