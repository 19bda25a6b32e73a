// An instalment plan's steps (decision 042): a rate marked received (by the owner, or by a bank statement), the
// owner's decision to wait for an overdue rate, and the rates' reminders on the deadlines job. The last rate
// received is the deal's own "Zahlung erhalten" (steps.ts paidChange: its mail, webhook, invoice and transfer
// deadline), in the rate's unit of work.
import type { Language } from '../../shared/language.ts'
import { displayHost } from '../sites/host.ts'
import type { DealMail, DealState, RateReminder, Store, StoredDeal, StoredRate } from '../store/types.ts'
import { advanceInvoices } from '../invoice/issue.ts'
import { formatMinor } from '../lib/money.ts'
import { BUYER_WORDS } from '../mail/buyer-words.ts'
import type { RateValues } from '../mail/buyer-words-types.ts'
import { queueDealMail, recordDealStep } from '../store/deal-step.ts'
import { recordRateReminder } from '../store/deal-reminders.ts'
import { receiveRate, waitForRate as markWaited, WATCHED } from '../store/tables/deal-rates.ts'
import { lockDeal, withoutToken } from '../store/tables/deals.ts'
import { issueAdvancesIn } from '../store/tables/invoices.ts'
import { dealNotifyUrls, dealPageUrl, formatDealDate, invoiceParties, linkInFirstMail, paidChange, type DealStepContext, type StepOutcome } from './steps.ts'

/** "Rate 3 von 12" / "Anzahlung", as the page, the mails and the console name a payment of the plan. */
export function rateLabel(rate: Pick<StoredRate, 'number'>, count: number, language: Language): string {
  const words = BUYER_WORDS[language]
  return rate.number === 0 ? words.downPayment : words.rate(rate.number, count)
}

/** How many monthly rates a plan has (the down payment is none of them). */
export const rateCount = (deal: StoredDeal) => deal.plan?.rates.filter((rate) => rate.number > 0).length ?? 0

/** The rate the deal waits for next: the earliest one not received, or null when all are. */
export const nextRate = (deal: StoredDeal) => deal.plan?.rates.find((rate) => rate.paidAt === null) ?? null

type RateMailKind = 'received' | 'reminder' | 'overdue-buyer' | 'overdue-owner'

const linkOf = (context: Pick<DealStepContext, 'config'>, deal: StoredDeal, language: Language) =>
  dealPageUrl(context.config, deal) ?? linkInFirstMail(language)

/** The owner's mail of a rate 7 days late: German, as the console is. */
const overdueOwnerText = (v: Omit<RateValues, 'next' | 'link'>) =>
  `${v.label} für ${v.domain} (Kaufnummer ${v.deal}, ${v.amount}, Verwendungszweck ${v.reference}) war am ${v.due} fällig und ist seit 7 Tagen nicht als erhalten markiert. Der Käufer wurde erinnert.\n\nSie entscheiden: Ist das Geld doch angekommen, markieren Sie die Rate als erhalten; sonst warten Sie ab oder brechen den Kauf ab (Konsole: Verkäufe; CLI: deal rate-paid ID --rate N / deal wait ID --rate N / deal cancel ID).`

/** A rate's mail, in the buyer's language (the owner's in German, as the console is). Exported for buyer-mails.test.ts. */
export function rateMail(context: Pick<DealStepContext, 'config' | 'domains'>, deal: StoredDeal, rate: StoredRate, kind: RateMailKind): DealMail {
  const settings = context.domains.resolve(deal.domain)?.settings ?? context.domains.default
  const owner = settings.mailTo ?? context.config.mailTo
  const language = kind === 'overdue-owner' ? 'de' : deal.buyer.language
  const v = {
    domain: displayHost(deal.domain),
    label: rateLabel(rate, rateCount(deal), language),
    amount: formatMinor(rate.amount, deal.currency, language),
    reference: rate.reference,
    due: formatDealDate(rate.dueAt, language),
    deal: deal.reference,
    link: kind === 'overdue-owner' ? '' : linkOf(context, deal, language),
  }
  const open = deal.plan?.rates.filter((r) => r.paidAt === null && r.number !== rate.number) ?? []
  const next = open[0]
  const words = BUYER_WORDS[language]
  const body =
    kind === 'overdue-owner'
      ? overdueOwnerText(v)
      : words.rateBody[kind]({
          ...v,
          next: next
            ? words.nextRate(
                rateLabel(next, rateCount(deal), language),
                formatMinor(next.amount, deal.currency, language),
                formatDealDate(next.dueAt, language),
                next.reference,
              )
            : '',
        })
  const mailKind = kind === 'received' ? 'deal-paid' : kind === 'overdue-owner' ? 'deal-overdue' : 'deal-payment-reminder'
  return { kind: mailKind, body, to: kind === 'overdue-owner' ? owner : deal.buyer.email, replyTo: owner }
}

