// Every German text the visitor sees, in one place, so server and browser show the same words. The other languages'
// tables (texts-en.ts, texts-fr.ts, …) must have the type `Texts`, made from this one: a text added here without its
// translations does not compile (texts-all.ts). German and English are always here; the others are added when a
// page needs them (the server at start, the browser before it hydrates a page in that language; decision 048).
import type { Language } from './language.ts'
import { EN } from './texts-en.ts'

export const TEXT = {
  interested: 'Haben Sie Interesse an dieser Domain?',
  forSale: (host: string) => `Die Domain ${host} ist zu verkaufen.`,
  writeUs: 'Schreiben Sie uns eine Nachricht',
  title: (host: string) => `${host} steht zum Verkauf`,
  titleSold: (host: string) => `${host} wurde verkauft`,
  description: (host: string) => `Die Domain ${host} ist zu verkaufen. Schreiben Sie dem Inhaber direkt eine Nachricht.`,
  labelName: 'Name',
  labelEmail: 'E-Mail',
  labelMessage: 'Nachricht',
  submit: 'Senden',
  success: 'Anfrage erfolgreich versendet.',
  successVerify: 'Fast geschafft: Bitte bestätigen Sie Ihre Anfrage über den Link in der E-Mail, die wir Ihnen gerade gesendet haben.',
  // The page of a confirmation link (confirm/route.ts).
  confirmTitle: 'Anfrage bestätigen',
  confirmText: (domain: string) => `Bitte bestätigen Sie, dass Sie die Anfrage zu ${domain} gesendet haben. Erst dann erreicht sie den Inhaber.`,
  confirmButton: 'Bestätigen',
  confirmedTitle: 'Anfrage bestätigt',
  confirmedText: 'Vielen Dank! Ihre Anfrage ist bestätigt und wurde an den Inhaber weitergeleitet.',
  confirmedAlready: 'Diese Anfrage ist bereits bestätigt. Sie müssen nichts weiter tun.',
  confirmExpiredTitle: 'Link abgelaufen',
  confirmExpired: 'Dieser Bestätigungslink ist abgelaufen (er gilt 48 Stunden). Bitte senden Sie Ihre Anfrage erneut über das Formular.',
  confirmInvalidTitle: 'Link ungültig',
  confirmInvalid: 'Dieser Bestätigungslink ist ungültig. Bitte verwenden Sie den vollständigen Link aus der E-Mail.',
  invalid: 'Fehler. Bitte füllen Sie alle Felder aus.',
  failed: 'Senden fehlgeschlagen. Bitte versuchen Sie es später erneut.',
  hintName: 'Bitte geben Sie Ihren Namen ein.',
  hintNameLine: 'Der Name darf keine Zeilenumbrüche oder Steuerzeichen enthalten.',
  hintNameLong: 'Der Name darf höchstens 200 Zeichen lang sein.',
  hintEmail: 'Bitte geben Sie eine gültige E-Mail-Adresse ein.',
  hintMessage: 'Bitte geben Sie eine Nachricht ein.',
  hintMessageLong: 'Die Nachricht darf höchstens 5.000 Zeichen lang sein.',
  hintOffer: 'Bitte geben Sie Ihr Angebot als ganzen Betrag in der genannten Währung ein, zum Beispiel 4.900.',
  labelOffer: (currency: string) => `Angebot in ${currency} (optional)`,
  offerMinimum: (minimum: string) => `Mindestangebot: ${minimum}`,
  price: (price: string) => `Preis: ${price}`,
  // Price terms (the domains file's priceType and vat, src/shared/price-terms.ts).
  priceFixed: 'Festpreis',
  priceNegotiable: 'Verhandlungsbasis (VB)',
  priceOnRequest: 'Preis auf Anfrage',
  pricedAs: (terms: string, price: string) => `${terms}: ${price}`,
  vatIncluded: 'inkl. MwSt.',
  vatExcluded: 'zzgl. MwSt.',
  buyNow: 'Jetzt kaufen',
  buyVia: (host: string) => `Kaufabwicklung über ${host}`,
  howToBuyTitle: 'So läuft der Kauf ab',
  // One step per line (howToBuy in the domains file replaces it). Nothing here may promise what an owner cannot keep.
  howToBuy:
    'Sie schreiben uns über das Formular, und wir klären mit Ihnen die Einzelheiten des Kaufs.\n' +
    'Auf Wunsch läuft die Zahlung über einen Treuhandservice (Escrow): Er zahlt den Kaufpreis erst aus, wenn Sie den Erhalt der Domain bestätigt haben.\n' +
    'Sobald die Zahlung eingegangen ist, erhalten Sie den AuthCode. Damit übernimmt Ihr Anbieter die Domain für Sie.\n' +
    'Eine Rechnung erhalten Sie auf Anfrage; die Mehrwertsteuer ist darin ausgewiesen, wenn der Verkauf umsatzsteuerpflichtig ist.',
  reserved: 'Diese Domain ist reserviert.',
  reservedBackup: 'Sie können trotzdem ein Angebot abgeben: Wir melden uns, falls die Reservierung endet.',
  sold: 'Diese Domain wurde verkauft.',
  // The owner's other names (`portfolio: true`): under every page, and the whole list at /domains.
  portfolio: 'Weitere Domains',
  portfolioAll: 'Alle Domains ansehen',
  // "4.900 € VB", as classified ads write it: short enough for a list.
  priceNegotiableShort: (price: string) => `${price} VB`,
  domainListTitle: 'Alle Domains zum Verkauf',
  domainListSearch: 'Domain suchen',
  domainListSubmit: 'Suchen',
  domainListName: 'Domain',
  domainListPrice: 'Preis',
  domainListSortedUp: 'aufsteigend sortiert',
  domainListSortedDown: 'absteigend sortiert',
  domainListCount: (count: string) => (count === '1' ? '1 Domain' : `${count} Domains`),
  domainListFound: (count: string, q: string) => (count === '1' ? `1 Domain mit „${q}“` : `${count} Domains mit „${q}“`),
  domainListEmpty: 'Keine Domain gefunden.',
  domainListPages: 'Seiten',
  domainListPage: (page: string, pages: string) => `Seite ${page} von ${pages}`,
  domainListPrevious: 'Zurück',
  domainListNext: 'Weiter',
  /** The link-preview image's line when the domain has no description (page/og-route.ts). */
  imageText: 'Diese Domain steht zum Verkauf',
  imprint: 'Impressum',
  privacy: 'Datenschutz',
  privacyNote:
    'Ihre Angaben (Name, E-Mail-Adresse, Nachricht) werden nur verwendet, um Ihre Anfrage zu beantworten, und nicht an Dritte weitergegeben. Mehr dazu in der',
  privacyNoteLink: 'Datenschutzerklärung',
  // The checkout at the fixed price (/kaufen, decision 035).
  checkoutTitle: (host: string) => `${host} kaufen`,
  checkoutIntro: (host: string, price: string) => `Sie kaufen die Domain ${host} zum Festpreis: ${price}`,
  checkoutCompany: 'Firma (optional)',
  checkoutStreet: 'Straße und Hausnummer',
  checkoutPostcode: 'PLZ',
  checkoutCity: 'Ort',
  checkoutCountry: 'Land',
  checkoutChooseCountry: 'Bitte wählen',
  checkoutVatId: 'USt-IdNr. (optional)',
  checkoutPayment: 'Zahlung',
  checkoutPayOnce: (price: string) => `Auf einmal (${price})`,
  checkoutPayInstalments: (rates: string, rate: string, downPayment = '', transfer = '') =>
    `${downPayment ? `Anzahlung ${downPayment}, dann ${rates}` : `In ${rates}`} Monatsraten zu je ${rate} (die Domain wird ${transfer === 'at-once' ? 'sofort, vor den Raten,' : 'nach der letzten Rate'} übertragen)`,
  checkoutBinding: (price: string) => `Ich kaufe die Domain verbindlich zum angezeigten Preis (${price}).`,
  checkoutSubmit: 'Verbindlich kaufen',
  checkoutNext: 'Der Inhaber bestätigt den Kauf per E-Mail. Darin finden Sie den Link zu Ihrer Kaufseite mit den Zahlungsdaten.',
  checkoutSentTitle: 'Kauf eingegangen',
  checkoutSent: 'Vielen Dank! Ihr Kauf ist eingegangen. Der Inhaber bestätigt ihn per E-Mail, mit dem Link zu Ihrer Kaufseite.',
  checkoutUnavailable: 'Diese Domain kann hier nicht direkt gekauft werden.',
  checkoutInProgressTitle: 'Kauf bereits im Gange',
  checkoutInProgress:
    'Für diese Domain läuft gerade ein Kauf. Sie kann deshalb im Moment nicht gekauft werden. Schauen Sie gern später wieder vorbei oder schreiben Sie dem Inhaber.',
  checkoutHintStreet: 'Bitte geben Sie Straße und Hausnummer ein.',
  checkoutHintPostcode: 'Bitte geben Sie Ihre Postleitzahl ein.',
  checkoutHintCity: 'Bitte geben Sie Ihren Ort ein.',
  checkoutHintCountry: 'Bitte wählen Sie Ihr Land.',
  checkoutHintCompany: 'Der Firmenname darf höchstens 200 Zeichen lang sein und keine Zeilenumbrüche enthalten.',
  checkoutHintVatId: 'Bitte geben Sie die USt-IdNr. mit Ländercode ein (z. B. DE123456789) oder lassen Sie das Feld leer.',
  checkoutHintBinding: 'Bitte bestätigen Sie, dass Sie verbindlich zum angezeigten Preis kaufen.',
  checkoutTermsChanged: (price: string) =>
    `Der Preis oder die Zahlungsbedingungen haben sich geändert, seit Sie diese Seite geöffnet haben. Der Preis ist jetzt ${price}. Bitte prüfen Sie die Angaben und bestätigen Sie den Kauf erneut.`,
  unavailableDomain: 'Diese Domain ist hier nicht verfügbar.',
  badRequest: 'Ungültige Anfrage.',
  badHost: 'Diese Adresse ist ungültig.',
  notFound: 'Diese Seite gibt es nicht.',
  notFoundTitle: 'Seite nicht gefunden',
  backHome: 'Zur Startseite',
  tokenInvalid: 'Das Formular ist abgelaufen oder ungültig. Bitte laden Sie die Seite neu.',
  tooLarge: 'Die Anfrage ist zu groß.',
  unsupportedType: 'Nicht unterstütztes Format. Bitte senden Sie JSON.',
  rateLimited: 'Zu viele Anfragen. Bitte versuchen Sie es später erneut.',
  crossSite: 'Anfragen von anderen Websites werden nicht angenommen.',
  unavailable: 'Der Dienst ist vorübergehend nicht verfügbar. Bitte versuchen Sie es später erneut.',
  internal: 'Interner Fehler.',
} as const

/** A table of every text, in one language: the German one's keys, each a string or a function making one. */
export type Texts = { readonly [Key in keyof typeof TEXT]: (typeof TEXT)[Key] extends string ? string : (typeof TEXT)[Key] }

const LOADED: Partial<Record<Language, Texts>> = { de: TEXT, en: EN }

/** The table of a page's language. The server has every table (texts-all.ts); the browser the one of its page. */
export function textsOf(language: Language): Texts {
  const table = LOADED[language]
  if (table === undefined) throw new Error(`the texts of "${language}" are not loaded`)
  return table
}

/** Makes a language's table available to textsOf (texts-all.ts on the server, client/texts-loader.ts in the browser). */
export function addTexts(language: Language, table: Texts): void {
  LOADED[language] = table
}
