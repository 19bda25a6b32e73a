// `deals` and `deal show|paid|transfer|complete|cancel ID`: the console's "Verkäufe" for owners who stay in the
// terminal (docs/deals.md). The buyer's mail is queued in the store; the running server sends it. The transfer code
// is read from standard input (--code-stdin), so it never sits in the shell's history, and is never printed.
import readline from 'node:readline'
import { DEAL_STATE_LABEL, DEAL_STATES, type DealState } from '../shared/deal-api.ts'
import type { Config } from '../server/config.ts'
import { dealSummary } from '../server/deal/summary.ts'
import { endOfBerlinDay } from '../server/deal/due-date.ts'
import {
  cancelDeal,
  changeDeadlines,
  completeDeal,
  markPaid,
  MAX_DEADLINE_DAYS,
  recordTransfer,
  type DealStepContext,
  type DeadlineInput,
  type StepOutcome,
} from '../server/deal/steps.ts'
import { markRatePaid, waitForRate, type RateOutcome } from '../server/deal/rates.ts'
import { jsonText, visible } from '../server/lib/escape.ts'
import { domainsConfigOf } from '../server/sites/domains-document.ts'
import { readDomainsFile } from '../server/sites/domains-file.ts'
import type { Store } from '../server/store/types.ts'
import { table, time } from './format.ts'

const STEPS = ['show', 'paid', 'transfer', 'complete', 'cancel', 'deadline', 'rate-paid', 'wait'] as const
type DealCommand = (typeof STEPS)[number]

export interface DealsValues {
  status?: string | undefined
  json?: boolean | undefined
  note?: string | undefined
  reason?: string | undefined
  'code-stdin'?: boolean | undefined
  'notify-others'?: boolean | undefined
  payment?: string | undefined
  transfer?: string | undefined
  days?: string | undefined
  /** An instalment plan's rate (decision 042): its number, 0 the down payment. */
  rate?: string | undefined
}

interface Context {
  store: Store
  config: Config
  print: (text: string) => void
  usage: (message: string) => Error
  /** Standard input, for --code-stdin. */
  input?: NodeJS.ReadableStream
}

/** The first line of `input`, without its line end; empty when there is none. */
async function firstLine(input: NodeJS.ReadableStream): Promise<string> {
  const lines = readline.createInterface({ input, crlfDelay: Infinity })
  try {
    for await (const line of lines) return line
    return ''
  } finally {
    lines.close()
  }
}

const stepContext = (context: Context): DealStepContext => ({
  store: context.store,
  config: context.config,
  domains: context.config.domainsFile ? readDomainsFile(context.config.domainsFile) : domainsConfigOf({}),
})

/** `deals [--status S] [--json]`: every deal, the next deadline first. */
export async function runDealsList(values: DealsValues, context: Context) {
  const { store, config, print, usage } = context
  const status = values.status as DealState | undefined
  if (status !== undefined && !DEAL_STATES.includes(status)) throw usage(`--status is one of ${DEAL_STATES.join(', ')}`)
  const deals = (await store.listDeals(status ? { status } : {})).map((deal) => dealSummary(deal, config, Date.now()))
  if (values.json) return print(jsonText(deals.map(({ pageUrl: _pageUrl, ...deal }) => deal)))
  if (deals.length === 0) return print('No deals.')
  return print(
    table(
      ['ID', 'Inquiry', 'Domain', 'State', 'Amount', 'Reference', 'Buyer', 'Next deadline'],
      deals.map((deal) => [
        deal.id,
        deal.inquiryId,
        deal.domain,
        deal.status,
        deal.amount,
        deal.reference,
        `${deal.buyer.name} <${deal.buyer.email}>`,
        deal.nextDeadline === null ? '' : `${time(deal.nextDeadline)}${deal.overdue ? ' OVERDUE' : ''}`,
      ]),
    ),
  )
}

export const isDealStep = (command: string | undefined): command is DealCommand => (STEPS as readonly string[]).includes(command ?? '')

function refusal(outcome: Exclude<StepOutcome | RateOutcome, { status: 'done' }>, id: number, usage: Context['usage']): Error {
  switch (outcome.status) {
    case 'not-found':
      return usage(`there is no deal ${id} (see deals)`)
    case 'wrong-state':
      return usage(`deal ${id} is ${outcome.current} (${DEAL_STATE_LABEL[outcome.current]}): that step does not apply`)
    case 'bad-code':
      return usage('transfer needs a code on standard input (--code-stdin, at most 200 characters) or a --note')
    case 'reason-too-long':
      return usage('--note / --reason is too long (at most 2000 characters)')
    case 'past-date':
      return usage('the new deadline is in the past: give a day from today on')
    case 'too-far':
      return usage(`the new deadline is too far ahead (at most ${MAX_DEADLINE_DAYS} days)`)
    case 'already-paid':
      return usage(`that rate of deal ${id} is marked received already`)
  }
}

