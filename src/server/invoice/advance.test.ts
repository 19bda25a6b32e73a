// Anzahlungsrechnungen and the final invoice that deducts them (decision 046), as their receivers read them: the PDF's
// text by poppler's pdftotext says that it is an advance payment and when the supply is expected, with every field
// §14 Abs. 4 UStG asks for; the final invoice lists each advance invoice with its number, date and tax and what
// remains; a business buyer's XML (type 386 for the advance) passes the CII schema and the EN 16931 rules.
import { beforeAll, describe, expect, test } from 'vitest'
import { embeddedXml, pdfText, prepareSchematron, schemaErrors, schematronReport } from '../../../tests/helpers/invoice.ts'
import { splitAmount } from '../deal/instalments.ts'
import {
  advanceDataOf,
  cancellationOf,
  deductionOf,
  invoiceDataOf,
  isBusinessBuyer,
  remainingOf,
  sumOf,
  type BuyerData,
  type InvoiceData,
  type SellerData,
} from './document.ts'
import { facturXOf } from './e-invoice.ts'
import { renderInvoicePdf } from './pdf.ts'

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

const base = (overrides: { seller?: Partial<SellerData>; buyer?: Partial<BuyerData> }) => ({
  language: 'de' as const,
  currency: 'EUR',
  domain: 'beispiel.de',
  dealReference: 'DL-2026-0007',
  seller: { ...SELLER, ...overrides.seller },
  buyer: { ...BUSINESS, ...overrides.buyer },
})

/** A plan of three rates over `total`: the three Anzahlungsrechnungen (numbers 1–3) and the final invoice (4). */
function plan(total: number, overrides: { seller?: Partial<SellerData>; buyer?: Partial<BuyerData> } = {}) {
  const amounts = splitAmount(total, 3)
  const advances = amounts.map((gross, i) =>
    advanceDataOf({
      ...base(overrides),
      sequence: i + 1,
      issuedAt: T0 + i * 30 * DAY,
      paidAt: T0 + i * 30 * DAY,
      supplyBy: T0 + 65 * DAY,
      gross,
      rate: i + 1,
      count: 3,
    }),
  )
  const final = invoiceDataOf({
    ...base(overrides),
    sequence: 4,
    issuedAt: T0 + 64 * DAY,
    paidAt: T0 + 60 * DAY,
    supplyBy: T0 + 64 * DAY,
    gross: total,
    instalments: amounts.map((amount, i) => ({ number: i + 1, amount, dueAt: T0 + i * 30 * DAY, paidAt: T0 + i * 30 * DAY })),
    deductions: advances.map(deductionOf),
  })
  return { advances, final }
}

async function issued(data: InvoiceData) {
  const pdf = await renderInvoicePdf(data)
  return isBusinessBuyer(data.buyer) ? facturXOf(data, pdf) : pdf
}

const flat = (text: string) => text.replace(/\s+/g, ' ')

function expectValid(xml: string) {
  expect(schemaErrors(xml)).toEqual([])
  const report = schematronReport(xml)
  expect(report.rulesFired).toBeGreaterThan(20)
  expect(report.fatal).toEqual([])
}

beforeAll(() => prepareSchematron(), 300_000)

