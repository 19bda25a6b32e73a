// GET /api/domain-checks (decision 047): the last checks of the names on the console's page "Domains" (`names`, at
// most one page of them), or those that need attention, for the Übersicht (`attention=1`). Read only; behind the
// session guard of the admin app, like every console route.
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { DOMAINS_PAGE_SIZE } from '../../../shared/domains-api.ts'
import { domainChecksPageSchema, needsAttention, type DomainCheck, type DomainChecksPage } from '../../../shared/domain-checks.ts'
import { displayHost } from '../../sites/host.ts'

/** The Übersicht lists at most this many names that need attention (most urgent first); the rest are counted. */
const ATTENTION_MAX = 200

const query = z.union([
  z
    .object({
      names: z
        .string()
        .max(DOMAINS_PAGE_SIZE * 260)
        .transform((value) => value.split(',').filter(Boolean))
        .pipe(z.array(z.string().max(253)).max(DOMAINS_PAGE_SIZE)),
    })
    .strict(),
  z.object({ attention: z.literal('1') }).strict(),
])

const named = (check: DomainCheck) => ({ ...check, name: displayHost(check.domain) })

/** Not pointing here first, then the nearest expiry, then records. */
const urgency = (check: DomainCheck) => (check.pointing === 'elsewhere' ? 0 : check.expiresAt !== null ? 1 : 2)

export default async function domainCheckRoutes(app: FastifyInstance) {
  const options = { schema: { querystring: query, response: { 200: domainChecksPageSchema } }, config: { badInput: 'Die Anfrage ist ungültig.' } }
  app.withTypeProvider<ZodTypeProvider>().get('/api/domain-checks', options, async (request): Promise<DomainChecksPage> => {
    const now = Date.now()
    if ('names' in request.query) return { now, unchecked: 0, total: 0, checks: (await app.store.domainChecks(request.query.names)).map(named) }
    const listed = new Set(app.domains.current().nameList())
    // The names in the file now: one removed by the owner is no longer for sale, so not the owner's worry.
    const checked = (await app.store.domainChecks()).filter((check) => listed.has(check.domain))
    const checks = checked.filter((check) => needsAttention(check, now))
    checks.sort((a, b) => urgency(a) - urgency(b) || (a.expiresAt ?? 0) - (b.expiresAt ?? 0) || a.domain.localeCompare(b.domain))
    const seen = new Set(checked.map((check) => check.domain))
    const unchecked = [...listed].filter((name) => !name.startsWith('*.') && !seen.has(name)).length
    return { now, unchecked, total: checks.length, checks: checks.slice(0, ATTENTION_MAX).map(named) }
  })
}
