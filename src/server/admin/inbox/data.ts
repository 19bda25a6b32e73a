// The console's data: the inbox with its filters, an inquiry with its thread, the outbox, the overview and the
// export, for the JSON API and the server-rendered pages alike (one object per app: inboxDataOf).
import type { FastifyInstance } from 'fastify'
import { decimalOf } from '../../lib/money.ts'
import type {
  InboxPage,
  InboxQuery,
  InquiryDetail,
  MailDelivery,
  OutboxPage,
  OutboxRow,
  Overview,
  OverviewDays,
  OverviewDomain,
} from '../../../shared/console-api.ts'
import { exportText } from '../../export/inquiries.ts'
import { HttpError } from '../../http/errors.ts'
import { notifyHost } from '../../lib/notify-targets.ts'
import { dayOf } from '../../lib/utc-day.ts'
import { displayHost } from '../../sites/host.ts'
import { formatPrice } from '../../sites/settings.ts'
import { counterExpired, currencyOf } from '../../deal/actions.ts'
import type { ConsoleFilter, ConsoleInquiry, InquiryThread, MailRow, Store, StoredDeal } from '../../store/types.ts'
import { dealSummary } from '../../deal/summary.ts'
import { visitorStats } from '../../visits/report.ts'
import { CONSOLE_TEXT } from '../texts.ts'
import {
  DAY_MS,
  EXPORT_BATCH,
  decodeCursor,
  encodeCursor,
  filterOf,
  inboxQuerySchema,
  OUTBOX_PAGE_SIZE,
  outboxQuery,
  PAGE_SIZE,
  parse,
  overviewQuery,
  exportQuery,
} from './query.ts'
/** A counter-offer whose time has passed is shown as expired before the hourly job has marked it. */
const shownStatus = (inquiry: ConsoleInquiry) => (counterExpired(inquiry, Date.now()) ? 'expired' : inquiry.status)
const offerText = (inquiry: ConsoleInquiry) => (inquiry.offer ? formatPrice(inquiry.offer.amount, inquiry.offer.currency) : null)
const delivery = (mail: MailRow | null): MailDelivery | null =>
  mail && { status: mail.status, attempts: mail.attempts, lastError: mail.lastError, messageId: mail.messageId }

type InboxSources = Pick<FastifyInstance, 'store' | 'domains' | 'config'>

