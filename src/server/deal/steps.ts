// The steps of a deal after the acceptance (docs/deals.md), as the console, the CLI, the bank statements and the
// buyer's page take them. Each is one unit of work (decision 060): the deal locked and read once, the state it starts
// from checked (two clicks, two instances: one wins, one mail), its mail composed in the buyer's language and its
// invoice, then the step recorded with both, in the same transaction.
import type { Language } from '../../shared/language.ts'
import type { Config } from '../config.ts'
import { dealStepText } from '../mail/deal-step-mail.ts'
import { BUYER_WORDS } from '../mail/buyer-words.ts'
import { DEFAULT_TEMPLATES, formatBuyerDeadline, renderDealText, soldTemplateFor } from '../mail/deal-mail.ts'
import type { DomainsConfig } from '../sites/domains-table.ts'
import { notifyUrlsFor } from '../notify/routing.ts'
import { displayHost } from '../sites/host.ts'
import type { DealMailKind } from '../../shared/console-api.ts'
import type { DealChange, DealChangeResult, DealState, SoldNotice, StoredDeal, StoredInquiry, Store, Work } from '../store/types.ts'
import { dealTemplates } from '../store/tables/deal-templates.ts'
import { recordDealStep } from '../store/deal-step.ts'
import { lockDeal, moveDeadlines, otherInquirers, withoutToken, type LockedDeal } from '../store/tables/deals.ts'
import { getInquiry } from '../store/tables/inquiries.ts'
import { dealUrl } from './link.ts'
import { formatMinor } from '../lib/money.ts'
import { dealKeyOf, openLinkToken, sealTransferCode, TRANSFER_CODE_MAX } from './seal.ts'
import { advanceInvoices, cancellationInvoice, paidInAdvance, paymentInvoice } from '../invoice/issue.ts'

const DAY_MS = 24 * 60 * 60 * 1000
/** A transferred deal completes by itself this long after the owner marked it, unless the buyer confirms first. */
const AUTO_COMPLETE_DAYS = 14
export const REASON_MAX = 2000

export interface DealStepContext {
  store: Store
  config: Pick<Config, 'mailTo' | 'dataDir' | 'deal' | 'notify'> & Partial<Pick<Config, 'invoice'>>
  domains: DomainsConfig
}

export type StepOutcome =
  | DealChangeResult
  | { status: 'bad-code' }
  | { status: 'reason-too-long' }
  /** A new deadline must lie ahead, and not more than MAX_DEADLINE_DAYS ahead (decision 037). */
  | { status: 'past-date' }
  | { status: 'too-far' }

/** A deadline as the buyer reads it: German in Berlin time, or English with the time zone said. */
export const formatDealDate = (ms: number, language: Language) => formatBuyerDeadline(ms, language)

/** In place of the deal page's link when this process cannot open its token (another deal key). */
export const linkInFirstMail = (language: Language): string => BUYER_WORDS[language].linkInFirstMail

/** Carriage returns and control characters out, as in the negotiation's notes: the mail and the page are plain text. */
const cleanText = (text: string) =>
  text
    .replace(/\r\n?/g, '\n')
    .replace(/[^\P{Cc}\n\t]/gu, '')
    .trim()

/** The deal page's address, when the link's token opens with this process's deal key. */
export function dealPageUrl(config: DealStepContext['config'], deal: StoredDeal): string | null {
  const token = openLinkToken(dealKeyOf(config), deal.linkHash, deal.linkSealed)
  return token && dealUrl(deal.domain, token)
}

function mailFor(
  context: DealStepContext,
  deal: StoredDeal,
  kind: DealMailKind,
  extra: { reason?: string; completesAt?: number } = {},
): NonNullable<DealChange['mail']> {
  const { language } = deal.buyer
  const settings = context.domains.resolve(deal.domain)?.settings ?? context.domains.default
  const link = dealPageUrl(context.config, deal) ?? linkInFirstMail(language)
  const body = dealStepText(kind, language, {
    domain: displayHost(deal.domain),
    amount: formatMinor(deal.amount, deal.currency, language),
    reference: deal.reference,
    link,
    ...(extra.reason && { reason: extra.reason }),
    ...(extra.completesAt !== undefined && { completesAt: formatDealDate(extra.completesAt, language) }),
  })
  return { kind, body, to: deal.buyer.email, replyTo: settings.mailTo ?? context.config.mailTo }
}

/** Where a deal's events go: the domain's `notify:`, else NOTIFY_URLS, as an inquiry's notifications. */
export const dealNotifyUrls = (context: Pick<DealStepContext, 'config' | 'domains'>, domain: string) =>
  notifyUrlsFor(context.domains.resolve(domain)?.settings ?? context.domains.default, context.config)

/**
 * A step in one unit of work: the deal locked and read (the only read of its row), `build` composes the change from
 * it (reading what else it needs in the same work), the state checked, the step recorded.
 */
