// Caddy's on-demand TLS asks GET /tls-check before it requests a certificate. Every certificate counts against the
// CA's limits (Let's Encrypt: 50 per registered domain per week), so a wildcard entry must not let anybody who
// invents subdomains use them up: names it covers are approved up to a number of new names per day.
import type { FastifyBaseLogger, FastifyInstance } from 'fastify'
import { dayOf } from '../lib/utc-day.ts'
import type { SiteResolver } from './resolver.ts'
import type { Store } from '../store/types.ts'
import { sentAsIs } from '../http/zod-schemas.ts'

export interface TlsApprovals {
  approve(name: string): Promise<boolean>
}

/** Refused names already logged: each once, not on every ask. Per process, and bounded. */
const LOGGED_MAX = 10_000

export function createTlsApprovals(deps: { sites: SiteResolver; store: Store; dailyLimit: number; log: FastifyBaseLogger; now?: () => number }): TlsApprovals {
  const { sites, store, dailyLimit, log, now = Date.now } = deps
  let logged = new Set<string>()
  return {
    async approve(name) {
      const rule = sites.certificateRule(name)
      if (rule.kind !== 'limited') return rule.kind === 'approve'
      const day = dayOf(now())
      const approved = await store.approveWildcardName({ wildcard: rule.wildcard, name: rule.name, day, limit: dailyLimit })
      const key = `${day} ${rule.name}`
      if (!approved && !logged.has(key)) {
        if (logged.size >= LOGGED_MAX) logged = new Set()
        logged.add(key)
        log.warn(
          { name: rule.name, wildcard: rule.wildcard, limit: dailyLimit },
          'tls-check: certificate refused, the daily limit of new names under this wildcard is reached (TLS_WILDCARD_DAILY_LIMIT)',
        )
      }
      return approved
    },
  }
}

export default async function tlsCheckRoutes(app: FastifyInstance, deps: { tls: TlsApprovals }) {
  // "ok" or "unknown domain" as text, for the proxy's on-demand TLS (docs/deploy.md).
  const schema = { response: { 200: sentAsIs, 404: sentAsIs } }
  app.get<{ Querystring: { domain?: string } }>('/tls-check', { schema }, async (request, reply) => {
    const allowed = typeof request.query.domain === 'string' && (await deps.tls.approve(request.query.domain))
    return reply
      .code(allowed ? 200 : 404)
      .header('cache-control', 'no-store')
      .send(allowed ? 'ok' : 'unknown domain')
  })
}
