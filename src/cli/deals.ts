// `deals` and `deal show|paid|transfer|complete|cancel ID`: the console's "Verkäufe" for owners who stay in the
// terminal (docs/deals.md). The buyer's mail is queued in the store; the running server sends it. The transfer code
// is read from standard input (--code-stdin), so it never sits in the shell's history, and is never printed.
import readline from 'node:readline'
import { DEAL_STATE_LABEL, DEAL_STATES, type DealState } from '../shared/console-api.ts'
import type { Config } from '../server/config.ts'
import { dealSummary } from '../server/deal/summary.ts'
import { cancelDeal, completeDeal, markPaid, recordTransfer, type DealStepContext, type StepOutcome } from '../server/deal/steps.ts'
import { jsonText, visible } from '../server/export/escape.ts'
import { domainsConfigOf } from '../server/sites/domains-document.ts'
import { readDomainsFile } from '../server/sites/domains-file.ts'
import type { Store } from '../server/store/types.ts'
import { table, time } from './format.ts'

const STEPS = ['show', 'paid', 'transfer', 'complete', 'cancel'] as const
type DealCommand = (typeof STEPS)[number]

export interface DealsValues {
  status?: string | undefined
  json?: boolean | undefined
  note?: string | undefined
  reason?: string | undefined
  'code-stdin'?: boolean | undefined
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

function refusal(outcome: Exclude<StepOutcome, { status: 'done' }>, id: number, usage: Context['usage']): Error {
  switch (outcome.status) {
    case 'not-found':
      return usage(`there is no deal ${id} (see deals)`)
    case 'wrong-state':
      return usage(`deal ${id} is ${outcome.current} (${DEAL_STATE_LABEL[outcome.current]}): that step does not apply`)
    case 'bad-code':
      return usage('transfer needs a code on standard input (--code-stdin, at most 200 characters) or a --note')
    case 'reason-too-long':
      return usage('--note / --reason is too long (at most 2000 characters)')
  }
}

/** `deal <step> ID`. */
export async function runDealStep(step: DealCommand, args: string[], values: DealsValues, context: Context) {
  const { store, config, print, usage } = context
  const idText = args[0]
  if (idText === undefined || !/^\d{1,15}$/.test(idText) || Number(idText) < 1) throw usage(`deal ${step} needs the ID of a deal (see deals)${idText ? `, not "${idText}"` : ''}`)
  const id = Number(idText)
  if (values['code-stdin'] && step !== 'transfer') throw usage('--code-stdin belongs to deal transfer')
  if (values.reason !== undefined && step !== 'cancel') throw usage('--reason belongs to deal cancel')
  if (values.note !== undefined && step !== 'transfer') throw usage('--note belongs to deal transfer')
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
        ...(summary.nextDeadline !== null ? [[summary.nextDeadlineLabel ?? 'Deadline', `${time(summary.nextDeadline)}${summary.overdue ? ' (OVERDUE)' : ''}`] as [string, string]] : []),
        ['Code', summary.hasTransferCode ? 'stored (encrypted)' : '-'],
        ...(summary.transferNote ? [['Note', summary.transferNote] as [string, string]] : []),
        ...(summary.cancelReason ? [['Reason', summary.cancelReason] as [string, string]] : []),
        ...(summary.pageUrl ? [['Page', summary.pageUrl] as [string, string]] : []),
      ]
      return print(facts.map(([k, v]) => `${`${k}:`.padEnd(10)} ${visible(v)}`).join('\n'))
    }
    case 'paid':
      outcome = await markPaid(stepContext(context), id, now)
      break
    case 'transfer': {
      const code = values['code-stdin'] ? await firstLine(context.input ?? process.stdin) : ''
      outcome = await recordTransfer(stepContext(context), id, { code, ...(values.note !== undefined && { note: values.note }) }, now)
      break
    }
    case 'complete':
      outcome = await completeDeal(stepContext(context), id, 'owner', now)
      break
    case 'cancel':
      outcome = await cancelDeal(stepContext(context), id, 'owner', values.reason ?? '', now)
      break
  }
  if (outcome.status !== 'done') throw refusal(outcome, id, usage)
  const { deal } = outcome
  if (values.json) return print(jsonText({ deal: deal.id, step, status: deal.status, mailTo: deal.buyer.email }))
  const sold = deal.status === 'completed' ? ' The name counts as sold on every instance within seconds.' : ''
  const invoice = outcome.invoiceId ? await store.getInvoice(outcome.invoiceId) : null
  const invoiced = invoice ? ` ${invoice.kind === 'invoice' ? 'Invoice' : 'Cancellation invoice'} ${invoice.number} issued and attached to the mail (npx domain-lander invoice ${invoice.number}).` : ''
  print(`Deal ${deal.id} (${deal.reference}) is now ${deal.status}; the mail to ${visible(deal.buyer.email)} is queued and the running server sends it within seconds.${sold}${invoiced}`)
}
