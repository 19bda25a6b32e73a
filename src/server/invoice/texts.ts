// The invoice's words: German, or English for an English buyer with the German legal notes kept (decision 038).
import type { Language } from '../../shared/language.ts'

/**
 * The languages of an invoice: German, and English for every buyer who did not write in German (decision 048). The
 * legal notes stay German on every invoice, and an English one is the version a French or Polish buyer can read.
 */
export type InvoiceLanguage = 'de' | 'en'

export const invoiceLanguage = (language: Language): InvoiceLanguage => (language === 'de' ? 'de' : 'en')
import type { TaxCase } from './tax.ts'

/** The legal note of each case, in German always: the tax office reads it. */
export const LEGAL_NOTE_DE: Record<TaxCase, string | null> = {
  standard: null,
  'small-business': 'Steuerbefreiung nach § 19 UStG (Kleinunternehmerregelung): Es wird keine Umsatzsteuer berechnet.',
  'reverse-charge': 'Steuerschuldnerschaft des Leistungsempfängers (§ 13b UStG, Art. 196 MwStSystRL).',
  'outside-eu': 'Nicht im Inland steuerbare Leistung (Leistungsort beim Leistungsempfänger außerhalb der EU, § 3a UStG).',
}

export const LEGAL_NOTE_EN: Record<TaxCase, string | null> = {
  standard: null,
  'small-business': 'No VAT is charged: small business under § 19 UStG.',
  'reverse-charge': 'Reverse charge: the recipient is liable for the VAT (Art. 196 Directive 2006/112/EC).',
  'outside-eu': 'Not subject to German VAT: the place of supply is outside the EU.',
}

interface Words {
  invoice: string
  cancellation: string
  number: string
  date: string
  seller: string
  buyer: string
  taxNumber: string
  vatId: string
  buyerVatId: string
  reference: string
  item: (domain: string) => string
  supply: (month: string, by: string) => string
  paid: (date: string) => string
  net: string
  vat: (rate: string) => string
  gross: string
  cancels: (number: string, date: string) => string
  bank: string
  paidNote: string
  /** An instalment plan's schedule (decision 042). */
  schedule: string
  rate: (number: number) => string
  due: (date: string) => string
  ratePaid: (date: string) => string
  rateOpen: string
  planNote: string
  /** Anzahlungsrechnungen and the final invoice that deducts them (decision 046). */
  advanceInvoice: string
  finalInvoice: string
  rateOf: (number: number, count: number) => string
  advanceItem: (number: number, count: number, domain: string) => string
  advanceSupply: (month: string, by: string) => string
  advancePaid: (date: string) => string
  advanceNote: string
  supplied: (date: string) => string
  deductionsTitle: string
  deduction: (number: string, date: string, rate: string) => string
  deductionAmounts: (net: string, vat: string, gross: string) => string
  deducted: string
  remaining: string
}

