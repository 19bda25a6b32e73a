// The mails of a deal after its acceptance (docs/deals.md): payment received, the transfer, done, cancelled. Their
// text is composed in the buyer's language when the step is taken and stored as the reply's body; here only the
// subject and the threading are added. No transfer code is ever in them: the buyer reveals it on the deal page.
import type { SendMailOptions } from 'nodemailer'
import type { DealMailKind } from '../../shared/console-api.ts'
import type { Language } from '../../shared/language.ts'
import { displayHost } from '../sites/host.ts'
import type { StoredInquiry } from '../store/types.ts'
import { BUYER_WORDS } from './buyer-words.ts'
import type { BuyerStepKind, StepValues } from './buyer-words-types.ts'
import { headerSafe, type MailAddresses } from './compose.ts'

/**
 * The deadlines' mails to the owner (decision 036), not to the buyer: sent to `mail_to`, the owner's address, and
 * German whatever the buyer's language (the console is German).
 */
type OwnerKind = Exclude<DealMailKind, BuyerStepKind>

const OWNER_SUBJECT: Record<OwnerKind, string> = {
  'deal-overdue': 'Zahlungsfrist verstrichen',
  'deal-transfer-reminder': 'Erinnerung an die Übertragung',
}

const OWNER_BODY: Record<OwnerKind, (values: StepValues) => string> = {
  'deal-overdue': (v) =>
    `Die Zahlungsfrist für ${v.domain} (Kaufnummer ${v.reference}, ${v.amount}) ist am ${v.deadline ?? ''} verstrichen, ohne dass die Zahlung als erhalten markiert wurde.\n\nIst das Geld doch angekommen, markieren Sie „Zahlung erhalten“; sonst können Sie den Kauf abbrechen (Konsole: Verkäufe; CLI: deal show / deal paid / deal cancel).`,
  'deal-transfer-reminder': (v) =>
    `Erinnerung: Die Frist für die Übertragung von ${v.domain} (Kaufnummer ${v.reference}, bezahlt) endet am ${v.deadline ?? ''}.\n\nBitte tragen Sie den Transfer-Code ein oder vermerken Sie den Push zum Registrar-Konto des Käufers (Konsole: Verkäufe; CLI: deal transfer ID --code-stdin).`,
}

const isOwnerKind = (kind: DealMailKind): kind is OwnerKind => Object.hasOwn(OWNER_BODY, kind)

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

function stepSubject(kind: DealMailKind, language: Language, domain: string): string {
  if (isOwnerKind(kind)) return `${BUYER_WORDS.de.replyPrefix(domain)}: ${OWNER_SUBJECT[kind]}`
  const words = BUYER_WORDS[language]
  return `${words.replyPrefix(domain)}: ${words.stepSubject[kind]}`
}

/** The text of a step's mail, in the buyer's language; stored as the reply's body when the step is taken. */
export function dealStepText(kind: DealMailKind, language: Language, values: StepValues): string {
  return isOwnerKind(kind) ? OWNER_BODY[kind](values) : BUYER_WORDS[language].stepBody[kind](values)
}
