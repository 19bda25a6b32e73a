// `counter`, `accept`, `decline`: the console's negotiation for owners who stay in the terminal. The mail is queued
// in the store; the running server sends it (docs/negotiation.md).
import type { Config } from '../server/config.ts'
import { takeDealStep, type DealRequest, type PlanRequest } from '../server/deal/actions.ts'
import { jsonText, visible } from '../server/lib/escape.ts'
import { formatDeadline } from '../server/mail/deal-mail.ts'
import { domainsConfigOf } from '../server/sites/domains-document.ts'
import { readDomainsFile } from '../server/sites/domains-file.ts'
import { formatPrice } from '../server/sites/settings.ts'
import type { Store } from '../server/store/types.ts'

const DEAL_COMMANDS = ['counter', 'accept', 'decline'] as const
type DealCommand = (typeof DEAL_COMMANDS)[number]

export const isDealCommand = (command: string | undefined): command is DealCommand => (DEAL_COMMANDS as readonly string[]).includes(command ?? '')

export interface DealValues {
  amount?: string | undefined
  note?: string | undefined
  days?: string | undefined
  'confirm-expired'?: boolean | undefined
  json?: boolean | undefined
  /** An instalment plan (decision 042): so many monthly rates, a down payment, the name moved at once. */
  instalments?: string | undefined
  'down-payment'?: string | undefined
  'transfer-at-once'?: boolean | undefined
  'no-instalments'?: boolean | undefined
}

/** The plan options of counter and accept; undefined when none was given, null for accept's --no-instalments. */
function planOf(command: DealCommand, values: DealValues, usage: (message: string) => Error): PlanRequest | null | undefined {
  const given = values.instalments !== undefined || values['down-payment'] !== undefined || values['transfer-at-once'] === true
  if (command === 'decline' && (given || values['no-instalments']))
    throw usage('--instalments, --down-payment, --transfer-at-once and --no-instalments belong to counter and accept')
  if (values['no-instalments']) {
    if (command !== 'accept') throw usage('--no-instalments belongs to accept')
    if (given) throw usage('give --no-instalments or a plan, not both')
    return null
  }
  if (!given) return undefined
  if (values.instalments === undefined || !/^\d{1,2}$/.test(values.instalments))
    throw usage(`--instalments takes the number of monthly rates, 2 to 60${values.instalments ? `, not "${visible(values.instalments)}"` : ''}`)
  return {
    rates: Number(values.instalments),
    ...(values['down-payment'] !== undefined && { downPayment: values['down-payment'] }),
    transfer: values['transfer-at-once'] ? 'at-once' : 'after-last',
  }
}

const NAMES: Record<DealCommand, string> = { counter: 'Counter-offer', accept: 'Acceptance', decline: 'Refusal' }

