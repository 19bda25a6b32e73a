// The visitor's confirmation mails (the domains file's `confirm`): a note that the inquiry arrived, or the link that
// confirms it. Their text is fixed; the only variable parts are the domain's name and the signed link. Nothing the
// visitor typed (name, message, offer) is in them, so the form cannot be used to send a third party words of one's
// choosing by giving their address (docs/confirmation.md).
import type { SendMailOptions } from 'nodemailer'
import { confirmUrl } from '../confirm/link.ts'
import { displayHost } from '../sites/host.ts'
import type { OutboxItem, StoredInquiry } from '../store/types.ts'
import { headerSafe, type MailAddresses } from './compose.ts'

type ConfirmKind = 'notice' | 'verify'

const signature = (domain: string) => ['', '-- ', `Automatisch gesendet über das Kontaktformular von ${domain}.`]

/** The mail's words. `link` is left out where the text is shown rather than sent (the console). */
export function confirmText(kind: ConfirmKind, domain: string, link?: string): { subject: string; text: string } {
  if (kind === 'notice') {
    return {
      subject: `Ihre Anfrage zu ${domain} ist angekommen`,
      text: [
        'Guten Tag,',
        '',
        `Ihre Anfrage zu ${domain} ist angekommen. Eine Antwort des Inhabers erhalten Sie an diese E-Mail-Adresse.`,
        '',
        'Wenn Sie keine Anfrage gesendet haben, können Sie diese E-Mail ignorieren.',
        ...signature(domain),
      ].join('\n'),
    }
  }
  return {
    subject: `Bitte bestätigen Sie Ihre Anfrage zu ${domain}`,
    text: [
      'Guten Tag,',
      '',
      `über das Kontaktformular von ${domain} wurde eine Anfrage mit dieser E-Mail-Adresse gesendet. Sie erreicht den Inhaber erst, wenn Sie sie bestätigen:`,
      '',
      link ?? '[Bestätigungslink]',
      '',
      'Der Link ist 48 Stunden gültig. Wenn Sie keine Anfrage gesendet haben, ignorieren Sie diese E-Mail: Die Anfrage wird dann nach 48 Stunden gelöscht.',
      ...signature(domain),
    ].join('\n'),
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
  const { subject, text } = confirmText(reply.kind, displayHost(inquiry.domain), link)
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
