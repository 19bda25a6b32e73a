// The owner's inbox without a mail client: `npx domain-lander <command>` (or `npm run cli -- <command>`).
// It works on the same SQLite file as the server, also while the server runs.
import fs from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { ConfigError, loadConfig } from '../server/config.ts'
import { displayHost, parseHost } from '../server/sites/host.ts'
import { notifyHost } from '../server/lib/notify-targets.ts'
import { dayOf } from '../server/lib/utc-day.ts'
import { berlinDayRange, isCalendarDay } from '../server/lib/berlin-day.ts'
import { openStore, sqliteFileOf } from '../server/store/index.ts'
import type { InquiryFilter, InquiryListing, OutboxStatus, Store } from '../server/store/types.ts'
import type { StatsStore } from '../server/visits/report.ts'
import { isValidEmail } from '../shared/contact.ts'
import { CSV_SEPARATORS, type CsvSeparator } from '../server/export/csv.ts'
import { jsonText, visible } from '../server/lib/escape.ts'
import { exportText, inquiryJson } from '../server/export/inquiries.ts'
import { table, time } from './format.ts'
import { PasswordError, readNewPassword, savePassword } from './set-password.ts'
import { isDealCommand, runCheckout, runDeal } from './deal.ts'
import { isPrivacyCommand, runPrivacy } from './privacy.ts'
import { runDns } from './dns.ts'
import { runImportCommand } from './import.ts'
import { UsageError } from './usage-error.ts'
import { withProcessDefaults, type CliIo } from './io.ts'
import { cliAuditPlan, recordCli, runAuditList } from './audit.ts'
import type { Config } from '../server/config.ts'
import type { AuditOutcome } from '../shared/audit-api.ts'

export const USAGE = `domain-lander: the inquiries in DATA_DIR (default ./data), or in PostgreSQL when DATABASE_URL is set

Commands:
  list     [--domain D] [--since YYYY-MM-DD] [--until YYYY-MM-DD] [--spam | --genuine] [--limit N]
           (days in Berlin time, both inclusive, as in the console)
  show     ID
  export   [--format csv|json] [--sep ,|;] [--out FILE] [the filters of list]
  resend   ID [--to ADDRESS]        queue the inquiry's mail again (the running server sends it)
  outbox   [--status pending|failed|sent]  mail and notifications (webhooks: host only)
  retry    queue every failed mail again
  stats    [--domain D] [--days N]  visits and inquiries per domain and day, default 30 days
  stats summary [--domain D] [--days N] [--json]   visitors, visits, bots filtered, sources, turns to the form,
           inquiries, offers, deals and revenue per name, with the hints: the console's Übersicht (docs/analytics.md)
  set-password [--stdin]           the console's password (asked twice, or one line from stdin); ends every session
  set-password --reset-2fa         switches the console's second factor (TOTP) off, for a lost phone; ends every
                                   session; the password and passkeys stay
  counter  ID --amount N [--note TEXT] [--days N]   mail the visitor a counter-offer (valid COUNTER_OFFER_DAYS, default 7)
  accept   ID [--note TEXT] [--confirm-expired]      mail the visitor that the offer is accepted
  decline  ID [--note TEXT]         mail the visitor that the offer is declined
           counter and accept (and checkout confirm) take an instalment plan: --instalments N (2-60 monthly rates)
           [--down-payment N] [--transfer-at-once]; accept --no-instalments: paid at once, whatever was offered
  checkout confirm ID [--note TEXT] | decline ID [--reason TEXT]   a purchase at the fixed price: confirm it (a deal;
           the buyer is mailed the link to the deal page) or decline it (the buyer is mailed politely)
  deals    [--status S] [--json]   the deals (accepted offers): state, amount, buyer, next deadline first
  deal show ID | paid ID | complete ID [--notify-others]   a deal; mark the payment received; complete it (the name
           is sold; --notify-others mails "bereits verkauft" to the name's other open inquiries)
  deal transfer ID --code-stdin [--note TEXT] [--notify-others]   the transfer code from standard input (kept
           encrypted; the buyer reveals it on the deal page), or --note alone for a push to the buyer's account;
           --notify-others: tell the other inquirers when the deal completes without you
  deal deadline ID --payment YYYY-MM-DD | --transfer YYYY-MM-DD | --days N   move the deal's payment or transfer
           deadline (to the end of that day, Berlin time; --days: from now, for the deadline it waits for)
  deal cancel ID [--reason TEXT]   cancel the deal; the reason is mailed to the buyer
  deal rate-paid ID --rate N | wait ID --rate N   an instalment plan's rate (0 the down payment): mark it received
           (the buyer is mailed; the last one marks the deal paid), or wait for an overdue one (nobody is mailed)
  payments import FILE [--dry-run] [--json]   a bank statement (CAMT.053): payments matched to the deals by
           reference and amount; marks the deals they pay as paid (mailing the buyers) unless --dry-run (exit 1
           when the file is no readable statement; then nothing is applied)
  invoices [--json]                the issued invoices and Stornorechnungen, newest first
  invoice  NUMBER [--out FILE]      one invoice's PDF as issued (default ./RE-<number>.pdf; never overwrites)
  access   --email ADDRESS          everything stored about this address, as JSON (GDPR Art. 15)
  forget   --email ADDRESS          erase everything about this address: inquiries, replies, mail (Art. 17)
  dns      [--domain D] [--format zone|json]   the _for-sale TXT records (RFC 10023) of the names in DOMAINS_FILE
  dns check [--resolver IP:PORT] [--domain D] [--json]   look them up: missing, stale, left over, malformed (exit 1)
  dns publish [--dry-run]   write them to the owner's DNS server by RFC 2136 update with the TSIG key (DNS_UPDATE_*),
           one update per zone; --dry-run prints the updates (nsupdate's syntax) and sends nothing (exit 1 on failure)
  audit    [--since YYYY-MM-DD] [--until YYYY-MM-DD] [--action A] [--limit N] [--json]   the audit trail, newest
           first (days in Berlin time): every change through the console or the CLI, and every sign-in
  import   FILE [--format csv|json] [--dry-run] [--prune]   a registrar's list of names, prices, minimum offers and
           currencies into DOMAINS_FILE: shows the changes, writes the file unless --dry-run (exit 1 on any error);
           --prune also removes the exact names the list does not have
  domains  set NAME key=value… | add NAME [key=value…] | remove NAME   [--dry-run]   edit one name of DOMAINS_FILE
           (keys: price, priceType, minOffer, currency, status, language, listed, description; key= removes one);
           shows the change, writes the file unless --dry-run; other instances take the edit in from the store
  domains check [--resolver IP:PORT] [--json]   the daily checks now: does each listed name point here
           (SERVER_ADDRESSES or /tls-check), are its _for-sale records current, when does it expire (RDAP); kept in
           the store when there is one (exit 1 when a name needs attention)
Options:
  --json            machine-readable output
  --data-dir DIR    instead of DATA_DIR
`

