// The whole configuration is read from the environment once, by this one schema, at start-up.
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { z } from 'zod'
import { isValidEmail } from '../shared/contact.ts'
import { parseTargetList } from './lib/notify-targets.ts'

const flag = z.enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off']).transform((value) => ['true', '1', 'yes', 'on'].includes(value))

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

/** proxy-addr's names for whole ranges, as Fastify accepts them in `trustProxy`. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal']

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.includes(entry)) return true
  const [address = '', bits, ...rest] = entry.split('/')
  const family = net.isIP(address)
  if (family === 0 || rest.length > 0) return false
  return bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128))
}

/**
 * Which X-Forwarded-For entries to believe: none (false), a number of proxy hops in front (true = 1: the
 * rightmost entry is the client), or the proxies' addresses and CIDR ranges (every entry from the right that is
 * one of them is skipped).
 */
const trustProxy = z.string().transform((value, ctx): false | number | string[] => {
  const text = value.trim().toLowerCase()
  if (['false', 'no', 'off', '0'].includes(text)) return false
  if (['true', 'yes', 'on'].includes(text)) return 1
  if (/^\d+$/.test(text) && Number(text) <= 32) return Number(text) || false
  const entries = text.split(',').map((entry) => entry.trim())
  const wrong = entries.find((entry) => !isProxyAddress(entry))
  if (wrong === undefined) return entries
  ctx.addIssue({
    code: 'custom',
    message:
      `must be false, true (one proxy), a number of proxies from 1 to 32, or a comma-separated list of proxy addresses ` +
      `or CIDR ranges (e.g. 127.0.0.1,10.0.0.0/8); ${JSON.stringify(wrong)} is none of these`,
  })
  return z.NEVER
})

const IPV6_PREFIX_ERROR = 'must be a whole number from 32 to 128 (how many leading bits of an IPv6 address make one client)'

const PER_MINUTE_ERROR = 'must be a whole number per client and minute from 0 to 100000 (0: no limit)'

const RETENTION_ERROR = 'must be a whole number of days from 1 to 36500 (e.g. 365), or off'

/** The law's minimum for invoices since 2025 (decision 038): never erased sooner. */
const INVOICE_RETENTION_MIN_YEARS = 8
const INVOICE_RETENTION_ERROR = `must be a whole number of years from ${INVOICE_RETENTION_MIN_YEARS} to 100 (the law asks for ${INVOICE_RETENTION_MIN_YEARS} since 2025: §147 Abs. 3 AO, §14b Abs. 1 UStG), or off`

const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })

/** Webhooks and presets (src/server/lib/notify-targets.ts), separated by commas or white space. */
const notifyUrls = z.string().transform((value, ctx) => {
  const { urls, errors } = parseTargetList(value)
  for (const error of errors) ctx.addIssue({ code: 'custom', message: error })
  return urls
})

/** A deal key as given in DEAL_KEY: 64 hex digits or base64 of 32 bytes; null when it is neither. */
function dealKeyBytes(text: string): Buffer | null {
  const value = text.trim()
  if (/^[0-9a-fA-F]{64}$/.test(value)) return Buffer.from(value, 'hex')
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(value)) {
    const bytes = Buffer.from(value, 'base64')
    return bytes.length === 32 ? bytes : null
  }
  return null
}

/** A line of the seller's data on an invoice: one line of printable text. */
const sellerText = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max, `must be at most ${max} characters`)
    .refine((value) => !/[\p{Cc}\u2028\u2029]/u.test(value), 'must be one line without control characters')

const SELLER_REQUIRED = ['SELLER_NAME', 'SELLER_STREET', 'SELLER_POSTCODE', 'SELLER_CITY'] as const
const SELLER_OPTIONAL = ['SELLER_TAX_NUMBER', 'SELLER_VAT_ID', 'SELLER_IBAN', 'SELLER_BIC', 'SELLER_BANK'] as const

/** Invoices are on when any seller variable is set; then what an invoice needs must all be there. */
function invoiceSeller(
  env: Partial<Record<(typeof SELLER_REQUIRED)[number] | (typeof SELLER_OPTIONAL)[number], string>> & { SELLER_SMALL_BUSINESS?: boolean },
) {
  const on = [...SELLER_REQUIRED, ...SELLER_OPTIONAL].some((key) => env[key] !== undefined) || env.SELLER_SMALL_BUSINESS === true
  const missing: string[] = SELLER_REQUIRED.filter((key) => env[key] === undefined)
  if (env.SELLER_TAX_NUMBER === undefined && env.SELLER_VAT_ID === undefined) missing.push('SELLER_TAX_NUMBER or SELLER_VAT_ID')
  return { on, missing }
}

