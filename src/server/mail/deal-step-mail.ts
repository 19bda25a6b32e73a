// The mails of a deal after its acceptance (docs/deals.md): payment received, the transfer, done, cancelled. Their
// text is composed in the buyer's language when the step is taken and stored as the reply's body; here only the
// subject and the threading are added. No transfer code is ever in them: the buyer reveals it on the deal page.
import type { SendMailOptions } from 'nodemailer'
import type { DealMailKind } from '../../shared/console-api.ts'
import type { Language } from '../../shared/language.ts'
import { displayHost } from '../sites/host.ts'
import type { StoredInquiry } from '../store/types.ts'
import { BUYER_WORDS, isAddedLanguage } from './buyer-words.ts'
import type { BuyerStepKind, StepValues } from './buyer-words-types.ts'
import { headerSafe, type MailAddresses } from './compose.ts'

const SUBJECT: Record<'de' | 'en', { prefix: (domain: string) => string } & Record<DealMailKind, string>> = {
  de: {
    prefix: (domain) => `Re: Anfrage zu ${domain}`,
    'deal-paid': 'Zahlung erhalten',
    'deal-transferred': 'Übertragung der Domain',
    'deal-completed': 'Kauf abgeschlossen',
    'deal-cancelled': 'Kauf abgebrochen',
    'deal-payment-reminder': 'Erinnerung an die Zahlung',
    'deal-overdue': 'Zahlungsfrist verstrichen',
    'deal-transfer-reminder': 'Erinnerung an die Übertragung',
  },
  en: {
    prefix: (domain) => `Re: Inquiry about ${domain}`,
    'deal-paid': 'Payment received',
    'deal-transferred': 'Transfer of the domain',
    'deal-completed': 'Purchase completed',
    'deal-cancelled': 'Purchase cancelled',
    'deal-payment-reminder': 'Payment reminder',
    'deal-overdue': 'Zahlungsfrist verstrichen',
    'deal-transfer-reminder': 'Erinnerung an die Übertragung',
  },
}

/** The deadlines' mails to the owner (decision 036), not to the buyer: sent to `mail_to`, the owner's address. */
const OWNER_KINDS: ReadonlySet<DealMailKind> = new Set(['deal-overdue', 'deal-transfer-reminder'])
const isOwnerKind = (kind: DealMailKind): kind is Exclude<DealMailKind, BuyerStepKind> => OWNER_KINDS.has(kind)

export function composeDealStepMail(
  inquiry: StoredInquiry,
  reply: { kind: DealMailKind; body: string; replyTo: string | null; inquiryMessageId: string },
  messageId: string,
  addresses: MailAddresses & { visitor: string },
): SendMailOptions {
  return {
    from: addresses.from,
    to: headerSafe(addresses.visitor),
    replyTo: headerSafe(reply.replyTo ?? addresses.to),
    subject: stepSubject(reply.kind, inquiry.language, displayHost(inquiry.domain)),
    messageId,
    inReplyTo: reply.inquiryMessageId,
    references: [reply.inquiryMessageId],
    text: reply.body,
  }
}

/** The owner's reminders are German, whatever the buyer's language (the console is German). */
function stepSubject(kind: DealMailKind, language: Language, domain: string): string {
  if (isOwnerKind(kind)) return `${SUBJECT.de.prefix(domain)}: ${SUBJECT.de[kind]}`
  if (!isAddedLanguage(language)) return `${SUBJECT[language].prefix(domain)}: ${SUBJECT[language][kind]}`
  const words = BUYER_WORDS[language]
  return `${words.replyPrefix(domain)}: ${words.stepSubject[kind]}`
}

