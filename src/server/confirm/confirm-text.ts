// The words of the visitor's confirmation mails (the domains file's `confirm`): a note that the inquiry arrived, or
// the link that confirms it. Their text is fixed; the only variable parts are the domain's name and the signed link.
// The console shows them too, without the link (confirm/plan.ts); mail/confirm-mail.ts sends them.
import type { Language } from '../../shared/language.ts'

export type ConfirmKind = 'notice' | 'verify'

interface MailWords {
  greeting: string
  subject: Record<ConfirmKind, (domain: string) => string>
  /** What the mail says before the link (verify) or instead of it (notice). */
  lead: Record<ConfirmKind, (domain: string) => string>
  /** After the lead, or after the link. */
  close: Record<ConfirmKind, string>
  /** Where the text is shown instead of sent (the console), in place of the link. */
  linkPlaceholder: string
  signature: (domain: string) => string
}

const WORDS: Record<Language, MailWords> = {
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
      verify: 'Der Link ist 48 Stunden gültig. Wenn Sie keine Anfrage gesendet haben, ignorieren Sie diese E-Mail: Die Anfrage wird dann nach 48 Stunden gelöscht.',
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
      verify: (domain) =>
        `An inquiry was sent with this email address through the contact form of ${domain}. It only reaches the owner once you confirm it:`,
    },
    close: {
      notice: 'If you did not send an inquiry, you can ignore this email.',
      verify: 'The link is valid for 48 hours. If you did not send an inquiry, just ignore this email: the inquiry will then be deleted after 48 hours.',
    },
    linkPlaceholder: '[confirmation link]',
    signature: (domain) => `Sent automatically by the contact form of ${domain}.`,
  },
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
