// Importing a bank statement (docs/deals.md, decision 040), as the console and the CLI do it: the preview reads the
// file and matches it against the deals and what is recorded; applying records the new bookings (one transaction,
// each once by its key) and then marks paid, through the deal's own step (deal/steps.ts markPaid: its mail to the
// buyer, its webhook), every deal awaiting payment whose recorded payments now cover its amount.
import type { BankStatementPreview, BankStatementResult } from '../../shared/payments-api.ts'
import { markPaid, type DealStepContext } from '../deal/steps.ts'
import type { Store } from '../store/types.ts'
import { parseCamt } from './camt-parse.ts'
import { bankKeyOf, matchStatement, type PaymentTarget } from './match.ts'

async function match(store: Store, input: Buffer | string) {
  const document = parseCamt(input)
  const deals = await store.listDeals()
  const received = await store.receivedByDeal(deals.map((deal) => deal.id))
  const targets = new Map<string, PaymentTarget>(
    deals.map((deal) => [
      deal.reference,
      { reference: deal.reference, dealId: deal.id, domain: deal.domain, amount: deal.amount, currency: deal.currency, status: deal.status, received: received.get(deal.id) ?? 0 },
    ]),
  )
  // The keys are computed twice (here and in matchStatement): cheap, and it keeps matching free of the store.
  const keys: string[] = []
  for (const statement of document.statements) {
    for (const entry of statement.entries) entry.transactions.forEach((tx, i) => keys.push(bankKeyOf(statement, entry, tx, i)))
  }
  const recorded = await store.bankPaymentsByKey(keys)
  return matchStatement({ document, targets, recorded })
}

/** What importing the file would do; changes nothing. Throws CamtError for a file it cannot read. */
export async function previewStatement(store: Store, input: Buffer | string): Promise<BankStatementPreview> {
  return (await match(store, input)).preview
}

/** Records the file's new bookings and marks the deals they pay; importing it again changes nothing. */
export async function applyStatement(context: DealStepContext, input: Buffer | string, now: number): Promise<BankStatementResult> {
  const { preview, records } = await match(context.store, input)
  const recorded = await context.store.recordBankPayments(records, now)
  const paid: BankStatementResult['paid'] = []
  // What is recorded decides, not the preview: another import may have recorded some of them in between.
  const dealIds = [...new Set(preview.deals.map((deal) => deal.dealId))]
  const received = await context.store.receivedByDeal(dealIds)
  for (const dealId of dealIds) {
    const deal = await context.store.getDeal(dealId)
    if (!deal || deal.status !== 'awaiting_payment' || (received.get(dealId) ?? 0) < deal.amount) continue
    const outcome = await markPaid(context, dealId, now)
    // wrong-state: another instance or the owner marked it in between; its mail went out once, from there.
    if (outcome.status === 'done') paid.push({ dealId, reference: deal.reference })
  }
  return { ...preview, applied: true, recorded, paid }
}
