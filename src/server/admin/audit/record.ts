// Writes the audit trail's row for each change made through the console (decision 043). One table names every
// state-changing route: its action, or null for a POST that changes nothing (a preview, a challenge, Art. 15's
// report). A route missing from it fails the test that walks every console route, so a new page cannot forget it.
// The row is written before the answer leaves (onSend): when the browser sees the answer, the row is there.
import { createHash } from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { AuditAction } from '../../../shared/audit-api.ts'
import type { AuditActor, NewAuditEntry } from '../../store/types.ts'
import { parseHost } from '../../sites/host.ts'
import { partialAddress } from '../security/client-summary.ts'
import { hashOfSessionId, sessionIdOf } from '../session/cookie.ts'

type Note = Partial<Pick<NewAuditEntry, 'actor' | 'inquiryId' | 'dealId' | 'domain' | 'detail'>>

interface Pending {
  action: AuditAction
  entry: Note
  skip: boolean
}

const INQUIRY_ACTIONS = new Set(['archive', 'unarchive', 'spam', 'not-spam'])

/** How a route's request becomes an action; null: the route changes nothing. */
type Rule = AuditAction | null | ((request: FastifyRequest) => AuditAction | undefined)

export const AUDITED_ROUTES: Record<string, Rule> = {
  'POST /api/session': 'sign-in',
  'POST /api/session/passkey': 'sign-in',
  'POST /api/session/passkey/options': null,
  'DELETE /api/session': 'sign-out',
  'DELETE /api/sessions/:ref': 'session-end',
  'DELETE /api/sessions': 'sessions-end-all',
  'POST /api/passkeys/options': null,
  'POST /api/passkeys': 'passkey-add',
  'DELETE /api/passkeys/:id': 'passkey-remove',
  // Starting the setup changes nothing that signs anyone in; confirming it does.
  'POST /api/second-factor/setup': null,
  'POST /api/second-factor/confirm': 'second-factor-on',
  'POST /api/second-factor/disable': 'second-factor-off',
  'POST /api/inquiries/:id/reply': 'reply',
  'POST /api/inquiries/:id/action': (request) => {
    const action = (request.body as { action?: unknown } | null)?.action
    return typeof action === 'string' && INQUIRY_ACTIONS.has(action) ? (action as AuditAction) : undefined
  },
  'DELETE /api/inquiries/:id': 'erase',
  'POST /api/inquiries/:id/counter': 'counter',
  'POST /api/inquiries/:id/accept': 'accept',
  'POST /api/inquiries/:id/decline': 'decline',
  'POST /api/outbox/:id/resend': 'resend',
  'POST /api/outbox/dns/:id/resend': 'resend',
  'POST /api/outbox/domain-notices/:id/resend': 'resend',
  'POST /api/templates/:kind': 'template',
  'DELETE /api/templates/:kind': 'template',
  'POST /api/deals/:id/paid': 'deal-paid',
  'POST /api/deals/:id/transfer': 'deal-transfer',
  'POST /api/deals/:id/complete': 'deal-complete',
  'POST /api/deals/:id/deadline': 'deal-deadline',
  'POST /api/deals/:id/cancel': 'deal-cancel',
  'POST /api/deals/:id/invoice': 'deal-invoice',
  'POST /api/deals/:id/rates/:number/paid': 'deal-rate-paid',
  'POST /api/deals/:id/rates/:number/wait': 'deal-rate-wait',
  'POST /api/payments/preview': null,
  'POST /api/payments/apply': 'bank-statement',
  'POST /api/domains/preview': null,
  'POST /api/domains/apply': 'domain-edit',
  'POST /api/domains/create': 'domain-edit',
  'POST /api/import/preview': null,
  'POST /api/import/apply': 'import',
  'POST /api/privacy/access': null,
  'POST /api/privacy/erase': 'forget',
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/** A session as the trail names it: derived from its id's hash one way, so that neither leaves the server. */
export const auditActorOfHash = (idHash: string): AuditActor =>
  `session:${createHash('sha256').update(`session-ref:${idHash}`).digest('base64url').slice(0, 8)}`

const pending = new WeakMap<FastifyRequest, Pending>()

/** What a route knows better than the table: the new session, a count, the subject. */
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

/** The subject a route's parameters name, with its domain read before the change (an erasure removes it). */
async function subjectOf(request: FastifyRequest): Promise<Note> {
  const { store } = request.server
  const url = request.routeOptions.url ?? ''
  const params = request.params as Record<string, string | undefined>
  if (url === '/api/templates/:kind') return { detail: `${params.kind ?? ''}${request.method === 'DELETE' ? ' (Standard)' : ''}` }
  // A route about one domain (the domains page) names it as :domain.
  if (typeof params.domain === 'string') return { domain: parseHost(params.domain)?.ascii ?? null }
  const id = Number(params.id)
  if (!Number.isSafeInteger(id) || id < 1) return {}
  if (url.startsWith('/api/inquiries/:id')) {
    return { inquiryId: id, domain: (await store.getInquiry(id))?.domain ?? null }
  }
  if (url.startsWith('/api/deals/:id')) {
    const deal = await store.getDeal(id)
    return { dealId: id, inquiryId: deal?.inquiryId ?? null, domain: deal?.domain ?? null }
  }
  if (url === '/api/outbox/:id/resend') return { detail: `Postausgang Nr. ${id}` }
  if (url === '/api/outbox/dns/:id/resend') return { detail: `DNS-Update Nr. ${id}` }
  if (url === '/api/outbox/domain-notices/:id/resend') return { detail: `Domain-Benachrichtigung Nr. ${id}` }
  if (url === '/api/passkeys/:id') return { detail: `Passkey Nr. ${id}` }
  return {}
}

/**
 * Registered on the admin app after the same-origin rule and the session guard: what they refuse (another site, no
 * session) never reaches preValidation, so no one without a session can fill the table. Sign-ins are the exception the
 * guard lets through; their failures are bounded by the sign-in quotas (a request over a quota writes nothing).
 */
export function auditHooks(app: FastifyInstance): void {
  // Before the route's schema is checked (preValidation, not preHandler): a request it refuses is audited as refused,
  // with the subject read from the raw params and body as sent.
  app.addHook('preValidation', async (request) => {
    if (!STATE_CHANGING.has(request.method)) return
    const rule = AUDITED_ROUTES[`${request.method} ${request.routeOptions.url ?? ''}`]
    if (rule === undefined || rule === null) return
    const action = typeof rule === 'function' ? rule(request) : rule
    if (action === undefined) return
    const id = sessionIdOf(request)
    if (action === 'sign-in') {
      // Which way, and the address in part as the sessions page shows it: never what was typed.
      const method = request.routeOptions.url === '/api/session/passkey' ? 'passkey' : 'password'
      pending.set(request, { action, entry: { actor: 'none', detail: signInDetail(method, request) }, skip: false })
      return
    }
    const actor: AuditActor = id === null ? 'none' : auditActorOfHash(hashOfSessionId(id))
    pending.set(request, { action, entry: { actor, ...(await subjectOf(request)) }, skip: false })
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
