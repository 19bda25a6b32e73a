// The console's data: the inbox with its filters, an inquiry with its thread, replies, the owner's actions,
// export, the outbox and the overview. JSON under /api/, and the same data for the server-rendered pages
// (loadPage). The admin app registers this behind the session check and the same-origin rule.
import { Readable } from 'node:stream'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import {
  INQUIRY_STATUSES,
  OVERVIEW_DAYS,
  REPLY_MAX,
  type ConsoleState,
  type InboxPage,
  type InboxQuery,
  type InquiryDetail,
  type MailDelivery,
  type OutboxPage,
  type Overview,
  type OverviewDays,
  type OverviewDomain,
} from '../../../shared/console-api.ts'
import { CSV_SEPARATORS } from '../../export/csv.ts'
import { exportText } from '../../export/inquiries.ts'
import { HttpError } from '../../http/errors.ts'
import { notifyUrlsFor } from '../../notify/routing.ts'
import { hostOf } from '../../notify/targets.ts'
import { dayOf } from '../../page/page-views.ts'
import { displayHost, parseHost } from '../../sites/host.ts'
import { formatPrice, resolveDomain } from '../../sites/settings.ts'
import { counterExpired, currencyOf } from '../../deal/actions.ts'
import type { ConsoleFilter, ConsoleInquiry, InquiryThread, MailRow } from '../../store/types.ts'
import type { ConsoleDeps } from '../deps.ts'

const PAGE_SIZE = 50
/** Export reads the inquiries in batches of this many, newest first. */
const EXPORT_BATCH = 1000
const DAY_MS = 24 * 60 * 60 * 1000
const MAX_WORDS = 8

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Datum als JJJJ-MM-TT').refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)), 'kein gültiges Datum')
// Empty form fields (a GET form sends every field) mean "no filter".
const optional = <T extends z.ZodType>(schema: T) => z.preprocess((value) => (value === '' ? undefined : value), schema.optional())

const inboxQuerySchema = z.object({
  domain: optional(z.string().max(253)),
  status: optional(z.enum(INQUIRY_STATUSES as [string, ...string[]])),
  since: optional(day),
  until: optional(day),
  q: optional(z.string().max(500)),
  cursor: optional(z.string().max(100)),
})

const idParams = z.object({ id: z.coerce.number().int().positive() })
const replyBody = z.object({ body: z.string().max(REPLY_MAX).refine((text) => text.trim() !== '', 'Bitte eine Antwort schreiben.') })
const actionBody = z.object({ action: z.enum(['archive', 'unarchive', 'spam', 'not-spam']) })
const exportQuery = inboxQuerySchema.extend({ format: z.enum(['csv', 'json']).default('csv'), sep: z.enum(CSV_SEPARATORS).default(',') })
const overviewQuery = z.object({ days: optional(z.coerce.number().pipe(z.union(OVERVIEW_DAYS.map((days) => z.literal(days))))) })

/** Parses or answers 400 with the one error body shape. */
function parse<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const result = schema.safeParse(value)
  if (!result.success) throw new HttpError(400, result.error.issues.map((issue) => `${issue.path.join('.') || 'Eingabe'}: ${issue.message}`).join('; '))
  return result.data
}

const berlinParts = new Intl.DateTimeFormat('en-US', { timeZone: 'Europe/Berlin', hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' })

/** Epoch milliseconds of 00:00 on this day in Europe/Berlin (the owner's days; the store counts in UTC). */
export function berlinDayStart(isoDay: string): number {
  const utcMidnight = Date.parse(`${isoDay}T00:00:00Z`)
  // Berlin is ahead of UTC by one or two hours: find the offset at that moment, then correct by it.
  const offsetAt = (time: number) => {
    const parts = Object.fromEntries(berlinParts.formatToParts(new Date(time)).map((part) => [part.type, part.value]))
    return Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second)) - time
  }
  const guess = utcMidnight - offsetAt(utcMidnight)
  return utcMidnight - offsetAt(guess)
}

/**
 * Words of the free-text search: letters and digits, everything else separates them (as in the index). A word
 * that ends in "*" also finds the words it starts.
 */
export const wordsOf = (text: string) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}*]+/u)
    .map((token) => {
      const word = token.replaceAll('*', '').slice(0, 64)
      return word && token.endsWith('*') ? `${word}*` : word
    })
    .filter(Boolean)
    .slice(0, MAX_WORDS)

