// GET /api/domain-checks (decision 047): the last checks of the names on the console's page "Domains" (`names`, at
// most one page of them), or those that need attention, for the Übersicht (`attention=1`). Read only; behind the
// session guard of the admin app, like every console route.
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { DOMAINS_PAGE_SIZE } from '../../../shared/domains-api.ts'
import { domainChecksPageSchema, EXPIRING_DAYS, type DomainCheck, type DomainChecksPage } from '../../../shared/domain-checks.ts'
import { displayHost } from '../../sites/host.ts'
import type { ConsoleApp } from '../decorations.ts'
import { CONSOLE_TEXT } from '../texts.ts'

/** The Übersicht lists at most this many names that need attention (most urgent first); the rest are counted. */
const ATTENTION_MAX = 200
const DAY_MS = 86_400_000

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

export default async function domainCheckRoutes(app: ConsoleApp) {
  const options = { schema: { querystring: query, response: { 200: domainChecksPageSchema } }, config: { badInput: CONSOLE_TEXT.badQuery } }
  app.withTypeProvider<ZodTypeProvider>().get('/api/domain-checks', options, async (request): Promise<DomainChecksPage> => {
    const now = Date.now()
    if ('names' in request.query) return { now, unchecked: 0, total: 0, checks: (await app.store.domainChecks(request.query.names)).map(named) }
    // The names in the file now: one removed by the owner is no longer for sale, so not the owner's worry. A
    // wildcard is never checked (a _for-sale record names one domain).
    const listed = app.domains
      .current()
      .nameList()
      .filter((name) => !name.startsWith('*.'))
    // Counted and picked in the store: at 100,000 names a visit read every check to show 200 (issue 38).
    const found = await app.store.domainCheckAttention(listed, { now, expiringMs: EXPIRING_DAYS * DAY_MS, limit: ATTENTION_MAX })
    return { now, unchecked: listed.length - found.checked, total: found.total, checks: found.checks.map(named) }
  })
}
