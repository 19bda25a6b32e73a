import { describe, expect, test } from 'vitest'
import { checkContact, emailDomainAscii, isValidEmail, markFits, parseOffer, readAmount } from './contact.ts'

const valid = {
  name58fnlsd: 'Erika Mustermann',
  name58fnlsdbee: '',
  themail3h6: 'erika@example.de',
  themail3h6bee: '',
  message: 'Was kostet die Domain?',
  token: 'abcdefghijklmno',
  hash: 'x.y',
}

describe('the contact schema', () => {
  test('a complete form is valid, with values trimmed', () => {
    const check = checkContact({ ...valid, name58fnlsd: '  Erika  ', message: '\n Hallo \n' })
    expect(check).toMatchObject({ status: 'valid', data: { name58fnlsd: 'Erika', message: 'Hallo' } })
  })

  test('empty or blank required fields are named with a hint each', () => {
    const check = checkContact({ ...valid, name58fnlsd: ' ', themail3h6: '', message: '' })
    expect(check).toEqual({
      status: 'invalid',
      fieldErrors: {
        name58fnlsd: 'Bitte geben Sie Ihren Namen ein.',
        themail3h6: 'Bitte geben Sie eine gültige E-Mail-Adresse ein.',
        message: 'Bitte geben Sie eine Nachricht ein.',
      },
      otherErrors: [],
    })
  })

  test.each([
    ['zero-width spaces', '\u200b\u200b'],
    ['a word joiner and a BOM', '\u2060\ufeff'],
    ['bidi controls and a soft hyphen between spaces', ' \u202e\u2066\u00ad '],
    ['a Hangul filler and a variation selector', '\u3164\ufe0f'],
    ['a blank Braille pattern and a no-break space', '\u2800\u00a0'],
  ])('a name of only invisible characters (%s) is empty: the usual "required" hint', (_what, name) => {
    expect(checkContact({ ...valid, name58fnlsd: name, message: name })).toEqual({
      status: 'invalid',
      fieldErrors: { name58fnlsd: 'Bitte geben Sie Ihren Namen ein.', message: 'Bitte geben Sie eine Nachricht ein.' },
      otherErrors: [],
    })
  })

  test('a name with visible letters and an invisible character is a name', () => {
    expect(checkContact({ ...valid, name58fnlsd: 'Eri\u200bka' }).status).toBe('valid')
  })

  test('fields of the wrong type are invalid, never thrown', () => {
    expect(checkContact({ ...valid, name58fnlsd: 42, message: ['x'] }).status).toBe('invalid')
    for (const body of [null, 'text', 7, [], undefined]) expect(checkContact(body).status).toBe('invalid')
  })

  test('the limits are 200 characters of name and 5,000 of message', () => {
    expect(checkContact({ ...valid, name58fnlsd: 'n'.repeat(200), message: 'm'.repeat(5000) }).status).toBe('valid')
    expect(checkContact({ ...valid, name58fnlsd: 'n'.repeat(201) })).toMatchObject({
      fieldErrors: { name58fnlsd: 'Der Name darf höchstens 200 Zeichen lang sein.' },
    })
    expect(checkContact({ ...valid, message: 'm'.repeat(5001) })).toMatchObject({
      fieldErrors: { message: 'Die Nachricht darf höchstens 5.000 Zeichen lang sein.' },
    })
  })

  test.each(['Erika\r\nBcc: x@example.org', 'Erika\nX', 'Erika\rX', 'Erika\u2028X', 'Erika\u0085X', 'Erika\u0000'])(
    'a name with a line break or control character (%j) is refused',
    (name) => {
      expect(checkContact({ ...valid, name58fnlsd: name })).toMatchObject({
        fieldErrors: { name58fnlsd: 'Der Name darf keine Zeilenumbrüche oder Steuerzeichen enthalten.' },
      })
    },
  )

  test('line breaks in the message are kept: it is the body of the mail', () => {
    expect(checkContact({ ...valid, message: 'Zeile 1\r\nZeile 2' })).toMatchObject({ data: { message: 'Zeile 1\r\nZeile 2' } })
  })

  test('decoys may be missing or filled: that is for the server to judge, not an error', () => {
    const { name58fnlsdbee: _n, themail3h6bee: _e, ...withoutDecoys } = valid
    expect(checkContact(withoutDecoys).status).toBe('valid')
    expect(checkContact({ ...valid, name58fnlsdbee: 'bot' }).status).toBe('valid')
  })

  test('a token that is not 15 letters and digits is not a field error the visitor can fix', () => {
    expect(checkContact({ ...valid, token: 'short' })).toEqual({ status: 'invalid', fieldErrors: {}, otherErrors: ['token'] })
  })
})

