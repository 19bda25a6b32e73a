// One error shape for the whole API: { error: "<sentence>" } (plus "fields" for field errors), in German unless the
// route knows the page's language (the contact API of an English page). The message of any 5xx is hidden; bad input
// never gets a 5xx.
import type { Socket } from 'node:net'
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import type { ApiError, FieldErrors } from '../../shared/contact.ts'
import { TEXT, type Texts } from '../../shared/texts.ts'
import { StoreUnavailableError } from '../store/types.ts'

export class HttpError extends Error {
  override name = 'HttpError'
  readonly statusCode: number
  readonly fields: FieldErrors | undefined
  readonly headers: Record<string, string>
  constructor(statusCode: number, message: string, fields?: FieldErrors, headers: Record<string, string> = {}) {
    super(message)
    this.statusCode = statusCode
    this.fields = fields
    this.headers = headers
  }
}

export interface Failure {
  statusCode: number
  body: ApiError
  headers: Record<string, string>
}

const RETRY_AFTER_UNAVAILABLE = '5'

const FASTIFY_MESSAGES: Record<string, 'tooLarge' | 'unsupportedType' | 'badRequest'> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'tooLarge',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupportedType',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'badRequest',
}

/**
 * Maps anything thrown while answering a request to the status, body and headers the client gets. An HttpError
 * says what it says; everything else is told in `text`.
 */
export function toFailure(error: unknown, text: Texts = TEXT): Failure {
  if (error instanceof HttpError) {
    return {
      statusCode: error.statusCode,
      body: error.fields ? { error: error.message, fields: error.fields } : { error: error.message },
      headers: error.headers,
    }
  }
  if (error instanceof StoreUnavailableError) {
    return { statusCode: 503, body: { error: text.unavailable }, headers: { 'retry-after': RETRY_AFTER_UNAVAILABLE } }
  }
  const e = error as Partial<FastifyError>
  const statusCode = typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 600 ? e.statusCode : 500
  if (statusCode === 429) return { statusCode, body: { error: text.rateLimited }, headers: {} }
  if (statusCode === 503) return { statusCode, body: { error: text.unavailable }, headers: { 'retry-after': RETRY_AFTER_UNAVAILABLE } }
  if (statusCode >= 500) return { statusCode, body: { error: text.internal }, headers: {} }
  const known = e.code !== undefined && Object.hasOwn(FASTIFY_MESSAGES, e.code) ? FASTIFY_MESSAGES[e.code] : undefined
  return { statusCode, body: { error: text[known ?? 'badRequest'] }, headers: {} }
}

export function sendFailure(request: FastifyRequest, reply: FastifyReply, error: unknown, text: Texts = TEXT): FastifyReply {
  const failure = toFailure(error, text)
  if (failure.statusCode >= 500 && !(error instanceof StoreUnavailableError)) {
    request.log.error({ err: error }, 'request failed')
  } else if (failure.statusCode === 503) {
    request.log.warn({ err: error }, 'store unavailable, client told to retry')
  }
  return reply.code(failure.statusCode).headers(failure.headers).type('application/json; charset=utf-8').send(failure.body)
}

/**
 * Requests Node's HTTP parser refuses (control characters in headers, oversized headers) never reach a route; they
 * get the same error body as everything else.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (!socket.writable) return void socket.destroy()
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? '431 Request Header Fields Too Large' : '400 Bad Request'
  const body = JSON.stringify({ error: TEXT.badRequest })
  socket.end(
    `HTTP/1.1 ${status}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  )
}