describe('an Anzahlungsrechnung to a business in Germany', () => {
  const { advances } = plan(100_000)
  let pdf: Buffer
  let text = ''
  beforeAll(async () => {
    pdf = await issued(advances[1]!)
    text = flat(pdfText(pdf, true))
  }, 60_000)

  test('says it is one, over which payment, and holds every field §14 Abs. 4 UStG requires', () => {
    for (const field of [
      'Anzahlungsrechnung',
      'Jürgen Müller Domains',
      'Hauptstraße 5',
      '10115 Berlin',
      'Beispiel GmbH',
      'Erika Käufer',
      'Marktplatz 1',
      '80331 München',
      'Steuernummer: 27/123/45678',
      'USt-IdNr.: DE123456789',
      'Rechnungsnummer RE-00002',
      'Rechnungsdatum 26.12.2026',
      'Anzahlung (Rate 2 von 3) für die Übertragung der Domain beispiel.de',
      // Nr. 6 for an advance payment: when it was received, and the supply still to come with its expected time.
      'Anzahlung vereinnahmt am 26.12.2026',
      'Die Leistung ist noch nicht erbracht: Die Domain wird nach der letzten Rate übertragen, voraussichtlich im Januar 2027 (bis 30.01.2027).',
      // 333,33 € gross: 280,11 net + 53,22 VAT.
      'Nettobetrag 280,11 EUR',
      'Umsatzsteuer 19 % 53,22 EUR',
      'Gesamtbetrag 333,33 EUR',
      'Abrechnung über eine Anzahlung für eine noch nicht ausgeführte Leistung (§ 14 Abs. 5 UStG).',
    ])
      expect(text).toContain(field)
  })

  test('is a Factur-X prepayment invoice (type 386) that passes the CII schema and the EN 16931 rules', () => {
    const { xml } = embeddedXml(pdf)
    expectValid(xml!)
    expect(xml).toContain('<ram:TypeCode>386</ram:TypeCode>')
    expect(xml).toContain('<ram:ID>RE-00002</ram:ID>')
    expect(xml).toMatch(/<ram:GrandTotalAmount>333\.33<\/ram:GrandTotalAmount>/)
    expect(xml).toMatch(/<ram:TaxTotalAmount currencyID="EUR">53\.22<\/ram:TaxTotalAmount>/)
    expect(xml).toMatch(/<ram:DuePayableAmount>0\.00<\/ram:DuePayableAmount>/)
    // Not supplied yet: no delivery date.
    expect(xml).not.toContain('ActualDeliverySupplyChainEvent')
  })
})

describe('the final invoice of a plan paid in advance', () => {
  test('lists the whole price, deducts each Anzahlungsrechnung with its number, date and tax, and leaves nothing', async () => {
    const { advances, final } = plan(100_000)
    const pdf = await issued(final)
    const text = flat(pdfText(pdf, true))
    expect(text).toContain('Schlussrechnung')
    expect(text).toContain('Rechnungsnummer RE-00004')
    expect(text).toContain('Leistungsdatum: Übertragung der Domain am 29.01.2027')
    expect(text).toContain('Gesamtbetrag 1.000,00 EUR')
    expect(text).toContain('Abzüglich der Anzahlungen (§ 14 Abs. 5 Satz 2 UStG)')
    expect(text).toContain('Anzahlungsrechnung RE-00001 vom 26.11.2026 (Rate 1 von 3): netto 280,12 EUR, USt 53,22 EUR, brutto 333,34 EUR')
    expect(text).toContain('Anzahlungsrechnung RE-00002 vom 26.12.2026 (Rate 2 von 3): netto 280,11 EUR, USt 53,22 EUR, brutto 333,33 EUR')
    expect(text).toContain('Anzahlungsrechnung RE-00003 vom 25.01.2027 (Rate 3 von 3): netto 280,11 EUR, USt 53,22 EUR, brutto 333,33 EUR')
    expect(text).toContain('Summe der Anzahlungen: netto 840,34 EUR, USt 159,66 EUR, brutto 1.000,00 EUR')
    expect(text).toContain('Verbleibender Betrag: netto 0,00 EUR, USt 0,00 EUR, brutto 0,00 EUR')
    // The totals are the advance payments' own splits added up: what the advance invoices showed is what is deducted.
    expect(text).toContain('Nettobetrag 840,34 EUR')
    expect(text).toContain('Umsatzsteuer 19 % 159,66 EUR')
    expect(sumOf(advances.map((advance) => advance.amounts))).toEqual(final.amounts)
    const { xml } = embeddedXml(pdf)
    expectValid(xml!)
    expect(xml).toContain('<ram:TypeCode>380</ram:TypeCode>')
    expect(xml).toContain('Anzahlungsrechnung RE-00001 vom 26.11.2026 (Rate 1 von 3), netto 280.12, USt 53.22, brutto 333.34 EUR')
    expect(xml).toMatch(/<ram:TotalPrepaidAmount>1000\.00<\/ram:TotalPrepaidAmount>/)
    expect(xml).toMatch(/<ram:DuePayableAmount>0\.00<\/ram:DuePayableAmount>/)
  }, 60_000)

  test('adds up with its advance invoices to the whole price, net, VAT and gross, to the cent, for any total and rate', () => {
    for (let total = 300; total < 2_000_000; total += 7919) {
      for (const vatRate of [1900, 700, 750]) {
        const { advances, final } = plan(total, { seller: { vatRate } })
        const deducted = sumOf(advances.map((advance) => advance.amounts))
        expect(deducted).toEqual(final.amounts)
        expect(final.amounts.net + final.amounts.vat).toBe(total)
        expect(remainingOf(final)).toEqual({ net: 0, vat: 0, gross: 0, rateBasisPoints: vatRate })
        // Each payment's own VAT is the rest of its gross after its net rounded half up: within (1 + rate) / 2 cents of net × rate.
        for (const { amounts } of advances) expect(Math.abs(amounts.vat * 10_000 - amounts.net * vatRate)).toBeLessThanOrEqual((10_000 + vatRate) / 2)
      }
    }
  })
})

