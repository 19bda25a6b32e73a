// Links that act for someone by themselves (capability URLs): the deal page's /kauf/<id>.<mac> is the buyer
// (decision 033), the confirmation's /bestaetigen?t=<token> confirms an inquiry (decision 021). Whoever reads one in
// a log can use it, so no log line keeps one, whichever field or message it is in (logger.ts).
import { CONFIRM_PATH } from './confirm-link.ts'

export const DEAL_PATH = '/kauf'

const REDACTED = '[redacted]'

// The whole path segment after /kauf/, not only a well-formed token: Fastify decodes the segment, so a token with a
// %2E for its dot or a letter %-encoded is a working link too, and a mistyped case or a %2F still carries the secret.
// It ends where the segment ends or where the JSON string does: a backslash starts an escape, which stays whole.
const DEAL_LINK = new RegExp(`(${DEAL_PATH}(?:/|%2f))[^/?#\\s"\\\\]+`, 'gi')
// The confirmation's token is all of its query.
const CONFIRM_LINK = new RegExp(`(${CONFIRM_PATH}/?\\?)[^#\\s"\\\\]+`, 'gi')

/** The text with the secret part of every deal and confirmation link replaced by `[redacted]`. */
export const redactCapabilityLinks = (text: string) => text.replace(DEAL_LINK, `$1${REDACTED}`).replace(CONFIRM_LINK, `$1${REDACTED}`)