/** Runs one negotiation step; throws `usage` errors (exit code 2) for what the owner can correct. */
export async function runDeal(
  command: DealCommand,
  args: string[],
  values: DealValues,
  context: { store: Store; config: Config; print: (text: string) => void; usage: (message: string) => Error },
) {
  const { store, config, print, usage } = context
  const idText = args[0]
  if (idText === undefined || !/^\d{1,15}$/.test(idText) || Number(idText) < 1)
    throw usage(`${command} needs the ID of an inquiry (see list)${idText ? `, not "${idText}"` : ''}`)
  const id = Number(idText)
  if (command !== 'counter' && (values.amount !== undefined || values.days !== undefined)) throw usage(`--amount and --days belong to counter, not ${command}`)
  if (command !== 'accept' && values['confirm-expired']) throw usage('--confirm-expired belongs to accept')
  const plan = planOf(command, values, usage)
  let request: DealRequest
  if (command === 'counter') {
    if (values.amount === undefined) throw usage('counter needs --amount N (whole units of the inquiry’s currency)')
    let days: number | undefined
    if (values.days !== undefined) {
      if (!/^\d{1,3}$/.test(values.days)) throw usage(`--days takes a whole number of days from 1 to 365, not "${values.days}"`)
      days = Number(values.days)
    }
    request = {
      kind: 'counter',
      amount: values.amount,
      ...(days !== undefined && { days }),
      ...(values.note !== undefined && { note: values.note }),
      ...(plan && { plan }),
    }
  } else if (command === 'accept') {
    request = {
      kind: 'accept',
      ...(values.note !== undefined && { note: values.note }),
      confirmExpired: values['confirm-expired'] === true,
      ...(plan !== undefined && { plan }),
    }
  } else {
    request = { kind: 'decline', ...(values.note !== undefined && { note: values.note }) }
  }
  const domains = config.domainsFile ? readDomainsFile(config.domainsFile) : domainsConfigOf({})
  const secret = config.contactSecret ?? (await store.secret())
  const outcome = await takeDealStep({ store, config, secret, domains }, id, request, Date.now())
  switch (outcome.status) {
    case 'queued':
      break
    case 'not-found':
      throw usage(`there is no inquiry ${id}`)
    case 'spam':
      throw usage(`inquiry ${id} is spam: it is not answered (mark it "Kein Spam" in the console first)`)
    case 'unconfirmed':
      throw usage(`inquiry ${id} is not confirmed yet: its address is not verified`)
    case 'counter-expired':
      throw usage(`the counter-offer on inquiry ${id} expired on ${formatDeadline(outcome.expiredAt)}; accept anyway with --confirm-expired`)
    case 'bad-amount':
      throw usage(`--amount takes a whole amount in ${outcome.currency} such as 4900 or 4.900, not "${visible(values.amount ?? '')}"`)
    case 'bad-days':
      throw usage('--days takes a whole number of days from 1 to 365')
    case 'note-too-long':
      throw usage('--note is too long (at most 5000 characters)')
    case 'deal-in-progress':
      throw usage(`inquiry ${id} has deal ${outcome.dealId} under way: cancel it first (deal cancel ${outcome.dealId})`)
    case 'domain-deal-open':
      throw usage(
        `this name is being sold already (deal ${outcome.dealId}): one sale of a name at a time; cancel that deal first (deal cancel ${outcome.dealId})`,
      )
    case 'sold':
      throw usage(`this name is sold (deal ${outcome.dealId}): nothing more is accepted for it`)
    case 'checkout-counter':
      throw usage(`inquiry ${id} is a checkout at the fixed price: confirm or decline it (checkout confirm|decline ${id}), no counter-offer`)
    case 'bad-plan':
      throw usage(
        outcome.problem === 'rates'
          ? '--instalments takes the number of monthly rates, 2 to 60'
          : outcome.problem === 'down-payment-amount'
            ? `--down-payment takes a whole amount such as 500, not "${visible(values['down-payment'] ?? '')}"`
            : 'the down payment leaves too little for the rates: it must be less than the amount, with at least one cent a rate',
      )
  }
  if (values.json) {
    return print(
      jsonText({
        inquiry: id,
        step: command,
        reply: outcome.replyId,
        status: outcome.inquiryStatus,
        to: outcome.to,
        amount: outcome.amount,
        currency: outcome.currency,
        ...(outcome.expiresAt !== undefined && { expiresAt: new Date(outcome.expiresAt).toISOString() }),
        ...(outcome.deal && { deal: outcome.deal.id, dealPage: outcome.deal.url }),
        text: outcome.body,
      }),
    )
  }
  const amount = outcome.amount === null ? '' : ` (${formatPrice(outcome.amount, outcome.currency)})`
  const until = outcome.expiresAt === undefined ? '' : `, valid until ${formatDeadline(outcome.expiresAt)}`
  const deal = outcome.deal ? ` Deal ${outcome.deal.id} is waiting for payment: ${outcome.deal.url}` : ''
  print(
    `${NAMES[command]}${amount}${until} for inquiry ${id} is queued to ${visible(outcome.to)}; the running server sends it within seconds.${deal}\n\n` +
      visible(outcome.body, { keepLineBreaks: true }),
  )
}

/**
 * `checkout confirm ID` / `checkout decline ID [--reason TEXT]`: a purchase at the fixed price (decision 035).
 * Confirming is the acceptance at the stored price (a deal, its page linked in the buyer's mail); declining is the
 * refusal, with the reason in the place of {notiz}. Refused for an inquiry that is no checkout.
 */
export async function runCheckout(
  args: string[],
  values: DealValues & { reason?: string | undefined },
  context: { store: Store; config: Config; print: (text: string) => void; usage: (message: string) => Error },
) {
  const [step, idText, ...rest] = args
  if (step !== 'confirm' && step !== 'decline')
    throw context.usage(`checkout takes confirm or decline${step ? `, not "${visible(step)}"` : ''} (see the command list)`)
  if (rest.length > 0) throw context.usage(`checkout ${step} takes one ID`)
  if (step === 'confirm' && values.reason !== undefined) throw context.usage('--reason belongs to checkout decline')
  if (values.reason !== undefined && values.note !== undefined) throw context.usage('give --reason or --note, not both')
  if (idText !== undefined && /^\d{1,15}$/.test(idText)) {
    const inquiry = await context.store.getInquiry(Number(idText))
    if (inquiry && !inquiry.checkout) throw context.usage(`inquiry ${idText} is no checkout: use accept or decline`)
  }
  const note = values.reason ?? values.note
  const { reason: _reason, ...rest2 } = values
  await runDeal(step === 'confirm' ? 'accept' : 'decline', idText === undefined ? [] : [idText], { ...rest2, ...(note !== undefined && { note }) }, context)
}
