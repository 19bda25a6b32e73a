// The buyer's mails in German (buyer-words.ts, its shape in buyer-words-types.ts): the texts of the original product,
// which stay exactly as they are. A checkout has no mails of its own in German (the offer's Annahme and Ablehnung, the
// summary quoted like any message); the owner's mails are in deal-step-mail.ts and deal/rates.ts.
import { lazy } from '../../shared/lazy.ts'
import type { BuyerMailWords } from './buyer-words-types.ts'

const HELLO = 'Guten Tag,'
const REGARDS = 'Mit freundlichen Grüßen'

// As the owner's plain reply writes it (compose.ts): the German reply always quoted with this date.
const quoteTime = lazy(() => new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', dateStyle: 'medium', timeStyle: 'medium' }))

export const BUYER_WORDS_DE: BuyerMailWords = {
  confirm: {
    greeting: HELLO,
    subject: {
      notice: (domain) => `Ihre Anfrage zu ${domain} ist angekommen`,
      verify: (domain) => `Bitte bestätigen Sie Ihre Anfrage zu ${domain}`,
    },
    lead: {
      notice: (domain) => `Ihre Anfrage zu ${domain} ist angekommen. Eine Antwort des Inhabers erhalten Sie an diese E-Mail-Adresse.`,
      verify: (domain) =>
        `über das Kontaktformular von ${domain} wurde eine Anfrage mit dieser E-Mail-Adresse gesendet. Sie erreicht den Inhaber erst, wenn Sie sie bestätigen:`,
    },
    close: {
      notice: 'Wenn Sie keine Anfrage gesendet haben, können Sie diese E-Mail ignorieren.',
      verify:
        'Der Link ist 48 Stunden gültig. Wenn Sie keine Anfrage gesendet haben, ignorieren Sie diese E-Mail: Die Anfrage wird dann nach 48 Stunden gelöscht.',
    },
    linkPlaceholder: '[Bestätigungslink]',
    signature: (domain) => `Automatisch gesendet über das Kontaktformular von ${domain}.`,
  },
  replyPrefix: (domain) => `Re: Anfrage zu ${domain}`,
  stepSubject: {
    'deal-paid': 'Zahlung erhalten',
    'deal-transferred': 'Übertragung der Domain',
    'deal-completed': 'Kauf abgeschlossen',
    'deal-cancelled': 'Kauf abgebrochen',
    'deal-payment-reminder': 'Erinnerung an die Zahlung',
  },
  stepBody: {
    'deal-paid': (v) =>
      `${HELLO}\n\nIhre Zahlung von ${v.amount} für ${v.domain} (Kaufnummer ${v.reference}) ist eingegangen. Vielen Dank!\n\nAls Nächstes bereite ich die Übertragung der Domain vor. Sobald der Transfer-Code bereitsteht, erhalten Sie eine E-Mail. Den Stand sehen Sie jederzeit auf Ihrer Kaufseite:\n${v.link}\n\n${REGARDS}`,
    'deal-transferred': (v) =>
      `${HELLO}\n\nder Transfer-Code für ${v.domain} (Kaufnummer ${v.reference}) steht bereit. Aus Sicherheitsgründen steht er nicht in dieser E-Mail: Sie sehen ihn auf Ihrer Kaufseite, nachdem Sie dort Ihre E-Mail-Adresse eingegeben haben:\n${v.link}\n\nGeben Sie den Code bei Ihrem Registrar ein. Wenn die Domain bei Ihnen angekommen ist, bestätigen Sie das bitte auf der Kaufseite mit „Domain erhalten“${v.completesAt ? `; ohne Rückmeldung gilt der Kauf am ${v.completesAt} als abgeschlossen` : ''}.\n\n${REGARDS}`,
    'deal-completed': (v) =>
      `${HELLO}\n\nder Kauf von ${v.domain} (Kaufnummer ${v.reference}) ist abgeschlossen. Die Domain gehört jetzt Ihnen. Vielen Dank!\n\n${v.link}\n\n${REGARDS}`,
    'deal-cancelled': (v) =>
      `${HELLO}\n\nder Kauf von ${v.domain} (Kaufnummer ${v.reference}) wurde abgebrochen.${v.reason ? `\n\nBegründung: ${v.reason}` : ''}\n\n${v.link}\n\n${REGARDS}`,
    'deal-payment-reminder': (v) =>
      `${HELLO}\n\neine freundliche Erinnerung: Für ${v.domain} (Kaufnummer ${v.reference}) steht die Zahlung von ${v.amount} noch aus. Bitte zahlen Sie bis ${v.deadline ?? ''}. Wie, steht auf Ihrer Kaufseite:\n${v.link}\n\nWenn Sie schon gezahlt haben, betrachten Sie diese E-Mail bitte als gegenstandslos.\n\n${REGARDS}`,
  },
  templates: {
    counter: `${HELLO}

vielen Dank für Ihr Interesse an {domain}.

Ich biete Ihnen die Domain für {betrag} an. Dieses Angebot gilt bis {frist}.

{notiz}

Wenn Sie einverstanden sind, antworten Sie einfach auf diese Mail.

${REGARDS}`,
    accept: `${HELLO}

vielen Dank für Ihr Angebot: Ich nehme es an und verkaufe Ihnen {domain}.
Vereinbarter Betrag: {betrag}

{notiz}

Alles Weitere (Zahlung, Übertragung der Domain) finden Sie auf Ihrer persönlichen Kaufseite:
{link}

Bei Fragen antworten Sie einfach auf diese Mail.

${REGARDS}`,
    decline: `${HELLO}

vielen Dank für Ihr Interesse an {domain}. Leider kann ich Ihr Angebot nicht annehmen.

{notiz}

${REGARDS}`,
    sold: `${HELLO}

vielen Dank für Ihr Interesse an {domain}. Die Domain ist inzwischen verkauft; Ihre Anfrage kann ich deshalb leider nicht mehr berücksichtigen.

${REGARDS}`,
  },
  subjects: {
    counter: 'Gegenangebot',
    accept: 'Angebot angenommen',
    decline: 'Absage',
    'sold-notice': 'Bereits verkauft',
  },
  quoteLine: (date, domain) => `${date} schrieben Sie zu ${domain}:`,
  quoteTime: (ms) => quoteTime().format(new Date(ms)),
  asAgreed: 'wie besprochen',
  berlinTime: (formatted) => `${formatted} Uhr`,
  linkInFirstMail: '(der Link steht in unserer ersten E-Mail)',
  downPayment: 'Anzahlung',
  rate: (number, count) => `Rate ${number} von ${count}`,
  rateBody: {
    received: (v) =>
      `${HELLO}\n\nIhre Zahlung von ${v.amount} (${v.label}) für ${v.domain} (Kaufnummer ${v.deal}) ist eingegangen. Vielen Dank!${v.next ? `\n\n${v.next}` : ''}\n\nDen Zahlungsplan sehen Sie jederzeit auf Ihrer Kaufseite:\n${v.link}\n\n${REGARDS}`,
    reminder: (v) =>
      `${HELLO}\n\neine freundliche Erinnerung: Für ${v.domain} (Kaufnummer ${v.deal}) ist am ${v.due} ${v.label} fällig, ${v.amount}. Bitte überweisen Sie mit dem Verwendungszweck ${v.reference}. Bankverbindung und QR-Code stehen auf Ihrer Kaufseite:\n${v.link}\n\nWenn Sie schon gezahlt haben, betrachten Sie diese E-Mail bitte als gegenstandslos.\n\n${REGARDS}`,
    'overdue-buyer': (v) =>
      `${HELLO}\n\nfür ${v.domain} (Kaufnummer ${v.deal}) war am ${v.due} ${v.label} fällig, ${v.amount}; bei uns ist sie noch nicht eingegangen. Bitte überweisen Sie sie mit dem Verwendungszweck ${v.reference}. Alles Weitere steht auf Ihrer Kaufseite:\n${v.link}\n\nWenn Sie schon gezahlt haben, betrachten Sie diese E-Mail bitte als gegenstandslos.\n\n${REGARDS}`,
  },
  nextRate: (label, amount, due, reference) => `Als Nächstes ist ${label} fällig: ${amount} bis ${due}, Verwendungszweck ${reference}.`,
  plan: ({ down, rates, rate, lastLess, atOnce }) =>
    `\n\nRatenzahlung: ${down ? `${down} Anzahlung, dann ` : ''}${rates} Monatsraten zu ${rate}${lastLess ? ' (die letzten einen Cent weniger)' : ''}. Die Domain wird ${atOnce ? 'sofort' : 'nach der letzten Rate'} übertragen.`,
}
