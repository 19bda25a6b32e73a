// The invoice as its receivers read it (decisions 038, 039): the PDF's text by poppler's pdftotext holds every field
// §14 Abs. 4 UStG asks for and the right legal note of each case; a business buyer's PDF carries a Factur-X XML that
// the CII schema (xmllint) and the EN 16931 Schematron rules accept; what a buyer typed is text in both.
import { beforeAll, describe, expect, test } from 'vitest'
import { embeddedXml, pdfaMarkers, pdfText, pdfWords, prepareSchematron, schemaErrors, schematronReport } from '../../../tests/helpers/invoice.ts'
import { buyerOf, cancellationOf, invoiceDataOf, isBusinessBuyer, type BuyerData, type InvoiceData, type SellerData } from './document.ts'
import { facturXOf } from './e-invoice.ts'
import { renderInvoicePdf } from './pdf.ts'
import { invoiceLanguage } from './texts.ts'

const T0 = Date.UTC(2026, 10, 26, 10)
const DAY = 86_400_000

const SELLER: SellerData = {
  name: 'Jürgen Müller Domains',
  street: 'Hauptstraße 5',
  postcode: '10115',
  city: 'Berlin',
  country: 'DE',
  taxNumber: '27/123/45678',
  vatId: 'DE123456789',
  smallBusiness: false,
  vatRate: 1900,
  iban: 'DE89370400440532013000',
  bic: 'COBADEFFXXX',
  bankName: 'Commerzbank',
}
const BUSINESS: BuyerData = {
  name: 'Erika Käufer',
  company: 'Beispiel GmbH',
  street: 'Marktplatz 1',
  postcode: '80331',
  city: 'München',
  country: 'DE',
  vatId: 'DE987654321',
}

function invoice(
  overrides: { seller?: Partial<SellerData>; buyer?: Partial<BuyerData>; language?: 'de' | 'en'; gross?: number; currency?: string } = {},
): InvoiceData {
  return invoiceDataOf({
    sequence: 42,
    issuedAt: T0,
    paidAt: T0,
    supplyBy: T0 + 5 * DAY,
    language: overrides.language ?? 'de',
    currency: overrides.currency ?? 'EUR',
    gross: overrides.gross ?? 595_000,
    domain: 'beispiel.de',
    dealReference: 'DL-2026-0007',
    seller: { ...SELLER, ...overrides.seller },
    buyer: { ...BUSINESS, ...overrides.buyer },
  })
}

/** The PDF as issued: a Factur-X for a business buyer. */
async function issued(data: InvoiceData) {
  const pdf = await renderInvoicePdf(data)
  return isBusinessBuyer(data.buyer) ? facturXOf(data, pdf) : pdf
}

/** Text with its runs of white space made one space: what a reader sees, whatever the layout. */
const flat = (text: string) => text.replace(/\s+/g, ' ')

/** Checks the XML with both validators: no schema error and no fatal EN 16931 rule broken. */
function expectValid(xml: string) {
  expect(schemaErrors(xml)).toEqual([])
  const report = schematronReport(xml)
  expect(report.rulesFired).toBeGreaterThan(20)
  expect(report.fatal).toEqual([])
}

beforeAll(() => prepareSchematron(), 300_000)

describe('a German invoice to a business in Germany', () => {
  let text = ''
  let pdf: Buffer
  beforeAll(async () => {
    pdf = await issued(invoice())
    text = flat(pdfText(pdf, true))
  }, 60_000)

  test('holds every field §14 Abs. 4 UStG requires, found in the PDF by a text extraction', () => {
    for (const field of [
      // Nr. 1: both parties' names and addresses.
      'Jürgen Müller Domains',
      'Hauptstraße 5',
      '10115 Berlin',
      'Beispiel GmbH',
      'Erika Käufer',
      'Marktplatz 1',
      '80331 München',
      // Nr. 2: the seller's tax number and VAT ID.
      'Steuernummer: 27/123/45678',
      'USt-IdNr.: DE123456789',
      // Nr. 3 and 4: date and unique number.
      'Rechnungsdatum 26.11.2026',
      'Rechnungsnummer RE-00042',
      // Nr. 5: what was supplied. Nr. 6: when.
      'Übertragung der Domain beispiel.de',
      'Leistungszeitraum: Dezember 2026 (Übertragung bis 01.12.2026)',
      // Nr. 7 and 8: net amount, rate and VAT, gross.
      'Nettobetrag 5.000,00 EUR',
      'Umsatzsteuer 19 % 950,00 EUR',
      'Gesamtbetrag 5.950,00 EUR',
    ])
      expect(text).toContain(field)
    expect(text).toContain('Kaufnummer DL-2026-0007')
  })

  test('is a Factur-X whose XML passes the CII schema and the EN 16931 rules, with the same number and amounts', () => {
    const { names, xml } = embeddedXml(pdf)
    expect(names).toEqual(['factur-x.xml'])
    expectValid(xml!)
    expect(xml).toContain('<ram:ID>RE-00042</ram:ID>')
    expect(xml).toContain('<ram:ID>urn:cen.eu:en16931:2017</ram:ID>')
    expect(xml).toMatch(/<ram:GrandTotalAmount>5950\.00<\/ram:GrandTotalAmount>/)
    expect(xml).toMatch(/<ram:TaxTotalAmount currencyID="EUR">950\.00<\/ram:TaxTotalAmount>/)
    expect(xml).toMatch(/<ram:DuePayableAmount>0\.00<\/ram:DuePayableAmount>/)
  })

  test('declares itself a PDF/A-3b with the Factur-X EN 16931 XML as its data, every font embedded (markers only, decision 039)', () => {
    expect(pdfaMarkers(pdf)).toEqual({
      part: '3',
      conformance: 'B',
      facturX: { documentType: 'INVOICE', fileName: 'factur-x.xml', conformanceLevel: 'EN 16931' },
      outputIntent: true,
      afRelationship: 'Alternative',
      allFontsEmbedded: true,
    })
  })
})