function createInboxData({ store, domains, config }: InboxSources) {
  // The store hands out the same list of domains for a while; its Unicode forms are made once per list (each one
  // costs tens of microseconds, and a portfolio has thousands).
  let shown: { from: string[]; list: InboxPage['domains'] } | undefined
  const shownDomains = (names: string[]) => {
    if (shown?.from !== names) shown = { from: names, list: names.map((ascii) => ({ ascii, display: displayHost(ascii) })) }
    return shown.list
  }
  const settingsOf = (domain: string) => domains.current().resolve(domain)?.settings ?? domains.current().default

  async function inbox(rawQuery: unknown): Promise<{ query: InboxQuery; data: InboxPage }> {
    const query = parse(inboxQuerySchema, rawQuery)
    const filter = filterOf(query)
    const [rows, domainNames] = await Promise.all([store.consoleInquiries({ ...filter, limit: PAGE_SIZE + 1 }), store.inquiryDomains()])
    const items = rows.slice(0, PAGE_SIZE)
    const last = items.at(-1)
    const data: InboxPage = {
      items: items.map((inquiry) => ({
        id: inquiry.id,
        domain: displayHost(inquiry.domain),
        domainAscii: inquiry.domain,
        name: inquiry.name,
        email: inquiry.email,
        firstLine: (inquiry.message.split(/\r?\n/, 1)[0] ?? '').slice(0, 200),
        offer: offerText(inquiry),
        createdAt: inquiry.createdAt,
        status: shownStatus(inquiry),
        mail: inquiry.mailStatus,
      })),
      next: rows.length > PAGE_SIZE && last ? encodeCursor(last) : null,
      domains: shownDomains(domainNames),
    }
    const { cursor: _cursor, ...shown } = query
    return { query: shown as InboxQuery, data }
  }

  function detailOf(thread: InquiryThread, deal: StoredDeal | null = null): InquiryDetail {
    const { inquiry } = thread
    const { price, minOffer, currency = 'EUR' } = settingsOf(inquiry.domain)
    const dealCurrency = currencyOf(inquiry, domains.current())
    return {
      id: inquiry.id,
      domain: displayHost(inquiry.domain),
      domainAscii: inquiry.domain,
      name: inquiry.name,
      email: inquiry.email,
      message: inquiry.message,
      language: inquiry.language,
      createdAt: inquiry.createdAt,
      status: shownStatus(inquiry),
      spamReason: inquiry.spamReason,
      offer: inquiry.offer && { ...inquiry.offer, formatted: formatPrice(inquiry.offer.amount, inquiry.offer.currency) },
      belowMinimum: inquiry.belowMinimum,
      price: price === undefined ? null : formatPrice(price, currency),
      minimum: minOffer === undefined ? null : formatPrice(minOffer, currency),
      ownerMail: delivery(thread.ownerMail),
      replies: thread.replies.map((reply) => ({
        id: reply.id,
        kind: reply.kind,
        amount: reply.amount === null ? null : formatPrice(reply.amount, dealCurrency),
        body: reply.body,
        createdAt: reply.createdAt,
        mail: delivery(reply.mail),
      })),
      currency: dealCurrency,
      counter: inquiry.counter
        ? { ...inquiry.counter, formatted: formatPrice(inquiry.counter.amount, dealCurrency), expired: inquiry.counter.expiresAt <= Date.now() }
        : null,
      counterDays: config.counterOfferDays,
      deal: deal && dealSummary(deal, config, Date.now()),
      checkout: inquiry.checkout ?? null,
      // The plan offered with the counter-offer or chosen at the checkout (decision 042); the down payment in whole units.
      plan: inquiry.plan
        ? {
            rates: inquiry.plan.rates,
            downPayment: inquiry.plan.downPayment === 0 ? '' : decimalOf(inquiry.plan.downPayment, dealCurrency).replace(/\.0+$/, ''),
            transfer: inquiry.plan.transfer,
          }
        : null,
    }
  }

  async function detail(id: number): Promise<InquiryDetail> {
    const thread = await store.inquiryThread(id)
    if (!thread) throw new HttpError(404, CONSOLE_TEXT.inquiry.notFound)
    return detailOf(thread, await store.openDealOf(id))
  }

  async function outbox(rawQuery: unknown = {}): Promise<OutboxPage> {
    const { cursor } = parse(outboxQuery, rawQuery)
    // One more than a page: whether there is a next one. The DNS updates (at most one waiting per zone, a newer one
    // replaces it) all come with the first page.
    const [rows, dnsRows, noticeRows] = await Promise.all([
      store.listMail(['pending', 'failed'], { ...(cursor !== undefined && { after: decodeCursor(cursor) }), limit: OUTBOX_PAGE_SIZE + 1 }),
      cursor === undefined ? store.listDnsUpdates(['pending', 'failed']) : [],
      // The daily checks' notifications (decision 047): a few per change of a name's state, with the first page too.
      cursor === undefined ? store.listDomainNotices(['pending', 'failed']) : [],
    ])
    const page = rows.slice(0, OUTBOX_PAGE_SIZE)
    const last = page.at(-1)
    const mail = page.map((row): OutboxRow => ({
      id: row.id,
      inquiryId: row.inquiryId,
      domain: displayHost(row.domain),
      kind: row.webhookUrl !== null ? 'webhook' : row.replyId === null ? 'inquiry' : 'reply',
      // The host only: the rest of a notification's address may hold a token.
      target: row.webhookUrl === null ? null : notifyHost(row.webhookUrl),
      status: row.status,
      attempts: row.attempts,
      lastError: row.lastError,
      createdAt: row.createdAt,
      nextAttemptAt: row.nextAttemptAt,
    }))
    const server = config.dnsUpdate
    const dns = dnsRows.map((row): OutboxRow => ({
      id: row.id,
      inquiryId: null,
      domain: displayHost(row.zone),
      kind: 'dns',
      target: server && `${server.host.includes(':') ? `[${server.host}]` : server.host}:${server.port}`,
      status: row.status,
      attempts: row.attempts,
      lastError: row.lastError,
      createdAt: row.createdAt,
      nextAttemptAt: row.nextAttemptAt,
    }))
    const notices = noticeRows.map((row): OutboxRow => ({
      id: row.id,
      inquiryId: null,
      domain: displayHost(row.domain),
      kind: 'domain-notice',
      target: notifyHost(row.webhookUrl),
      event: `domain.${row.event}`,
      status: row.status,
      attempts: row.attempts,
      lastError: row.lastError,
      createdAt: row.createdAt,
      nextAttemptAt: row.nextAttemptAt,
    }))
    return {
      next: rows.length > OUTBOX_PAGE_SIZE && last ? encodeCursor(last) : null,
      items: [...mail, ...dns, ...notices].sort((a, b) => a.createdAt - b.createdAt),
    }
  }

  async function overview(rawQuery: unknown, now = Date.now()): Promise<Overview> {
    const days: OverviewDays = parse(overviewQuery, rawQuery).days ?? 30
    const firstDay = dayOf(now - (days - 1) * DAY_MS)
    const [stats, offers] = await Promise.all([store.dailyStats({ sinceDay: firstDay }), store.offersSince(Date.parse(`${firstDay}T00:00:00Z`))])
    const dayList = Array.from({ length: days }, (_, i) => dayOf(Date.parse(`${firstDay}T00:00:00Z`) + i * DAY_MS))
    const byDomain = new Map<string, OverviewDomain & { amounts: number[]; currency: string | undefined }>()
    const entry = (ascii: string) => {
      let found = byDomain.get(ascii)
      if (!found) {
        found = {
          domain: displayHost(ascii),
          domainAscii: ascii,
          views: 0,
          inquiries: 0,
          spam: 0,
          highestOffer: null,
          medianOffer: null,
          highestAmount: null,
          medianAmount: null,
          daily: dayList.map((d) => ({ day: d, views: 0, inquiries: 0 })),
          amounts: [],
          currency: undefined,
        }
        byDomain.set(ascii, found)
      }
      return found
    }
    for (const row of stats) {
      const domain = entry(row.domain)
      domain.views += row.views
      domain.inquiries += row.inquiries
      domain.spam += row.spam
      const slot = domain.daily[dayList.indexOf(row.day)]
      if (slot) {
        slot.views += row.views
        slot.inquiries += row.inquiries
      }
    }
    for (const offer of offers) {
      const domain = entry(offer.domain)
      // Offers are compared in one currency: the domain's, as most of them were made in.
      domain.currency ??= settingsOf(offer.domain).currency ?? offer.currency
      if (offer.currency === domain.currency) domain.amounts.push(offer.amount)
    }
    const visits = await visitorStats({ store, domains }, { days, now })
    return {
      days,
      visits,
      domains: [...byDomain.values()].map(({ amounts, currency, ...domain }) => {
        if (amounts.length === 0) return domain
        amounts.sort((a, b) => a - b)
        const middle = amounts.length >> 1
        const median = amounts.length % 2 ? amounts[middle]! : Math.round((amounts[middle - 1]! + amounts[middle]!) / 2)
        const highest = amounts.at(-1)!
        return {
          ...domain,
          highestOffer: formatPrice(highest, currency),
          medianOffer: formatPrice(median, currency),
          highestAmount: { amount: highest, currency: currency ?? 'EUR' },
          medianAmount: { amount: median, currency: currency ?? 'EUR' },
        }
      }),
    }
  }

  async function* exportBatches(rawQuery: unknown) {
    const { format, sep, ...query } = parse(exportQuery, rawQuery)
    const filter = filterOf({ ...query, cursor: undefined })
    let before: ConsoleFilter['before']
    let first = true
    // JSON is one array, written batch by batch; CSV repeats its header only once.
    if (format === 'json') yield '['
    for (;;) {
      const rows = await store.consoleInquiries({ ...filter, ...(before && { before }), limit: EXPORT_BATCH })
      if (rows.length === 0) break
      if (format === 'csv') {
        const text = exportText(rows, 'csv', sep)
        // The first batch keeps the BOM and the header line; later ones only add rows.
        yield first ? text : text.slice(text.indexOf('\r\n') + 2)
      } else {
        const text = exportText(rows, 'json').trim()
        yield `${first ? '' : ','}${text.slice(1, -1)}`
      }
      first = false
      const last = rows.at(-1)!
      before = { createdAt: last.createdAt, id: last.id }
      if (rows.length < EXPORT_BATCH) break
    }
    if (format === 'json') yield ']\n'
  }

  return { inbox, detail, detailOf, outbox, overview, exportBatches, settingsOf, mailTo: (domain: string) => settingsOf(domain).mailTo ?? config.mailTo }
}

/** One per app, shared by the API and the pages: it keeps the Unicode forms of the domain list. */
const dataOf = new WeakMap<Store, ReturnType<typeof createInboxData>>()
export function inboxDataOf(app: InboxSources) {
  let data = dataOf.get(app.store)
  if (!data) dataOf.set(app.store, (data = createInboxData(app)))
  return data
}