const encodeCursor = (row: { createdAt: number; id: number }) => Buffer.from(`${row.createdAt}.${row.id}`).toString('base64url')
function decodeCursor(cursor: string): { createdAt: number; id: number } {
  const match = /^(\d{1,15})\.(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString())
  if (!match) throw new HttpError(400, 'cursor: ungültig')
  return { createdAt: Number(match[1]), id: Number(match[2]) }
}

/** The store's filter for the console's query; `domain` may be written in Unicode. */
function filterOf(query: z.infer<typeof inboxQuerySchema>): Omit<ConsoleFilter, 'limit'> {
  const domain = query.domain === undefined ? undefined : parseHost(query.domain)?.ascii
  if (query.domain !== undefined && domain === undefined) throw new HttpError(400, 'domain: kein Domainname')
  const words = query.q === undefined ? [] : wordsOf(query.q)
  return {
    ...(domain !== undefined && { domain }),
    ...(query.status !== undefined && { status: query.status as ConsoleFilter['status'] }),
    ...(query.since !== undefined && { since: berlinDayStart(query.since) }),
    // "bis" is inclusive: up to the start of the next day.
    ...(query.until !== undefined && { until: berlinDayStart(dayOf(Date.parse(`${query.until}T00:00:00Z`) + DAY_MS)) }),
    ...(words.length > 0 && { words }),
    ...(query.cursor !== undefined && { before: decodeCursor(query.cursor) }),
  }
}

/** A counter-offer whose time has passed is shown as expired before the hourly job has marked it. */
const shownStatus = (inquiry: ConsoleInquiry) => (counterExpired(inquiry, Date.now()) ? 'expired' : inquiry.status)
const offerText = (inquiry: ConsoleInquiry) => (inquiry.offer ? formatPrice(inquiry.offer.amount, inquiry.offer.currency) : null)
const delivery = (mail: MailRow | null): MailDelivery | null =>
  mail && { status: mail.status, attempts: mail.attempts, lastError: mail.lastError, messageId: mail.messageId }