/** `deal deadline ID --payment YYYY-MM-DD | --transfer YYYY-MM-DD | --days N`: exactly one. */
function deadlineInput(values: DealsValues, usage: Context['usage']): DeadlineInput {
  const given = (['payment', 'transfer', 'days'] as const).filter((name) => values[name] !== undefined)
  if (given.length !== 1) throw usage('deal deadline takes exactly one of --payment YYYY-MM-DD, --transfer YYYY-MM-DD or --days N')
  if (values.days !== undefined) {
    if (!/^\d{1,3}$/.test(values.days) || Number(values.days) < 1)
      throw usage(`--days takes a whole number of days from 1 to ${MAX_DEADLINE_DAYS}, not "${visible(values.days)}"`)
    return { days: Number(values.days) }
  }
  const [field, text] = values.payment !== undefined ? (['paymentDueAt', values.payment] as const) : (['transferDueAt', values.transfer!] as const)
  const at = endOfBerlinDay(text)
  if (at === null)
    throw usage(`--${field === 'paymentDueAt' ? 'payment' : 'transfer'} takes a day as YYYY-MM-DD (its end, Berlin time), not "${visible(text)}"`)
  return { [field]: at }
}

/** `deal <step> ID`. */
export async function runDealStep(step: DealCommand, args: string[], values: DealsValues, context: Context) {
  const { store, config, print, usage } = context
  const idText = args[0]
  if (idText === undefined || !/^\d{1,15}$/.test(idText) || Number(idText) < 1)
    throw usage(`deal ${step} needs the ID of a deal (see deals)${idText ? `, not "${idText}"` : ''}`)
  const id = Number(idText)
  if (values['code-stdin'] && step !== 'transfer') throw usage('--code-stdin belongs to deal transfer')
  if (values.reason !== undefined && step !== 'cancel') throw usage('--reason belongs to deal cancel')
  if (values.note !== undefined && step !== 'transfer') throw usage('--note belongs to deal transfer')
  if (values['notify-others'] && step !== 'transfer' && step !== 'complete') throw usage('--notify-others belongs to deal complete and deal transfer')
  if ((values.payment !== undefined || values.transfer !== undefined || values.days !== undefined) && step !== 'deadline')
    throw usage('--payment, --transfer and --days belong to deal deadline')
  const isRateStep = step === 'rate-paid' || step === 'wait'
  if (values.rate !== undefined && !isRateStep) throw usage('--rate belongs to deal rate-paid and deal wait')
  if (isRateStep && (values.rate === undefined || !/^\d{1,2}$/.test(values.rate)))
    throw usage(`deal ${step} needs --rate N (the rate's number, 0 for the down payment; see deal show)`)
  const now = Date.now()
  let outcome: StepOutcome
  switch (step) {
    case 'show': {
      const deal = await store.getDeal(id)
      if (!deal) throw usage(`there is no deal ${id} (see deals)`)
      const summary = dealSummary(deal, config, now)
      if (values.json) return print(jsonText(summary))
      const facts: [string, string][] = [
        ['Deal', `${summary.id} (${summary.reference})`],
        ['Inquiry', String(summary.inquiryId)],
        ['Domain', summary.domain],
        ['State', `${summary.status} (${summary.statusLabel})`],
        ['Amount', summary.amount],
        ['Buyer', `${summary.buyer.name} <${summary.buyer.email}>`],
        ...(summary.nextDeadline !== null
          ? [[summary.nextDeadlineLabel ?? 'Deadline', `${time(summary.nextDeadline)}${summary.overdue ? ' (OVERDUE)' : ''}`] as [string, string]]
          : []),
        ['Code', summary.hasTransferCode ? 'stored (encrypted)' : '-'],
        ...(summary.notifyOthers !== null
          ? [['Others', summary.notifyOthers ? 'told "bereits verkauft" when it completes' : 'not told'] as [string, string]]
          : []),
        ...(summary.transferNote ? [['Note', summary.transferNote] as [string, string]] : []),
        ...(summary.cancelReason ? [['Reason', summary.cancelReason] as [string, string]] : []),
        ...(summary.pageUrl ? [['Page', summary.pageUrl] as [string, string]] : []),
        ...(summary.plan
          ? [['Plan', `instalments, the name moves ${summary.plan.transfer === 'at-once' ? 'at once' : 'after the last rate'}`] as [string, string]]
          : []),
      ]
      const rates = summary.plan
        ? `\n\n${table(
            ['Rate', 'Due', 'Amount', 'Reference', 'State'],
            summary.plan.rates.map((rate) => [
              rate.number,
              time(rate.dueAt),
              rate.amount,
              rate.reference,
              rate.paidAt !== null
                ? `received ${time(rate.paidAt)}${rate.paidBy === 'bank' ? ' (statement)' : ''}`
                : rate.overdue
                  ? rate.waitedAt === null
                    ? 'OVERDUE'
                    : 'overdue, waiting'
                  : 'open',
            ]),
          )}`
        : ''
      return print(facts.map(([k, v]) => `${`${k}:`.padEnd(10)} ${visible(v)}`).join('\n') + rates)
    }
    case 'paid':
      outcome = await markPaid(stepContext(context), id, now)
      break
    case 'transfer': {
      const code = values['code-stdin'] ? await firstLine(context.input ?? process.stdin) : ''
      outcome = await recordTransfer(
        stepContext(context),
        id,
        { code, ...(values.note !== undefined && { note: values.note }), notifyOthers: values['notify-others'] === true },
        now,
      )
      break
    }
    case 'complete':
      outcome = await completeDeal(stepContext(context), id, 'owner', now, values['notify-others'] === true)
      break
    case 'deadline': {
      const result = await changeDeadlines(stepContext(context), id, deadlineInput(values, usage), now)
      if (result.status !== 'done') throw refusal(result, id, usage)
      const summary = dealSummary(result.deal, config, now)
      if (values.json)
        return print(
          jsonText({
            deal: summary.id,
            step,
            status: summary.status,
            nextDeadline: summary.nextDeadline === null ? null : new Date(summary.nextDeadline).toISOString(),
          }),
        )
      return print(
        `Deal ${summary.id} (${summary.reference}): ${summary.nextDeadlineLabel ?? 'deadline'} ${summary.nextDeadline === null ? '-' : time(summary.nextDeadline)}. The buyer's page shows the new date; no mail is sent, and the reminders follow the new deadline.`,
      )
    }
    case 'cancel':
      outcome = await cancelDeal(stepContext(context), id, 'owner', values.reason ?? '', now)
      break
    case 'rate-paid':
    case 'wait': {
      const number = Number(values.rate)
      const result =
        step === 'wait' ? await waitForRate(stepContext(context), id, number, now) : await markRatePaid(stepContext(context), id, number, 'owner', now)
      if (result.status !== 'done') throw refusal(result, id, usage)
      const { deal } = result
      if (values.json) return print(jsonText({ deal: deal.id, step, rate: number, status: deal.status }))
      if (step === 'wait') return print(`Deal ${deal.id} (${deal.reference}): you wait for rate ${number}; nobody is mailed.`)
      const open = deal.plan?.rates.filter((rate) => rate.paidAt === null).length ?? 0
      // The payment's Anzahlungsrechnung, when the plan pays in advance and invoices are on (decision 046).
      const advance = (await store.dealInvoices(deal.id)).find((invoice) => invoice.kind === 'advance' && invoice.advanceRate === number)
      const invoiced = advance
        ? ` Advance payment invoice ${advance.number} issued and attached to the mail (npx domain-lander invoice ${advance.number}).`
        : ''
      return print(
        `Deal ${deal.id} (${deal.reference}): rate ${number} received; ${open === 0 ? `every rate is paid, the deal is now ${deal.status}` : `${open} rate${open === 1 ? '' : 's'} still open`}. The mail to ${visible(deal.buyer.email)} is queued and the running server sends it within seconds.${invoiced}`,
      )
    }
  }
  if (outcome.status !== 'done') throw refusal(outcome, id, usage)
  const { deal } = outcome
  const notices = outcome.soldNotices
  if (values.json)
    return print(jsonText({ deal: deal.id, step, status: deal.status, mailTo: deal.buyer.email, ...(notices !== undefined && { soldNotices: notices }) }))
  const told = notices === undefined ? '' : ` ${notices} other inquir${notices === 1 ? 'y is' : 'ies are'} told it is sold.`
  const sold = deal.status === 'completed' ? ` The name counts as sold on every instance within seconds.${told}` : ''
  const invoice = outcome.invoiceId ? await store.getInvoice(outcome.invoiceId) : null
  const invoiced = invoice
    ? ` ${{ invoice: 'Invoice', advance: 'Advance payment invoice', cancellation: 'Cancellation invoice' }[invoice.kind]} ${invoice.number} issued and attached to the mail (npx domain-lander invoice ${invoice.number}).`
    : ''
  // With invoices on, a paid deal without one lacks the buyer's address (a negotiated deal): say how it comes.
  const missing =
    step === 'paid' && !invoice && config.invoice
      ? ' No invoice: the buyer has not given a billing address yet; they can on the deal page, then "Rechnung ausstellen" on Verkäufe issues it.'
      : ''
  print(
    `Deal ${deal.id} (${deal.reference}) is now ${deal.status}; the mail to ${visible(deal.buyer.email)} is queued and the running server sends it within seconds.${sold}${invoiced}${missing}`,
  )
}
