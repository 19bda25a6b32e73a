// DIGEST=weekly: every Monday 08:00 Europe/Berlin one German mail to MAIL_TO about the week before, per domain.
// Plain text only: every value in it (domain names come from visitors' Host headers) stays text.
import type { VisitorStats } from '../../shared/stats-api.ts'
import { hintText } from '../../shared/stats-texts.ts'
import type { DomainRegistry } from '../sites/registry.ts'
import { visitorStats, type StatsStore } from '../visits/report.ts'
import type { FastifyBaseLogger } from 'fastify'
import type { SendMailOptions } from 'nodemailer'
import { OTHER_NAMES } from '../visits/counter.ts'
import { displayHost } from '../sites/host.ts'
import { formatPrice } from '../sites/settings.ts'
import type { MailTransport } from '../mail/transport.ts'
import { DEAL_STATE_LABEL } from '../../shared/deal-api.ts'
import { formatMinor } from '../lib/money.ts'
import { formatDeadline } from '../mail/deal-mail.ts'
import type { DigestDomain, DigestFacts, StoredDeal, Store } from '../store/types.ts'
import { addDays, berlinPartsOf, berlinTime } from '../lib/berlin.ts'
import type { Job } from '../scheduler/scheduler.ts'
import { lazy } from '../../shared/lazy.ts'
import { EXPIRING_DAYS, RECORDS_LABEL, expiryLabel, isExpiringSoon, type DomainCheck } from '../../shared/domain-checks.ts'

const DAY_MS = 24 * 3_600_000
/** A name without an inquiry for this long is listed as quiet. */
export const QUIET_DAYS = 90
const TOP_NAMES = 5

export interface DigestWeek {
  /** The previous Monday 08:00 and this Monday 08:00, Europe/Berlin. */
  since: number
  until: number
}

/** The week a digest due at `dueAt` reports on: the seven Berlin days before it, also across a clock change. */
export function digestWeek(dueAt: number): DigestWeek {
  const p = berlinPartsOf(dueAt)
  const before = addDays(p, -7)
  return { since: berlinTime(before.year, before.month, before.day, p.hour, p.minute), until: dueAt }
}

