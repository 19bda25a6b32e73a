// One error shape for the whole API: { error: "<sentence>" } (plus "fields" for field errors), in German unless the
// route knows the page's language (the contact API of an English page). The message of any 5xx is hidden; bad input
// never gets a 5xx.
import type { Socket } from 'node:net'
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod'
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

/** One wrong part of a request as a route's zod schema found it: where (field names) and what. */
export interface RequestIssue {
  path: string[]
  message: string
}

/** The issues of a request its route's schema refused (fastify-type-provider-zod), or null for any other error. */
export function requestIssues(error: unknown): RequestIssue[] | null {
  if (!hasZodFastifySchemaValidationErrors(error)) return null
  return error.validation.map((issue) => ({
    path: issue.instancePath
      .split('/')
      .slice(1)
      .filter((part) => part !== ''),
    message: issue.message ?? '',
  }))
}

/** Issues as the owner reads them: "field: what is wrong", the whole input named "Eingabe". */
export const describeIssues = (issues: readonly { path: readonly PropertyKey[]; message: string }[]) =>
  issues.map((issue) => `${issue.path.map(String).join('.') || 'Eingabe'}: ${issue.message}`).join('; ')

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
  const issues = requestIssues(error)
  if (issues) return { statusCode: 400, body: { error: describeIssues(issues) }, headers: {} }
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

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The one sentence a route answers for any input its schema refuses, where its contract names one. */
    badInput?: string
  }
}

export function sendFailure(request: FastifyRequest, reply: FastifyReply, error: unknown, text: Texts = TEXT): FastifyReply {
  const badInput = request.routeOptions.config.badInput
  const failure = badInput !== undefined && requestIssues(error) ? toFailure(new HttpError(400, badInput), text) : toFailure(error, text)
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
