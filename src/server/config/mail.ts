// Mail: the SMTP server, who gets the inquiries and who sends, the outbox's lease, the weekly digest.
import { z } from 'zod'
import { isValidEmail } from '../../shared/contact.ts'

// One mailbox: an address, or "Name <address>" with a name of plain words. nodemailer would read a comma, a
// semicolon, a group or a line separator (U+2028 too) as more recipients or a header of its own.
const NAMED_ADDRESS = /^([^<>]*)<([^<>]*)>$/
const DISPLAY_NAME = /^[^\p{Cc}\u2028\u2029"\\,;:@<>[\]]*$/u
function isMailbox(value: string): boolean {
  if (value.length > 320) return false
  const named = NAMED_ADDRESS.exec(value)
  const [name, address] = named ? [named[1]!.trim(), named[2]!] : ['', value]
  return DISPLAY_NAME.test(name) && isValidEmail(address, { singleLabelDomain: true })
}
const mailbox = z.string().refine(isMailbox, {
  message: 'must be one e-mail address, optionally as "Name <address>" (no list, no line break)',
})

export const mailEnv = z.object({
  SMTP_URL: z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL, e.g. smtps://user:pass@mail.example.de:465' }).optional(),
  MAIL_TO: mailbox.optional(),
  MAIL_FROM: mailbox.optional(),
  MAIL_LEASE_SECONDS: z.coerce.number().int().min(1).max(3600).default(120),
  DIGEST: z.enum(['off', 'weekly'], { error: 'must be weekly (a summary mail every Monday 08:00 Europe/Berlin) or off' }).default('off'),
})

type MailEnv = z.output<typeof mailEnv>

export function checkMail(env: MailEnv, ctx: z.RefinementCtx): void {
  if (env.SMTP_URL && !env.MAIL_TO) {
    ctx.addIssue({ code: 'custom', path: ['MAIL_TO'], message: 'is required when SMTP_URL is set (where should inquiries go?)' })
  }
}

export function mailConfig(env: MailEnv) {
  const mailTo = env.MAIL_TO ?? 'owner@localhost'
  return {
    smtpUrl: env.SMTP_URL,
    mailTo,
    mailFrom: env.MAIL_FROM ?? mailTo,
    mailLeaseMs: env.MAIL_LEASE_SECONDS * 1000,
    digest: env.DIGEST,
  }
}
