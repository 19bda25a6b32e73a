// The E-Rechnung for a business buyer: Factur-X / ZUGFeRD, profile EN 16931, the CII XML inside the PDF made a
// PDF/A-3, produced by @e-invoice-eu/core from the frozen data (decision 039). Tested against the CII schema and
// the EN 16931 Schematron rules (tests/integration/invoices.test.ts).
import { type Invoice, InvoiceService } from '@e-invoice-eu/core'
import { decimalOf } from '../lib/money.ts'
import { sumOf, type InvoiceData } from './document.ts'
import { rateText } from './tax.ts'
import { LEGAL_NOTE_DE, LEGAL_NOTE_EN, WORDS, formatDate, formatMonth, isoDay } from './texts.ts'

/** EN 16931's VAT category of each case (UNTDID 5305), with the exemption reason code where one is required. */
const CATEGORY = {
  standard: { id: 'S', exemption: null },
  'small-business': { id: 'E', exemption: null },
  'reverse-charge': { id: 'AE', exemption: 'VATEX-EU-AE' },
  'outside-eu': { id: 'O', exemption: 'VATEX-EU-O' },
} as const

/** The library's silent logger: what it would say goes nowhere near the server's log (no personal data there). */
const quiet = { log() {}, warn() {}, error() {} }

/**
 * The internal format of @e-invoice-eu/core (UBL names) of an invoice or a Stornorechnung (type 381, credit note).
 * The credit note's reference to the cancelled invoice (BT-25) is passed, but @e-invoice-eu/core 2.3.4 leaves it out
 * of CII; the note (BT-22) names the cancelled invoice instead (decision 039).
 */
