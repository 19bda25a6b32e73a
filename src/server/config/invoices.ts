// The seller on invoices (docs/deals.md, "Invoices"; decision 038) and how long invoices are kept.
import { z } from 'zod'
import { flag } from './fields.ts'

/** The law's minimum for invoices since 2025 (decision 038): never erased sooner. */
const INVOICE_RETENTION_MIN_YEARS = 8
const INVOICE_RETENTION_ERROR = `must be a whole number of years from ${INVOICE_RETENTION_MIN_YEARS} to 100 (the law asks for ${INVOICE_RETENTION_MIN_YEARS} since 2025: §147 Abs. 3 AO, §14b Abs. 1 UStG), or off`

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

export const invoicesEnv = z.object({
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
  // Any of them set: every deal paid gets an invoice.
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
})

type InvoicesEnv = z.output<typeof invoicesEnv>

/** Invoices are on when any seller variable is set; then what an invoice needs must all be there. */
function invoiceSeller(env: InvoicesEnv) {
  const on = [...SELLER_REQUIRED, ...SELLER_OPTIONAL].some((key) => env[key] !== undefined) || env.SELLER_SMALL_BUSINESS === true
  const missing: string[] = SELLER_REQUIRED.filter((key) => env[key] === undefined)
  if (env.SELLER_TAX_NUMBER === undefined && env.SELLER_VAT_ID === undefined) missing.push('SELLER_TAX_NUMBER or SELLER_VAT_ID')
  return { on, missing }
}

export function checkInvoices(env: InvoicesEnv, ctx: z.RefinementCtx): void {
  const seller = invoiceSeller(env)
  if (seller.on && seller.missing.length) {
    ctx.addIssue({
      code: 'custom',
      path: ['SELLER_NAME'],
      message: `invoices are on (a SELLER_* variable is set), but ${seller.missing.join(', ')} ${seller.missing.length === 1 ? 'is' : 'are'} missing: an invoice needs the seller's name, address and tax number or VAT ID (§14 Abs. 4 UStG)`,
    })
  }
}

export const invoicesConfig = (env: InvoicesEnv) => ({
  /** Years after the end of the year of issue that invoices are kept; undefined: kept for ever. */
  invoiceRetentionYears: env.INVOICE_RETENTION_YEARS === 'off' ? undefined : env.INVOICE_RETENTION_YEARS,
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
})
