// The visitor's confirmation mails (the domains file's `confirm`): a note that the inquiry arrived, or the link that
// confirms it. Their text is fixed; the only variable parts are the domain's name and the signed link. Nothing the
// visitor typed (name, message, offer) is in them, so the form cannot be used to send a third party words of one's
// choosing by giving their address (docs/confirmation.md).
import type { SendMailOptions } from 'nodemailer'
import type { Language } from '../../shared/language.ts'
import { confirmUrl } from '../lib/confirm-link.ts'
import { displayHost } from '../sites/host.ts'
import type { OutboxItem, StoredInquiry } from '../store/types.ts'
import { BUYER_WORDS } from './buyer-words.ts'
import type { ConfirmKind } from './buyer-words-types.ts'
import { headerSafe, type MailAddresses } from './compose.ts'

/**
 * The mail's words, in the language the visitor wrote in. `link` is left out where the text is shown rather than sent
 * (the console).
 */
export function confirmText(kind: ConfirmKind, domain: string, language: Language, link?: string): { subject: string; text: string } {
  const words = BUYER_WORDS[language].confirm
  const linkLines = kind === 'verify' ? [link ?? words.linkPlaceholder, ''] : []
  return {
    subject: words.subject[kind](domain),
    text: [words.greeting, '', words.lead[kind](domain), '', ...linkLines, words.close[kind], '', '-- ', words.signature(domain)].join('\n'),
  }
}

/**
 * Threaded under the mail the owner gets about the inquiry, as the owner's replies are: the visitor's mail program
 * shows the confirmation and a later answer as one conversation.
 */
export function composeConfirmMail(
  inquiry: StoredInquiry,
  reply: NonNullable<OutboxItem['reply']> & { kind: ConfirmKind },
  messageId: string,
  addresses: MailAddresses & { visitor: string; secret: string },
): SendMailOptions {
  const link = reply.kind === 'verify' ? confirmUrl(addresses.secret, inquiry) : undefined
  const { subject, text } = confirmText(reply.kind, displayHost(inquiry.domain), inquiry.language, link)
  return {
    from: addresses.from,
    to: headerSafe(addresses.visitor),
    replyTo: headerSafe(reply.replyTo ?? addresses.to),
    subject,
    messageId,
    inReplyTo: reply.inquiryMessageId,
    references: [reply.inquiryMessageId],
    text,
    // Out-of-office and other automatic answers stay away (RFC 3834; Exchange reads its own header).
    headers: { 'Auto-Submitted': 'auto-generated', 'X-Auto-Response-Suppress': 'All' },
  }
}
