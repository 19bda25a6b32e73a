// The domains file: which domains this server sells, at what price, and where their inquiries go.
// One zod schema validates it (domains-document.ts applies it entry by entry); domains-table.ts keeps the result.
import { toASCII } from '../lib/uts46.ts'
import { z } from 'zod'
import { isValidEmail } from '../../shared/contact.ts'
import type { PriceTerms } from '../../shared/price-terms.ts'
import { LANGUAGES, LOCALE, type Language } from '../../shared/language.ts'
import { parseTargetList } from '../lib/notify-targets.ts'
import { isDomainName, isPlainName } from './host.ts'
import { isValidIban, normalIban } from '../../shared/iban.ts'

const httpUrl = z.url({ protocol: /^https?$/ })
// Exactly one plain address, by the rule the visitor's address must pass: nodemailer reads a comma, a group, a
// display name or a line separator (U+2028) as further recipients, and they would get every inquiry.
const mailbox = z.string().refine(isValidEmail, 'must be exactly one plain e-mail address such as verkauf@example.org (no name, no list, no line break)')
// A list, or one entry; an empty list turns NOTIFY_URLS off for the domain.
const notifyList = z.union([z.string(), z.array(z.string())]).transform((value, ctx) => {
  const { urls, errors } = parseTargetList(typeof value === 'string' ? [value] : value)
  for (const error of errors) ctx.addIssue({ code: 'custom', message: error })
  return urls
})
const wholeAmount = z.number().int().nonnegative().max(1_000_000_000)
const httpsUrl = (example: string) =>
  z.url({ protocol: /^https$/, hostname: z.regexes.domain, error: `must be an https:// address with a domain name, such as ${example}` }).max(2000)
// EPC069-12 allows 70 characters for the name and Latin letters for the BIC.
const paymentSchema = z
  .object({
    /** Who sells, as the deal page names them (default: the account holder). */
    seller: z.string().trim().min(1).max(70).optional(),
    /** SEPA bank transfer, shown as text and as an EPC QR code ("GiroCode"). */
    bank: z
      .object({
        holder: z.string().trim().min(1).max(70),
        iban: z.string().transform(normalIban).refine(isValidIban, 'is not a valid IBAN: its check digits do not match (a typo?)'),
        bic: z
          .string()
          .transform((value) => value.replace(/\s+/g, '').toUpperCase())
          .refine((value) => /^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(value), 'must be a BIC of 8 or 11 characters, such as COBADEFFXXX')
          .optional(),
      })
      .strict()
      .optional(),
    /** A payment page (PayPal.me, a Stripe Payment Link, an escrow's transaction): {betrag}, {waehrung}, {referenz} are filled in. */
    link: httpsUrl('https://paypal.me/name/{betrag}{waehrung}').optional(),
    /** An escrow service ("Treuhand"): the buyer pays it, it pays the seller once the domain has moved. */
    escrow: z
      .object({ name: z.string().trim().min(1).max(100), url: httpsUrl('https://escrow.example/') })
      .strict()
      .optional(),
  })
  .strict()
  .refine((payment) => payment.bank || payment.link || payment.escrow, 'needs at least one of bank, link or escrow')

const rateCount = z.number().int('must be a whole number of monthly rates').min(2, 'must be 2 to 60 monthly rates').max(60, 'must be 2 to 60 monthly rates')
const checkoutPlanObject = z
  .object({
    rates: rateCount,
    /** In whole units of the domain's currency, as `price`. */
    downPayment: wholeAmount.positive('must be more than 0 (leave it out for none)').optional(),
    transfer: z.enum(['after-last-rate', 'at-once'], { error: 'must be after-last-rate or at-once' }).optional(),
  })
  .strict()

/** The checkout's plan as the server uses it: the count, a down payment in whole units (0 for none), when the name moves. */
interface CheckoutPlan {
  rates: number
  downPayment: number
  transfer: 'after-last' | 'at-once'
}

/**
 * `instalments: 12`, or `instalments: { rates: 12, downPayment: 500, transfer: at-once }` (decisions 042, 046). Whether
 * the plan fits the price (a down payment below it, a cent for each rate) is checked where both are known: the
 * checkout offers no plan that does not (docs/domains.md).
 */