const OPTIONS = {
  domain: { type: 'string' },
  since: { type: 'string' },
  until: { type: 'string' },
  spam: { type: 'boolean' },
  genuine: { type: 'boolean' },
  limit: { type: 'string' },
  format: { type: 'string' },
  sep: { type: 'string' },
  out: { type: 'string' },
  to: { type: 'string' },
  status: { type: 'string' },
  days: { type: 'string' },
  json: { type: 'boolean' },
  stdin: { type: 'boolean' },
  'reset-2fa': { type: 'boolean' },
  email: { type: 'string' },
  'data-dir': { type: 'string' },
  amount: { type: 'string' },
  note: { type: 'string' },
  'confirm-expired': { type: 'boolean' },
  instalments: { type: 'string' },
  'down-payment': { type: 'string' },
  'transfer-at-once': { type: 'boolean' },
  'no-instalments': { type: 'boolean' },
  rate: { type: 'string' },
  'code-stdin': { type: 'boolean' },
  'notify-others': { type: 'boolean' },
  payment: { type: 'string' },
  transfer: { type: 'string' },
  reason: { type: 'string' },
  resolver: { type: 'string' },
  'dry-run': { type: 'boolean' },
  prune: { type: 'boolean' },
  action: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values']

function day(value: string | undefined, option: string): string | undefined {
  if (value !== undefined && !isCalendarDay(value)) throw new UsageError(`--${option} takes a day as YYYY-MM-DD, not "${value}"`)
  return value
}

function positiveInt(value: string | undefined, option: string): number | undefined {
  if (value === undefined) return undefined
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new UsageError(`--${option} takes a whole number, not "${value}"`)
  return Number(value)
}

function domainOption(value: string | undefined): string | undefined {
  if (value === undefined) return undefined
  const host = parseHost(value)
  if (!host) throw new UsageError(`--domain: "${value}" is not a domain name`)
  return host.ascii
}

function filterFrom(values: Values): InquiryFilter {
  if (values.spam && values.genuine) throw new UsageError('--spam and --genuine exclude each other')
  // Whole days in Berlin, both inclusive: the console's "von" and "bis" give the same rows.
  const { since, until } = berlinDayRange({ since: day(values.since, 'since'), until: day(values.until, 'until') })
  return {
    domain: domainOption(values.domain),
    since,
    until,
    spam: values.spam ? true : values.genuine ? false : undefined,
    limit: positiveInt(values.limit, 'limit'),
  }
}

const kindOf = (i: InquiryListing) => (i.spamReason ? `spam (${i.spamReason})` : i.belowMinimum ? 'below minimum' : 'inquiry')

/** What the inbox's commands read and change of the store. */
type InboxCommandsStore = Pick<Store, 'listInquiries' | 'getInquiry' | 'outboxStatus' | 'requeueMail' | 'listOutbox' | 'requeueFailed' | 'dailyStats'> &
  StatsStore

async function run(command: string | undefined, args: string[], values: Values, store: InboxCommandsStore, print: (text: string) => void, config: Config) {
  const json = (value: unknown) => print(jsonText(value))
  switch (command) {
    case 'list': {
      const rows = await store.listInquiries(filterFrom(values))
      if (values.json) return json(rows.map(inquiryJson))
      if (rows.length === 0) return print('No inquiries.')
      return print(
        table(
          ['ID', 'Time', 'Domain', 'Name', 'E-Mail', 'Kind', 'Mail', 'Message'],
          rows.map((i) => [i.id, time(i.createdAt), displayHost(i.domain), i.name, i.email, kindOf(i), i.mailStatus ?? '-', i.message]),
        ),
      )
    }
    case 'show': {
      const id = positiveInt(args[0], 'ID')
      if (id === undefined) throw new UsageError('show needs the ID of an inquiry (see list)')
      const found = await store.getInquiry(id)
      if (!found) throw new UsageError(`there is no inquiry ${id}`)
      const inquiry: InquiryListing = { ...found, mailStatus: (await store.outboxStatus(id))?.status ?? null }
      if (values.json) return json(inquiryJson(inquiry))
      const facts: [string, string][] = [
        ['ID', String(inquiry.id)],
        ['Time', time(inquiry.createdAt)],
        ['Domain', displayHost(inquiry.domain)],
        ['Name', inquiry.name],
        ['E-Mail', inquiry.email],
        ['Language', inquiry.language],
        ...(inquiry.offer !== null
          ? [['Offer', `${inquiry.offer.amount} ${inquiry.offer.currency}${inquiry.belowMinimum ? ' (below minimum)' : ''}`] as [string, string]]
          : []),
        ['Kind', kindOf(inquiry)],
        ['Mail', inquiry.mailStatus ?? '-'],
      ]
      // The message keeps its line breaks (it is read as a letter); everything else unsafe is escaped.
      const lines = facts.map(([k, v]) => `${`${k}:`.padEnd(9)} ${visible(v)}`)
      return print(`${lines.join('\n')}\n\n${visible(inquiry.message, { keepLineBreaks: true })}`)
    }
    case 'export': {
      const format = values.format ?? (values.json ? 'json' : 'csv')
      if (format !== 'csv' && format !== 'json') throw new UsageError('--format is csv or json')
      const separator = values.sep ?? ','
      if (!(CSV_SEPARATORS as readonly string[]).includes(separator)) throw new UsageError(`--sep is "," or ";", not "${separator}"`)
      if (values.sep !== undefined && format !== 'csv') throw new UsageError('--sep applies to --format csv only')
      const rows = await store.listInquiries(filterFrom(values))
      const text = exportText(rows, format, separator as CsvSeparator)
      if (!values.out) return print(text)
      fs.writeFileSync(path.resolve(values.out), text, { mode: 0o600 })
      return print(`${rows.length} inquiries written to ${values.out}`)
    }
    case 'resend': {
      const id = positiveInt(args[0], 'ID')
      if (id === undefined) throw new UsageError('resend needs the ID of an inquiry (see list)')
      if (values.to !== undefined && !isValidEmail(values.to)) throw new UsageError(`--to: "${values.to}" is not an e-mail address`)
      if (!(await store.requeueMail(id, Date.now(), values.to ?? null))) throw new UsageError(`there is no inquiry ${id}`)
      return values.json ? json({ queued: id }) : print(`Inquiry ${id} is queued; the running server sends it within seconds.`)
    }
    case 'outbox': {
      const status = values.status as OutboxStatus | undefined
      if (status && !['pending', 'failed', 'sent'].includes(status)) throw new UsageError('--status is pending, failed or sent')
      const rows = await store.listOutbox(status)
      // A notification's address may hold a token (Telegram's is in its path): only its host is shown.
      const shown = rows.map(({ webhookUrl, ...r }) => ({ ...r, webhook: webhookUrl === null ? null : notifyHost(webhookUrl) }))
      if (values.json) return json(shown.map((r) => ({ ...r, domain: displayHost(r.domain), createdAt: new Date(r.createdAt).toISOString() })))
      if (rows.length === 0) return print(status ? `No ${status} mail.` : 'The outbox is empty.')
      return print(
        table(
          ['Inquiry', 'Domain', 'Status', 'Attempts', 'Next attempt', 'To', 'Last error'],
          shown.map((r) => [
            r.inquiryId,
            displayHost(r.domain),
            r.status,
            r.attempts,
            r.status === 'pending' ? time(r.nextAttemptAt) : '',
            r.webhook === null ? (r.mailTo ?? 'MAIL_TO') : `Webhook an ${r.webhook}`,
            r.lastError,
          ]),
          60,
        ),
      )
    }
    case 'retry': {
      const count = await store.requeueFailed(Date.now())
      return values.json ? json({ queued: count }) : print(count ? `${count} failed mails queued again.` : 'No failed mail.')
    }
    case 'stats': {
      const days = positiveInt(values.days, 'days') ?? 30
      if (args[0] === 'summary') {
        const { runStatsSummary } = await import('./stats.ts')
        return runStatsSummary({ days, domain: domainOption(values.domain), json: values.json }, { store, config, print })
      }
      const sinceDay = dayOf(Date.now() - (days - 1) * 24 * 60 * 60 * 1000)
      const rows = await store.dailyStats({ domain: domainOption(values.domain), sinceDay })
      if (values.json) return json(rows.map((r) => ({ ...r, domain: displayHost(r.domain) })))
      if (rows.length === 0) return print('No page views or inquiries in that time.')
      return print(
        table(
          ['Day', 'Domain', 'Views', 'Inquiries', 'Spam'],
          rows.map((r) => [r.day, displayHost(r.domain), r.views, r.inquiries, r.spam]),
        ),
      )
    }
    default:
      throw new UsageError(command ? `unknown command "${command}"` : 'no command given')
  }
}

/** Runs the CLI; returns the exit code. */
export async function main(argv: string[], io: CliIo = {}) {
  const { env, stdin, print, printError, stderrIsTTY } = withProcessDefaults(io)
  let parsed
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true })
  } catch (error) {
    printError(`${visible((error as Error).message, { keepLineBreaks: true })}\n\n${USAGE}`)
    return 2
  }
  const { values, positionals } = parsed
  const [command, ...args] = positionals
  if (values.help || command === 'help') {
    print(USAGE)
    return 0
  }
  let store: Store | undefined
  let config: Config | undefined
  // Every command that changes something writes one row of the audit trail, also when it is refused or fails.
  const plan = cliAuditPlan(command, args, values)
  let outcome: AuditOutcome = 'failed'
  let refusedEarly = false
  try {
    config = loadConfig({ ...env, ...(values['data-dir'] ? { DATA_DIR: values['data-dir'] } : {}) })
    const code = await runCommand(config)
    outcome = code === 0 ? 'ok' : 'refused'
    return code
  } catch (error) {
    if (error instanceof PasswordError) {
      outcome = 'refused'
      refusedEarly = true
      printError(`domain-lander: ${error.message}`)
      return 1
    }
    if (error instanceof UsageError || error instanceof ConfigError) {
      outcome = 'refused'
      refusedEarly = true
      printError(
        `domain-lander: ${visible(error.message, { keepLineBreaks: true })}${error instanceof UsageError && /command/.test(error.message) ? `\n\n${USAGE}` : ''}`,
      )
      return 2
    }
    throw error
  } finally {
    // A command refused before it reached the store (a mistake on the command line, a weak password) changed
    // nothing and writes no row; `import`, which needs no store, writes one once it read its list.
    const reached = store !== undefined || (plan?.action === 'import' && !refusedEarly)
    if (plan && config && reached) await recordCli(plan, outcome, { store, config, printError })
    await store?.close()
  }

  async function runCommand(config: Config): Promise<number> {
    if (command === 'set-password' && values['reset-2fa']) {
      const file = sqliteFileOf(config)
      if (!config.databaseUrl && !fs.existsSync(file)) throw new UsageError(`no store at ${file}: is DATA_DIR right?`)
      store = await openStore(config)
      await store.resetSecondFactor()
      print('The second factor is off; every session has ended. Sign in with the password and set it up again.')
      return 0
    }
    if (command === 'set-password') {
      const password = await readNewPassword(values.stdin === true, stdin)
      // The password may come first, before the server ever started: then this makes the store.
      if (!config.databaseUrl) fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 })
      store = await openStore(config)
      await savePassword(store, password)
      print('The console password is set; every session signed in before has ended.')
      return 0
    }
    // The DNS records and the import work on the domains file alone: no store needed. `dns` reads the names sold
    // through a deal from the store when there is one (docs/dns.md).
    if (command === 'dns') {
      let sold: ReadonlySet<string> = new Set()
      // `dns publish` keeps what it published in the store (a name removed later gets its records deleted): it may
      // come before the server's first start, and then makes the store.
      const publish = args[0] === 'publish' && config.dnsUpdate !== null
      if (publish && !config.databaseUrl) fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 })
      if (publish || config.databaseUrl || fs.existsSync(sqliteFileOf(config))) {
        store = await openStore(config)
        sold = new Set(await store.soldDomains())
      }
      return await runDns(args, values, config, print, sold, store)
    }
    if (command === 'import') return await runImportCommand(args, values, config, print, stderrIsTTY ? printError : undefined)
    if (command === 'domains' && args[0] === 'check') {
      if (args.length > 1) throw new UsageError('domains check takes --json and --resolver IP:PORT only')
      const { runDomainsCheck } = await import('./domains-check.ts')
      if (config.databaseUrl || fs.existsSync(sqliteFileOf(config))) store = await openStore(config)
      return await runDomainsCheck(values, config, store, print)
    }
    if (command === 'domains') {
      const { runDomainsCommand } = await import('./domains.ts')
      const { storeJournal } = await import('../server/domains-edit/sync.ts')
      // With a store, the edit is recorded there for the other instances (decision 044); without one, the file alone.
      if (!values['dry-run'] && (config.databaseUrl || fs.existsSync(sqliteFileOf(config)))) store = await openStore(config)
      return await runDomainsCommand(args, values, config, store ? storeJournal(store) : null, print)
    }
    const file = sqliteFileOf(config)
    if (!config.databaseUrl && !fs.existsSync(file)) {
      throw new UsageError(`no store at ${file}: is DATA_DIR right? (the server creates it on its first start)`)
    }
    store = await openStore(config)
    const usage = (message: string) => new UsageError(message)
    if (isDealCommand(command)) await runDeal(command, args, values, { store, config, print, usage })
    else if (command === 'checkout') await runCheckout(args, values, { store, config, print, usage })
    else if (command === 'deals' || command === 'deal') {
      // Loaded for these commands only: every other command starts as fast as before.
      const { isDealStep, runDealsList, runDealStep } = await import('./deals.ts')
      const [step, ...rest] = args
      if (command === 'deals') await runDealsList(values, { store, config, print, usage })
      else if (!isDealStep(step))
        throw usage(`deal takes show, paid, rate-paid, wait, transfer, complete, cancel or deadline${step ? `, not "${step}"` : ''} (see the command list)`)
      else await runDealStep(step, rest, values, { store, config, print, usage, input: stdin })
    } else if (command === 'payments') {
      const { runPayments } = await import('./payments.ts')
      return await runPayments(args, values, { store, config, print, printError, usage })
    } else if (command === 'invoices' || command === 'invoice') {
      const { runInvoice, runInvoiceList } = await import('./invoice.ts')
      if (command === 'invoices') await runInvoiceList(values, { store, print, usage })
      else return await runInvoice(args, values, { store, print, printError, usage })
    } else if (isPrivacyCommand(command)) await runPrivacy(command, values, store, config.dataDir, print, config.invoiceRetentionYears)
    else if (command === 'audit') await runAuditList(values, { store, print, usage })
    else await run(command, args, values, store, print, config)
    return 0
  }
}