function createInboxData(deps: ConsoleDeps) {
  const { store, domains, config } = deps
  // The store hands out the same list of domains for a while; its Unicode forms are made once per list (each one
  // costs tens of microseconds, and a portfolio has thousands).
  let shown: { from: string[]; list: InboxPage['domains'] } | undefined
  const shownDomains = (names: string[]) => {
    if (shown?.from !== names) shown = { from: names, list: names.map((ascii) => ({ ascii, display: displayHost(ascii) })) }
    return shown.list
  }
  const settingsOf = (domain: string) => resolveDomain(domains.current(), domain)?.settings ?? domains.current().default

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

  function detailOf(thread: InquiryThread): InquiryDetail {
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
    }
  }

  async function detail(id: number): Promise<InquiryDetail> {
    const thread = await store.inquiryThread(id)
    if (!thread) throw new HttpError(404, 'Diese Anfrage gibt es nicht (mehr).')
    return detailOf(thread)
  }

  async function outbox(): Promise<OutboxPage> {
    const rows = await store.listMail(['pending', 'failed'])
    return {
      items: rows.map((row) => ({
        id: row.id,
        inquiryId: row.inquiryId,
        domain: displayHost(row.domain),
        kind: row.webhookUrl !== null ? 'webhook' : row.replyId === null ? 'inquiry' : 'reply',
        // The host only: the rest of a notification's address may hold a token.
        target: row.webhookUrl === null ? null : hostOf(row.webhookUrl),
        status: row.status,
        attempts: row.attempts,
        lastError: row.lastError,
        createdAt: row.createdAt,
        nextAttemptAt: row.nextAttemptAt,
      })),
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
    return {
      days,
      domains: [...byDomain.values()].map(({ amounts, currency, ...domain }) => {
        if (amounts.length === 0) return domain
        amounts.sort((a, b) => a - b)
        const middle = amounts.length >> 1
        const median = amounts.length % 2 ? amounts[middle]! : Math.round((amounts[middle - 1]! + amounts[middle]!) / 2)
        return { ...domain, highestOffer: formatPrice(amounts.at(-1)!, currency), medianOffer: formatPrice(median, currency) }
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
const dataOf = new WeakMap<ConsoleDeps, ReturnType<typeof createInboxData>>()
export function inboxDataOf(deps: ConsoleDeps) {
  let data = dataOf.get(deps)
  if (!data) dataOf.set(deps, (data = createInboxData(deps)))
  return data
}

export default async function inboxRoutes(app: FastifyInstance, deps: ConsoleDeps) {
  const { store, outbox, log } = deps
  const data = inboxDataOf(deps)
  const idOf = (request: FastifyRequest) => parse(idParams, request.params).id

  app.get('/api/inbox', async (request) => (await data.inbox(request.query)).data)
  app.get('/api/inquiries/:id', async (request) => data.detail(idOf(request)))

  app.post('/api/inquiries/:id/reply', async (request) => {
    const id = idOf(request)
    const { body } = parse(replyBody, request.body)
    const inquiry = await store.getInquiry(id)
    if (!inquiry) throw new HttpError(404, 'Diese Anfrage gibt es nicht (mehr).')
    const replyId = await store.addReply({ inquiryId: id, body, to: inquiry.email, replyTo: data.mailTo(inquiry.domain), createdAt: Date.now() })
    if (replyId === null) throw new HttpError(404, 'Diese Anfrage gibt es nicht (mehr).')
    outbox.kick()
    log.info({ inquiry: id, reply: replyId }, 'reply queued')
    return data.detail(id)
  })

  app.post('/api/inquiries/:id/action', async (request) => {
    const id = idOf(request)
    const { action } = parse(actionBody, request.body)
    const inquiry = await store.getInquiry(id)
    if (!inquiry) throw new HttpError(404, 'Diese Anfrage gibt es nicht (mehr).')
    let changed: boolean
    switch (action) {
      case 'archive':
      case 'unarchive':
        changed = await store.setArchived(id, action === 'archive')
        break
      case 'spam':
        changed = await store.markSpam(id)
        break
      case 'not-spam':
        changed = await store.markNotSpam(id, data.settingsOf(inquiry.domain).mailTo ?? null, Date.now(), notifyUrlsFor(data.settingsOf(inquiry.domain), deps.config))
        if (changed) outbox.kick()
        break
    }
    if (!changed) throw new HttpError(409, 'Das geht bei dieser Anfrage nicht (Spam zuerst als „Kein Spam" markieren).')
    log.info({ inquiry: id, action }, 'inquiry changed in the console')
    return data.detail(id)
  })

  app.delete('/api/inquiries/:id', async (request) => {
    const id = idOf(request)
    if (!(await store.deleteInquiry(id))) throw new HttpError(404, 'Diese Anfrage gibt es nicht (mehr).')
    log.info({ inquiry: id }, 'inquiry erased in the console')
    return { ok: true }
  })

  app.get('/api/export', async (request, reply: FastifyReply) => {
    const format = parse(exportQuery, request.query).format
    const batches = data.exportBatches(request.query)
    // Parsed before the first byte goes out, so that a bad filter still gets a 400.
    const first = await batches.next()
    async function* rest() {
      if (!first.done) yield first.value
      yield* batches
    }
    const name = `anfragen-${dayOf(Date.now())}.${format}`
    return reply
      .type(format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8')
      .header('content-disposition', `attachment; filename="${name}"`)
      .send(Readable.from(rest()))
  })

  app.get('/api/outbox', async () => data.outbox())
  app.post('/api/outbox/:id/resend', async (request) => {
    const id = idOf(request)
    if (!(await store.resendMail(id, Date.now()))) throw new HttpError(409, 'Diese Mail wird gerade gesendet oder ist nicht mehr da.')
    outbox.kick()
    log.info({ outbox: id }, 'mail queued again from the console')
    return { ok: true }
  })

  app.get('/api/overview', async (request) => data.overview(request.query))
}

const INQUIRY_PAGE = /^\/anfragen\/(\d{1,15})$/

/**
 * The state of the console page at the request's path (GET, signed in), or null when there is no such page.
 * Paths: CONSOLE_PATHS in src/shared/console-api.ts.
 */

export async function loadPage(request: FastifyRequest, deps: ConsoleDeps): Promise<ConsoleState | null> {
  const data = inboxDataOf(deps)
  const path = request.url.split('?')[0] ?? '/'
  if (path === '/') return { page: 'inbox', ...(await data.inbox(request.query)) }
  if (path === '/postausgang') return { page: 'outbox', data: await data.outbox() }
  if (path === '/uebersicht') return { page: 'overview', data: await data.overview(request.query) }
  const inquiry = INQUIRY_PAGE.exec(path)
  if (inquiry) {
    const thread = await deps.store.inquiryThread(Number(inquiry[1]))
    return thread ? { page: 'inquiry', data: data.detailOf(thread) } : null
  }
  return null
}