const number = lazy(() => new Intl.NumberFormat('de-DE'))
const date = lazy(() => new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', day: '2-digit', month: '2-digit', year: 'numeric' }))
const count = (n: number, one: string, many: string) => `${number().format(n)} ${n === 1 ? one : many}`

/**
 * Most interest first: more genuine inquiries, then more page views (a view says less than a written inquiry);
 * ties by name. Names with neither are not ranked.
 */
function byInterest(domains: DigestDomain[]): DigestDomain[] {
  return domains
    .filter((d) => d.inquiries > 0 || d.views > 0)
    .sort((a, b) => b.inquiries - a.inquiries || b.views - a.views || a.domain.localeCompare(b.domain))
}

/** Highest and median offer, one line per currency (offers in different currencies are not compared). */
function offerLines(domain: DigestDomain): string[] {
  const byCurrency = new Map<string, number[]>()
  for (const offer of domain.offers) byCurrency.set(offer.currency, [...(byCurrency.get(offer.currency) ?? []), offer.amount])
  return [...byCurrency.entries()].sort().map(([currency, amounts]) => {
    amounts.sort((a, b) => a - b)
    const middle = amounts.length >> 1
    const median = amounts.length % 2 ? amounts[middle]! : Math.round((amounts[middle - 1]! + amounts[middle]!) / 2)
    return `  Angebote: höchstes ${formatPrice(amounts.at(-1)!, currency)}, Median ${formatPrice(median, currency)} (${count(amounts.length, 'Angebot', 'Angebote')})`
  })
}

/** The digest's subject and text for a week, from the store's numbers and the names the domains file lists. */
/** An open deal's next deadline and what it is. */
function nextDeadline(deal: StoredDeal): { at: number; what: string } | null {
  if (deal.status === 'awaiting_payment') return { at: deal.paymentDueAt, what: 'Zahlung bis' }
  if (deal.status === 'paid' && deal.transferDueAt !== null) return { at: deal.transferDueAt, what: 'Übertragung bis' }
  if (deal.status === 'transferred' && deal.completesAt !== null) return { at: deal.completesAt, what: 'schließt ab am' }
  return null
}

/**
 * The open deals, next deadline first, passed ones marked: reference, name, state, amount, deadline. No buyer's name
 * or address: the digest is a summary, the console has the rest.
 */
function dealLines(deals: StoredDeal[], now: number): string[] {
  const open = deals.filter((deal) => deal.status === 'awaiting_payment' || deal.status === 'paid' || deal.status === 'transferred')
  const lines = ['', 'Offene Verkäufe (nächste Frist zuerst):']
  if (open.length === 0) return [...lines, '  keine']
  const passed = open.filter((deal) => deal.status !== 'transferred' && (nextDeadline(deal)?.at ?? Infinity) <= now)
  for (const deal of open) {
    const next = nextDeadline(deal)
    const overdue = passed.includes(deal) ? ' – FRIST VERSTRICHEN' : ''
    lines.push(
      `  ${deal.reference} ${displayHost(deal.domain)}: ${DEAL_STATE_LABEL[deal.status]}, ${formatMinor(deal.amount, deal.currency)}${next ? `, ${next.what} ${formatDeadline(next.at)}` : ''}${overdue}`,
    )
  }
  lines.push(
    '',
    passed.length === 0 ? 'Verstrichene Fristen: keine.' : `Verstrichene Fristen: ${passed.length} (in der Konsole unter „Verkäufe“ als überfällig markiert).`,
  )
  return lines
}

/**
 * The daily checks' findings (decision 047), every week while they last: a name that stopped pointing here is listed
 * until it points here again or leaves the domains file. Details came from DNS and RDAP: already one line of visible
 * text (domain-checks/check.ts).
 */
function checkLines(checks: DomainCheck[], now: number): string[] {
  if (checks.length === 0) return []
  const lines = ['', `Tägliche Prüfung der Namen (${count(checks.length, 'Name', 'Namen')} geprüft):`]
  const away = checks.filter((check) => check.pointing === 'elsewhere')
  const records = checks.filter((check) => check.records !== 'ok' && check.records !== 'unknown')
  const expiring = checks.filter((check) => isExpiringSoon(check, now)).sort((a, b) => a.expiresAt! - b.expiresAt!)
  if (away.length + records.length + expiring.length === 0) return [...lines, '  alles in Ordnung']
  if (away.length)
    lines.push('  Zeigen nicht hierher:', ...away.map((check) => `    ${displayHost(check.domain)}${check.pointingDetail ? ` (${check.pointingDetail})` : ''}`))
  if (records.length)
    lines.push('  _for-sale-Eintrag nicht aktuell:', ...records.map((check) => `    ${displayHost(check.domain)}: ${RECORDS_LABEL[check.records]}`))
  if (expiring.length)
    lines.push(`  Laufen in weniger als ${EXPIRING_DAYS} Tagen ab:`, ...expiring.map((check) => `    ${displayHost(check.domain)}: ${expiryLabel(check)}`))
  return lines
}

/** The week's visitors as the console's Übersicht counts them (decision 049): the same function, the same numbers. */
function visitorLines(stats: VisitorStats): string[] {
  const { total } = stats
  const lines = [
    '',
    `Besucher (ganze Tage ${stats.firstDay} bis ${stats.lastDay}, ohne Bots, wie in der Übersicht):`,
    `  ${count(total.visitors, 'Besucher', 'Besucher')}, ${count(total.visits, 'Besuch', 'Besuche')}, ${number().format(total.botsFiltered)} Bot-Aufrufe gefiltert, ${number().format(total.formTurns)} zum Formular, ${count(total.inquiries, 'Anfrage', 'Anfragen')}, ${count(total.offers, 'Angebot', 'Angebote')}, ${count(total.deals, 'Abschluss', 'Abschlüsse')}.`,
  ]
  for (const name of stats.names.filter((n) => n.visits > 0 || n.inquiries > 0).slice(0, TOP_NAMES)) {
    lines.push(
      `  ${name.domain}: ${number().format(name.visitors)} Besucher, ${number().format(name.visits)} Besuche, ${number().format(name.formTurns)} zum Formular, ${number().format(name.inquiries)} Anfragen`,
    )
  }
  if (stats.hints.length > 0) lines.push('', 'Hinweise:', ...stats.hints.map((hint) => `  ${hintText(hint)}`))
  return lines
}

export function composeDigest(
  facts: DigestFacts,
  week: DigestWeek,
  listed: string[] = [],
  deals: StoredDeal[] = [],
  checks: DomainCheck[] = [],
  visits?: VisitorStats,
): { subject: string; text: string } {
  const first = date().format(new Date(week.since))
  const last = date().format(new Date(week.until - DAY_MS))
  const domains = facts.domains.filter((d) => d.domain !== OTHER_NAMES)
  const totals = facts.domains.reduce(
    (sum, d) => ({ views: sum.views + d.views, inquiries: sum.inquiries + d.inquiries, spam: sum.spam + d.spam, failed: sum.failed + d.failedMail }),
    { views: 0, inquiries: 0, spam: 0, failed: 0 },
  )
  const lines = [
    `Wochenbericht vom ${first} bis ${last} (Montag 08:00 bis Montag 08:00, Europe/Berlin)`,
    '',
    `Zusammen: ${count(totals.views, 'Seitenaufruf', 'Seitenaufrufe')}, ${count(totals.inquiries, 'Anfrage', 'Anfragen')}, ${number().format(totals.spam)} Spam, ${count(totals.failed, 'fehlgeschlagene Mail', 'fehlgeschlagene Mails')}.`,
    '',
    `Die ${TOP_NAMES} Namen mit dem meisten Interesse (zuerst nach Anfragen, dann nach Seitenaufrufen):`,
  ]
  const top = byInterest(domains).slice(0, TOP_NAMES)
  if (top.length === 0) lines.push('  Keine Seitenaufrufe und keine Anfragen in dieser Woche.')
  top.forEach((d, i) =>
    lines.push(`  ${i + 1}. ${displayHost(d.domain)}: ${count(d.inquiries, 'Anfrage', 'Anfragen')}, ${count(d.views, 'Seitenaufruf', 'Seitenaufrufe')}`),
  )
  lines.push('', 'Je Domain:')
  if (domains.length === 0) lines.push('  Keine Aktivität in dieser Woche.')
  for (const d of domains) {
    lines.push(
      '',
      displayHost(d.domain),
      `  Seitenaufrufe: ${number().format(d.views)}`,
      `  Anfragen: ${number().format(d.inquiries)}`,
      `  Spam: ${number().format(d.spam)}`,
      ...(d.offers.length ? offerLines(d) : ['  Angebote: keine']),
      `  Fehlgeschlagene Mails: ${number().format(d.failedMail)}`,
    )
  }
  // A wildcard entry of the domains file is no name of its own; "andere" is the page views' overflow row.
  const asked = new Set(facts.askedLately)
  const quiet = [...new Set([...facts.seen, ...listed])].filter((name) => !name.startsWith('*.') && name !== OTHER_NAMES && !asked.has(name)).sort()
  lines.push('', `Seit ${QUIET_DAYS} Tagen ohne Anfrage:`)
  lines.push(quiet.length ? quiet.map((name) => `  ${displayHost(name)}`).join('\n') : '  keine: jeder Name hatte in dieser Zeit mindestens eine Anfrage.')
  if (visits) lines.push(...visitorLines(visits))
  lines.push(...dealLines(deals, week.until))
  lines.push(...checkLines(checks, week.until))
  if (totals.failed > 0) lines.push('', 'Fehlgeschlagene Mails stehen in der Konsole unter „Postausgang“ und lassen sich dort erneut senden.')
  lines.push('', '-- ', 'domain-lander (DIGEST=weekly)')
  return { subject: `Wochenbericht ${first} – ${last}`, text: `${lines.join('\n')}\n` }
}

export function digestJob(options: {
  store: Pick<Store, 'digestFacts' | 'domainChecks'> & StatsStore
  transport: MailTransport
  addresses: { from: string; to: string }
  /** The exact names of the domains file (quiet ones are listed even without a view). */
  listed: () => string[]
  /** For the visitor statistics (prices, the names without a visitor). */
  domains: Pick<DomainRegistry, 'current' | 'fromFile'>
  log: FastifyBaseLogger
}): Job {
  const { store, transport, addresses, listed, domains, log } = options
  return {
    name: 'digest',
    schedule: { weekly: { weekday: 1, hour: 8 } },
    async run({ dueAt, period }) {
      const week = digestWeek(dueAt)
      const facts = await store.digestFacts({ ...week, quietSince: week.until - QUIET_DAYS * DAY_MS })
      const names = listed()
      const inFile = new Set(names)
      const checks = (await store.domainChecks()).filter((check) => inFile.has(check.domain))
      // The week's whole Berlin days, Monday to Sunday.
      const visits = await visitorStats({ store, domains }, { days: 7, now: week.until - DAY_MS })
      const { subject, text } = composeDigest(facts, week, names, await store.listDeals(), checks, visits)
      const message: SendMailOptions = { from: addresses.from, to: addresses.to, subject, text }
      await transport.send(message, `digest-${period}.eml`)
      log.info({ period, domains: facts.domains.length }, 'weekly digest mailed')
    },
  }
}