/** A TSIG key's secret (base64) as bytes, or null when it is not base64 of at least 16 bytes. */
function tsigSecret(value: string): Buffer | null {
  const text = value.trim()
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text) || text.length % 4 !== 0) return null
  const bytes = Buffer.from(text, 'base64')
  return bytes.length >= 16 ? bytes : null
}

const DNS_LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9])?$/
/** A DNS name in ASCII (a zone or a key name), lower case, without the final dot. */
const dnsName = (example: string) =>
  z
    .string()
    .transform((value) => value.trim().toLowerCase().replace(/\.$/, ''))
    .refine(
      (value) => value.length > 0 && value.length <= 253 && value.split('.').every((label) => DNS_LABEL.test(label)),
      `must be a DNS name in ASCII, ${example}`,
    )

const dnsZones = z.string().transform((value, ctx) => {
  const zones = value
    .split(',')
    .map((zone) => zone.trim())
    .filter(Boolean)
  const parsed = zones.map((zone) => dnsName('').safeParse(zone))
  const wrong = parsed.findIndex((result) => !result.success)
  if (zones.length === 0 || wrong !== -1) {
    ctx.addIssue({
      code: 'custom',
      message: `must be a comma-separated list of zones in ASCII (punycode), e.g. example.com,example.de${wrong === -1 ? '' : `; ${JSON.stringify(zones[wrong])} is not one`}`,
    })
    return z.NEVER
  }
  return [...new Set(parsed.map((result) => result.data!))]
})

/** HOST, HOST:PORT or [IPv6]:PORT of the DNS server; port 53 unless given. */
const dnsServer = z.string().transform((value, ctx) => {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]\s]+))(?::(\d{1,5}))?$/.exec(value.trim()) ?? /^([0-9a-fA-F:]+)$/.exec(value.trim())
  const host = match?.[1] ?? match?.[2]
  const port = match?.[3] === undefined ? 53 : Number(match[3])
  const hostOk = host !== undefined && (net.isIP(host) !== 0 || /^[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?$/i.test(host))
  if (!hostOk || port < 1 || port > 65535) {
    ctx.addIssue({ code: 'custom', message: 'must be the DNS server as HOST, HOST:PORT or [IPv6]:PORT, e.g. ns1.example.net or 192.0.2.53:53' })
    return z.NEVER
  }
  return { host: host!, port }
})

/** SERVER_ADDRESSES: this server's public IP addresses and the host names a listed name may be a CNAME of. */
const serverAddresses = z.string().transform((value, ctx) => {
  const entries = value
    .split(/[\s,]+/)
    .map((entry) => entry.trim().toLowerCase().replace(/\.$/, ''))
    .filter(Boolean)
  const wrong = entries.find(
    (entry) => net.isIP(entry) === 0 && !(entry.length <= 253 && entry.split('.').length > 1 && entry.split('.').every((label) => DNS_LABEL.test(label))),
  )
  if (wrong !== undefined) {
    ctx.addIssue({
      code: 'custom',
      message: `must list IP addresses and host names, separated by commas, e.g. 203.0.113.7,2001:db8::7,lander.example.net; ${JSON.stringify(wrong)} is neither`,
    })
    return z.NEVER
  }
  return [...new Set(entries)]
})

/** DOMAIN_CHECK_RESOLVER: IP or IP:PORT ([IPv6]:PORT) of the DNS resolver the checks ask. */
const resolverAddress = z.string().refine((value) => {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([0-9.]+))(?::(\d{1,5}))?$/.exec(value.trim()) ?? /^([0-9a-fA-F:]+)$/.exec(value.trim())
  const host = match?.[1] ?? match?.[2]
  const port = match?.[3] === undefined ? 53 : Number(match[3])
  return host !== undefined && net.isIP(host) !== 0 && port >= 1 && port <= 65535
}, 'must be the resolver as IP, IP:PORT or [IPv6]:PORT, e.g. 127.0.0.53 or 127.0.0.1:5353')