const BODY: Record<'de' | 'en', Record<DealMailKind, (values: StepValues) => string>> = {
  de: {
    'deal-paid': (v) =>
      `Guten Tag,\n\nIhre Zahlung von ${v.amount} für ${v.domain} (Kaufnummer ${v.reference}) ist eingegangen. Vielen Dank!\n\nAls Nächstes bereite ich die Übertragung der Domain vor. Sobald der Transfer-Code bereitsteht, erhalten Sie eine E-Mail. Den Stand sehen Sie jederzeit auf Ihrer Kaufseite:\n${v.link}\n\nMit freundlichen Grüßen`,
    'deal-transferred': (v) =>
      `Guten Tag,\n\nder Transfer-Code für ${v.domain} (Kaufnummer ${v.reference}) steht bereit. Aus Sicherheitsgründen steht er nicht in dieser E-Mail: Sie sehen ihn auf Ihrer Kaufseite, nachdem Sie dort Ihre E-Mail-Adresse eingegeben haben:\n${v.link}\n\nGeben Sie den Code bei Ihrem Registrar ein. Wenn die Domain bei Ihnen angekommen ist, bestätigen Sie das bitte auf der Kaufseite mit „Domain erhalten“${v.completesAt ? `; ohne Rückmeldung gilt der Kauf am ${v.completesAt} als abgeschlossen` : ''}.\n\nMit freundlichen Grüßen`,
    'deal-completed': (v) =>
      `Guten Tag,\n\nder Kauf von ${v.domain} (Kaufnummer ${v.reference}) ist abgeschlossen. Die Domain gehört jetzt Ihnen. Vielen Dank!\n\n${v.link}\n\nMit freundlichen Grüßen`,
    'deal-cancelled': (v) =>
      `Guten Tag,\n\nder Kauf von ${v.domain} (Kaufnummer ${v.reference}) wurde abgebrochen.${v.reason ? `\n\nBegründung: ${v.reason}` : ''}\n\n${v.link}\n\nMit freundlichen Grüßen`,
    'deal-payment-reminder': (v) =>
      `Guten Tag,\n\neine freundliche Erinnerung: Für ${v.domain} (Kaufnummer ${v.reference}) steht die Zahlung von ${v.amount} noch aus. Bitte zahlen Sie bis ${v.deadline ?? ''}. Wie, steht auf Ihrer Kaufseite:\n${v.link}\n\nWenn Sie schon gezahlt haben, betrachten Sie diese E-Mail bitte als gegenstandslos.\n\nMit freundlichen Grüßen`,
    'deal-overdue': (v) =>
      `Die Zahlungsfrist für ${v.domain} (Kaufnummer ${v.reference}, ${v.amount}) ist am ${v.deadline ?? ''} verstrichen, ohne dass die Zahlung als erhalten markiert wurde.\n\nIst das Geld doch angekommen, markieren Sie „Zahlung erhalten“; sonst können Sie den Kauf abbrechen (Konsole: Verkäufe; CLI: deal show / deal paid / deal cancel).`,
    'deal-transfer-reminder': (v) =>
      `Erinnerung: Die Frist für die Übertragung von ${v.domain} (Kaufnummer ${v.reference}, bezahlt) endet am ${v.deadline ?? ''}.\n\nBitte tragen Sie den Transfer-Code ein oder vermerken Sie den Push zum Registrar-Konto des Käufers (Konsole: Verkäufe; CLI: deal transfer ID --code-stdin).`,
  },
  en: {
    'deal-paid': (v) =>
      `Hello,\n\nyour payment of ${v.amount} for ${v.domain} (purchase number ${v.reference}) has arrived. Thank you!\n\nNext I will prepare the transfer of the domain. You will get an email as soon as the transfer code is ready. Your purchase page always shows where things stand:\n${v.link}\n\nKind regards`,
    'deal-transferred': (v) =>
      `Hello,\n\nthe transfer code for ${v.domain} (purchase number ${v.reference}) is ready. For your security it is not in this email: you see it on your purchase page after entering your email address there:\n${v.link}\n\nEnter the code at your registrar. Once the domain has arrived, please confirm with “Domain received” on the purchase page${v.completesAt ? `; without an answer the purchase counts as completed on ${v.completesAt}` : ''}.\n\nKind regards`,
    'deal-completed': (v) =>
      `Hello,\n\nthe purchase of ${v.domain} (purchase number ${v.reference}) is complete. The domain is yours now. Thank you!\n\n${v.link}\n\nKind regards`,
    'deal-cancelled': (v) =>
      `Hello,\n\nthe purchase of ${v.domain} (purchase number ${v.reference}) was cancelled.${v.reason ? `\n\nReason: ${v.reason}` : ''}\n\n${v.link}\n\nKind regards`,
    'deal-payment-reminder': (v) =>
      `Hello,\n\na friendly reminder: the payment of ${v.amount} for ${v.domain} (purchase number ${v.reference}) is still open. Please pay by ${v.deadline ?? ''}. Your purchase page says how:\n${v.link}\n\nIf you have paid already, please disregard this email.\n\nKind regards`,
    // The owner's mails (OWNER_KINDS) are German, whatever the buyer's language.
    'deal-overdue': (v) => BODY.de['deal-overdue'](v),
    'deal-transfer-reminder': (v) => BODY.de['deal-transfer-reminder'](v),
  },
}

/** The text of a step's mail, in the buyer's language; stored as the reply's body when the step is taken. */
export function dealStepText(kind: DealMailKind, language: Language, values: StepValues): string {
  if (isOwnerKind(kind) || language === 'de') return BODY.de[kind](values)
  if (language === 'en') return BODY.en[kind](values)
  return BUYER_WORDS[language].stepBody[kind](values)
}
