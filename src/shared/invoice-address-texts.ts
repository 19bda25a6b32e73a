// The deal page's invoice address (decision 038): asked of a buyer whose deal came from a negotiation, whose postal
// address the invoice needs (§14 Abs. 4 UStG). The fields' own labels and hints are the checkout's (texts.ts).
import { DEAL_PAGES } from './deal-texts.ts'
import type { InvoiceAddressWords } from './deal-words.ts'
import type { Language } from './language.ts'

export const INVOICE_ADDRESS_TEXTS: Record<Language, InvoiceAddressWords> = {
  fr: DEAL_PAGES.fr.invoiceAddress,
  es: DEAL_PAGES.es.invoiceAddress,
  it: DEAL_PAGES.it.invoiceAddress,
  nl: DEAL_PAGES.nl.invoiceAddress,
  pl: DEAL_PAGES.pl.invoiceAddress,
  de: {
    title: 'Rechnungsanschrift',
    intro:
      'Für Ihre Rechnung brauchen wir Ihren Namen und Ihre Anschrift (§ 14 UStG). Sie erhalten die Rechnung mit der Zahlungsbestätigung; bis dahin können Sie die Angaben hier ändern.',
    saved: 'Ihre Rechnungsanschrift ist gespeichert. Bis die Rechnung ausgestellt ist, können Sie sie hier ändern.',
    invalid: 'Bitte prüfen Sie die markierten Felder.',
    submit: 'Rechnungsanschrift speichern',
  },
  en: {
    title: 'Billing address',
    intro:
      'For your invoice we need your name and postal address (German VAT law requires them). You receive the invoice with the confirmation of your payment; until then you can change them here.',
    saved: 'Your billing address is saved. You can change it here until the invoice is issued.',
    invalid: 'Please check the marked fields.',
    submit: 'Save billing address',
  },
}
