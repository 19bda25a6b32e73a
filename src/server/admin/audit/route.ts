// The console's page "Protokoll" (decision 043): the audit trail, newest first, filtered by days (Berlin time), action
// and subject, 50 rows a page. Registered by the admin app behind the session check, like every console route.
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { AUDIT_ACTIONS, AUDIT_PATH, auditPageSchema, type AuditEntryView, type AuditPage, type AuditQuery } from '../../../shared/audit-api.ts'
import { HttpError } from '../../http/errors.ts'
import { sentAsIs } from '../../http/zod-schemas.ts'
import { berlinDayRange, isCalendarDay } from '../../lib/berlin-day.ts'
import { displayHost, parseHost } from '../../sites/host.ts'
import type { AuditEntry, AuditFilter } from '../../store/types.ts'
import { sendPage } from '../render.ts'
import type { ConsoleApp } from '../decorations.ts'
import { CONSOLE_TEXT } from '../texts.ts'

const AUDIT_PAGE_SIZE = 50

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'Datum als JJJJ-MM-TT', abort: true })
  .refine(isCalendarDay, 'kein gültiges Datum')
// Empty form fields (a GET form sends every field) mean "no filter".
const optional = <T extends z.ZodType>(schema: T) => z.preprocess((value) => (value === '' ? undefined : value), schema.optional())

const auditQuery = z.object({
  since: optional(day),
  until: optional(day),
  action: optional(z.enum(Object.keys(AUDIT_ACTIONS) as [keyof typeof AUDIT_ACTIONS, ...(keyof typeof AUDIT_ACTIONS)[]])),
  subject: optional(z.string().trim().max(253)),
  cursor: optional(z.string().regex(/^\d{1,15}\.\d{1,15}$/, 'ungültig')),
})

/** "A12" or "12": an inquiry; "V3": a deal; anything else a domain (in Unicode or ASCII). */
function subjectFilter(subject: string): Pick<AuditFilter, 'inquiryId' | 'dealId' | 'domain'> {
  const inquiry = /^A?\s*(\d{1,15})$/i.exec(subject)
  if (inquiry) return { inquiryId: Number(inquiry[1]) }
  const deal = /^V\s*(\d{1,15})$/i.exec(subject)
  if (deal) return { dealId: Number(deal[1]) }
  const host = parseHost(subject)
  if (!host) throw new HttpError(400, CONSOLE_TEXT.audit.badSubject)
  return { domain: host.ascii }
}

const actorLabel = (actor: string) => (actor === 'CLI' ? 'CLI' : actor.startsWith('session:') ? `Sitzung ${actor.slice(8)}` : 'unbekannt')

const auditView = (entry: AuditEntry): AuditEntryView => ({
  ...entry,
  actor: actorLabel(entry.actor),
  domain: entry.domain === null ? null : displayHost(entry.domain),
})

async function auditPage(app: Pick<ConsoleApp, 'store'>, query: z.infer<typeof auditQuery>): Promise<AuditPage> {
  const [at, id] = query.cursor?.split('.').map(Number) ?? []
  const filter: AuditFilter = {
    // "bis" is inclusive: up to the start of the next day.
    ...berlinDayRange({ since: query.since, until: query.until }),
    ...(query.action !== undefined && { action: query.action }),
    ...(query.subject !== undefined && subjectFilter(query.subject)),
    ...(at !== undefined && id !== undefined && { before: { at, id } }),
    limit: AUDIT_PAGE_SIZE + 1,
  }
  const rows = await app.store.auditEntries(filter)
  const shown = rows.slice(0, AUDIT_PAGE_SIZE)
  const last = shown.at(-1)
  const echo: AuditQuery = Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined))
  return { query: echo, entries: shown.map(auditView), next: rows.length > AUDIT_PAGE_SIZE && last ? `${last.at}.${last.id}` : null }
}

export default async function auditRoutes(instance: ConsoleApp) {
  const { renderer } = instance
  const app = instance.withTypeProvider<ZodTypeProvider>()
  app.get(AUDIT_PATH, { schema: { querystring: auditQuery, response: { 200: sentAsIs } } }, async (request, reply) =>
    sendPage(reply, renderer, { page: 'audit', data: await auditPage(instance, request.query) }),
  )
  app.get('/api/audit', { schema: { querystring: auditQuery, response: { 200: auditPageSchema } } }, async (request) => auditPage(instance, request.query))
}