function step(
  context: DealStepContext,
  id: number,
  build: (deal: LockedDeal, work: Work) => DealChange | StepOutcome | Promise<DealChange | StepOutcome>,
): Promise<StepOutcome> {
  return context.store.transact(async (work): Promise<StepOutcome> => {
    const deal = await lockDeal(work, id)
    if (!deal) return { status: 'not-found' }
    const change = await build(deal, work)
    if ('status' in change) return change
    if (!change.from.includes(deal.status)) return { status: 'wrong-state', current: deal.status }
    return recordDealStep(work.trx, deal, { ...change, notify: dealNotifyUrls(context, deal.domain) })
  })
}

/** The deal and its inquiry (the buyer's invoice address), read in the step's work only when invoices are on. */
export const invoiceParties = async (context: DealStepContext, work: Work, deal: StoredDeal) => ({
  deal,
  inquiry: context.config.invoice ? await getInquiry(work.trx, deal.inquiryId) : null,
})

/** "Zahlung erhalten" composed from the deal as the step read it (deal/rates.ts takes it after the last rate). */
export function paidChange(context: DealStepContext, parties: { deal: StoredDeal; inquiry: StoredInquiry | null }, now: number): DealChange {
  const { deal } = parties
  // A plan paid in advance gets the Anzahlungsrechnungen of the rates received now; its invoice over the whole
  // price follows the supply, the transfer (decision 046).
  const advances = paidInAdvance(deal) ? advanceInvoices(context, parties, now).issue : null
  const issue = paidInAdvance(deal) ? null : paymentInvoice(context, parties, now).issue
  return {
    from: ['awaiting_payment'],
    to: 'paid',
    now,
    paidAt: now,
    // An instalment plan marked paid as a whole: every rate still open counts as received by the owner (decision 042).
    ...(deal.plan && { ratesPaid: true }),
    transferDueAt: now + deal.transferDays * DAY_MS,
    mail: mailFor(context, deal, 'deal-paid'),
    ...(issue && { invoice: issue }),
    ...(advances && { advances }),
  }
}

/** "Zahlung erhalten": the buyer is mailed (with the invoice, decision 038), the transfer's deadline starts. */
export const markPaid = (context: DealStepContext, id: number, now: number) =>
  step(context, id, async (deal, work) => paidChange(context, await invoiceParties(context, work, deal), now))

/** The final invoice of a plan paid in advance, with the supply (decision 046); null for any other deal. */
const finalInvoice = async (context: DealStepContext, work: Work, deal: StoredDeal, now: number) =>
  paidInAdvance(deal) ? paymentInvoice(context, await invoiceParties(context, work, deal), now, { supplied: true }).issue : null

/**
 * The transfer: the code (sealed at once, never stored or mailed as it is) and/or a note (a push to the buyer's
 * registrar account). The buyer is mailed that it is ready on the page, and the deal completes by itself later.
 */
export const recordTransfer = (context: DealStepContext, id: number, input: { code?: string; note?: string; notifyOthers?: boolean }, now: number) =>
  step(context, id, async (deal, work) => {
    const code = input.code?.trim() ?? ''
    const note = cleanText(input.note ?? '')
    if (code.length > TRANSFER_CODE_MAX || /[\p{Cc}]/u.test(code) || (code === '' && note === '')) return { status: 'bad-code' }
    if (note.length > REASON_MAX) return { status: 'reason-too-long' }
    const completesAt = now + AUTO_COMPLETE_DAYS * DAY_MS
    // An instalment plan whose name moves at once may be transferred before its rates are paid (decision 042).
    const atOnce = deal.plan?.transfer === 'at-once'
    // Then the transfer is the supply, and the invoice with the schedule goes with it.
    const issue =
      atOnce && deal.status === 'awaiting_payment'
        ? paymentInvoice(context, await invoiceParties(context, work, deal), now, { atSupply: true }).issue
        : await finalInvoice(context, work, deal, now)
    return {
      ...(issue && { invoice: issue }),
      from: atOnce ? ['awaiting_payment', 'paid'] : ['paid'],
      to: 'transferred',
      now,
      transferredAt: now,
      completesAt,
      transferCode: code === '' ? null : sealTransferCode(dealKeyOf(context.config), deal.id, code),
      transferNote: note === '' ? null : note,
      // The owner's choice for the completion that may come without them (the buyer's click, or the job).
      notifyOthers: input.notifyOthers === true,
      mail: mailFor(context, deal, 'deal-transferred', { completesAt }),
    }
  })

/**
 * "Bereits verkauft" for every other open inquiry of the deal's name, each in its inquirer's language, each address
 * once (the newest inquiry of it), never to the buyer's address (decision 037).
 */
