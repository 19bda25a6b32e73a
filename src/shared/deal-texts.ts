// The words of the buyer's deal page (/kauf/…), in German and English here and in the other languages a page speaks in
// deal-texts-fr.ts and its siblings (decision 048): the buyer reads them in the language they wrote their inquiry in.
// The deal page is rendered on the server only, so no browser loads these tables.
import { DEAL_ES } from './deal-texts-es.ts'
import { DEAL_FR } from './deal-texts-fr.ts'
import { DEAL_IT } from './deal-texts-it.ts'
import { DEAL_NL } from './deal-texts-nl.ts'
import { DEAL_PL } from './deal-texts-pl.ts'
import type { DealPageWords, DealWords, PlanWords } from './deal-words.ts'
import type { Language } from './language.ts'

/** The tables of the languages decision 048 added. */
export const DEAL_PAGES = { fr: DEAL_FR, es: DEAL_ES, it: DEAL_IT, nl: DEAL_NL, pl: DEAL_PL } as const satisfies Record<
  Exclude<Language, 'de' | 'en'>,
  DealPageWords
>

export const DEAL_TEXTS: Record<Language, DealWords> = {
  fr: DEAL_PAGES.fr.deal,
  es: DEAL_PAGES.es.deal,
  it: DEAL_PAGES.it.deal,
  nl: DEAL_PAGES.nl.deal,
  pl: DEAL_PAGES.pl.deal,
  de: {
    title: (domain) => `Ihr Kauf von ${domain}`,
    notFoundTitle: 'Seite nicht gefunden',
    notFound: 'Diese Kaufseite gibt es nicht. Bitte prüfen Sie den Link aus Ihrer E-Mail.',
    intro: (domain) => `Hier sehen Sie jederzeit, wie weit der Kauf von ${domain} ist und was als Nächstes zu tun ist.`,
    amount: 'Vereinbarter Betrag',
    reference: 'Kaufnummer',
    seller: 'Verkäufer',
    contact: 'Kontakt',
    contactText: (address) => `Antworten Sie einfach auf unsere E-Mail oder schreiben Sie an ${address}.`,
    contactReply: 'Antworten Sie einfach auf unsere E-Mail.',
    steps: { payment: 'Zahlung', transfer: 'Übertragung', done: 'Abgeschlossen' },
    stepState: { done: 'erledigt', current: 'aktueller Schritt', todo: 'folgt' },
    deadline: (date) => `bis ${date}`,
    overdue: (date) => `Frist abgelaufen am ${date}`,
    now: 'Was jetzt zu tun ist',
    todo: {
      awaiting_payment:
        'Bitte zahlen Sie den vereinbarten Betrag auf einem der unten genannten Wege. Geben Sie dabei die Kaufnummer an. Sobald die Zahlung eingegangen ist, bestätigt der Verkäufer sie hier und per E-Mail.',
      paid: 'Ihre Zahlung ist eingegangen. Der Verkäufer bereitet jetzt die Übertragung der Domain vor; Sie erhalten eine E-Mail, sobald der Transfer-Code bereitsteht.',
      transferred:
        'Die Domain wird übertragen. Holen Sie sich den Transfer-Code unten ab und geben Sie ihn bei Ihrem Registrar (Domain-Anbieter) ein. Wenn die Domain bei Ihnen angekommen ist, bestätigen Sie das bitte mit „Domain erhalten“.',
      completed: 'Der Kauf ist abgeschlossen. Die Domain gehört jetzt Ihnen. Vielen Dank!',
      cancelled: 'Dieser Kauf wurde abgebrochen.',
    },
    cancelledBy: { owner: 'Der Verkäufer hat den Kauf abgebrochen.', buyer: 'Sie haben den Kauf abgebrochen.' },
    reason: 'Begründung',
    payTitle: 'So bezahlen Sie',
    payBank: 'Überweisung (SEPA)',
    holder: 'Kontoinhaber',
    iban: 'IBAN',
    bic: 'BIC',
    purpose: 'Verwendungszweck',
    qrLabel: 'GiroCode (EPC-QR-Code) für Ihre Banking-App',
    qrHelp: 'Scannen Sie den Code mit Ihrer Banking-App: Empfänger, IBAN, Betrag und Verwendungszweck sind dann schon ausgefüllt.',
    payLink: 'Online bezahlen',
    payLinkButton: 'Zur Zahlung',
    escrow: 'Treuhand',
    escrowText: (name) => `Sie zahlen an den Treuhanddienst ${name}. Er zahlt den Betrag erst an den Verkäufer aus, wenn die Domain bei Ihnen angekommen ist.`,
    escrowButton: (name) => `Weiter zu ${name}`,
    noPayment: 'Der Verkäufer teilt Ihnen die Zahlungsdaten per E-Mail mit.',
    cancelTitle: 'Kauf abbrechen',
    cancelText: 'Solange Sie noch nicht bezahlt haben, können Sie den Kauf hier abbrechen.',
    cancelButton: 'Kauf abbrechen',
    codeTitle: 'Transfer-Code',
    codeText: 'Zu Ihrer Sicherheit: Geben Sie die E-Mail-Adresse ein, an die unsere E-Mails gehen. Dann wird der Code angezeigt.',
    codeEmail: 'Ihre E-Mail-Adresse',
    codeButton: 'Code anzeigen',
    codeShown: 'Ihr Transfer-Code (AuthInfo)',
    codeWrongEmail: 'Diese E-Mail-Adresse passt nicht zu diesem Kauf.',
    transferNote: 'Hinweis des Verkäufers',
    invoicesTitle: (count) => (count === 1 ? 'Rechnung' : 'Rechnungen'),
    invoiceLink: (kind, number) => `${{ invoice: 'Rechnung', advance: 'Anzahlungsrechnung', cancellation: 'Stornorechnung' }[kind]} ${number} (PDF)`,
    receivedTitle: 'Domain erhalten?',
    receivedText: (date) =>
      date
        ? `Wenn die Domain bei Ihnen angekommen ist, bestätigen Sie das bitte. Ohne Rückmeldung gilt der Kauf am ${date} als abgeschlossen.`
        : 'Wenn die Domain bei Ihnen angekommen ist, bestätigen Sie das bitte.',
    receivedButton: 'Domain erhalten',
    sold: 'verkauft',
    rateLimited: 'Zu viele Versuche. Bitte warten Sie eine Stunde und versuchen Sie es dann noch einmal.',
    crossSite: 'Diese Anfrage kam nicht von dieser Seite.',
  },
  en: {
    title: (domain) => `Your purchase of ${domain}`,
    notFoundTitle: 'Page not found',
    notFound: 'This purchase page does not exist. Please check the link in your email.',
    intro: (domain) => `This page always shows how far the purchase of ${domain} has come and what to do next.`,
    amount: 'Agreed amount',
    reference: 'Purchase number',
    seller: 'Seller',
    contact: 'Contact',
    contactText: (address) => `Just reply to our email or write to ${address}.`,
    contactReply: 'Just reply to our email.',
    steps: { payment: 'Payment', transfer: 'Transfer', done: 'Completed' },
    stepState: { done: 'done', current: 'current step', todo: 'next' },
    deadline: (date) => `by ${date}`,
    overdue: (date) => `deadline passed on ${date}`,
    now: 'What to do now',
    todo: {
      awaiting_payment:
        'Please pay the agreed amount in one of the ways below, quoting the purchase number. Once the payment has arrived, the seller confirms it here and by email.',
      paid: 'Your payment has arrived. The seller is now preparing the transfer of the domain; you will get an email as soon as the transfer code is ready.',
      transferred:
        'The domain is being transferred. Get the transfer code below and enter it at your registrar. Once the domain has arrived, please confirm with “Domain received”.',
      completed: 'The purchase is complete. The domain is yours now. Thank you!',
      cancelled: 'This purchase was cancelled.',
    },
    cancelledBy: { owner: 'The seller cancelled the purchase.', buyer: 'You cancelled the purchase.' },
    reason: 'Reason',
    payTitle: 'How to pay',
    payBank: 'Bank transfer (SEPA)',
    holder: 'Account holder',
    iban: 'IBAN',
    bic: 'BIC',
    purpose: 'Payment reference',
    qrLabel: 'EPC QR code for your banking app',
    qrHelp: 'Scan the code with your banking app: recipient, IBAN, amount and reference are then filled in.',
    payLink: 'Pay online',
    payLinkButton: 'Go to payment',
    escrow: 'Escrow',
    escrowText: (name) => `You pay the escrow service ${name}. It pays the seller only once the domain has arrived with you.`,
    escrowButton: (name) => `Continue to ${name}`,
    noPayment: 'The seller will send you the payment details by email.',
    cancelTitle: 'Cancel the purchase',
    cancelText: 'As long as you have not paid, you can cancel the purchase here.',
    cancelButton: 'Cancel purchase',
    codeTitle: 'Transfer code',
    codeText: 'For your security: enter the email address our emails go to. The code is then shown.',
    codeEmail: 'Your email address',
    codeButton: 'Show code',
    codeShown: 'Your transfer code (AuthInfo)',
    codeWrongEmail: 'This email address does not match this purchase.',
    transferNote: 'Note from the seller',
    invoicesTitle: (count) => (count === 1 ? 'Invoice' : 'Invoices'),
    invoiceLink: (kind, number) => `${{ invoice: 'Invoice', advance: 'Advance payment invoice', cancellation: 'Cancellation invoice' }[kind]} ${number} (PDF)`,
    receivedTitle: 'Domain received?',
    receivedText: (date) =>
      date
        ? `Once the domain has arrived, please confirm it. Without an answer the purchase counts as completed on ${date}.`
        : 'Once the domain has arrived, please confirm it.',
    receivedButton: 'Domain received',
    sold: 'sold',
    rateLimited: 'Too many attempts. Please wait an hour and try again.',
    crossSite: 'This request did not come from this page.',
  },
}

