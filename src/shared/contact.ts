// The one contact schema, used by the form in the browser and by the API on the server.
// zod/mini keeps the browser bundle small; the API is the same zod.
import * as z from 'zod/mini'
import type { Language } from './language.ts'
import { textsOf, type Texts } from './texts.ts'

/** Field names exactly as the original form had them: they are the contract with existing clients. */
export const FIELD = {
  name: 'name58fnlsd',
  nameDecoy: 'name58fnlsdbee',
  email: 'themail3h6',
  emailDecoy: 'themail3h6bee',
  message: 'message',
  /** Only on pages of domains with a minimum offer. */
  offer: 'offer',
  token: 'token',
  hash: 'hash',
} as const

export const LIMIT = {
  name: 200,
  /** RFC 5321 4.5.3.1.3: a path is at most 256 octets including the angle brackets. */
  email: 254,
  emailLocal: 64,
  message: 5000,
  tokenLength: 15,
  hash: 128,
  decoy: 1000,
} as const

// Control characters and the Unicode line/paragraph separators: none of them belongs in a one-line value,
// and any of them could end a mail header.
const LINE_BREAKING = /[\p{Cc}\u2028\u2029]/u

const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_{|}~-]+)*$/
// A label of a host name in ASCII: letters, digits, inner hyphens, no "--" in the third and fourth place unless it is
// punycode ("xn--").
const ASCII_LABEL = /^(?!(?!xn)..--)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/
const TOP_LEVEL = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/
// What would make `http://<domain>/` another URL than a host name (a path, a port, user info, an escape).
const NOT_IN_HOST = /[\s/?#\\:@%[\]]/u

/**
 * The domain of an address as mail goes to it: mapped as UTS #46 maps host names (full-width letters and dots,
 * case, Unicode to punycode), which the browser's and Node's URL parser do, and then checked label by label. Null
 * for anything that is not a host name. The server checks the punycode labels further (server/lib/mailbox.ts).
 */
export function emailDomainAscii(domain: string): string | null {
  if (domain === '' || NOT_IN_HOST.test(domain)) return null
  let ascii: string
  try {
    ascii = new URL(`http://${domain}/`).hostname
  } catch {
    return null
  }
  return ascii.length <= 253 && ascii.split('.').every((label) => ASCII_LABEL.test(label)) ? ascii : null
}

/**
 * Our own strict address rule, checked before any mail library sees the address: exactly one @, a dot-atom
 * local part (no quotes, backticks, comments, groups, commas, spaces or NUL), a domain of at least two labels that
 * is a valid host name once mapped to ASCII (emailDomainAscii; so "ｅｘａｍｐｌｅ.de" is example.de, and
 * "exa_mple.de" is refused). The length is checked first so that a huge value is rejected without running a single
 * expression on it. singleLabelDomain: also a domain of one label (localhost), for the server's own settings.
 */
export function isValidEmail(value: string, options: { singleLabelDomain?: boolean } = {}): boolean {
  if (value.length > LIMIT.email) return false
  const at = value.indexOf('@')
  if (at < 1 || at !== value.lastIndexOf('@')) return false
  const local = value.slice(0, at)
  if (local.length > LIMIT.emailLocal || !LOCAL_PART.test(local)) return false
  const domain = emailDomainAscii(value.slice(at + 1))
  // Punycode can make the address longer than what was typed: the mail goes to the longer one.
  if (domain === null || local.length + 1 + domain.length > LIMIT.email) return false
  const labels = domain.split('.')
  // The owner's own settings may name a host of the local network (owner@localhost); a visitor's address may not.
  if (labels.length < 2 && !options.singleLabelDomain) return false
  return TOP_LEVEL.test(labels[labels.length - 1] ?? '')
}

// What shows nothing at all: white space, format characters (U+200B, U+2060, U+FEFF, bidi controls, …), the other
// default-ignorable code points (Hangul fillers, variation selectors) and the blank Braille pattern. A value made
// only of these is as empty as "" (trim() keeps most of them).
const INVISIBLE = /^[\p{White_Space}\p{Cf}\p{Default_Ignorable_Code_Point}\u2800]*$/u
const isBlank = (value: string) => INVISIBLE.test(value)

/** The texts that explain a wrong field. The schema's messages are their names, put into words by checkContact. */
type Hint = Extract<keyof Texts, `hint${string}`>
const HINTS: Record<Hint, true> = {
  hintName: true,
  hintNameLine: true,
  hintNameLong: true,
  hintEmail: true,
  hintMessage: true,
  hintMessageLong: true,
  hintOffer: true,
}
const isHint = (message: string): message is Hint => Object.hasOwn(HINTS, message)
const hint = (name: Hint) => name

const required = (name: Hint) =>
  z.string(name).check(
    z.trim(),
    z.refine((v) => !isBlank(v), name),
  )

/** The form's fields and their rules: the form checks them as it is filled in, the API's route declares them. */
export const contactSchema = z.object({
  [FIELD.name]: required('hintName').check(
    z.maxLength(LIMIT.name, hint('hintNameLong')),
    z.refine((v) => !LINE_BREAKING.test(v), hint('hintNameLine')),
  ),
  [FIELD.email]: required('hintEmail').check(z.refine(isValidEmail, hint('hintEmail'))),
  [FIELD.message]: required('hintMessage').check(z.maxLength(LIMIT.message, hint('hintMessageLong'))),
  [FIELD.offer]: z.optional(
    z.string(hint('hintOffer')).check(
      z.trim(),
      z.maxLength(30, hint('hintOffer')),
      z.refine((v) => parseOffer(v) !== 'invalid', hint('hintOffer')),
    ),
  ),
  // Decoys: any string is accepted here; whether one was filled in is the server's business, never an error.
  [FIELD.nameDecoy]: z.optional(z.string().check(z.maxLength(LIMIT.decoy))),
  [FIELD.emailDecoy]: z.optional(z.string().check(z.maxLength(LIMIT.decoy))),
  [FIELD.token]: z.string().check(z.regex(/^[A-Za-z0-9]{15}$/)),
  [FIELD.hash]: z.string().check(z.minLength(1), z.maxLength(LIMIT.hash)),
})

export type ContactPayload = z.infer<typeof contactSchema>

// Made once per currency: a NumberFormat takes a while to build, and an import checks 100,000 amounts.
const marks = new Map<string, string[]>()

/** How a currency is written next to an amount: its code and its symbols ("USD", "$", "US$"), upper case. */
function marksOf(currency: string): string[] {
  const symbol = (locale: string, currencyDisplay: 'symbol' | 'narrowSymbol') =>
    new Intl.NumberFormat(locale, { style: 'currency', currency, currencyDisplay }).formatToParts(1).find((part) => part.type === 'currency')?.value ?? ''
  let found = marks.get(currency)
  if (!found) {
    found = [currency, ...['de-DE', 'en-US'].flatMap((locale) => [symbol(locale, 'symbol'), symbol(locale, 'narrowSymbol')])].map((mark) => mark.toUpperCase())
    marks.set(currency, found)
  }
  return found
}

// An amount with a currency mark before or after it; whole units grouped in thousands by "." or "," (German or
// English), optionally followed by cents with the other separator (",-" is German for none).
const AMOUNT = /^([\p{L}\p{Sc}]{0,4})(\d{1,3}(?:([.,])\d{3})(?:\3\d{3})*|\d{1,10})(?:([.,])(\d{1,2}|[-\u2013]))?([\p{L}\p{Sc}]{0,4})$/u

/** Why a text is no amount: not a number as people write one, cents other than zero, or above 1,000,000,000. */
export type AmountProblem = 'format' | 'cents' | 'range'

/** A whole amount and the currency mark written with it ("", "EUR", "€", "US$"; upper case). */
export interface Amount {
  amount: number
  mark: string
}

/**
 * An amount as people type it: "4900", "4.900", "4 900 €", "4900,00", "4.900,- €", "$1,500", "1,500.00 USD".
 * Whole currency units; '' is none. The mark is returned unchecked: markFits says whether it is the right one.
 */
export function readAmount(value: string): Amount | null | AmountProblem {
  const compact = value.replace(/[\s\u00a0\u202f]/g, '')
  if (compact === '') return null
  const match = AMOUNT.exec(compact)
  if (!match) return 'format'
  const [, before = '', digits = '', thousands, decimal, cents = '', after = ''] = match
  if ((before && after) || (thousands && decimal === thousands)) return 'format'
  if (/[1-9]/.test(cents)) return 'cents'
  const amount = Number(thousands ? digits.replaceAll(thousands, '') : digits)
  return amount <= 1_000_000_000 ? { amount, mark: (before || after).toUpperCase() } : 'range'
}

/**
 * Whether a mark may stand beside an amount in `currency`: none, or that currency's code or symbol; without a
 * currency (the form's first check, which does not know the domain), any code or symbol.
 */
export function markFits(mark: string, currency?: string): boolean {
  if (!mark) return true
  return currency ? marksOf(currency).includes(mark) : /^[A-Z]{3}$|\p{Sc}/u.test(mark)
}

/**
 * An offer as people type it (see readAmount), in whole currency units; '' is no offer. Returns 'invalid' for
 * anything else (cents other than zero included: offers are in whole units). With `currency` (the domain's), a
 * currency mark must be that currency's code or symbol (markFits).
 */
export function parseOffer(value: string, currency?: string): number | null | 'invalid' {
  const read = readAmount(value)
  if (read === null) return null
  return typeof read === 'object' && markFits(read.mark, currency) ? read.amount : 'invalid'
}

/** The visible fields, the ones a visitor can be told about. */
export const VISIBLE_FIELDS = [FIELD.name, FIELD.email, FIELD.message, FIELD.offer] as const
export type VisibleField = (typeof VISIBLE_FIELDS)[number]
export type FieldErrors = Partial<Record<VisibleField, string>>

export type ContactCheck = { status: 'valid'; data: ContactPayload } | { status: 'invalid'; fieldErrors: FieldErrors; otherErrors: string[] }

/** Checks a submission; the hints of wrong fields are in `language`, the page's. */
export function checkContact(input: unknown, language: Language = 'de'): ContactCheck {
  const result = contactSchema.safeParse(input)
  if (result.success) return { status: 'valid', data: result.data }
  return { status: 'invalid', ...contactIssues(result.error.issues, language) }
}

/**
 * What contactSchema found wrong, for the visitor: a hint in `language` for each visible field (the first of its
 * issues), and the names of the other parts that were wrong (hidden fields, or the whole body as "body").
 */
export function contactIssues(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
  language: Language,
): { fieldErrors: FieldErrors; otherErrors: string[] } {
  const text = textsOf(language)
  const fieldErrors: FieldErrors = {}
  const otherErrors: string[] = []
  for (const issue of issues) {
    const key = issue.path[0]
    if ((VISIBLE_FIELDS as readonly unknown[]).includes(key)) {
      const field = key as VisibleField
      fieldErrors[field] ??= isHint(issue.message) ? text[issue.message] : text.invalid
    } else {
      otherErrors.push(String(key ?? 'body'))
    }
  }
  return { fieldErrors, otherErrors }
}

/** The answer of POST /api/contact on success: the next token for another message from the same page. */
export const contactSuccessSchema = z.object({ ok: z.literal(true), token: z.string(), hash: z.string() })
export type ContactSuccess = z.infer<typeof contactSuccessSchema>

/** The one error body of the API. */
export interface ApiError {
  error: string
  fields?: FieldErrors
}
