// The console's page "Kontoauszug importieren" (docs/deals.md, decision 040): a CAMT.053 file, sent as it is (the
// console's way, Content-Type application/xml) or as text in JSON ({ "text": … }), is matched against the deals
// (POST /api/payments/preview, which changes nothing), then applied (POST /api/payments/apply): the payments recorded,
// the deals they pay marked paid with the buyers' mails. Behind the session guard and the same-origin rule of the
// admin app, like every console route.
import { errorCodes, type FastifyInstance, type FastifyRequest } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { BANK_STATEMENT_PATH, type BankStatementResult } from '../../../shared/payments-api.ts'
import { HttpError } from '../../http/errors.ts'
import { jsonOf, sentAsIs } from '../../http/zod-schemas.ts'
import { CAMT_MAX_BYTES, CamtError, camtProblemText } from '../../payments/camt.ts'
import { noteAudit } from '../audit/record.ts'
import { sendPage } from '../render.ts'

// Reading statements (with its XML parser) loads with the first import, not with every start of the server (decision 034).
const statements = () => import('../../payments/statement.ts')

/** Inside a JSON string, escapes (quotes, line breaks) make the body larger than the file. */
const BODY_LIMIT = 2 * CAMT_MAX_BYTES + 64 * 1024
/**
 * The file as the body: kept as bytes, so that the server's thread neither parses a JSON text of 5 MB nor decodes it
 * (the worker does, as for the CLI's file).
 */
const FILE_TYPES = ['application/xml', 'text/xml']

/**
 * Reads the file's bytes into one buffer of the announced length as they arrive. Joined at the end (Fastify's
 * parseAs), 5 MB of fresh memory were filled in one stretch of the server's thread, which GET / waited for; here each
 * piece is copied as it comes. The buffer is the request's alone, so it is handed to the worker, not copied again.
 */
function readFile(request: FastifyRequest, payload: NodeJS.ReadableStream, done: (error: Error | null, body?: Buffer) => void) {
  const announced = Number(request.headers['content-length'] ?? Number.NaN)
  let file = Number.isSafeInteger(announced) && announced <= BODY_LIMIT ? Buffer.allocUnsafeSlow(announced) : null
  const pieces: Buffer[] = []
  let length = 0
  let ended = false
  const end = (error: Error | null, body?: Buffer) => {
    if (ended) return
    ended = true
    payload.removeAllListeners('data')
    done(error, body)
  }
  if (announced > BODY_LIMIT) return end(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE())
  payload.on('data', (chunk: Buffer) => {
    if (length + chunk.length > (file?.length ?? BODY_LIMIT)) return end(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE())
    if (file) chunk.copy(file, length)
    else pieces.push(chunk)
    length += chunk.length
  })
  payload.on('end', () => {
    // Without Content-Length (chunked), joined at the end: no browser sends a file that way.
    if (!file) file = Buffer.concat(pieces, length)
    end(length === file.length ? null : new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH(), file)
  })
  payload.on('error', (error: Error) => end(error))
}

const body = z.union([z.object({ text: z.string() }), z.instanceof(Buffer)])

const TEXTS = {
  badRequest: 'Bitte eine CAMT.053-Datei (XML) wählen.',
  tooLarge: `Die Datei ist größer als ${CAMT_MAX_BYTES / 1024 / 1024} MB. Bitte einen kürzeren Zeitraum exportieren.`,
} as const

export default async function paymentRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>()
  const { store, config, domains, outbox, log, renderer } = instance

  app.addContentTypeParser(FILE_TYPES, readFile)

  function fileOf(sent: z.infer<typeof body>): Buffer | string {
    const file = Buffer.isBuffer(sent) ? sent : sent.text
    if ((typeof file === 'string' ? Buffer.byteLength(file) : file.length) > CAMT_MAX_BYTES) throw new HttpError(413, TEXTS.tooLarge)
    return file
  }
  const options = <T>(response: T) => ({ bodyLimit: BODY_LIMIT, schema: { body, response: { 200: response } }, config: { badInput: TEXTS.badRequest } })

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

  // A BankStatementPreview, written as JSON in the worker that read the file: sent as it is.
  app.post('/api/payments/preview', options(sentAsIs), async (request, reply) => {
    const file = fileOf(request.body)
    const { previewStatementJson } = await statements()
    const json = await readable(() => previewStatementJson(store, file, { handOver: true }))
    return reply.type('application/json; charset=utf-8').send(json)
  })

  app.post('/api/payments/apply', options(jsonOf<BankStatementResult>()), async (request): Promise<BankStatementResult> => {
    const file = fileOf(request.body)
    const { applyStatement } = await statements()
    const result = await readable(() => applyStatement({ store, config, domains: domains.current() }, file, Date.now(), { handOver: true }))
    if (result.paid.length > 0) outbox.kick()
    // Counts and deal ids only: no name or remittance text in the log.
    log.info({ recorded: result.recorded, paid: result.paid.map((deal) => deal.dealId) }, 'bank statement applied in the console')
    noteAudit(request, { detail: `${result.recorded} Buchungen; bezahlt: ${result.paid.map((deal) => `Verkauf ${deal.dealId}`).join(', ') || 'keiner'}` })
    return result
  })
}