export const PLAN_TEXTS: Record<Language, PlanWords> = {
  fr: DEAL_PAGES.fr.plan,
  es: DEAL_PAGES.es.plan,
  it: DEAL_PAGES.it.plan,
  nl: DEAL_PAGES.nl.plan,
  pl: DEAL_PAGES.pl.plan,
  de: {
    title: 'Zahlungsplan',
    intro: (rates, transfer) =>
      `Sie zahlen in ${rates} Monatsraten, jede mit ihrem eigenen Verwendungszweck. ${transfer === 'at-once' ? 'Die Domain wird Ihnen schon vor der letzten Rate übertragen.' : 'Die Domain wird Ihnen nach der letzten Rate übertragen.'}`,
    rate: 'Zahlung',
    due: 'Fällig am',
    amount: 'Betrag',
    reference: 'Verwendungszweck',
    state: 'Stand',
    states: { paid: (date) => `bezahlt am ${date}`, next: 'als Nächstes fällig', open: 'offen', overdue: 'überfällig' },
    paid: (amount) => `Bezahlt: ${amount}`,
    open: (amount) => `Offen: ${amount}`,
    payThis: 'Diese Rate bezahlen',
    paying: (label, due) => `Für ${label}, fällig am ${due}:`,
    allPaid: 'Alle Raten sind bezahlt. Vielen Dank!',
  },
  en: {
    title: 'Payment plan',
    intro: (rates, transfer) =>
      `You pay in ${rates} monthly rates, each with its own payment reference. ${transfer === 'at-once' ? 'The domain is transferred to you before the last rate.' : 'The domain is transferred to you after the last rate.'}`,
    rate: 'Payment',
    due: 'Due on',
    amount: 'Amount',
    reference: 'Payment reference',
    state: 'Status',
    states: { paid: (date) => `paid on ${date}`, next: 'due next', open: 'open', overdue: 'overdue' },
    paid: (amount) => `Paid: ${amount}`,
    open: (amount) => `Open: ${amount}`,
    payThis: 'Pay this rate',
    paying: (label, due) => `For ${label}, due on ${due}:`,
    allPaid: 'All rates are paid. Thank you!',
  },
}