describe('the notes of each case on an Anzahlungsrechnung', () => {
  test('a Kleinunternehmer, a reverse charge and a buyer outside the EU keep their notes and validate', async () => {
    for (const [overrides, note, category] of [
      [{ seller: { smallBusiness: true, vatId: null } }, 'Steuerbefreiung nach § 19 UStG', 'E'],
      [{ buyer: { country: 'FR', vatId: 'FR40303265045', city: 'Paris', postcode: '75001' } }, 'Steuerschuldnerschaft des Leistungsempfängers', 'AE'],
      [{ buyer: { country: 'CH', vatId: 'CHE123456789', city: 'Zürich', postcode: '8001' } }, 'Nicht im Inland steuerbare Leistung', 'O'],
    ] as const) {
      const pdf = await issued(plan(100_000, overrides).advances[0]!)
      const text = flat(pdfText(pdf, true))
      expect(text).toContain(note)
      expect(text).toContain('Umsatzsteuer 0 % 0,00 EUR')
      expect(text).toContain('Gesamtbetrag 333,34 EUR')
      const { xml } = embeddedXml(pdf)
      expectValid(xml!)
      expect(xml).toContain(`<ram:CategoryCode>${category}</ram:CategoryCode>`)
      expect(xml).toContain('<ram:TypeCode>386</ram:TypeCode>')
    }
  }, 180_000)
})

test('the Stornorechnung of an Anzahlungsrechnung names it, negates its amounts and is a valid credit note', async () => {
  const { advances } = plan(100_000)
  const data = cancellationOf(advances[0]!, 5, T0 + 40 * DAY)
  const pdf = await issued(data)
  const text = flat(pdfText(pdf, true))
  expect(text).toContain('Stornorechnung')
  expect(text).toContain('Rechnungsnummer RE-00005')
  expect(text).toContain('Storniert die Rechnung RE-00001 vom 26.11.2026.')
  expect(text).toContain('Anzahlung (Rate 1 von 3) für die Übertragung der Domain beispiel.de')
  expect(text).toContain('Gesamtbetrag -333,34 EUR')
  const { xml } = embeddedXml(pdf)
  expectValid(xml!)
  expect(xml).toContain('<ram:TypeCode>381</ram:TypeCode>')
}, 60_000)

test('an English buyer reads "Advance payment invoice", with the German legal note kept', async () => {
  const advance = advanceDataOf({
    ...base({ buyer: { country: 'IE', vatId: 'IE6388047V', city: 'Dublin', postcode: 'D02' } }),
    language: 'en',
    sequence: 1,
    issuedAt: T0,
    paidAt: T0,
    supplyBy: T0 + 65 * DAY,
    gross: 20_000,
    rate: 0,
    count: 3,
  })
  const text = flat(pdfText(await issued(advance), true))
  expect(text).toContain('Advance payment invoice')
  expect(text).toContain('Down payment for the transfer of the domain beispiel.de')
  expect(text).toContain('Steuerschuldnerschaft des Leistungsempfängers')
}, 60_000)
