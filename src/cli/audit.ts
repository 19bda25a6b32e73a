// The audit trail from the terminal (decision 043): `audit [--since DAY] [--until DAY] [--action A] [--limit N]
// [--json]`, days in Berlin time as in the console; and the row each changing command writes, with "CLI" as actor.
import fs from 'node:fs'
import { AUDIT_ACTIONS, isAuditAction, type AuditAction, type AuditOutcome } from '../shared/audit-api.ts'
import type { Config } from '../server/config.ts'
import { jsonText } from '../server/lib/escape.ts'
import { berlinDayRange, isCalendarDay } from '../server/lib/berlin-day.ts'
import { displayHost, parseHost } from '../server/sites/host.ts'
import { openStore, sqliteFileOf } from '../server/store/index.ts'
import type { AuditEntry, NewAuditEntry, Store } from '../server/store/types.ts'
import { table, time } from './format.ts'

const DEFAULT_LIMIT = 200

export interface AuditValues {
  since?: string | undefined
  until?: string | undefined
  action?: string | undefined
  limit?: string | undefined
  json?: boolean | undefined
}

/** What a command's row will say; null for a command that changes nothing. */
export interface CliAuditPlan {
  action: AuditAction
  inquiryId?: number
  dealId?: number
  /** A command about one domain (domains set/add/remove), as typed: stored in ASCII when it is a host name. */
  domain?: string
}

const idOf = (text: string | undefined) => (text !== undefined && /^\d{1,15}$/.test(text) && Number(text) > 0 ? Number(text) : undefined)

const DEAL_STEPS: Record<string, AuditAction> = {
  paid: 'deal-paid',
  transfer: 'deal-transfer',
  complete: 'deal-complete',
  deadline: 'deal-deadline',
  cancel: 'deal-cancel',
  'rate-paid': 'deal-rate-paid',
  wait: 'deal-rate-wait',
}

/** The row a command line asks for, before it runs: also a refused or failed attempt writes one. */
export function cliAuditPlan(
  command: string | undefined,
  args: string[],
  values: { 'reset-2fa'?: boolean | undefined; 'dry-run'?: boolean | undefined },
): CliAuditPlan | null {
  const withInquiry = (action: AuditAction, id: string | undefined): CliAuditPlan => {
    const inquiryId = idOf(id)
    return inquiryId === undefined ? { action } : { action, inquiryId }
  }
  switch (command) {
    case 'set-password':
      return { action: values['reset-2fa'] ? 'second-factor-off' : 'password' }
    case 'counter':
    case 'accept':
    case 'decline':
    case 'resend':
      return withInquiry(command, args[0])
    case 'checkout':
      return args[0] === 'confirm' || args[0] === 'decline' ? withInquiry(`checkout-${args[0]}`, args[1]) : null
    case 'deal': {
      const action = args[0] === undefined ? undefined : DEAL_STEPS[args[0]]
      if (action === undefined) return null
      const dealId = idOf(args[1])
      return dealId === undefined ? { action } : { action, dealId }
    }
    case 'retry':
      return { action: 'resend' }
    case 'payments':
      return values['dry-run'] ? null : { action: 'bank-statement' }
    case 'import':
      return values['dry-run'] ? null : { action: 'import' }
    case 'domains':
      // set, add and remove name the domain; a dry run changes nothing.
      return values['dry-run'] || !['set', 'add', 'remove'].includes(args[0] ?? '')
        ? null
        : { action: 'domain-edit', ...(args[1] !== undefined && { domain: args[1] }) }
    case 'forget':
      return { action: 'forget' }
    default:
      return null
  }
}

/**
 * Writes the command's row, after it ran: a store of its own when the command needed none (import) and one exists
 * (the server started once).
 * Never fails the command: its change is made (or refused) whatever becomes of the row.
 */
export async function recordCli(
  plan: CliAuditPlan,
  outcome: AuditOutcome,
  context: { store: Store | undefined; config: Config; printError: (text: string) => void },
): Promise<void> {
  const { config, printError } = context
  let store = context.store
  const own = store === undefined
  try {
    if (!store) {
      if (!config.databaseUrl && !fs.existsSync(sqliteFileOf(config))) return
      store = await openStore(config)
    }
    const entry: NewAuditEntry = { at: Date.now(), actor: 'CLI', action: plan.action, outcome, inquiryId: plan.inquiryId ?? null, dealId: plan.dealId ?? null }
    if (plan.dealId !== undefined) {
      const deal = await store.getDeal(plan.dealId)
      if (deal) Object.assign(entry, { inquiryId: deal.inquiryId, domain: deal.domain })
    } else if (plan.inquiryId !== undefined) {
      entry.domain = (await store.getInquiry(plan.inquiryId))?.domain ?? null
    } else if (plan.domain !== undefined) {
      entry.domain = parseHost(plan.domain)?.ascii ?? null
    }
    await store.addAuditEntry(entry)
  } catch (error) {
    printError(`domain-lander: the audit trail's row was not written: ${(error as Error).message}`)
  } finally {
    if (own) await store?.close()
  }
}

function berlinDay(value: string | undefined, option: string, usage: (message: string) => Error): string | undefined {
  if (value !== undefined && !isCalendarDay(value)) throw usage(`--${option} takes a day as YYYY-MM-DD, not "${value}"`)
  return value
}

const actorText = (actor: string) => (actor.startsWith('session:') ? `session ${actor.slice(8)}` : actor === 'none' ? '-' : actor)

const subjectText = (entry: AuditEntry) =>
  [
    entry.inquiryId !== null ? `A${entry.inquiryId}` : '',
    entry.dealId !== null ? `V${entry.dealId}` : '',
    entry.domain !== null ? displayHost(entry.domain) : '',
  ]
    .filter(Boolean)
    .join(' ')

/** `audit`: newest first, at most --limit rows (200). */
export async function runAuditList(values: AuditValues, context: { store: Store; print: (text: string) => void; usage: (message: string) => Error }) {
  const { store, print, usage } = context
  const since = berlinDay(values.since, 'since', usage)
  const until = berlinDay(values.until, 'until', usage)
  if (values.action !== undefined && !isAuditAction(values.action)) throw usage(`--action is one of ${Object.keys(AUDIT_ACTIONS).join(', ')}`)
  const limit = values.limit === undefined ? DEFAULT_LIMIT : Number(values.limit)
  if (!Number.isSafeInteger(limit) || limit < 1) throw usage(`--limit takes a whole number, not "${values.limit}"`)
  const entries = await store.auditEntries({
    // --until is inclusive: the whole day counts.
    ...berlinDayRange({ since, until }),
    ...(values.action !== undefined && { action: values.action as AuditAction }),
    limit,
  })
  if (values.json) {
    return print(
      jsonText(
        entries.map((entry) => ({
          ...entry,
          at: new Date(entry.at).toISOString(),
          domain: entry.domain === null ? null : displayHost(entry.domain),
          domainAscii: entry.domain,
        })),
      ),
    )
  }
  if (entries.length === 0) return print('No entries.')
  return print(
    table(
      ['Time', 'Who', 'Action', 'Subject', 'Outcome', 'Detail'],
      entries.map((entry) => [time(entry.at), actorText(entry.actor), entry.action, subjectText(entry), entry.outcome, entry.detail]),
      60,
    ),
  )
}
