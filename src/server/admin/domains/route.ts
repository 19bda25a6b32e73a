// The console's page "Domains" (docs/console.md, decision 044): every name of the domains file, searchable and paged
// (GET /api/domains); an edit of one name or of several (a price in %, a status, listed), a name added or removed,
// first shown as its changes (POST /api/domains/preview, which writes nothing), then written by "Speichern"
// (POST /api/domains/apply) with the import's line editor under its lock, refused (409) when the file changed since
// the preview. Without DOMAINS_FILE the page offers to make one (POST /api/domains/create). Behind the session guard
// and the same-origin rule of the admin app, like every console route.
import fs from 'node:fs'
import path from 'node:path'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import {
  DOMAINS_PATH,
  domainsCreatedSchema,
  domainsEditReportSchema,
  domainsListPageSchema,
  isEditWarning,
  type DomainsCreated,
  type DomainsEditReport,
  type DomainsListPage,
} from '../../../shared/domains-api.ts'
import { planEdit } from '../../domains-edit/planner.ts'
import { domainEditsSchema } from '../../domains-edit/edits.ts'
import { listDomains } from '../../domains-edit/list.ts'
import { saveDomainEdits } from '../../domains-edit/save.ts'
import { storeJournal } from '../../domains-edit/sync.ts'
import { visible } from '../../lib/escape.ts'
import { HttpError } from '../../http/errors.ts'
import { sentAsIs } from '../../http/zod-schemas.ts'
import { displayHost } from '../../sites/host.ts'
import { sellableName } from '../../sites/settings.ts'
import { sendPage } from '../render.ts'
import type { ConsoleApp } from '../decorations.ts'
import { CONSOLE_TEXT } from '../texts.ts'

/** 10,000 edits of names up to 300 characters. */
const BODY_LIMIT = 4 * 1024 * 1024

const listQuery = z.object({ q: z.string().max(300).default(''), offset: z.coerce.number().int().min(0).max(10_000_000).default(0) })
const previewBody = z.object({ edits: domainEditsSchema }).strict()
const applyBody = z.object({ edits: domainEditsSchema, fingerprint: z.string().regex(/^(?:[0-9a-f]{64})?$/) }).strict()
const createBody = z.object({ name: z.string().min(1).max(300) }).strict()

const TEXTS = CONSOLE_TEXT.domains

/** One edit's child process at a time per server process; the others wait their turn (each takes well under a second). */
function oneAtATime() {
  let last: Promise<unknown> = Promise.resolve()
  return <T>(work: () => Promise<T>): Promise<T> => {
    const next = last.then(work, work)
    last = next.catch(() => {})
    return next
  }
}

/** A new domains file: what it is for in comments, the first name, and room for the rest (docs/domains.md). */
const starterFile = (name: string) => `# Domains-Datei von domain-lander (docs/domains.md): welche Domains dieser Server anbietet.
# Bearbeiten in der Konsole unter „Domains“, mit npx domain-lander domains set|add|remove oder hier von Hand.
unknownHosts: page
default:
  currency: EUR
domains:
  ${name}: {}
`

export default async function domainsRoutes(instance: ConsoleApp) {
  const app = instance.withTypeProvider<ZodTypeProvider>()
  const { config, domains, store, log, renderer } = instance
  const serial = oneAtATime()
  const suggestedFile = path.join(config.dataDir, 'domains.yaml')
  const list = (query: { q?: string; offset?: number }): DomainsListPage =>
    config.domainsFile ? listDomains(domains.current(), query) : { q: '', offset: 0, total: 0, items: [] }

  // `?q=` opens the page on a search (the Übersicht links a name that needs attention this way).
  // A query it cannot read opens the page unsearched.
  app.get(DOMAINS_PATH, { schema: { querystring: z.looseObject({}), response: { 200: sentAsIs } } }, async (request, reply) => {
    const parsed = listQuery.safeParse(request.query)
    return sendPage(reply, renderer, {
      page: 'domains',
      data: { domainsFile: config.domainsFile ?? null, suggestedFile, list: list(parsed.success ? parsed.data : {}) },
    })
  })

  const badRequest = { badInput: TEXTS.badRequest }
  app.get('/api/domains', { schema: { querystring: listQuery, response: { 200: domainsListPageSchema } }, config: badRequest }, async (request) =>
    list(request.query),
  )

  const fileOf = () => {
    if (!config.domainsFile) throw new HttpError(409, TEXTS.noFile)
    return config.domainsFile
  }

  const report = { 200: domainsEditReportSchema }
  app.post(
    '/api/domains/preview',
    { bodyLimit: BODY_LIMIT, schema: { body: previewBody, response: report }, config: { ...badRequest, audit: null } },
    async (request): Promise<DomainsEditReport> => {
      const domainsFile = fileOf()
      const { report } = await serial(() => planEdit({ domainsFile, edits: request.body.edits, mode: 'preview', memoryMiB: config.domainsFileMemoryMiB }))
      return report
    },
  )

  app.post(
    '/api/domains/apply',
    { bodyLimit: BODY_LIMIT, schema: { body: applyBody, response: report }, config: { ...badRequest, audit: 'domain-edit' } },
    async (request): Promise<DomainsEditReport> => {
      const domainsFile = fileOf()
      const { edits, fingerprint } = request.body
      const report = await serial(() =>
        saveDomainEdits({ domainsFile, memoryMiB: config.domainsFileMemoryMiB, plan: planEdit, journal: storeJournal(store), log }, edits, fingerprint),
      )
      const problem = (kind: string) => report.problems.find((found) => found.kind === kind)
      if (problem('changed')) throw new HttpError(409, TEXTS.changed)
      if (problem('busy')) throw new HttpError(409, TEXTS.busy)
      const refused = problem('refused')
      if (refused && 'message' in refused) throw new HttpError(422, TEXTS.refused(visible(refused.message)))
      const unwritten = problem('write')
      if (unwritten && 'message' in unwritten) {
        log.error({ reason: unwritten.message }, "domains file not written by the console's edit")
        throw new HttpError(500, TEXTS.write)
      }
      if (report.problems.some((found) => !isEditWarning(found))) throw new HttpError(422, TEXTS.problems)
      if (report.written) {
        // Counts only: the log is no second copy of the portfolio.
        const count = (kind: string) => report.changes.filter((change) => change.kind === kind).length
        log.info({ added: count('added'), changed: count('changed'), removed: count('removed') }, 'domains edited in the console')
        // In force here before the answer: the list the page shows next is the new one.
        await domains.reload()
      }
      return report
    },
  )

  const created = { body: createBody, response: { 200: domainsCreatedSchema } }
  app.post('/api/domains/create', { schema: created, config: { badInput: TEXTS.badName, audit: 'domain-edit' } }, async (request): Promise<DomainsCreated> => {
    if (config.domainsFile) throw new HttpError(409, TEXTS.hasFile(config.domainsFile))
    const checked = sellableName(request.body.name.trim())
    if (!('ascii' in checked)) throw new HttpError(400, TEXTS.badName)
    const { ascii } = checked
    fs.mkdirSync(path.dirname(suggestedFile), { recursive: true })
    try {
      fs.writeFileSync(suggestedFile, starterFile(JSON.stringify(displayHost(ascii))), { flag: 'wx', mode: 0o644 })
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new HttpError(409, TEXTS.fileExists(suggestedFile))
      throw error
    }
    log.info({ file: suggestedFile }, 'domains file created in the console')
    return { file: suggestedFile }
  })
}