const configSchema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default('0.0.0.0'),
    // The owner's console listens apart from the public page; `off` switches it off.
    ADMIN_PORT: z
      .union([z.literal('off'), z.coerce.number().int().min(0).max(65535)], { error: 'must be a port number from 0 to 65535, or off' })
      .default(3001),
    ADMIN_HOST: z.string().min(1).default('127.0.0.1'),
    DATA_DIR: z.string().min(1).default('./data'),
    SMTP_URL: z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL, e.g. smtps://user:pass@mail.example.de:465' }).optional(),
    MAIL_TO: mailbox.optional(),
    MAIL_FROM: mailbox.optional(),
    CONTACT_SECRET: z.string().min(16, 'must be at least 16 characters long').optional(),
    CONTACT_RATE_LIMIT: z.coerce.number().int().min(0).default(10),
    MIN_FILL_SECONDS: z.coerce.number().min(0).max(3600).default(3),
    TRUST_PROXY: trustProxy.default(false),
    // The console's own: the public port's proxy is not the console's, and a tunnel connects from loopback too.
    ADMIN_TRUST_PROXY: trustProxy.default(false),
    RATE_LIMIT_IPV6_PREFIX: z.coerce
      .number({ error: IPV6_PREFIX_ERROR })
      .int({ error: IPV6_PREFIX_ERROR })
      .min(32, { error: IPV6_PREFIX_ERROR })
      .max(128, { error: IPV6_PREFIX_ERROR })
      .default(64),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    // Unset: readable lines on a terminal, JSON lines otherwise (src/server/logger.ts).
    LOG_FORMAT: z.enum(['json', 'pretty'], { error: 'must be json (one JSON object a line) or pretty (readable lines)' }).optional(),
    WORKERS: z.union([z.literal('auto'), z.coerce.number().int().min(1).max(64)], { error: 'must be a whole number from 1 to 64, or auto' }).default(1),
    DOMAINS_FILE: z.string().min(1).optional(),
    // The heap a load of the domains file may use, in its own process (docs/domains.md, "Large portfolios").
    DOMAINS_FILE_MEMORY_MIB: z.coerce
      .number({ error: 'must be a whole number of MiB from 16 to 4096' })
      .int('must be a whole number of MiB from 16 to 4096')
      .min(16, 'must be a whole number of MiB from 16 to 4096')
      .max(4096, 'must be a whole number of MiB from 16 to 4096')
      .default(384),
    DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// URL, e.g. postgres://lander:secret@db.internal:5432/lander' }).optional(),
    MAIL_LEASE_SECONDS: z.coerce.number().int().min(1).max(3600).default(120),
    // At most 9: a request accepted just before the drain ends must still arrive (10 s) within the 20 s a shutdown has.
    SHUTDOWN_DRAIN_SECONDS: z.coerce
      .number({ error: 'must be a number of seconds from 0 to 9, e.g. 1 or 0.5' })
      .min(0, 'must be a number of seconds from 0 to 9, e.g. 1 or 0.5')
      .max(9, 'must be a number of seconds from 0 to 9, e.g. 1 or 0.5')
      .default(1),
    ALLOW_ANY_TLS: flag.default(false),
    READYZ_DETAILS: flag.default(false),
    TLS_WILDCARD_DAILY_LIMIT: z.coerce
      .number({ error: 'must be a whole number from 0 to 1000' })
      .int('must be a whole number from 0 to 1000')
      .min(0, 'must be a whole number from 0 to 1000')
      .max(1000, 'must be a whole number from 0 to 1000')
      .default(20),
    // Work a client may make this process do per minute (decision 032): lists of /domains that are not the plain
    // first page, and link-preview images not drawn yet. 0: no limit.
    SEARCH_RATE_LIMIT: z.coerce.number({ error: PER_MINUTE_ERROR }).int(PER_MINUTE_ERROR).min(0, PER_MINUTE_ERROR).max(100_000, PER_MINUTE_ERROR).default(30),
    IMAGE_RATE_LIMIT: z.coerce.number({ error: PER_MINUTE_ERROR }).int(PER_MINUTE_ERROR).min(0, PER_MINUTE_ERROR).max(100_000, PER_MINUTE_ERROR).default(10),
    LOCAL_PREVIEW: flag.default(true),
    IMPRINT_URL: httpUrl.optional(),
    PRIVACY_URL: httpUrl.optional(),
    IMPRINT_FILE: z.string().min(1).optional(),
    PRIVACY_FILE: z.string().min(1).optional(),
    COUNTER_OFFER_DAYS: z.coerce
      .number({ error: 'must be a whole number of days from 1 to 365' })
      .int('must be a whole number of days from 1 to 365')
      .min(1, 'must be a whole number of days from 1 to 365')
      .max(365, 'must be a whole number of days from 1 to 365')
      .default(7),
    // The key that seals transfer codes (docs/deals.md): 32 bytes as 64 hex digits or base64; unset: DATA_DIR/deal-key.
    DEAL_KEY: z
      .string()
      .refine((value) => dealKeyBytes(value) !== null, 'must be 32 random bytes as 64 hex digits or base64 (e.g. the output of: openssl rand -hex 32)')
      .optional(),
    DEAL_PAYMENT_DAYS: z.coerce
      .number({ error: 'must be a whole number of days from 1 to 365' })
      .int('must be a whole number of days from 1 to 365')
      .min(1, 'must be a whole number of days from 1 to 365')
      .max(365, 'must be a whole number of days from 1 to 365')
      .default(7),
    DEAL_TRANSFER_DAYS: z.coerce
      .number({ error: 'must be a whole number of days from 1 to 365' })
      .int('must be a whole number of days from 1 to 365')
      .min(1, 'must be a whole number of days from 1 to 365')
      .max(365, 'must be a whole number of days from 1 to 365')
      .default(5),
    NOTIFY_URLS: notifyUrls.optional(),
    NOTIFY_SECRET: z.string().min(32, 'must be at least 32 characters long (e.g. the output of: openssl rand -hex 32)').optional(),
    NOTIFY_PERSONAL: flag.default(false),
    // Where the owner opens the console (through a tunnel or a proxy): the link in every notification.
    ADMIN_URL: httpUrl.optional(),
    // GDPR: inquiries are erased this many days after their last activity (docs/privacy.md); unset or off: kept.
    RETENTION_DAYS: z
      .union([z.literal('off'), z.coerce.number({ error: RETENTION_ERROR }).int(RETENTION_ERROR).min(1, RETENTION_ERROR).max(36_500, RETENTION_ERROR)], {
        error: RETENTION_ERROR,
      })
      .optional(),
    // Invoices are erased this many years after the end of the year they were issued in (decision 038); off: kept.
    INVOICE_RETENTION_YEARS: z
      .union(
        [
          z.literal('off'),
          z.coerce
            .number({ error: INVOICE_RETENTION_ERROR })
            .int(INVOICE_RETENTION_ERROR)
            .min(INVOICE_RETENTION_MIN_YEARS, INVOICE_RETENTION_ERROR)
            .max(100, INVOICE_RETENTION_ERROR),
        ],
        { error: INVOICE_RETENTION_ERROR },
      )
      .default(INVOICE_RETENTION_MIN_YEARS),
    DIGEST: z.enum(['off', 'weekly'], { error: 'must be weekly (a summary mail every Monday 08:00 Europe/Berlin) or off' }).default('off'),
    // The seller on invoices (docs/deals.md, "Invoices"; decision 038). Any of them set: every deal paid gets an invoice.
    SELLER_NAME: sellerText(200).optional(),
    SELLER_STREET: sellerText(200).optional(),
    SELLER_POSTCODE: sellerText(20).optional(),
    SELLER_CITY: sellerText(100).optional(),
    SELLER_COUNTRY: z
      .string()
      .regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 country code such as DE')
      .default('DE'),
    SELLER_TAX_NUMBER: sellerText(40).optional(),
    SELLER_VAT_ID: z
      .string()
      .transform((value) => value.replace(/\s+/g, '').toUpperCase())
      .refine((value) => /^[A-Z]{2}[0-9A-Z+*.]{2,13}$/.test(value), 'must be a VAT ID such as DE123456789')
      .optional(),
    SELLER_SMALL_BUSINESS: flag.default(false),
    SELLER_VAT_RATE: z
      .string()
      .regex(/^\d{1,2}([.,]\d{1,2})?$/, 'must be a VAT rate in percent such as 19 or 7,5')
      .transform((value) => Math.round(Number(value.replace(',', '.')) * 100))
      .default(1900),
    SELLER_IBAN: z
      .string()
      .transform((value) => value.replace(/\s+/g, '').toUpperCase())
      .refine((value) => /^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(value), 'must be an IBAN such as DE02120300000000202051')
      .optional(),
    SELLER_BIC: z
      .string()
      .transform((value) => value.replace(/\s+/g, '').toUpperCase())
      .refine((value) => /^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(value), 'must be a BIC of 8 or 11 characters, such as COBADEFFXXX')
      .optional(),
    SELLER_BANK: sellerText(100).optional(),
    // The owner's authoritative DNS server for _for-sale records by RFC 2136 update (docs/dns.md, decision 045).
    DNS_UPDATE_SERVER: dnsServer.optional(),
    DNS_UPDATE_ZONES: dnsZones.optional(),
    DNS_UPDATE_KEY_NAME: dnsName('a key name such as lander-key').optional(),
    DNS_UPDATE_KEY_SECRET: z
      .string()
      .refine(
        (value) => tsigSecret(value) !== null,
        "must be the key's secret in base64, at least 16 bytes (e.g. from: tsig-keygen -a hmac-sha256 lander-key, or keymgr -t lander-key hmac-sha256)",
      )
      .optional(),
    // The daily checks of the listed names (docs/domains.md, decision 047).
    DOMAIN_CHECKS: z.enum(['daily', 'off'], { error: 'must be daily or off' }).default('daily'),
    SERVER_ADDRESSES: serverAddresses.optional(),
    DOMAIN_CHECK_RESOLVER: resolverAddress.optional(),
  })
  .superRefine((env, ctx) => {
    if (env.SMTP_URL && !env.MAIL_TO) {
      ctx.addIssue({ code: 'custom', path: ['MAIL_TO'], message: 'is required when SMTP_URL is set (where should inquiries go?)' })
    }
    const seller = invoiceSeller(env)
    if (seller.on && seller.missing.length) {
      ctx.addIssue({
        code: 'custom',
        path: ['SELLER_NAME'],
        message: `invoices are on (a SELLER_* variable is set), but ${seller.missing.join(', ')} ${seller.missing.length === 1 ? 'is' : 'are'} missing: an invoice needs the seller's name, address and tax number or VAT ID (§14 Abs. 4 UStG)`,
      })
    }
    const dnsSet = (['DNS_UPDATE_SERVER', 'DNS_UPDATE_KEY_NAME', 'DNS_UPDATE_KEY_SECRET'] as const).filter((key) => env[key] !== undefined)
    if ((dnsSet.length > 0 || env.DNS_UPDATE_ZONES) && dnsSet.length < 3) {
      for (const key of (['DNS_UPDATE_SERVER', 'DNS_UPDATE_KEY_NAME', 'DNS_UPDATE_KEY_SECRET'] as const).filter((key) => env[key] === undefined)) {
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: 'is required for DNS updates: DNS_UPDATE_SERVER, DNS_UPDATE_KEY_NAME and DNS_UPDATE_KEY_SECRET go together',
        })
      }
    }
    if (env.NOTIFY_URLS?.length && !env.NOTIFY_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['NOTIFY_SECRET'],
        message: 'is required when NOTIFY_URLS is set: it signs every notification (e.g. the output of: openssl rand -hex 32)',
      })
    }
  })
  .transform((env) => {
    const mailTo = env.MAIL_TO ?? 'owner@localhost'
    return {
      port: env.PORT,
      host: env.HOST,
      /** Null: no console. */
      adminPort: env.ADMIN_PORT === 'off' ? null : env.ADMIN_PORT,
      adminHost: env.ADMIN_HOST,
      dataDir: path.resolve(env.DATA_DIR),
      smtpUrl: env.SMTP_URL,
      mailTo,
      mailFrom: env.MAIL_FROM ?? mailTo,
      contactSecret: env.CONTACT_SECRET,
      contactRateLimit: env.CONTACT_RATE_LIMIT,
      minFillSeconds: env.MIN_FILL_SECONDS,
      trustProxy: env.TRUST_PROXY,
      adminTrustProxy: env.ADMIN_TRUST_PROXY,
      rateLimitIpv6Prefix: env.RATE_LIMIT_IPV6_PREFIX,
      logLevel: env.LOG_LEVEL,
      logFormat: env.LOG_FORMAT,
      workers: env.WORKERS === 'auto' ? os.availableParallelism() : env.WORKERS,
      domainsFile: env.DOMAINS_FILE && path.resolve(env.DOMAINS_FILE),
      domainsFileMemoryMiB: env.DOMAINS_FILE_MEMORY_MIB,
      databaseUrl: env.DATABASE_URL,
      mailLeaseMs: env.MAIL_LEASE_SECONDS * 1000,
      drainMs: Math.round(env.SHUTDOWN_DRAIN_SECONDS * 1000),
      allowAnyTls: env.ALLOW_ANY_TLS,
      readyzDetails: env.READYZ_DETAILS,
      tlsWildcardDailyLimit: env.TLS_WILDCARD_DAILY_LIMIT,
      searchRateLimit: env.SEARCH_RATE_LIMIT,
      imageRateLimit: env.IMAGE_RATE_LIMIT,
      localPreview: env.LOCAL_PREVIEW,
      /** How long a counter-offer stands unless the owner says otherwise (docs/negotiation.md). */
      counterOfferDays: env.COUNTER_OFFER_DAYS,
      /** Deals (docs/deals.md): the key that seals transfer codes (null: the file DATA_DIR/deal-key), and the default deadlines. */
      deal: { key: env.DEAL_KEY === undefined ? null : dealKeyBytes(env.DEAL_KEY)!, paymentDays: env.DEAL_PAYMENT_DAYS, transferDays: env.DEAL_TRANSFER_DAYS },
      retentionDays: env.RETENTION_DAYS === 'off' ? undefined : env.RETENTION_DAYS,
      /** Years after the end of the year of issue that invoices are kept; undefined: kept for ever. */
      invoiceRetentionYears: env.INVOICE_RETENTION_YEARS === 'off' ? undefined : env.INVOICE_RETENTION_YEARS,
      digest: env.DIGEST,
      legal: {
        imprintUrl: env.IMPRINT_URL,
        privacyUrl: env.PRIVACY_URL,
        imprintFile: env.IMPRINT_FILE && path.resolve(env.IMPRINT_FILE),
        privacyFile: env.PRIVACY_FILE && path.resolve(env.PRIVACY_FILE),
      },
      notify: { urls: env.NOTIFY_URLS ?? [], secret: env.NOTIFY_SECRET, personal: env.NOTIFY_PERSONAL },
      /** The seller on invoices; null: no invoices (no SELLER_* set). */
      invoice: invoiceSeller(env).on
        ? {
            name: env.SELLER_NAME!,
            street: env.SELLER_STREET!,
            postcode: env.SELLER_POSTCODE!,
            city: env.SELLER_CITY!,
            country: env.SELLER_COUNTRY,
            taxNumber: env.SELLER_TAX_NUMBER ?? null,
            vatId: env.SELLER_VAT_ID ?? null,
            smallBusiness: env.SELLER_SMALL_BUSINESS,
            vatRate: env.SELLER_VAT_RATE,
            iban: env.SELLER_IBAN ?? null,
            bic: env.SELLER_BIC ?? null,
            bankName: env.SELLER_BANK ?? null,
          }
        : null,
      /** RFC 2136 updates of the _for-sale records (decision 045); null: not set up. */
      dnsUpdate:
        env.DNS_UPDATE_SERVER && env.DNS_UPDATE_KEY_NAME && env.DNS_UPDATE_KEY_SECRET
          ? {
              ...env.DNS_UPDATE_SERVER,
              /** Null: every name is a zone of its own. */
              zones: env.DNS_UPDATE_ZONES ?? null,
              key: { name: `${env.DNS_UPDATE_KEY_NAME}.`, secret: tsigSecret(env.DNS_UPDATE_KEY_SECRET)! },
            }
          : null,
      /** The checks of the listed names (decision 047): daily in the server unless off; `domains check` any time. */
      domainChecks: { daily: env.DOMAIN_CHECKS === 'daily', serverAddresses: env.SERVER_ADDRESSES ?? [], resolver: env.DOMAIN_CHECK_RESOLVER?.trim() ?? null },
      /** Without a trailing slash; undefined: the console's own address (notify/console-link.ts). */
      adminUrl: env.ADMIN_URL?.replace(/\/+$/, ''),
    }
  })

export type Config = z.output<typeof configSchema>

export class ConfigError extends Error {
  override name = 'ConfigError'
}

/** Parses the environment; an empty variable counts as unset. Throws one error naming every wrong variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const input = Object.fromEntries(Object.keys(configSchema.in.shape).map((key) => [key, env[key] === '' ? undefined : env[key]]))
  // Parsed once per process: zod's generated parser (its JIT) would cost more to build than it saves (decision 053).
  const result = configSchema.safeParse(input, { jitless: true })
  if (result.success) return result.data
  const lines = result.error.issues.map((issue) => `  ${issue.path.join('.') || 'config'}: ${issue.message}`)
  throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`)
}
