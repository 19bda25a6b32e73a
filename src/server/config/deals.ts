// The negotiation and the deals (docs/negotiation.md, docs/deals.md): deadlines and the key of the transfer codes.
import { z } from 'zod'

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

export const dealsEnv = z.object({
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
})

export const dealsConfig = (env: z.output<typeof dealsEnv>) => ({
  /** How long a counter-offer stands unless the owner says otherwise (docs/negotiation.md). */
  counterOfferDays: env.COUNTER_OFFER_DAYS,
  /** Deals (docs/deals.md): the key that seals transfer codes (null: the file DATA_DIR/deal-key), and the default deadlines. */
  deal: { key: env.DEAL_KEY === undefined ? null : dealKeyBytes(env.DEAL_KEY)!, paymentDays: env.DEAL_PAYMENT_DAYS, transferDays: env.DEAL_TRANSFER_DAYS },
})