const checkoutPlanSchema = z.unknown().transform((value, ctx): CheckoutPlan => {
  if (typeof value !== 'number' && (typeof value !== 'object' || value === null || Array.isArray(value))) {
    ctx.addIssue({ code: 'custom', message: 'must be a number of monthly rates (2 to 60) or a mapping { rates, downPayment, transfer }' })
    return z.NEVER
  }
  const result = typeof value === 'number' ? rateCount.safeParse(value) : checkoutPlanObject.safeParse(value)
  if (!result.success) {
    for (const issue of result.error.issues)
      ctx.addIssue({ code: 'custom', message: issue.message, path: issue.code === 'unrecognized_keys' ? issue.keys.slice(0, 1) : issue.path })
    return z.NEVER
  }
  if (typeof result.data === 'number') return { rates: result.data, downPayment: 0, transfer: 'after-last' }
  return { rates: result.data.rates, downPayment: result.data.downPayment ?? 0, transfer: result.data.transfer === 'at-once' ? 'at-once' : 'after-last' }
})

const domainSettingsSchema = z
  .object({
    /** Asking price in whole units of the currency. */
    price: wholeAmount.optional(),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as EUR')
      .optional(),
    /** With a minimum offer the form asks for an offer; lower offers are stored but not mailed as leads. */
    minOffer: wholeAmount.optional(),
    /** Overrides MAIL_TO for this domain. */
    mailTo: mailbox.optional(),
    description: z.string().max(500).optional(),
    /** How the price is meant: Festpreis, Verhandlungsbasis (VB) or Preis auf Anfrage (no amount shown). */
    priceType: z.enum(['fixed', 'negotiable', 'on-request']).optional(),
    /** Whether the price includes VAT ("inkl. MwSt."), excludes it ("zzgl. MwSt.") or says nothing about it. */
    vat: z.enum(['included', 'excluded', 'none']).optional(),
    /**
     * A checkout elsewhere (an escrow service, a marketplace listing), shown as "Jetzt kaufen" beside the form. Only
     * https: the button takes the buyer away with their money.
     */
    buyUrl: z
      .url({ protocol: /^https$/, hostname: z.regexes.domain, error: 'must be an https:// address with a domain name, such as https://escrow.example/kaufen' })
      .max(2000)
      .optional(),
    /** The text of "So läuft der Kauf ab", shown when a price is set; unset: the standard text (page.md). */
    howToBuy: z.string().max(2000).optional(),
    /**
     * The page's language: one of LANGUAGES, or `auto`: chosen among `languages` by the browser's Accept-Language
     * (decisions 025 and 048).
     */
    language: z.enum([...LANGUAGES, 'auto']).optional(),
    /**
     * The languages `auto` chooses among, the first when the browser prefers none of them (default: German and
     * English, as before decision 048).
     */
    languages: z
      .array(z.enum(LANGUAGES, { error: `must be one of ${LANGUAGES.join(', ')}` }))
      .min(1, 'must name at least one language')
      .refine((list) => new Set(list).size === list.length, 'names a language twice')
      .optional(),
    /** false: this server does not show the domain at all (it is treated like an unknown host). */
    listed: z.boolean().optional(),
    /** true: the page asks search engines not to index it (robots noindex); it is still shown. */
    noindex: z.boolean().optional(),
    /**
     * Unset means available (no zod default: it would override `default`'s status on every domain). Sold names get
     * no _for-sale DNS records (docs/dns.md).
     */
    status: z.enum(['available', 'reserved', 'sold']).optional(),
    /**
     * What the visitor gets after sending: nothing (off), a fixed note that the inquiry arrived (notice), or a link to
     * follow before the inquiry reaches the owner (verify). docs/confirmation.md.
     */
    confirm: z.enum(['off', 'notice', 'verify']).optional(),
    imprintUrl: httpUrl.optional(),
    privacyUrl: httpUrl.optional(),
    /** Replaces NOTIFY_URLS (and, on a domain, the default's list): where notifications of new inquiries go. */
    notify: notifyList.optional(),
    /** How the buyer of a deal pays (docs/deals.md); a domain's replaces the default's as a whole. */
    payment: paymentSchema.optional(),
    /**
     * The fixed-price checkout also offers payment in so many monthly rates, with an optional down payment, the name
     * moving after the last rate or at once (decisions 042, 046, docs/domains.md); the buyer chooses.
     */
    instalments: checkoutPlanSchema.optional(),
  })
  .strict()

export type DomainSettings = z.infer<typeof domainSettingsSchema>

/** The ASCII form of a name of the domains file (lower case, punycode), or null if it is not a domain name. */
export function asciiName(name: string): string | null {
  const lower = name.toLowerCase()
  // tr46 costs tens of microseconds a name: seconds for a portfolio of 100,000, most of them plain.
  if (isPlainName(lower)) return lower
  return toASCII(lower, { checkHyphens: true, checkBidi: true, checkJoiners: true, useSTD3ASCIIRules: true, verifyDNSLength: true }) || null
}

