// A deal's deadlines (decision 036), once an hour on the job scheduler (decision 018): the buyer reminded halfway to
// the payment deadline, the owner told when it has passed, the owner reminded a day before the transfer deadline.
// Each reminder is marked sent in the transaction that queues its mail, so a retried run, a second process or
// instance, or a restart after a kill sends none twice.
import type { FastifyBaseLogger } from 'fastify'
import type { Job } from '../scheduler/scheduler.ts'
import { dealStepText } from '../mail/deal-step-mail.ts'
import { displayHost } from '../sites/host.ts'
import type { DealMail, DealReminder, Store, StoredDeal } from '../store/types.ts'
import { recordDealReminder } from '../store/deal-reminders.ts'
import { lockDeal } from '../store/tables/deals.ts'
import { formatMinor } from '../lib/money.ts'
import { sendRateReminders } from './rates.ts'
import { dealNotifyUrls, dealPageUrl, formatDealDate, linkInFirstMail, type DealStepContext } from './steps.ts'

const HOUR_MS = 60 * 60 * 1000

/** The reminder's mail: to the buyer in their language, or to the owner (the domain's address, else MAIL_TO). */
function reminderMail(context: ReminderContext, deal: StoredDeal, reminder: DealReminder): DealMail {
  const settings = context.domains.resolve(deal.domain)?.settings ?? context.domains.default
  const owner = settings.mailTo ?? context.config.mailTo
  const toBuyer = reminder === 'payment-reminder'
  const language = toBuyer ? deal.buyer.language : 'de'
  const kind = reminder === 'payment-reminder' ? 'deal-payment-reminder' : reminder === 'payment-overdue' ? 'deal-overdue' : 'deal-transfer-reminder'
  const deadline = reminder === 'transfer-reminder' ? deal.transferDueAt! : deal.paymentDueAt
  const link = toBuyer ? (dealPageUrl(context.config, deal) ?? linkInFirstMail(language)) : ''
  const body = dealStepText(kind, language, {
    domain: displayHost(deal.domain),
    amount: formatMinor(deal.amount, deal.currency, language),
    reference: deal.reference,
    link,
    deadline: formatDealDate(deadline, language),
  })
  return { kind, body, to: toBuyer ? deal.buyer.email : owner, replyTo: owner }
}

/** What a pass over the reminders needs: the due ones read, and a unit of work per reminder. */
type ReminderContext = Omit<DealStepContext, 'store'> & { store: Pick<Store, 'dealRemindersDue' | 'rateRemindersDue' | 'transact'> }

/**
 * One pass over the deals: queues every reminder due by `now`; returns how many it queued. Each is a unit of work
 * (decision 060): the deal locked and read once, its mail composed from it, marked and queued.
 */
export async function sendDealReminders(context: ReminderContext, now: number, signal?: AbortSignal): Promise<number> {
  let queued = 0
  for (const { id, reminder } of await context.store.dealRemindersDue(now)) {
    if (signal?.aborted) break
    const sent = await context.store.transact(async (work) => {
      const deal = await lockDeal(work, id)
      return deal !== null && recordDealReminder(work.trx, deal, reminder, reminderMail(context, deal, reminder), now, dealNotifyUrls(context, deal.domain))
    })
    if (sent) queued++
  }
  return queued
}

export function dealDeadlinesJob(context: ReminderContext & { log: FastifyBaseLogger; kick: () => void }): Job {
  return {
    name: 'deal-deadlines',
    schedule: { everyMs: HOUR_MS },
    async run({ now, signal }) {
      const queued = (await sendDealReminders(context, now, signal)) + (await sendRateReminders(context, now, signal))
      if (queued === 0) return
      context.kick()
      context.log.info({ count: queued }, 'deal reminders queued')
    },
  }
}

/** The transfer code is kept this long after the deal completed (a buyer who lost it asks again), then erased. */
const KEEP_CODE_DAYS = 30
const DAY_MS = 24 * HOUR_MS

/** Daily: the transfer codes of deals completed more than KEEP_CODE_DAYS ago are erased (docs/deals.md). */
export function transferCodeErasureJob(context: { store: DealStepContext['store']; log: FastifyBaseLogger }): Job {
  return {
    name: 'deal-code-erasure',
    schedule: { daily: { hour: 4, minute: 15 } },
    // A server down at that time erases them at its next start that day; otherwise the next day does.
    catchUpMs: DAY_MS,
    async run({ now }) {
      const erased = await context.store.eraseTransferCodes(now - KEEP_CODE_DAYS * DAY_MS)
      if (erased > 0) context.log.info({ count: erased }, 'transfer codes of completed deals erased')
    },
  }
}