describe('the e-mail rule', () => {
  test.each(['erika@example.de', 'e.m+tag@sub.example.co.uk', "o'brien@example.ie", 'x@münchen.de', 'x@xn--mnchen-3ya.de'])('%s is an address', (address) =>
    expect(isValidEmail(address)).toBe(true),
  )

  test.each([
    ['no @', 'erika.example.de'],
    ['two @', 'a@b@example.de'],
    ['quotes', '"erika"@example.de'],
    ['a backtick', 'eri`ka@example.de'],
    ['a comment', 'erika(x)@example.de'],
    ['a group', 'list:erika@example.de;'],
    ['a comma', 'a@example.de,b@example.de'],
    ['a space', 'eri ka@example.de'],
    ['NUL', 'erika\u0000@example.de'],
    ['a line break', 'erika@example.de\r\nBcc: x@example.org'],
    ['angle brackets', 'Erika <erika@example.de>'],
    ['a dot at the start', '.erika@example.de'],
    ['two dots', 'eri..ka@example.de'],
    ['no top-level domain', 'erika@localhost'],
    ['a local part over 64', `${'a'.repeat(65)}@example.de`],
    ['over 254 in all', `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.de`],
    ['a numeric top-level domain', 'erika@example.123'],
    ['an underscore in the domain', 'erika@exa_mple.de'],
    ['a label starting with a hyphen', 'erika@-example.de'],
    ['"--" in the third and fourth place', 'erika@ab--cd.de'],
    ['an empty label', 'erika@example..de'],
    ['a trailing dot', 'erika@example.de.'],
    ['a percent escape', 'erika@ex%61mple.de'],
    ['a port', 'erika@example.de:25'],
    ['a full-width @', 'erika@ｅｘ＠ａｍｐｌｅ.de'],
    ['a zero-width joiner between letters', 'erika@a\u200db.de'],
    ['an address made of digits', 'erika@127.0.0.1'],
    ['a domain whose punycode is over 253 long', `e@${'ü'.repeat(60)}.${'ö'.repeat(60)}.${'ä'.repeat(60)}.de`],
  ])('%s is refused', (_what, address) => expect(isValidEmail(address)).toBe(false))

  test('a domain in full-width letters or dots, in capitals or in Unicode is mapped as mail servers resolve it', () => {
    expect(emailDomainAscii('ｅｘａｍｐｌｅ．ｄｅ')).toBe('example.de')
    expect(emailDomainAscii('MÜNCHEN.de')).toBe('xn--mnchen-3ya.de')
    expect(emailDomainAscii('xn--mnchen-3ya.de')).toBe('xn--mnchen-3ya.de')
    expect(isValidEmail('opfer@ｅｘａｍｐｌｅ.de')).toBe(true)
    expect(isValidEmail('opfer@ＭＵＮＣＨＥＮ.ＤＥ')).toBe(true)
    expect(emailDomainAscii('exa_mple.de')).toBeNull()
  })

  test('an invalid domain is a field error in the page’s language', () => {
    expect(checkContact({ ...valid, themail3h6: 'erika@exa_mple.de' }, 'de')).toMatchObject({
      fieldErrors: { themail3h6: 'Bitte geben Sie eine gültige E-Mail-Adresse ein.' },
    })
    expect(checkContact({ ...valid, themail3h6: 'erika@-example.de' }, 'en')).toMatchObject({
      fieldErrors: { themail3h6: 'Please enter a valid email address.' },
    })
  })

  test('a 300 KB address is refused by its length alone', () => {
    expect(isValidEmail(`${'a'.repeat(300_000)}@example.de`)).toBe(false)
  })
})

describe('offers', () => {
  test.each([
    ['4900', 4900],
    ['4.900', 4900],
    ['4 900 €', 4900],
    ['4900,00', 4900],
    ['4.900,- €', 4900],
    ['1.250.000 EUR', 1250000],
    ['', null],
    ['  ', null],
  ])('%j is read as %s', (typed, amount) => expect(parseOffer(typed)).toBe(amount))

  test.each(['4,5', 'viel', '-100', '49.50', '1e6', '12.34.56', '99999999999', '1.500.00', '1,500,00', '$1.500 USD'])('%j is not an offer', (typed) => {
    expect(parseOffer(typed)).toBe('invalid')
  })

  test.each([
    ['$1,500', 1500],
    ['990 USD', 990],
    ['990 $', 990],
    ['1500USD', 1500],
    ['1.500,00 $', 1500],
    ['1,500.00', 1500],
    ['49.00', 49],
    ['usd 1500', 1500],
  ])('%j is read as %s dollars on a USD domain', (typed, amount) => expect(parseOffer(typed, 'USD')).toBe(amount))

  test.each(['990 €', '990 EUR', '£990', '990 CHF'])('%j is not an offer on a USD domain', (typed) => {
    expect(parseOffer(typed, 'USD')).toBe('invalid')
  })

  test.each([
    ['4.900 €', 4900],
    ['4900 EUR', 4900],
    ['4900', 4900],
  ])('%j is read as %s euros on a EUR domain', (typed, amount) => {
    expect(parseOffer(typed, 'EUR')).toBe(amount)
  })

  test.each([
    ['4.900,00 €', { amount: 4900, mark: '€' }],
    ['USD 1,500.00', { amount: 1500, mark: 'USD' }],
    ['1500', { amount: 1500, mark: '' }],
    ['4.900,50 €', 'cents'],
    ['12.34', 'cents'],
    ['4,5', 'cents'],
    ['1.500.000.000', 'range'],
    ['viel', 'format'],
    ['-100', 'format'],
    ['$1.500 USD', 'format'],
    ['', null],
  ])('readAmount reads %j as %j, saying why when it is no whole amount', (typed, read) => expect(readAmount(typed)).toEqual(read))

  test("markFits takes no mark, or the currency's code or symbol, or any currency mark when none is given", () => {
    expect([markFits('', 'EUR'), markFits('€', 'EUR'), markFits('EUR', 'EUR'), markFits('$', 'USD')]).toEqual([true, true, true, true])
    expect([markFits('$', 'EUR'), markFits('EUR', 'USD'), markFits('ABCD')]).toEqual([false, false, false])
    expect([markFits('CHF'), markFits('€')]).toEqual([true, true])
  })

  test('an offer the form cannot read is a field error with a hint', () => {
    expect(checkContact({ ...valid, offer: 'viel' })).toMatchObject({
      fieldErrors: { offer: 'Bitte geben Sie Ihr Angebot als ganzen Betrag in der genannten Währung ein, zum Beispiel 4.900.' },
    })
  })
})