describe('the legal note of each case, in the PDF and the E-Rechnung', () => {
  test('a Kleinunternehmer: no VAT, the note of §19 UStG (category E)', async () => {
    const data = invoice({ seller: { smallBusiness: true, vatId: null } })
    const pdf = await issued(data)
    const text = flat(pdfText(pdf, true))
    expect(text).toContain('Steuerbefreiung nach § 19 UStG (Kleinunternehmerregelung): Es wird keine Umsatzsteuer berechnet.')
    expect(text).toContain('Umsatzsteuer 0 % 0,00 EUR')
    expect(text).toContain('Gesamtbetrag 5.950,00 EUR')
    const { xml } = embeddedXml(pdf)
    expectValid(xml!)
    expect(xml).toContain('<ram:CategoryCode>E</ram:CategoryCode>')
  }, 60_000)

  test('a business in another member state with its VAT ID: reverse charge, "Steuerschuldnerschaft des Leistungsempfängers"', async () => {
    const data = invoice({ buyer: { country: 'FR', vatId: 'FR40303265045', city: 'Paris', postcode: '75001' } })
    expect(data.taxCase).toBe('reverse-charge')
    const pdf = await issued(data)
    const text = flat(pdfText(pdf, true))
    expect(text).toContain('Steuerschuldnerschaft des Leistungsempfängers')
    expect(text).toContain('USt-IdNr. des Käufers: FR40303265045')
    expect(text).toContain('Nettobetrag 5.950,00 EUR')
    const { xml } = embeddedXml(pdf)
    expectValid(xml!)
    expect(xml).toContain('<ram:CategoryCode>AE</ram:CategoryCode>')
    expect(xml).toContain('<ram:ExemptionReasonCode>VATEX-EU-AE</ram:ExemptionReasonCode>')
  }, 60_000)

  test('a buyer outside the EU: not taxable in Germany (category O, no VAT IDs in the XML)', async () => {
    const data = invoice({ buyer: { country: 'CH', vatId: 'CHE123456789', city: 'Zürich', postcode: '8001' } })
    expect(data.taxCase).toBe('outside-eu')
    const pdf = await issued(data)
    expect(flat(pdfText(pdf, true))).toContain('Nicht im Inland steuerbare Leistung (Leistungsort beim Leistungsempfänger außerhalb der EU, § 3a UStG).')
    const { xml } = embeddedXml(pdf)
    expectValid(xml!)
    expect(xml).toContain('<ram:CategoryCode>O</ram:CategoryCode>')
    expect(xml).not.toContain('DE123456789')
  }, 60_000)

  test('a consumer (no company, no VAT ID) gets the PDF without an E-Rechnung', async () => {
    const data = invoice({ buyer: { company: null, vatId: null } })
    const pdf = await issued(data)
    expect(embeddedXml(pdf)).toEqual({ names: [], xml: null })
    expect(flat(pdfText(pdf, true))).toContain('Umsatzsteuer 19 % 950,00 EUR')
  }, 60_000)
})

test('an English buyer reads English, with the German legal note kept above the English one', async () => {
  const data = invoice({ language: 'en', buyer: { country: 'IE', vatId: 'IE6388047V', city: 'Dublin', postcode: 'D02' } })
  const text = flat(pdfText(await issued(data), true))
  expect(text).toContain('Invoice number RE-00042')
  expect(text).toContain('Transfer of the domain beispiel.de')
  expect(text).toContain('Total EUR 5,950.00')
  expect(text).toContain('Steuerschuldnerschaft des Leistungsempfängers (§ 13b UStG, Art. 196 MwStSystRL).')
  expect(text).toContain('Reverse charge: the recipient is liable for the VAT')
}, 60_000)