export const WORDS: Record<InvoiceLanguage, Words> = {
  de: {
    invoice: 'Rechnung',
    cancellation: 'Stornorechnung',
    number: 'Rechnungsnummer',
    date: 'Rechnungsdatum',
    seller: 'Verkäufer',
    buyer: 'Käufer',
    taxNumber: 'Steuernummer',
    vatId: 'USt-IdNr.',
    buyerVatId: 'USt-IdNr. des Käufers',
    reference: 'Kaufnummer',
    item: (domain) => `Übertragung der Domain ${domain}`,
    supply: (month, by) => `Leistungszeitraum: ${month} (Übertragung bis ${by})`,
    paid: (date) => `Entgelt vereinnahmt am ${date}`,
    net: 'Nettobetrag',
    vat: (rate) => `Umsatzsteuer ${rate} %`,
    gross: 'Gesamtbetrag',
    cancels: (number, date) => `Storniert die Rechnung ${number} vom ${date}.`,
    bank: 'Bankverbindung',
    paidNote: 'Der Betrag ist bereits bezahlt.',
    schedule: 'Zahlungsplan (Ratenzahlung)',
    rate: (number) => (number === 0 ? 'Anzahlung' : `Rate ${number}`),
    due: (date) => `fällig am ${date}`,
    ratePaid: (date) => `bezahlt am ${date}`,
    rateOpen: 'offen',
    planNote: 'Bitte zahlen Sie die offenen Raten jeweils bis zu ihrem Fälligkeitstag mit dem Verwendungszweck der Rate (Kaufseite).',
    advanceInvoice: 'Anzahlungsrechnung',
    finalInvoice: 'Schlussrechnung',
    rateOf: (number, count) => (number === 0 ? 'Anzahlung' : `Rate ${number} von ${count}`),
    advanceItem: (number, count, domain) =>
      number === 0 ? `Anzahlung für die Übertragung der Domain ${domain}` : `Anzahlung (Rate ${number} von ${count}) für die Übertragung der Domain ${domain}`,
    advanceSupply: (month, by) =>
      `Die Leistung ist noch nicht erbracht: Die Domain wird nach der letzten Rate übertragen, voraussichtlich im ${month} (bis ${by}).`,
    advancePaid: (date) => `Anzahlung vereinnahmt am ${date}`,
    advanceNote:
      'Abrechnung über eine Anzahlung für eine noch nicht ausgeführte Leistung (§ 14 Abs. 5 UStG). Die Schlussrechnung nach der Übertragung zieht diese Anzahlung und ihre Umsatzsteuer ab.',
    supplied: (date) => `Leistungsdatum: Übertragung der Domain am ${date}`,
    deductionsTitle: 'Abzüglich der Anzahlungen (§ 14 Abs. 5 Satz 2 UStG)',
    deduction: (number, date, rate) => `Anzahlungsrechnung ${number} vom ${date} (${rate})`,
    deductionAmounts: (net, vat, gross) => `netto ${net}, USt ${vat}, brutto ${gross}`,
    deducted: 'Summe der Anzahlungen',
    remaining: 'Verbleibender Betrag',
  },
  en: {
    invoice: 'Invoice',
    cancellation: 'Cancellation invoice',
    number: 'Invoice number',
    date: 'Invoice date',
    seller: 'Seller',
    buyer: 'Buyer',
    taxNumber: 'Tax number',
    vatId: 'VAT ID',
    buyerVatId: "Buyer's VAT ID",
    reference: 'Purchase number',
    item: (domain) => `Transfer of the domain ${domain}`,
    supply: (month, by) => `Period of supply: ${month} (transfer by ${by})`,
    paid: (date) => `Payment received on ${date}`,
    net: 'Net amount',
    vat: (rate) => `VAT ${rate} %`,
    gross: 'Total',
    cancels: (number, date) => `Cancels invoice ${number} of ${date}.`,
    bank: 'Bank account',
    paidNote: 'This amount has been paid.',
    schedule: 'Payment schedule (instalments)',
    rate: (number) => (number === 0 ? 'Down payment' : `Rate ${number}`),
    due: (date) => `due on ${date}`,
    ratePaid: (date) => `paid on ${date}`,
    rateOpen: 'open',
    planNote: "Please pay each open rate by its due date with the rate's reference (purchase page).",
    advanceInvoice: 'Advance payment invoice',
    finalInvoice: 'Final invoice',
    rateOf: (number, count) => (number === 0 ? 'Down payment' : `Rate ${number} of ${count}`),
    advanceItem: (number, count, domain) =>
      number === 0
        ? `Down payment for the transfer of the domain ${domain}`
        : `Advance payment (rate ${number} of ${count}) for the transfer of the domain ${domain}`,
    advanceSupply: (month, by) => `Not yet supplied: the domain is transferred after the last rate, expected in ${month} (by ${by}).`,
    advancePaid: (date) => `Advance payment received on ${date}`,
    advanceNote: 'Invoice for an advance payment for a supply not yet made. The final invoice after the transfer deducts this payment and its VAT.',
    supplied: (date) => `Date of supply: domain transferred on ${date}`,
    deductionsTitle: 'Less the advance payments',
    deduction: (number, date, rate) => `Advance payment invoice ${number} of ${date} (${rate})`,
    deductionAmounts: (net, vat, gross) => `net ${net}, VAT ${vat}, gross ${gross}`,
    deducted: 'Total of the advance payments',
    remaining: 'Remaining amount',
  },
}

const dateFormats = {
  de: new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', day: '2-digit', month: '2-digit', year: 'numeric' }),
  en: new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Berlin', day: 'numeric', month: 'long', year: 'numeric' }),
}
const monthFormats = {
  de: new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', month: 'long', year: 'numeric' }),
  en: new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Berlin', month: 'long', year: 'numeric' }),
}

export const formatDate = (ms: number, language: InvoiceLanguage) => dateFormats[language].format(new Date(ms))
export const formatMonth = (ms: number, language: InvoiceLanguage) => monthFormats[language].format(new Date(ms))

/** "2026-11-26": the calendar day in Berlin, as the E-Rechnung wants it. */
export const isoDay = (ms: number) => new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Berlin' }).format(new Date(ms))
