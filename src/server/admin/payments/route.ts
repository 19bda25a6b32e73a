// The console's page "Kontoauszug importieren" (docs/deals.md, decision 040): a CAMT.053 file, sent as it is (the
// console's way, Content-Type application/xml) or as text in JSON ({ "text": … }), is matched against the deals
// (POST /api/payments/preview, which changes nothing), then applied (POST /api/payments/apply): the payments recorded,
// the deals they pay marked paid with the buyers' mails. Behind the session guard and the same-origin rule of the
// admin app, like every console route.
import { Readable } from 'node:stream'
import { errorCodes, type FastifyReply, type FastifyRequest } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { BANK_STATEMENT_PATH } from '../../../shared/payments-api.ts'
import { HttpError } from '../../http/errors.ts'
import { sentAsIs } from '../../http/zod-schemas.ts'
import { CAMT_MAX_BYTES, CamtError, camtProblemText } from '../../payments/camt.ts'
import { StatementReader, type StatementInput } from '../../payments/camt-read.ts'
import { noteAudit, type AuditConfig } from '../audit/record.ts'
import { sendPage } from '../render.ts'
import type { ConsoleApp } from '../decorations.ts'
import { CONSOLE_TEXT } from '../texts.ts'

// Reading statements (with its XML parser) loads with the first import, not with every start of the server (decision 034).
const statements = () => import('../../payments/statement.ts')

/** Inside a JSON string, escapes (quotes, line breaks) make the body larger than the file. */
const BODY_LIMIT = 2 * CAMT_MAX_BYTES + 64 * 1024

const TEXTS = CONSOLE_TEXT.payments

/**
 * The file as the body: kept as bytes, so that the server's thread neither parses a JSON text of 5 MB nor decodes it
 * (the worker does, as for the CLI's file).
 */
const FILE_TYPES = ['application/xml', 'text/xml']

/**
 * Streams the file to the worker that will read it, piece by piece as it arrives (camt-read.ts): the server's thread
 * never holds it in one piece (5 MB of fresh memory per preview, outside V8's heap, brought full collections of 20 to
 * 28 ms under the product's small heap; joined at the end, filling it was one stretch that GET / waited for). A file
 * over the limit ends its worker at once; the rest of the body is read and dropped (up to BODY_LIMIT), so that the
 * client that is still sending gets the 413 rather than a reset. An aborted upload ends its worker.
 */
function streamFile(request: FastifyRequest, payload: NodeJS.ReadableStream, done: (error: Error | null, body?: StatementReader) => void) {
  const announced = Number(request.headers['content-length'] ?? Number.NaN)
  if (announced > BODY_LIMIT) return done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE())
  const reader = new StatementReader()
  let ended = false
  const end = (error: Error | null) => {
    if (ended) return
    ended = true
    payload.removeListener('data', onData)
    if (error) reader.close()
    done(error, error ? undefined : reader)
  }
  const onData = (piece: Buffer) => {
    if (reader.bytes + piece.length > BODY_LIMIT) return end(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE())
    reader.write(piece)
    if (reader.bytes > CAMT_MAX_BYTES) reader.close()
  }
  payload.on('data', onData)
  payload.on('end', () => {
    if (reader.bytes > CAMT_MAX_BYTES) return end(new HttpError(413, TEXTS.tooLarge))
    end(Number.isSafeInteger(announced) && reader.bytes !== announced ? new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH() : null)
  })
  payload.on('error', (error: Error) => end(error))
  // Closed before its end: the client went away mid-body.
  payload.on('close', () => end(new HttpError(400, TEXTS.badRequest)))
}

/** The answer's bytes in pieces, the next when the socket has taken the last: 700 KB in one write held the thread 10 to 15 ms. */
const PIECE_BYTES = 64 * 1024

function* piecesOf(parts: Uint8Array[]) {
  for (const part of parts) {
    for (let at = 0; at < part.length; at += PIECE_BYTES) yield Buffer.from(part.buffer, part.byteOffset + at, Math.min(PIECE_BYTES, part.length - at))
  }
}

function sendJsonBytes(reply: FastifyReply, parts: Uint8Array[]) {
  const length = parts.reduce((sum, part) => sum + part.length, 0)
  return reply
    .type('application/json; charset=utf-8')
    .header('content-length', length)
    .send(Readable.from(piecesOf(parts), { objectMode: false }))
}

const body = z.union([z.object({ text: z.string() }), z.instanceof(StatementReader)])

export default async function paymentRoutes(instance: ConsoleApp) {
  const app = instance.withTypeProvider<ZodTypeProvider>()
  const { store, config, domains, outbox, log, renderer } = instance

  app.addContentTypeParser(FILE_TYPES, streamFile)

  function fileOf(sent: z.infer<typeof body>): StatementInput {
    if (sent instanceof StatementReader) return sent
    if (Buffer.byteLength(sent.text) > CAMT_MAX_BYTES) throw new HttpError(413, TEXTS.tooLarge)
    return sent.text
  }
  const options = (audit: AuditConfig) => ({
    bodyLimit: BODY_LIMIT,
    schema: { body, response: { 200: sentAsIs } },
    config: { badInput: TEXTS.badRequest, audit },
    // A file streamed to its worker that no handler read (a request that failed after its body): the worker ends.
    onResponse: async (request: FastifyRequest) => {
      if (request.body instanceof StatementReader) request.body.close()
    },
  })

  async function readable<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work()
    } catch (error) {
      // What is wrong with the file, said so (its details shown as text); nothing was applied.
      if (error instanceof CamtError) throw new HttpError(422, TEXTS.nothingApplied(camtProblemText(error.problem, 'de')))
      throw error
    }
  }

  app.get(BANK_STATEMENT_PATH, { schema: { response: { 200: sentAsIs } } }, async (_request, reply) =>
    sendPage(reply, renderer, { page: 'bank-statement', data: { maxBytes: CAMT_MAX_BYTES } }),
  )

  // A BankStatementPreview, written as JSON in the worker that read the file: sent as it is.
  app.post('/api/payments/preview', options(null), async (request, reply) => {
    const file = fileOf(request.body)
    const { previewStatementJson } = await statements()
    return sendJsonBytes(reply, [await readable(() => previewStatementJson(store, file))])
  })

  // A BankStatementResult: the preview's JSON as the worker wrote it (about 700 KB for a 5 MB file), and what applying
  // did written into its end.
  app.post('/api/payments/apply', options('bank-statement'), async (request, reply) => {
    const file = fileOf(request.body)
    const { applyStatementJson } = await statements()
    const { preview, applied } = await readable(() => applyStatementJson({ store, config, domains: domains.current() }, file, Date.now()))
    const { recorded, paid } = applied
    if (paid.length > 0) outbox.kick()
    // Counts and deal ids only: no name or remittance text in the log.
    log.info({ recorded, paid: paid.map((deal) => deal.dealId) }, 'bank statement applied in the console')
    noteAudit(request, { detail: `${recorded} Buchungen; bezahlt: ${paid.map((deal) => `Verkauf ${deal.dealId}`).join(', ') || 'keiner'}` })
    const tail = Buffer.from(`,${JSON.stringify(applied).slice(1)}`)
    return sendJsonBytes(reply, [preview.subarray(0, preview.length - 1), tail])
  })
}