test('a Stornorechnung has its own number, names the invoice it cancels and negates the amounts; its XML is a valid credit note', async () => {
  const original = invoice()
  const data = cancellationOf(original, 43, T0 + 3 * DAY)
  const pdf = await issued(data)
  const text = flat(pdfText(pdf, true))
  expect(text).toContain('Stornorechnung')
  expect(text).toContain('Rechnungsnummer RE-00043')
  expect(text).toContain('Storniert die Rechnung RE-00042 vom 26.11.2026.')
  expect(text).toContain('Gesamtbetrag -5.950,00 EUR')
  const { xml } = embeddedXml(pdf)
  expectValid(xml!)
  expect(xml).toContain('<ram:TypeCode>381</ram:TypeCode>')
  expect(xml).toContain('<ram:Content>Storniert die Rechnung RE-00042.</ram:Content>')
}, 60_000)

describe('what a buyer typed', () => {
  const typed = {
    name: '<script>alert(1)</script> & "Käufer"',
    company: '</ram:Name><ram:ID>evil</ram:ID> GmbH',
    street: ']]><!-- x --> Weg 1',
    postcode: '1&2',
    city: '<b>Stadt</b>',
  }

  test('is text in the PDF and in the XML (escaped, never markup), and the XML still validates', async () => {
    const data = invoice({ buyer: typed })
    const pdf = await issued(data)
    const text = flat(pdfText(pdf, true))
    for (const value of Object.values(typed)) expect(text).toContain(value)
    const { xml } = embeddedXml(pdf)
    expectValid(xml!)
    expect(xml).toContain('&lt;/ram:Name&gt;&lt;ram:ID&gt;evil&lt;/ram:ID&gt; GmbH')
    expect(xml).not.toContain('<ram:ID>evil</ram:ID>')
    expect(xml).not.toContain('<script>')
  }, 60_000)

  test('is printed as it is: a bidi override named, not obeyed; what the font cannot draw named; a long word wrapped in its column; the XML keeps it whole', async () => {
    const hostile = {
      name: 'محمد علي \uFDFD',
      company: '\u202Eexe.fdp GmbH',
      // 200 characters without a space, wider than the page.
      street: `${'Lindenstraße'.repeat(16)}Weg12345`,
      postcode: '\u202E1234',
      city: 'Köln',
      vatId: 'DE111222333',
    }
    const pdf = await issued(invoice({ buyer: hostile }))
    const text = flat(pdfText(pdf, true))
    expect(text).not.toContain('pdf.exe')
    expect(text).not.toContain('4321')
    expect(text).not.toContain('nlöK')
    expect(text).toContain('<U+202E>exe.fdp GmbH')
    expect(text).toContain('<U+202E>1234 Köln')
    // No glyph of another font: Arabic and U+FDFD by their names, nothing in their place.
    // (Both columns share the extracted lines: the name's two words are checked on their own.)
    expect(text).toContain('<U+0645><U+062D><U+0645><U+062F>')
    expect(text).toContain('<U+0639><U+0644><U+064A> <U+FDFD>')
    expect(text).not.toMatch(/ý|[؀-ۿ﷽]/)
    // The street entirely on the page, inside its margin, on lines that read as the street when joined.
    const { pageWidth, words } = pdfWords(pdf)
    const street = words.filter((word) => word.text.length >= 8 && hostile.street.includes(word.text))
    expect(street.map((word) => word.text).join('')).toBe(hostile.street)
    expect(street.length).toBeGreaterThan(1)
    for (const word of words) expect(word.xMax, word.text).toBeLessThanOrEqual(pageWidth - 48 + 0.5)
    // The E-Rechnung is the legal record: every character as the buyer typed it.
    const { xml } = embeddedXml(pdf)
    for (const value of [hostile.name, hostile.company, hostile.street, hostile.postcode]) expect(xml).toContain(value)
    expectValid(xml!)
  }, 60_000)

  test('loses its control characters and line breaks before it is frozen into the invoice', () => {
    const buyer = buyerOf({
      name: 'Erika\u0007 \u001b[31mRot\r\nZeile',
      company: null,
      street: 'Weg\u0000 1',
      postcode: '10115',
      city: 'Berlin\u2028Mitte',
      country: 'DE',
      vatId: null,
    })
    expect(buyer).toEqual({ name: 'Erika [31mRot Zeile', company: null, street: 'Weg 1', postcode: '10115', city: 'Berlin Mitte', country: 'DE', vatId: null })
  })

  test('without a postal address there is no buyer to invoice', () => {
    expect(buyerOf({ name: 'Erika', company: null, street: null, postcode: null, city: null, country: null, vatId: null })).toBeNull()
  })
})

test('an invoice is German for a German buyer and English for a buyer of any other language of the pages', () => {
  expect(invoiceLanguage('de')).toBe('de')
  for (const language of ['en', 'fr', 'es', 'it', 'nl', 'pl'] as const) expect(invoiceLanguage(language)).toBe('en')
})