describe('the hints in the language of the page', () => {
  /** Every way a visible field can be wrong, with the German and the English hint. */
  const WRONG = [
    ['an empty name', { name58fnlsd: ' ' }, 'name58fnlsd', 'Bitte geben Sie Ihren Namen ein.', 'Please enter your name.'],
    ['a name that is not text', { name58fnlsd: 42 }, 'name58fnlsd', 'Bitte geben Sie Ihren Namen ein.', 'Please enter your name.'],
    [
      'a name with a line break',
      { name58fnlsd: 'Erika\nBcc: x' },
      'name58fnlsd',
      'Der Name darf keine Zeilenumbrüche oder Steuerzeichen enthalten.',
      'The name must not contain line breaks or control characters.',
    ],
    [
      'a name too long',
      { name58fnlsd: 'n'.repeat(201) },
      'name58fnlsd',
      'Der Name darf höchstens 200 Zeichen lang sein.',
      'The name can be at most 200 characters long.',
    ],
    [
      'an address that is none',
      { themail3h6: 'erika@' },
      'themail3h6',
      'Bitte geben Sie eine gültige E-Mail-Adresse ein.',
      'Please enter a valid email address.',
    ],
    ['no message', { message: undefined }, 'message', 'Bitte geben Sie eine Nachricht ein.', 'Please enter a message.'],
    [
      'a message too long',
      { message: 'm'.repeat(5001) },
      'message',
      'Die Nachricht darf höchstens 5.000 Zeichen lang sein.',
      'The message can be at most 5,000 characters long.',
    ],
    [
      'an offer that is not an amount',
      { offer: 'viel' },
      'offer',
      'Bitte geben Sie Ihr Angebot als ganzen Betrag in der genannten Währung ein, zum Beispiel 4.900.',
      'Please enter your offer as a whole amount in the currency shown, for example 4,900.',
    ],
    [
      'an offer that is not text',
      { offer: 4900 },
      'offer',
      'Bitte geben Sie Ihr Angebot als ganzen Betrag in der genannten Währung ein, zum Beispiel 4.900.',
      'Please enter your offer as a whole amount in the currency shown, for example 4,900.',
    ],
  ] as const

  test.each(WRONG)('%s: German by default and on German pages, English on English ones', (_what, fields, field, german, english) => {
    const input = { ...valid, ...fields }
    expect(checkContact(input)).toMatchObject({ status: 'invalid', fieldErrors: { [field]: german } })
    expect(checkContact(input, 'de')).toMatchObject({ status: 'invalid', fieldErrors: { [field]: german } })
    expect(checkContact(input, 'en')).toMatchObject({ status: 'invalid', fieldErrors: { [field]: english } })
  })

  test('the language changes the words only: the same fields are wrong, the same data valid', () => {
    const input = { ...valid, name58fnlsd: '', themail3h6: 'x', token: 'short' }
    const [german, english] = [checkContact(input, 'de'), checkContact(input, 'en')]
    expect(german.status === 'invalid' && Object.keys(german.fieldErrors)).toEqual(['name58fnlsd', 'themail3h6'])
    expect(english.status === 'invalid' && Object.keys(english.fieldErrors)).toEqual(['name58fnlsd', 'themail3h6'])
    expect(english.status === 'invalid' && english.otherErrors).toEqual(['token'])
    expect(checkContact(valid, 'en')).toEqual(checkContact(valid, 'de'))
  })
})
