// Turns a stored inquiry into the mail the owner receives. nodemailer does the MIME formatting and header encoding;
// here we only make sure that no value the visitor typed can become a header of its own.
import type { SendMailOptions } from 'nodemailer'
import { formatPrice } from '../sites/settings.ts'
import { displayHost } from '../sites/host.ts'
import type { StoredInquiry } from '../store/types.ts'
import { escapeHtml } from '../../shared/html.ts'
import { LANGUAGE_NAME } from '../../shared/language.ts'
import { lazy } from '../../shared/lazy.ts'

export interface MailAddresses {
  from: string
  to: string
}

// Any line break or control character in a value bound for a header is replaced by a space. The schema already
// refuses them in name and e-mail; this is the second lock on the same door.
const HEADER_UNSAFE = /[\p{Cc}\u2028\u2029\u0085]/gu
export const headerSafe = (value: string) => value.replace(HEADER_UNSAFE, ' ').trim()

const berlinTime = lazy(() => new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', dateStyle: 'medium', timeStyle: 'medium' }))

// A display name with an @ (or a full-width or small one) reads as an address: "boss@example.org" <visitor@evil.example>
// shows the owner a sender that is not the one a reply goes to. Such a name stays out of the header; the body names it.
const LOOKS_LIKE_ADDRESS = /[@\uff20\ufe6b]/u

/** The visitor as Reply-To: the real address, with the name in front only when it cannot pass for an address. */
function replyToOf(name: string, address: string): SendMailOptions['replyTo'] {
  return name && !LOOKS_LIKE_ADDRESS.test(name) ? { name, address } : address
}

export function composeInquiryMail(inquiry: StoredInquiry, messageId: string, addresses: MailAddresses): SendMailOptions {
  const domain = displayHost(inquiry.domain)
  const name = headerSafe(inquiry.name)
  const email = headerSafe(inquiry.email)
  const time = `${berlinTime().format(new Date(inquiry.createdAt))} (Europe/Berlin)`
  const facts: [string, string][] = [
    ['Domain', domain],
    ['Name', name],
    ['E-Mail', email],
    // The owner answers in the language the buyer wrote in.
    ['Sprache', LANGUAGE_NAME[inquiry.language]],
    ...(inquiry.offer !== null
      ? [
          ['Angebot', `${formatPrice(inquiry.offer.amount, inquiry.offer.currency)}${inquiry.belowMinimum ? ' (unter dem Mindestangebot)' : ''}`] as [
            string,
            string,
          ],
        ]
      : []),
    ['Zeit', time],
  ]
  const text = [
    `Neue Anfrage zu ${domain}`,
    '',
    ...facts.map(([label, value]) => `${label}: ${value}`),
    '',
    'Nachricht:',
    inquiry.message,
    '',
    '-- ',
    'Gesendet über das Kontaktformular von domain-lander. Antworten gehen direkt an die anfragende Person.',
  ].join('\n')
  const html = `<!doctype html><html lang="de"><body>
<h1 style="font-size:18px">Neue Anfrage zu ${escapeHtml(domain)}</h1>
<table>${facts.map(([label, value]) => `<tr><th align="left">${label}</th><td>${escapeHtml(value)}</td></tr>`).join('')}</table>
<p style="white-space:pre-wrap">${escapeHtml(inquiry.message)}</p>
</body></html>`
  return {
    from: addresses.from,
    to: addresses.to,
    replyTo: replyToOf(name, email),
    subject: `Anfrage zu ${domain}`,
    messageId,
    date: new Date(inquiry.createdAt),
    text,
    html,
    headers: { 'Auto-Submitted': 'auto-generated' },
  }
}

/**
 * The owner's reply to the visitor, sent from the console: from MAIL_FROM, answered to the owner, threaded under the
 * mail the owner got about the inquiry. The visitor's own message is quoted below, as mail clients do.
 */
export function composeReplyMail(
  inquiry: StoredInquiry,
  reply: { body: string; replyTo: string | null; inquiryMessageId: string },
  messageId: string,
  addresses: MailAddresses & { visitor: string },
): SendMailOptions {
  const domain = displayHost(inquiry.domain)
  const quoted = inquiry.message
    .split(/\r?\n/)
    .map((line) => `> ${line}`)
    .join('\n')
  const text = [reply.body, '', `${berlinTime().format(new Date(inquiry.createdAt))} schrieben Sie zu ${domain}:`, quoted].join('\n')
  return {
    from: addresses.from,
    to: headerSafe(addresses.visitor),
    replyTo: headerSafe(reply.replyTo ?? addresses.to),
    subject: `Re: Anfrage zu ${domain}`,
    messageId,
    inReplyTo: reply.inquiryMessageId,
    references: [reply.inquiryMessageId],
    text,
  }
}