async function soldNoticesFor(context: DealStepContext, work: Work, deal: StoredDeal): Promise<SoldNotice[]> {
  const inquirers = await otherInquirers(work.trx, deal.domain, deal.inquiryId)
  if (inquirers.length === 0) return []
  const templates = await dealTemplates(work.trx)
  const settings = context.domains.resolve(deal.domain)?.settings ?? context.domains.default
  const replyTo = settings.mailTo ?? context.config.mailTo
  const seen = new Set([deal.buyer.email.trim().toLowerCase()])
  const notices: SoldNotice[] = []
  for (const inquirer of inquirers) {
    const address = inquirer.email.trim().toLowerCase()
    if (seen.has(address)) continue
    seen.add(address)
    const kind = soldTemplateFor(inquirer.language)
    const body = renderDealText(kind, templates[kind] ?? DEFAULT_TEMPLATES[kind], { domain: deal.domain, amount: null, currency: deal.currency, note: '' })
    notices.push({ inquiryId: inquirer.inquiryId, body, to: inquirer.email, replyTo })
  }
  return notices
}

/**
 * "Domain erhalten" (the buyer), or the owner, or the job once the time is up: the name is sold from now on.
 * `notifyOthers`: the owner's choice now; absent (the buyer, the job), the choice made with "Übertragen".
 */
export const completeDeal = (context: DealStepContext, id: number, by: 'buyer' | 'owner', now: number, notifyOthers?: boolean) =>
  step(context, id, async (deal, work) => {
    const notify = notifyOthers ?? deal.notifyOthers === true
    // Completed without "Übertragen" (or transferred before invoices were on): the supply is now; issued once.
    const issue = await finalInvoice(context, work, deal, now)
    return {
      ...(issue && { invoice: issue }),
      from: by === 'buyer' ? ['transferred'] : ['paid', 'transferred'],
      to: 'completed',
      now,
      completedAt: now,
      mail: mailFor(context, deal, 'deal-completed'),
      ...(notify && { soldNotices: await soldNoticesFor(context, work, deal) }),
    }
  })

/** A new deadline: dates (ms), or so many days from now for the one the deal waits for. */
export type DeadlineInput = { paymentDueAt?: number; transferDueAt?: number } | { days: number }

/** How far ahead a deadline may be moved: a typo of a year is refused. */
export const MAX_DEADLINE_DAYS = 365

/**
 * A new payment or transfer deadline for one deal (decision 037): refused when past or too far; the reminders of the
 * moved deadline are planned again, and the buyer's page shows the new date. Nobody is mailed.
 */
export async function changeDeadlines(context: DealStepContext, id: number, input: DeadlineInput, now: number): Promise<StepOutcome> {
  if ('days' in input) {
    if (!Number.isInteger(input.days) || input.days < 1) return { status: 'past-date' }
    if (input.days > MAX_DEADLINE_DAYS) return { status: 'too-far' }
  }
  return context.store.transact(async (work): Promise<StepOutcome> => {
    const deal = await lockDeal(work, id)
    let deadlines: { paymentDueAt?: number; transferDueAt?: number } = 'days' in input ? {} : input
    if ('days' in input) {
      // So many days from now, for the deadline the deal waits for: the payment's, or the transfer's once paid.
      if (!deal) return { status: 'not-found' }
      const at = now + input.days * DAY_MS
      deadlines = deal.status === 'paid' ? { transferDueAt: at } : { paymentDueAt: at }
    }
    // A plan's payment is due rate by rate (decision 042): its dates are not moved here; the owner waits or cancels.
    if (deadlines.paymentDueAt !== undefined && deal?.plan) return { status: 'wrong-state', current: deal.status }
    for (const at of [deadlines.paymentDueAt, deadlines.transferDueAt]) {
      if (at === undefined) continue
      if (!Number.isFinite(at) || at <= now) return { status: 'past-date' }
      if (at > now + MAX_DEADLINE_DAYS * DAY_MS) return { status: 'too-far' }
    }
    if (!deal) return { status: 'not-found' }
    const moved = await moveDeadlines(work.trx, deal, deadlines)
    if ('refused' in moved) return { status: 'wrong-state', current: moved.refused }
    return { status: 'done', deal: withoutToken(moved), replyId: null }
  })
}

const CANCELLABLE: Record<'owner' | 'buyer', readonly DealState[]> = { owner: ['awaiting_payment', 'paid', 'transferred'], buyer: ['awaiting_payment'] }

/** "Abbrechen" (the owner, with a reason mailed to the buyer) or "Kauf abbrechen" (the buyer, before paying). */
export const cancelDeal = (context: DealStepContext, id: number, by: 'owner' | 'buyer', reason: string, now: number) =>
  step(context, id, (deal) => {
    const cleaned = cleanText(reason)
    if (cleaned.length > REASON_MAX) return { status: 'reason-too-long' }
    // A buyer who has paid a rate cancels no more than one who paid it all: the owner decides (decision 042).
    const ratePaid = deal.plan?.rates.some((rate) => rate.paidAt !== null) === true
    return {
      from: by === 'buyer' && ratePaid ? [] : CANCELLABLE[by],
      to: 'cancelled',
      now,
      cancelledAt: now,
      cancelledBy: by,
      cancelReason: cleaned === '' ? null : cleaned,
      mail: mailFor(context, deal, 'deal-cancelled', cleaned === '' ? {} : { reason: cleaned }),
      // A Stornorechnung, if the deal was invoiced: nothing issued is deleted.
      invoice: cancellationInvoice(now),
    }
  })
