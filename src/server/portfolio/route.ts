// GET /domains: the owner's whole portfolio on every host of it, searched and sorted without script. A host whose
// domains file has no portfolio answers 404, as for any page that does not exist.
import { z } from 'zod'
import { TEXTS } from '../../shared/texts-all.ts'
import { clientKeyOf } from '../http/client-address.ts'
import { createWorkBudget } from '../http/work-budget.ts'
import { lruCache } from '../sites/lru.ts'
import { linkOf } from './links.ts'
import { sentAsIs } from '../http/zod-schemas.ts'
import type { PublicApp } from '../decorations.ts'

const PAGE_SIZE = 50
/** Plain first pages kept (one per host and language that was asked for lately). */
const PLAIN_PAGES_KEPT = 64

const listQuery = z.object({
  q: z
    .string()
    .max(100)
    .transform((q) => q.trim())
    .default(''),
  sort: z.enum(['name', 'price']).default('name'),
  order: z.enum(['asc', 'desc']).default('asc'),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
})

export default async function portfolioRoutes(app: PublicApp) {
  const { view, config } = app
  // Every list but the plain first page costs a search or a rendering, and a client can ask for a new one with every
  // request: those are counted per client (decision 032). The plain first page is the same for every visitor of a
  // host until the file changes, so it is kept and costs nothing when asked again.
  const budget = createWorkBudget({ max: config.searchRateLimit, windowMs: 60_000 })
  const clientKey = clientKeyOf(config.rateLimitIpv6Prefix)
  const plainPages = lruCache<string, string>(PLAIN_PAGES_KEPT)
  // Pages: a query it cannot read gets its page "bad request" (sentAsIs: strings reach no serializer).
  app.get('/domains', { schema: { response: { '2xx': sentAsIs, '4xx': sentAsIs } } }, async (request, reply) => {
    const site = view.siteOf(request, reply)
    if (!site) return reply
    const text = TEXTS[site.language]
    const portfolio = site.domainsConfig
    if (!portfolio.portfolio) return view.notice(reply, 404, site, text.notFoundTitle, text.notFound)
    const query = listQuery.safeParse(request.query)
    if (!query.success) return view.notice(reply, 400, site, text.badRequest, '')
    const { q, sort, order } = query.data
    const plain = q === '' && sort === 'name' && order === 'asc' && query.data.page === 1
    const plainKey = `${site.host.ascii}\n${site.language}\n${portfolio.version}`
    const kept = plain ? plainPages.get(plainKey) : undefined
    if (kept) return view.domainList(reply, site, kept)
    const allowed = budget.take(clientKey(request))
    if (!allowed.ok) {
      reply.header('retry-after', String(allowed.retryAfterSeconds))
      return view.notice(reply, 429, site, text.rateLimited, '')
    }
    const first = portfolio.list({ q, sort, order, offset: (query.data.page - 1) * PAGE_SIZE, limit: PAGE_SIZE })
    const pages = Math.max(1, Math.ceil(first.total / PAGE_SIZE))
    // A page past the end (a list that shrank since the link was made) shows the last one.
    const page = Math.min(query.data.page, pages)
    const { total, items } = page === query.data.page ? first : portfolio.list({ q, sort, order, offset: (page - 1) * PAGE_SIZE, limit: PAGE_SIZE })
    const html = view.renderDomainList({
      host: site.host.display,
      language: site.language,
      q,
      sort,
      order,
      page,
      pages,
      total,
      items: items.map((item) => linkOf(item, site.language)),
      ...(Object.keys(site.legal).length > 0 && { legal: site.legal }),
    })
    return view.domainList(reply, site, plain ? plainPages.set(plainKey, html) : html)
  })
}