/** A key of `domains`, an exact name ("example.de", "münchen.de") or a wildcard ("*.example.de"), in ASCII; or null. */
export function domainKey(key: string): string | null {
  const wildcard = key.startsWith('*.')
  const ascii = asciiName(wildcard ? key.slice(2) : key)
  return ascii && wildcard ? `*.${ascii}` : ascii
}

/**
 * A name the owner adds to the portfolio (a row of an import, a name typed in the console or the CLI), in ASCII; or why
 * it is none: a wildcard, or no name anybody sells (an address such as 127.0.0.1, a single label such as localhost, a
 * .localhost name). The import and the editor both ask here, so that neither lets in what the other refuses.
 */
export function sellableName(typed: string): { ascii: string } | { problem: 'wildcard' | 'name' } {
  // A trailing dot is the DNS root (registrars export "example.de." now and then).
  const name = typed.replace(/\.$/, '')
  if (name.startsWith('*.')) return { problem: 'wildcard' }
  const ascii = domainKey(name)
  return ascii !== null && isDomainName(ascii) ? { ascii } : { problem: 'name' }
}

export const notADomainKey = (key: string) => `"${key}" is not a domain name or a wildcard like *.example.de`

const domainKeySchema = z.string().transform((key, ctx) => {
  const ascii = domainKey(key)
  if (ascii) return ascii
  ctx.addIssue({ code: 'custom', message: notADomainKey(key) })
  return z.NEVER
})

/** Each key of an entry with its own schema: domains-document.ts checks an entry key by key (decision 026). */
export const domainSettingsShape: Readonly<Record<string, z.ZodType>> = domainSettingsSchema.shape

/** One entry of `domains`: its settings, or nothing (null: the defaults). */
export const domainEntrySchema = domainSettingsSchema.nullable().transform((entry): DomainSettings => entry ?? {})

export const domainsFileSchema = z
  .object({
    /** What a host that the file does not list gets: the page anyway, a neutral page, or 404. */
    unknownHosts: z.enum(['page', 'neutral', 'not-found']).default('page'),
    /** www.example.de shows example.de's page, or redirects there. */
    www: z.enum(['show', 'redirect']).default('show'),
    /** Whether offers below a domain's minimum are mailed too (they are always stored). */
    mailLowOffers: z.boolean().default(false),
    /** Every page lists the owner's other available names ("Weitere Domains"), and /domains lists them all. */
    portfolio: z.boolean().default(false),
    legal: z
      .object({ imprintUrl: httpUrl, privacyUrl: httpUrl, imprintText: z.string().max(20_000), privacyText: z.string().max(50_000) })
      .partial()
      .strict()
      .default({}),
    default: domainSettingsSchema.default({}),
    domains: z.record(domainKeySchema, domainEntrySchema).default({}),
  })
  .strict()

/** A domains file as validated: a plain object (the server keeps it as a table, domains-table.ts). */
type DomainsDocument = z.output<typeof domainsFileSchema>

/** Everything of the file but its `domains`: what holds for all of them. */
export type DomainsTop = Omit<DomainsDocument, 'domains'>

/** "4.900 €" (German grouping; on an English page "€4,900"), no cents for whole amounts. */
export function formatPrice(amount: number, currency = 'EUR', language: Language = 'de'): string {
  const key = `${language} ${currency}`
  let format = priceFormats.get(key)
  if (!format) {
    format = new Intl.NumberFormat(LOCALE[language], { style: 'currency', currency, maximumFractionDigits: 0, minimumFractionDigits: 0 })
    priceFormats.set(key, format)
  }
  return format.format(amount)
}

/**
 * A NumberFormat per language and currency: making one costs about 70 times what formatting with it does, and a page
 * with "Weitere Domains" formats a dozen prices per request. Currencies are the file's ISO codes, so few.
 */
const priceFormats = new Map<string, Intl.NumberFormat>()

/**
 * The asking price anyone may see: none when it is on request, wherever it would show (page, JSON-LD, preview image,
 * DNS records). The owner may keep a price in the file for their own reference; only their console and mail show it.
 */
export function publicPrice(settings: DomainSettings): number | undefined {
  return settings.priceType === 'on-request' ? undefined : settings.price
}

/**
 * The price terms the page and its preview image put into words (shared/price-terms.ts); none for a sold name, whose
 * page says only that it is sold.
 */
export function priceTermsOf(settings: DomainSettings, language: Language = 'de'): PriceTerms {
  const { priceType, vat, currency = 'EUR', status } = settings
  if (status === 'sold') return {}
  const price = publicPrice(settings)
  return {
    ...(price !== undefined && { price: formatPrice(price, currency, language) }),
    ...(priceType && { priceType }),
    // VAT is said of an amount; "none" says nothing.
    ...(price !== undefined && vat !== undefined && vat !== 'none' && { vat }),
  }
}
