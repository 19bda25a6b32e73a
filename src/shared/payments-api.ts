// The bank statement import (`npx domain-lander payments import` and the console's page "Kontoauszug importieren";
// docs/deals.md, decision 040): what its preview and its result say. Shared by the server, the CLI and the console's
// React code; nothing here may import server code. Every text in it (names, remittance) is from the file: text.
import * as z from 'zod/mini'

export const BANK_STATEMENT_PATH = '/kontoauszug'

/**
 * matched: the reference of a deal, in its currency, and with what was received before exactly its amount;
 * partial: less; overpaid: more; unmatched: no deal (or another currency, or no amount); applied: recorded by an
 * earlier import (or twice in this file); return: money that came back, which never marks anything paid.
 */
export type BankEntryClass = 'matched' | 'partial' | 'overpaid' | 'unmatched' | 'applied' | 'return'

export type BankEntryReason =
  | 'no-reference'
  | 'unknown-reference'
  | 'several-references'
  | 'currency'
  | 'no-amount'
  | 'twice-in-file'
  | 'deal-cancelled'
  | 'deal-already-paid'
  | 'returned-after-payment'
  | 'return-exceeds-received'

export const BANK_REASON_TEXT: Record<BankEntryReason, { de: string; en: string }> = {
  'no-reference': { de: 'keine Kauf-Referenz im Verwendungszweck', en: 'no deal reference in the remittance' },
  'unknown-reference': { de: 'Referenz keines Kaufs', en: 'the reference of no deal' },
  'several-references': { de: 'mehrere Referenzen: bitte von Hand zuordnen', en: 'several references: assign it by hand' },
  currency: { de: 'andere Währung als der Kauf', en: 'another currency than the deal' },
  'no-amount': { de: 'Sammelbuchung ohne Einzelbetrag', en: 'batch booking without the amount of each transfer' },
  'twice-in-file': { de: 'steht zweimal in der Datei', en: 'twice in the file' },
  'deal-cancelled': { de: 'Kauf ist abgebrochen: Geld zurücküberweisen', en: 'the deal is cancelled: pay the money back' },
  'deal-already-paid': { de: 'Kauf ist schon als bezahlt markiert', en: 'the deal is marked paid already' },
  'returned-after-payment': {
    de: 'Zahlung zurückgebucht: der Kauf galt schon als (teilweise) bezahlt, bitte prüfen',
    en: 'payment returned: the deal counted as (partly) paid already, check it',
  },
  'return-exceeds-received': {
    de: 'Rückbuchung mit der Referenz eines Kaufs, für den so viel nicht eingegangen ist: bitte prüfen',
    en: 'a return with the reference of a deal that has not received that much: check it',
  },
}

export const BANK_CLASS_LABEL: Record<BankEntryClass, { de: string; en: string }> = {
  matched: { de: 'Zugeordnet', en: 'matched' },
  partial: { de: 'Teilzahlung', en: 'partly paid' },
  overpaid: { de: 'Überzahlt', en: 'overpaid' },
  unmatched: { de: 'Nicht zugeordnet', en: 'unmatched' },
  applied: { de: 'Schon übernommen', en: 'already applied' },
  return: { de: 'Rückbuchung', en: 'return' },
}

const entryClass = z.enum(Object.keys(BANK_CLASS_LABEL) as [BankEntryClass, ...BankEntryClass[]])

const bankEntryItemSchema = z.object({
  class: entryClass,
  reason: z.optional(z.enum(Object.keys(BANK_REASON_TEXT) as [BankEntryReason, ...BankEntryReason[]])),
  /** The statement's Id. */
  statement: z.string(),
  account: z.string(),
  /** The entry's place in its statement (from 1), and the transaction's in a batch booking (null: a single one). */
  entry: z.number(),
  transaction: z.nullable(z.number()),
  bookingDate: z.nullable(z.string()),
  bankRef: z.nullable(z.string()),
  direction: z.enum(['credit', 'debit']),
  /** Minor units; null when a batch booking gives none for this transaction. */
  amount: z.nullable(z.number()),
  currency: z.nullable(z.string()),
  name: z.nullable(z.string()),
  text: z.string(),
  reference: z.nullable(z.string()),
  dealId: z.nullable(z.number()),
  domain: z.nullable(z.string()),
  due: z.nullable(z.object({ amount: z.number(), currency: z.string() })),
})
export type BankEntryItem = z.infer<typeof bankEntryItemSchema>

/** What a deal has received, before and after this import, and whether applying it marks the deal paid. */
const paymentTargetOutcomeSchema = z.object({
  reference: z.string(),
  dealId: z.number(),
  domain: z.string(),
  amount: z.number(),
  currency: z.string(),
  status: z.string(),
  receivedBefore: z.number(),
  receivedAfter: z.number(),
  marksPaid: z.boolean(),
  /** An instalment plan's rate (decision 042), 0 the down payment: `marksPaid` marks this rate received. */
  rate: z.optional(z.number()),
})
export type PaymentTargetOutcome = z.infer<typeof paymentTargetOutcomeSchema>

const previewShape = {
  /** camt.053.001.NN */
  version: z.number(),
  statements: z.number(),
  /** ignored: debits that are no return, and entries not booked yet. */
  counts: z.record(z.enum([...entryClass.options, 'ignored']), z.number()),
  /** The first 2000 entries (listedAll: all of them). */
  items: z.array(bankEntryItemSchema),
  listedAll: z.boolean(),
  deals: z.array(paymentTargetOutcomeSchema),
}
export const bankStatementPreviewSchema = z.object(previewShape)
export type BankStatementPreview = z.infer<typeof bankStatementPreviewSchema>

export const bankStatementResultSchema = z.object({
  ...previewShape,
  applied: z.boolean(),
  /** Bookings recorded by this import. */
  recorded: z.number(),
  /** Deals this import marked paid (their buyers are mailed). */
  paid: z.array(z.object({ dealId: z.number(), reference: z.string(), rate: z.optional(z.number()) })),
})
export type BankStatementResult = z.infer<typeof bankStatementResultSchema>

export interface BankStatementPageData {
  maxBytes: number
}
