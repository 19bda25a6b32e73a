// The console's page "Kontoauszug importieren" (docs/deals.md, decision 040): a CAMT.053 file, read in the browser and
// sent as text, is matched against the deals (POST /api/payments/preview, which changes nothing), then applied
// (POST /api/payments/apply): the payments recorded, the deals they pay marked paid with the buyers' mails. Behind
// the session guard and the same-origin rule of the admin app, like every console route.
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { BANK_STATEMENT_PATH, type BankStatementPreview, type BankStatementResult } from '../../../shared/payments-api.ts'
import { HttpError } from '../../http/errors.ts'
import { jsonOf, sentAsIs } from '../../http/zod-schemas.ts'
import { CAMT_MAX_BYTES, CamtError, camtProblemText } from '../../payments/camt.ts'
import { noteAudit } from '../audit/record.ts'
import { sendPage } from '../render.ts'

// Reading statements (with its XML parser) loads with the first import, not with every start of the server (decision 034).
const statements = () => import('../../payments/statement.ts')

/** The file arrives inside a JSON string, whose escapes (quotes, line breaks) make the body larger than the file. */
const BODY_LIMIT = 2 * CAMT_MAX_BYTES + 64 * 1024

const body = z.object({ text: z.string() })

const TEXTS = {
  badRequest: 'Bitte eine CAMT.053-Datei (XML) wählen.',
  tooLarge: `Die Datei ist größer als ${CAMT_MAX_BYTES / 1024 / 1024} MB. Bitte einen kürzeren Zeitraum exportieren.`,
} as const

export default async function paymentRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>()
  const { store, config, domains, outbox, log, renderer } = instance

  function textOf({ text }: z.infer<typeof body>): string {
    if (Buffer.byteLength(text) > CAMT_MAX_BYTES) throw new HttpError(413, TEXTS.tooLarge)
    return text
  }
  const options = <T>() => ({ bodyLimit: BODY_LIMIT, schema: { body, response: { 200: jsonOf<T>() } }, config: { badInput: TEXTS.badRequest } })

  async function readable<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work()
    } catch (error) {
      // What is wrong with the file, said so (its details shown as text); nothing was applied.
      if (error instanceof CamtError) throw new HttpError(422, `${camtProblemText(error.problem, 'de')} Es wurde nichts übernommen.`)
      throw error
    }
  }

  app.get(BANK_STATEMENT_PATH, { schema: { response: { 200: sentAsIs } } }, async (_request, reply) =>
    sendPage(reply, renderer, { page: 'bank-statement', data: { maxBytes: CAMT_MAX_BYTES } }),
  )

  app.post('/api/payments/preview', options<BankStatementPreview>(), async (request): Promise<BankStatementPreview> => {
    const text = textOf(request.body)
    const { previewStatement } = await statements()
    return readable(() => previewStatement(store, text))
  })

  app.post('/api/payments/apply', options<BankStatementResult>(), async (request): Promise<BankStatementResult> => {
    const text = textOf(request.body)
    const { applyStatement } = await statements()
    const result = await readable(() => applyStatement({ store, config, domains: domains.current() }, text, Date.now()))
    if (result.paid.length > 0) outbox.kick()
    // Counts and deal ids only: no name or remittance text in the log.
    log.info({ recorded: result.recorded, paid: result.paid.map((deal) => deal.dealId) }, 'bank statement applied in the console')
    noteAudit(request, { detail: `${result.recorded} Buchungen; bezahlt: ${result.paid.map((deal) => `Verkauf ${deal.dealId}`).join(', ') || 'keiner'}` })
    return result
  })
}
