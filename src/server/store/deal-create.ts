// A deal is made (docs/deals.md, decision 033): in the acceptance's unit of work (store/negotiation.ts), with its
// number and payment reference, and an instalment plan's rates (decision 042); an open one waiting for payment is
// renewed.
import type { Transaction } from 'kysely'
import { queueDealNotifications } from './tables/notifications.ts'
import type { Database } from './schema.ts'
import type { NewDeal } from './tables/deals.ts'
import type { Work } from './unit-of-work.ts'

/** A rate's own reference: the deal's and the rate's number (deal/instalments.ts rateReference says the same). */
const rateReferenceOf = (dealReference: string, number: number) => `${dealReference}-R${String(number).padStart(2, '0')}`

/** The plan's rates, in the acceptance's transaction (a renewed deal's rates are planned anew). */
async function storePlan(trx: Transaction<Database>, dealId: number, plan: NewDeal['plan']) {
  await trx.deleteFrom('deal_rates').where('deal_id', '=', dealId).execute()
  await trx
    .updateTable('deals')
    .set({ plan_transfer: plan?.transfer ?? null })
    .where('id', '=', dealId)
    .execute()
  if (!plan) return
  const { reference } = await trx.selectFrom('deals').select('reference').where('id', '=', dealId).executeTakeFirstOrThrow()
  await trx
    .insertInto('deal_rates')
    .values(
      plan.rates.map((rate) => ({
        deal_id: dealId,
        number: rate.number,
        amount: rate.amount,
        due_at: rate.dueAt,
        reference: rateReferenceOf(reference, rate.number),
      })),
    )
    .execute()
}

/** "DL-2026-0042": the year the deal was made and its number; unique because the number is. */
const referenceOf = (id: number, createdAt: number) => `DL-${new Date(createdAt).getUTCFullYear()}-${String(id).padStart(4, '0')}`

/** The highest deal number ever given on SQLite, erased deals included. */
const HIGHEST_DEAL = 'deals:highest-id'

/**
 * SQLite gives the highest rowid again once its row is deleted: an erased deal's number would come back, and with
 * it its reference, which stays on the erased deal's invoices and in the buyer's bank, so a late transfer would pay
 * a stranger's deal. The highest number given is kept beside the table; a deal made before it was kept counts by the
 * table's own highest.
 */
async function nextSqliteDealId(trx: Transaction<Database>): Promise<number> {
  const highest = await trx
    .selectFrom('deals')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst()
  const kept = await trx.selectFrom('meta').select('value').where('key', '=', HIGHEST_DEAL).executeTakeFirst()
  const next = Math.max(Number(highest?.id ?? 0), Number(kept?.value ?? 0)) + 1
  await trx
    .insertInto('meta')
    .values({ key: HIGHEST_DEAL, value: String(next) })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: String(next) }))
    .execute()
  return next
}

/**
 * In the acceptance's transaction: the inquiry's open deal is renewed while it waits for payment (new amount, new
 * link: the newest mail's link is the one that works), or a new one is made. A deal already paid is not touched.
 */
export async function createOrRenewDeal(
  work: Work,
  inquiryId: number,
  domain: string,
  deal: NewDeal,
  now: number,
): Promise<{ dealId: number } | { inProgress: number }> {
  const { trx } = work
  // PostgreSQL: the open deal is locked; its identity never gives a number twice, SQLite's rowid does (below).
  const postgres = work.dialect === 'postgres'
  const open = await work
    .forUpdate(trx.selectFrom('deals').select(['id', 'status']).where('inquiry_id', '=', inquiryId).where('status', '!=', 'cancelled'))
    .executeTakeFirst()
  // A renewed deal has a new payment deadline: its reminders start again.
  const values = {
    link_hash: deal.linkHash,
    link_sealed: deal.linkSealed,
    amount: deal.amount,
    currency: deal.currency,
    payment_due_at: deal.paymentDueAt,
    transfer_days: deal.transferDays,
    payment_reminded_at: null,
    payment_overdue_at: null,
  }
  if (open) {
    if (open.status !== 'awaiting_payment') return { inProgress: Number(open.id) }
    // A plan with a rate received is under way: like a paid deal, it is not renewed (decision 042).
    const paidRate = await trx.selectFrom('deal_rates').select('id').where('deal_id', '=', open.id).where('paid_at', 'is not', null).executeTakeFirst()
    if (paidRate) return { inProgress: Number(open.id) }
    await trx.updateTable('deals').set(values).where('id', '=', open.id).execute()
    await storePlan(trx, Number(open.id), deal.plan)
    return { dealId: Number(open.id) }
  }
  // The reference needs the id: a placeholder as unique as the link hash, replaced at once.
  const number = postgres ? undefined : await nextSqliteDealId(trx)
  const { id } = await trx
    .insertInto('deals')
    .values({
      ...values,
      ...(number && { id: number }),
      inquiry_id: inquiryId,
      domain,
      status: 'awaiting_payment',
      reference: `new-${deal.linkHash}`,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  await trx
    .updateTable('deals')
    .set({ reference: referenceOf(Number(id), now) })
    .where('id', '=', id)
    .execute()
  if (deal.plan) await storePlan(trx, Number(id), deal.plan)
  if (deal.notify?.length) {
    const { token } = await trx.selectFrom('inquiries').select('token').where('id', '=', inquiryId).executeTakeFirstOrThrow()
    await queueDealNotifications(trx, { id: Number(id), inquiryId, token, domain }, 'created', deal.notify, now)
  }
  return { dealId: Number(id) }
}