export type RateChangeResult =
  | { status: 'done'; deal: StoredDeal; replyId: number | null; allPaid: boolean }
  | { status: 'not-found' }
  | { status: 'already-paid' }
  | { status: 'wrong-state'; current: DealState }

export type RateOutcome = RateChangeResult | StepOutcome

/**
 * "Rate erhalten", one unit of work (decision 060): the deal locked and read once, the rate marked and the buyer
 * mailed; when it was the last one open, the deal's own "paid" step follows in the same work (its mail instead of the
 * rate's). A deal transferred at once stays where it is; its rates are only marked.
 */
export function markRatePaid(context: DealStepContext, id: number, number: number, by: 'owner' | 'bank', now: number): Promise<RateOutcome> {
  return context.store.transact(async (work): Promise<RateOutcome> => {
    const deal = await lockDeal(work, id)
    const rate = deal?.plan?.rates.find((r) => r.number === number)
    if (!deal?.plan || !rate) return { status: 'not-found' }
    // A cancelled deal's rates are not watched any more; a transferred or completed one's still are.
    if (deal.status === 'cancelled') return { status: 'wrong-state', current: deal.status }
    if (!(await receiveRate(work.trx, id, number, by, now))) return { status: 'already-paid' }
    const rates = deal.plan.rates.map((r) => (r.number === number ? { ...r, paidAt: now, paidBy: by } : r))
    const received = { ...deal, plan: { ...deal.plan, rates } }
    const parties = await invoiceParties(context, work, received)
    if (rates.some((r) => r.paidAt === null)) {
      const replyId = await queueDealMail(work.trx, deal, rateMail(context, deal, rate, 'received'), now)
      // A plan whose name moves after the last rate: the rate is an advance payment and gets its Anzahlungsrechnung,
      // attached to this mail (decision 046).
      const { issue: advances } = advanceInvoices(context, parties, now)
      if (advances) await issueAdvancesIn(work.trx, id, advances, replyId, now)
      return { status: 'done', deal: withoutToken(received), replyId, allPaid: false }
    }
    if (deal.status !== 'awaiting_payment') return { status: 'done', deal: withoutToken(received), replyId: null, allPaid: true }
    const paid = await recordDealStep(work.trx, received, { ...paidChange(context, parties, now), notify: dealNotifyUrls(context, deal.domain) })
    return { status: 'done', deal: paid.deal, replyId: paid.replyId, allPaid: true }
  })
}

/** "Abwarten": the owner waits for an overdue rate; marked for the console, nobody mailed. One unit of work. */
export function waitForRate(context: Pick<DealStepContext, 'store'>, id: number, number: number, now: number): Promise<RateChangeResult> {
  return context.store.transact(async (work): Promise<RateChangeResult> => {
    const deal = await lockDeal(work, id)
    if (!deal?.plan) return { status: 'not-found' }
    if (!WATCHED.includes(deal.status)) return { status: 'wrong-state', current: deal.status }
    const rate = deal.plan.rates.find((r) => r.number === number)
    if (!rate) return { status: 'not-found' }
    if (rate.paidAt !== null) return { status: 'already-paid' }
    await markWaited(work.trx, id, number, now)
    const rates = deal.plan.rates.map((r) => (r.number === number ? { ...r, waitedAt: now } : r))
    return { status: 'done', deal: withoutToken({ ...deal, plan: { ...deal.plan, rates } }), replyId: null, allPaid: false }
  })
}

/**
 * One pass over the rates: the buyer reminded 3 days before a rate's date; 7 days after it, the owner told and the
 * buyer reminded. Each is a unit of work (decision 060): the deal locked and read once, the mails composed from it.
 */
export async function sendRateReminders(
  context: Omit<DealStepContext, 'store'> & { store: Pick<Store, 'rateRemindersDue' | 'transact'> },
  now: number,
  signal?: AbortSignal,
): Promise<number> {
  let queued = 0
  for (const { id, number, reminder } of await context.store.rateRemindersDue(now)) {
    if (signal?.aborted) break
    const sent = await context.store.transact(async (work) => {
      const deal = await lockDeal(work, id)
      const rate = deal?.plan?.rates.find((r) => r.number === number)
      // A cancelled deal's rates are not watched any more.
      if (!deal || !rate || !WATCHED.includes(deal.status)) return false
      const mails = reminderMails(context, deal, rate, reminder)
      return recordRateReminder(work.trx, deal, number, reminder, mails, now, dealNotifyUrls(context, deal.domain))
    })
    if (sent) queued++
  }
  return queued
}

const reminderMails = (context: Pick<DealStepContext, 'config' | 'domains'>, deal: StoredDeal, rate: StoredRate, reminder: RateReminder) =>
  reminder === 'rate-reminder'
    ? [rateMail(context, deal, rate, 'reminder')]
    : [rateMail(context, deal, rate, 'overdue-owner'), rateMail(context, deal, rate, 'overdue-buyer')]
