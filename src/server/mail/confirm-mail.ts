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
import type { ConfirmKind, ConfirmWords } from './buyer-words-types.ts'
import { headerSafe, type MailAddresses } from './compose.ts'

const WORDS: Record<Language, ConfirmWords> = {
  de: {
    greeting: 'Guten Tag,',
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
  en: {
    greeting: 'Hello,',
    subject: {
      notice: (domain) => `Your inquiry about ${domain} has arrived`,
      verify: (domain) => `Please confirm your inquiry about ${domain}`,
    },
    lead: {
      notice: (domain) => `Your inquiry about ${domain} has arrived. The owner's answer will come to this email address.`,
      verify: (domain) => `An inquiry was sent with this email address through the contact form of ${domain}. It only reaches the owner once you confirm it:`,
    },
    close: {
      notice: 'If you did not send an inquiry, you can ignore this email.',
      verify: 'The link is valid for 48 hours. If you did not send an inquiry, just ignore this email: the inquiry will then be deleted after 48 hours.',
    },
    linkPlaceholder: '[confirmation link]',
    signature: (domain) => `Sent automatically by the contact form of ${domain}.`,
  },
  fr: BUYER_WORDS.fr.confirm,
  es: BUYER_WORDS.es.confirm,
  it: BUYER_WORDS.it.confirm,
  nl: BUYER_WORDS.nl.confirm,
  pl: BUYER_WORDS.pl.confirm,
}

/**
 * The mail's words, in the language the visitor wrote in. `link` is left out where the text is shown rather than sent
 * (the console).
 */
export function confirmText(kind: ConfirmKind, domain: string, language: Language, link?: string): { subject: string; text: string } {
  const words = WORDS[language]
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
