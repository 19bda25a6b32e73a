// The console's page "Domains importieren": a registrar's list, read in the browser and sent as text, is checked and
// merged in a dry run (POST /api/import/preview, the changes it would make), then written with "Übernehmen" (POST
// /api/import/apply) exactly as `npx domain-lander import` writes it. Behind the session guard and the same-origin
// rule of the admin app, like every console route. docs/console.md, docs/decisions/027.
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { IMPORT_MAX_BYTES, IMPORT_PATH, importReportSchema, type ImportReport } from '../../../shared/import-api.ts'
import { visible } from '../../lib/escape.ts'
import { HttpError } from '../../http/errors.ts'
import { sentAsIs } from '../../http/zod-schemas.ts'
import { noteAudit, type AuditConfig } from '../audit/record.ts'
import { sendPage } from '../render.ts'
import { CONSOLE_TEXT } from '../texts.ts'
import { createImportRunner } from './child.ts'
import type { ConsoleApp } from '../decorations.ts'

/** The list arrives inside a JSON string, whose escapes (quotes, line breaks) make the body larger than the file. */
const BODY_LIMIT = 2 * IMPORT_MAX_BYTES + 64 * 1024
/** The console shows the first of each list, with the whole counts. */
const LIST_MAX = 500

const previewBody = z.object({ text: z.string(), format: z.enum(['csv', 'json']), prune: z.boolean() })
const applyBody = previewBody.extend({ fingerprint: z.string().regex(/^(?:[0-9a-f]{64})?$/) })

const TEXTS = CONSOLE_TEXT.import

export default async function importRoutes(instance: ConsoleApp) {
  const app = instance.withTypeProvider<ZodTypeProvider>()
  const { config, log, renderer } = instance
  const run = createImportRunner()

  app.get(IMPORT_PATH, { schema: { response: { 200: sentAsIs } } }, async (_request, reply) =>
    sendPage(reply, renderer, { page: 'import', data: { domainsFile: config.domainsFile ?? null, maxBytes: IMPORT_MAX_BYTES } }),
  )

  async function importFrom(body: z.infer<typeof previewBody> & { fingerprint?: string }, write: boolean): Promise<ImportReport> {
    if (!config.domainsFile) throw new HttpError(409, TEXTS.noFile)
    if (Buffer.byteLength(body.text) > IMPORT_MAX_BYTES) throw new HttpError(413, TEXTS.tooLarge)
    return run({ ...body, domainsFile: config.domainsFile, write, listMax: LIST_MAX, memoryMiB: config.domainsFileMemoryMiB })
  }

  const options = <T extends z.ZodType>(body: T, audit: AuditConfig) => ({
    bodyLimit: BODY_LIMIT,
    schema: { body, response: { 200: importReportSchema } },
    config: { badInput: TEXTS.badRequest, audit },
  })
  app.post('/api/import/preview', options(previewBody, null), async (request) => importFrom(request.body, false))

  app.post('/api/import/apply', options(applyBody, 'import'), async (request) => {
    const report = await importFrom(request.body, true)
    if (report.problems.some((problem) => problem.kind === 'changed')) throw new HttpError(409, TEXTS.changed)
    if (report.problems.some((problem) => problem.kind === 'busy')) throw new HttpError(409, TEXTS.busy)
    const refused = report.problems.find((problem) => problem.kind === 'refused')
    // The loader's reason (its size, its memory) as text: the owner must know why, and what to change.
    if (refused) throw new HttpError(422, TEXTS.refused(visible(refused.message)))
    const unwritten = report.problems.find((problem) => problem.kind === 'write')
    if (unwritten) {
      log.error({ reason: unwritten.message }, "domains file not written by the console's import")
      throw new HttpError(500, TEXTS.write)
    }
    if (report.counts.errors) throw new HttpError(422, TEXTS.errors)
    const { added, changed, removed } = report.counts
    // Counts only: the log is no second copy of the portfolio.
    if (report.written) log.info({ added, changed, removed }, 'domains imported in the console')
    noteAudit(request, { detail: `${added} neu, ${changed} geändert, ${removed} entfernt` })
    return report
  })
}
