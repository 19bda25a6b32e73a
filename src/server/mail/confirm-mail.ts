// The visitor's confirmation mails (the domains file's `confirm`): a note that the inquiry arrived, or the link that
// confirms it. Their text is fixed; the only variable parts are the domain's name and the signed link. Nothing the
// visitor typed (name, message, offer) is in them, so the form cannot be used to send a third party words of one's
// choosing by giving their address (docs/confirmation.md).
import type { SendMailOptions } from 'nodemailer'
import { confirmText, type ConfirmKind } from '../confirm/confirm-text.ts'
import { confirmUrl } from '../confirm/link.ts'
import { displayHost } from '../sites/host.ts'
import type { OutboxItem, StoredInquiry } from '../store/types.ts'
import { headerSafe, type MailAddresses } from './compose.ts'

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
