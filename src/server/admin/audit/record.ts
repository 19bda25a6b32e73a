// Writes the audit trail's row for each change made through the console (decision 043). Each state-changing route
// declares its row in its own options, `config: { audit: { action, subject } }`, or `audit: null` for a POST that
// changes nothing (a preview, a challenge, Art. 15's report); a state-changing route that declares neither stops the
// console from being built (decision 062), so a new page cannot forget it.
// The row is written before the answer leaves (onSend): when the browser sees the answer, the row is there.
import { createHash } from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { AuditAction } from '../../../shared/audit-api.ts'
import type { AuditActor, NewAuditEntry } from '../../store/types.ts'
import { partialAddress } from '../security/client-summary.ts'
import { hashOfSessionId, sessionIdOf } from '../session/cookie.ts'

type Note = Partial<Pick<NewAuditEntry, 'actor' | 'inquiryId' | 'dealId' | 'domain' | 'detail'>>

interface Pending {
  action: AuditAction
  entry: Note
  skip: boolean
}

/** What the row names, read from the raw params before the change (an erasure removes what it names). */
type AuditSubject = (request: FastifyRequest) => Note | Promise<Note>

/** The row a state-changing console route writes. */
export interface AuditRule {
  /** A function for a route whose body names the action; undefined: this request writes no row. */
  action: AuditAction | ((request: FastifyRequest) => AuditAction | undefined)
  subject?: AuditSubject
}

/** A route's `config.audit`: its action alone, its rule, or null when it changes nothing. */
export type AuditConfig = AuditAction | AuditRule | null

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The console's audit row of this route (admin/audit/record.ts). Required of every POST, PUT, PATCH and DELETE. */
    audit?: AuditConfig
  }
}

/** `config: auditAs('reply', inquirySubject)`: the action and what the row names. */
export const auditAs = (action: AuditRule['action'], subject: AuditSubject): { audit: AuditRule } => ({ audit: { action, subject } })

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/** A session as the trail names it: derived from its id's hash one way, so that neither leaves the server. */
export const auditActorOfHash = (idHash: string): AuditActor =>
  `session:${createHash('sha256').update(`session-ref:${idHash}`).digest('base64url').slice(0, 8)}`

const pending = new WeakMap<FastifyRequest, Pending>()

/** What only the handler knows (decision 062): the new session, a count, the subject. */
export function noteAudit(request: FastifyRequest, note: Note): void {
  const current = pending.get(request)
  if (current) current.entry = { ...current.entry, ...note }
}

/** This request changed nothing worth a row (the password was right and the second factor's code is asked next). */
export function skipAudit(request: FastifyRequest): void {
  const current = pending.get(request)
  if (current) current.skip = true
}

/** "password · 203.0.x.x" */
export const signInDetail = (method: string, request: FastifyRequest) => `${method} · ${partialAddress(request.ip) ?? 'Adresse unbekannt'}`

const outcomeOf = (status: number) => (status < 400 ? 'ok' : status < 500 ? 'refused' : 'failed')

/** The route's `:id`, as sent; null when it is no id (the schema refuses it after the row is noted). */
function idOf(request: FastifyRequest): number | null {
  const id = Number((request.params as Record<string, string | undefined>).id)
  return Number.isSafeInteger(id) && id >= 1 ? id : null
}

/** A sign-in: nobody is known yet; which way, and the address in part as the sessions page shows it, never what was typed. */
export const signInSubject =
  (method: 'password' | 'passkey'): AuditSubject =>
  (request) => ({ actor: 'none', detail: signInDetail(method, request) })

/** The inquiry of `:id`, with its domain read before the change. */
export const inquirySubject: AuditSubject = async (request) => {
  const id = idOf(request)
  return id === null ? {} : { inquiryId: id, domain: (await request.server.store.getInquiry(id))?.domain ?? null }
}

/** The deal of `:id`, with its inquiry and domain read before the change. */
export const dealSubject: AuditSubject = async (request) => {
  const id = idOf(request)
  if (id === null) return {}
  const deal = await request.server.store.getDeal(id)
  return { dealId: id, inquiryId: deal?.inquiryId ?? null, domain: deal?.domain ?? null }
}

/** A row of the outbox or a passkey by its number: "Postausgang Nr. 7". */
export const numberedSubject =
  (label: string): AuditSubject =>
  (request) => {
    const id = idOf(request)
    return id === null ? {} : { detail: `${label} Nr. ${id}` }
  }

/** A mail template by its kind; deleting it puts the default back. */
export const templateSubject: AuditSubject = (request) => ({
  detail: `${(request.params as { kind?: string }).kind ?? ''}${request.method === 'DELETE' ? ' (Standard)' : ''}`,
})

/**
 * Registered on the admin app after the same-origin rule and the session guard: what they refuse (another site, no
 * session) never reaches preValidation, so no one without a session can fill the table. Sign-ins are the exception the
 * guard lets through; their failures are bounded by the sign-in quotas (a request over a quota writes nothing).
 */
export function auditHooks(app: FastifyInstance): void {
  // Checked as each route is added, before the console answers anything: a change without its row is a build error.
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat()
    if (methods.some((method) => STATE_CHANGING.has(method)) && route.config?.audit === undefined) {
      throw new Error(`console: ${methods.join(', ')} ${route.url} declares no audit row (config.audit, or null when it changes nothing; decision 062)`)
    }
  })
  // Before the route's schema is checked (preValidation, not preHandler): a request it refuses is audited as refused,
  // with the subject read from the raw params and body as sent.
  app.addHook('preValidation', async (request) => {
    if (!STATE_CHANGING.has(request.method)) return
    const declared = request.routeOptions.config.audit
    if (!declared) return
    const rule: AuditRule = typeof declared === 'string' ? { action: declared } : declared
    const action = typeof rule.action === 'function' ? rule.action(request) : rule.action
    if (action === undefined) return
    const id = sessionIdOf(request)
    const actor: AuditActor = id === null ? 'none' : auditActorOfHash(hashOfSessionId(id))
    pending.set(request, { action, entry: { actor, ...(await rule.subject?.(request)) }, skip: false })
  })
  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply) => {
    const row = pending.get(request)
    if (!row || row.skip) return
    pending.delete(request)
    try {
      await app.store.addAuditEntry({
        at: Date.now(),
        action: row.action,
        outcome: outcomeOf(reply.statusCode),
        ...row.entry,
        actor: row.entry.actor ?? 'none',
      })
    } catch (error) {
      // The change is made; answering it with an error would invite the owner to make it twice.
      request.log.error({ err: error, action: row.action }, 'audit: the row was not written')
    }
  })
}
