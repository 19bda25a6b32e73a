// Importing a bank statement (docs/deals.md, decision 040), as the console and the CLI do it: the preview reads the
// file and matches it against the deals and what is recorded; applying records the new bookings (one transaction,
// each once by its key) and then marks paid, through the deal's own step (deal/steps.ts markPaid: its mail to the
// buyer, its webhook), every deal awaiting payment whose recorded payments now cover its amount.
import { setImmediate } from 'node:timers/promises'
import type { BankStatementPreview, BankStatementResult } from '../../shared/payments-api.ts'
import { markRatePaid } from '../deal/rates.ts'
import { markPaid, type DealStepContext } from '../deal/steps.ts'
import type { Store } from '../store/types.ts'
import { readStatement, type StatementInput } from './camt-read.ts'
import type { PaymentTarget } from './match.ts'

/**
 * What can be paid: a deal paid at once by its reference; an instalment plan's rates each by its own (decision 042),
 * "awaiting_payment" while the rate is open and the deal not cancelled. A plan's deal reference alone names no amount
 * and is no target.
 */
async function targetsOf(store: Store): Promise<Map<string, PaymentTarget>> {
  const deals = await store.listDeals()
  const received = await store.receivedByDeal(deals.filter((deal) => !deal.plan).map((deal) => deal.id))
  const byReference = await store.receivedByReference(deals.filter((deal) => deal.plan).map((deal) => deal.id))
  const targets = new Map<string, PaymentTarget>()
  for (const deal of deals) {
    const base = { dealId: deal.id, domain: deal.domain, currency: deal.currency }
    if (!deal.plan) {
      targets.set(deal.reference, { ...base, reference: deal.reference, amount: deal.amount, status: deal.status, received: received.get(deal.id) ?? 0 })
      continue
    }
    for (const rate of deal.plan.rates) {
      const status = deal.status === 'cancelled' ? 'cancelled' : rate.paidAt !== null ? 'paid' : 'awaiting_payment'
      targets.set(rate.reference, {
        ...base,
        reference: rate.reference,
        amount: rate.amount,
        status,
        received: byReference.get(rate.reference) ?? 0,
        rate: rate.number,
      })
    }
  }
  return targets
}

/** Keys asked for at once: with SQLite a query is answered on the server's thread, 7,000 keys at once in about 20 ms. */
const KEYS_AT_ONCE = 500

/** Which of the file's bookings are recorded, asked in pieces with the server's thread given back to requests between them. */
async function recordedOf(store: Store, keys: string[]): Promise<Map<string, number | null>> {
  const recorded = new Map<string, number | null>()
  for (let start = 0; start < keys.length; start += KEYS_AT_ONCE) {
    if (start > 0) await setImmediate()
    for (const [key, dealId] of await store.bankPaymentsByKey(keys.slice(start, start + KEYS_AT_ONCE))) recorded.set(key, dealId)
  }
  return recorded
}

/** The store's answers to the worker reading the file (camt-read.ts). */
const lookupsOf = (store: Store) => ({ targets: () => targetsOf(store), recorded: (keys: string[]) => recordedOf(store, keys) })

/**
 * What importing the file would do, as the UTF-8 bytes of the JSON text the console is sent (made in the worker: for
 * a 5 MB file the answer is about 700 KB); changes nothing. Throws CamtError for a file it cannot read.
 */
export async function previewStatementJson(store: Store, input: StatementInput): Promise<Uint8Array> {
  return (await readStatement(input, 'preview', lookupsOf(store))).json
}

const textOf = (json: Uint8Array) => new TextDecoder().decode(json)

/** What importing the file would do; changes nothing. Throws CamtError for a file it cannot read. */
export async function previewStatement(store: Store, input: Buffer | string): Promise<BankStatementPreview> {
  return JSON.parse(textOf(await previewStatementJson(store, input))) as BankStatementPreview
}

/** What applying did, beside the preview it applied. */
type Applied = Omit<BankStatementResult, keyof BankStatementPreview>

/** Records the file's new bookings and marks the deals they pay; importing it again changes nothing. */
export async function applyStatement(context: DealStepContext, input: Buffer | string, now: number): Promise<BankStatementResult> {
  const { preview, applied } = await applyStatementJson(context, input, now)
  return { ...(JSON.parse(textOf(preview)) as BankStatementPreview), ...applied }
}

/**
 * applyStatement for the console: the preview stays the worker's JSON bytes (never parsed or copied on the server's
 * thread), sent with what applying did after it.
 */
export async function applyStatementJson(context: DealStepContext, input: StatementInput, now: number): Promise<{ preview: Uint8Array; applied: Applied }> {
  const { json, records, deals } = await readStatement(input, 'result', lookupsOf(context.store))
  const recorded = await context.store.recordBankPayments(records, now)
  const paid: BankStatementResult['paid'] = []
  // What is recorded decides, not the preview: another import may have recorded some of them in between.
  const rateDeals = [...new Set(deals.filter((target) => target.rate !== undefined).map((target) => target.dealId))]
  if (rateDeals.length > 0) {
    const byReference = await context.store.receivedByReference(rateDeals)
    for (const dealId of rateDeals) {
      const deal = await context.store.getDeal(dealId)
      for (const rate of deal?.plan?.rates ?? []) {
        if (!deal || deal.status === 'cancelled' || rate.paidAt !== null || (byReference.get(rate.reference) ?? 0) < rate.amount) continue
        const outcome = await markRatePaid(context, dealId, rate.number, 'bank', now)
        // already-paid: the owner or another import marked it in between; its mail went out once, from there.
        if (outcome.status === 'done') paid.push({ dealId, reference: rate.reference, rate: rate.number })
      }
      // Every rate received but the deal not marked paid: a run stopped between the two steps is completed here.
      const after = await context.store.getDeal(dealId)
      if (after?.status === 'awaiting_payment' && after.plan?.rates.every((rate) => rate.paidAt !== null)) await markPaid(context, dealId, now)
    }
  }
  const dealIds = [...new Set(deals.filter((target) => target.rate === undefined).map((deal) => deal.dealId))]
  const received = await context.store.receivedByDeal(dealIds)
  for (const dealId of dealIds) {
    const deal = await context.store.getDeal(dealId)
    if (!deal || deal.status !== 'awaiting_payment' || (received.get(dealId) ?? 0) < deal.amount) continue
    const outcome = await markPaid(context, dealId, now)
    // wrong-state: another instance or the owner marked it in between; its mail went out once, from there.
    if (outcome.status === 'done') paid.push({ dealId, reference: deal.reference })
  }
  return { preview: json, applied: { applied: true, recorded, paid } }
}