function eInvoiceOf(data: InvoiceData): Invoice {
  const { seller, buyer, currency, taxCase } = data
  const cancellation = data.kind === 'cancellation'
  // A credit note carries the amounts of what it cancels, positive (EN 16931 BT-3 = 381).
  const amount = (minor: number) => decimalOf(Math.abs(minor), currency)
  const { net, vat, gross } = data.amounts
  const category = CATEGORY[taxCase]
  // Category O forbids every VAT ID on the invoice (BR-O-02, -03, -04): the tax number stands for the seller there.
  const vatIds = taxCase !== 'outside-eu'
  const legal = LEGAL_NOTE_DE[taxCase]
  const de = WORDS.de
  // An Anzahlungsrechnung says that it is one (UStAE 14.8 Abs. 1) and when the supply is expected; a final invoice
  // names the ones it deducts: CII D16B has room for one preceding invoice (BT-25), the note for all (decision 046).
  const advanceNotes = data.advance ? [de.advanceNote, de.advanceSupply(formatMonth(data.supplyBy, 'de'), formatDate(data.supplyBy, 'de'))] : []
  const deducted = sumOf((data.deductions ?? []).map((deduction) => deduction.amounts))
  const deductionNotes = data.deductions?.length
    ? [
        `${de.deductionsTitle}: ${data.deductions.map((d) => `${de.deduction(d.number, formatDate(d.issuedAt, 'de'), de.rateOf(d.rate, d.count))}, ${de.deductionAmounts(amount(d.amounts.net), amount(d.amounts.vat), amount(d.amounts.gross))} ${currency}`).join('; ')}.`,
      ]
    : []
  // What was paid before this document: the whole price (an invoice is issued once it is received); for a credit
  // note, what the cancelled invoice had deducted.
  const prepaid = cancellation ? Math.abs(deducted.gross) : Math.abs(gross)
  // Category O has no rate at all (BR-O-05, -06); the others say theirs (0 % when exempt).
  const percent = taxCase === 'outside-eu' ? {} : { 'cbc:Percent': taxCase === 'standard' ? rateText(data.amounts.rateBasisPoints, '.') : '0' }
  const taxCategory = {
    'cbc:ID': category.id,
    ...percent,
    ...(taxCase !== 'standard' && { 'cbc:TaxExemptionReason': LEGAL_NOTE_EN[taxCase] ?? '' }),
    ...(category.exemption && { 'cbc:TaxExemptionReasonCode': category.exemption }),
    'cac:TaxScheme': { 'cbc:ID': 'VAT' },
  }
  const sellerTax = [
    ...(vatIds && seller.vatId ? [{ 'cbc:CompanyID': seller.vatId, 'cac:TaxScheme': { 'cbc:ID': 'VAT' } }] : []),
    ...(seller.taxNumber ? [{ 'cbc:CompanyID': seller.taxNumber, 'cac:TaxScheme': { 'cbc:ID': 'FC' } }] : []),
  ]
  const invoice = {
    'ubl:Invoice': {
      'cbc:CustomizationID': 'urn:cen.eu:en16931:2017',
      'cbc:ID': data.number,
      'cbc:IssueDate': isoDay(data.issuedAt),
      // 386: prepayment invoice (UNTDID 1001), the Anzahlungsrechnung; 381 a credit note; 380 a commercial invoice.
      'cbc:InvoiceTypeCode': cancellation ? '381' : data.kind === 'advance' ? '386' : '380',
      'cbc:Note': [legal, ...advanceNotes, ...deductionNotes, cancellation && data.cancels ? `Storniert die Rechnung ${data.cancels.number}.` : null].filter(
        (note) => note !== null,
      ),
      'cbc:DocumentCurrencyCode': currency,
      'cbc:BuyerReference': data.dealReference,
      ...(cancellation &&
        data.cancels && {
          'cac:BillingReference': [{ 'cac:InvoiceDocumentReference': { 'cbc:ID': data.cancels.number, 'cbc:IssueDate': isoDay(data.cancels.issuedAt) } }],
        }),
      'cac:AccountingSupplierParty': {
        'cac:Party': {
          'cac:PostalAddress': {
            'cbc:StreetName': seller.street,
            'cbc:CityName': seller.city,
            'cbc:PostalZone': seller.postcode,
            'cac:Country': { 'cbc:IdentificationCode': seller.country },
          },
          ...(sellerTax.length && { 'cac:PartyTaxScheme': sellerTax }),
          // Without a VAT ID in the XML the buyer's software needs another identifier of the seller (BR-CO-26): the
          // tax number as BT-30 (@e-invoice-eu/core 2.3.4 does not carry BT-29 into CII; decision 039).
          'cac:PartyLegalEntity': {
            'cbc:RegistrationName': seller.name,
            ...(!(vatIds && seller.vatId) && { 'cbc:CompanyID': seller.taxNumber ?? seller.vatId }),
          },
        },
      },
      'cac:AccountingCustomerParty': {
        'cac:Party': {
          'cac:PostalAddress': {
            'cbc:StreetName': buyer.street,
            'cbc:CityName': buyer.city,
            'cbc:PostalZone': buyer.postcode,
            'cac:Country': { 'cbc:IdentificationCode': buyer.country },
          },
          ...(vatIds && buyer.vatId && { 'cac:PartyTaxScheme': { 'cbc:CompanyID': buyer.vatId, 'cac:TaxScheme': { 'cbc:ID': 'VAT' } } }),
          'cac:PartyLegalEntity': { 'cbc:RegistrationName': buyer.company ?? buyer.name },
          ...(buyer.company && { 'cac:Contact': { 'cbc:Name': buyer.name } }),
        },
      },
      // Not yet supplied when an Anzahlungsrechnung is issued: no delivery date (the note says when it is expected).
      // CII needs the delivery element all the same, and the library writes it only with content: the deliver-to
      // party (BT-70), the buyer, who receives the domain (decision 046).
      'cac:Delivery': data.advance
        ? { 'cac:DeliveryParty': { 'cac:PartyName': { 'cbc:Name': buyer.company ?? buyer.name } } }
        : { 'cbc:ActualDeliveryDate': isoDay(data.supplyBy) },
      ...(seller.iban && {
        'cac:PaymentMeans': [
          {
            'cbc:PaymentMeansCode': '58',
            'cbc:PaymentID': data.dealReference,
            'cac:PayeeFinancialAccount': { 'cbc:ID': seller.iban, ...(seller.bic && { 'cac:FinancialInstitutionBranch': { 'cbc:ID': seller.bic } }) },
          },
        ],
      }),
      'cac:TaxTotal': [
        {
          'cbc:TaxAmount': amount(vat),
          'cbc:TaxAmount@currencyID': currency,
          'cac:TaxSubtotal': [
            {
              'cbc:TaxableAmount': amount(net),
              'cbc:TaxableAmount@currencyID': currency,
              'cbc:TaxAmount': amount(vat),
              'cbc:TaxAmount@currencyID': currency,
              'cac:TaxCategory': taxCategory,
            },
          ],
        },
      ],
      'cac:LegalMonetaryTotal': {
        'cbc:LineExtensionAmount': amount(net),
        'cbc:LineExtensionAmount@currencyID': currency,
        'cbc:TaxExclusiveAmount': amount(net),
        'cbc:TaxExclusiveAmount@currencyID': currency,
        'cbc:TaxInclusiveAmount': amount(gross),
        'cbc:TaxInclusiveAmount@currencyID': currency,
        // The price was received before the invoice (it is issued when the owner marks the deal paid).
        ...(prepaid !== 0 && { 'cbc:PrepaidAmount': amount(prepaid), 'cbc:PrepaidAmount@currencyID': currency }),
        'cbc:PayableAmount': amount(Math.abs(gross) - prepaid),
        'cbc:PayableAmount@currencyID': currency,
      },
      'cac:InvoiceLine': [
        {
          'cbc:ID': '1',
          'cbc:InvoicedQuantity': '1',
          'cbc:InvoicedQuantity@unitCode': 'C62',
          'cbc:LineExtensionAmount': amount(net),
          'cbc:LineExtensionAmount@currencyID': currency,
          'cac:Item': {
            'cbc:Name': data.advance ? de.advanceItem(data.advance.rate, data.advance.count, data.domain) : `Übertragung der Domain ${data.domain}`,
            'cac:ClassifiedTaxCategory': { 'cbc:ID': category.id, ...percent, 'cac:TaxScheme': { 'cbc:ID': 'VAT' } },
          },
          'cac:Price': { 'cbc:PriceAmount': amount(net), 'cbc:PriceAmount@currencyID': currency },
        },
      ],
    },
  }
  return JSON.parse(JSON.stringify(invoice)) as Invoice
}

/** The PDF made a Factur-X (EN 16931) PDF/A-3 with its XML inside. */
export async function facturXOf(data: InvoiceData, pdf: Buffer): Promise<Buffer> {
  const service = new InvoiceService(quiet)
  const result = await service.generate(eInvoiceOf(data), {
    format: 'Factur-X-EN16931',
    lang: data.language === 'de' ? 'de-de' : 'en-gb',
    pdf: { buffer: pdf, filename: `${data.number}.pdf`, mimetype: 'application/pdf' },
    noWarnings: true,
  })
  return Buffer.from(result as Uint8Array)
}
