// The inbox's query string and the request shapes of the console's API: parsed by zod, with German messages for the
// owner, and turned into the store's filter (days in Berlin time, words for the search, the keyset cursor).
import { z } from 'zod'
import { INQUIRY_STATUSES, OVERVIEW_DAYS, REPLY_MAX } from '../../../shared/console-api.ts'
import { CSV_SEPARATORS } from '../../export/csv.ts'
import { describeIssues, HttpError } from '../../http/errors.ts'
import { berlinDayRange, isCalendarDay } from '../../lib/berlin-day.ts'
import { parseHost } from '../../sites/host.ts'
import type { ConsoleFilter } from '../../store/types.ts'
import { CONSOLE_TEXT } from '../texts.ts'

export const PAGE_SIZE = 50
/** Postausgang rows per page ("Weitere laden" shows the next): a long outbox is paged, never cut off. */
export const OUTBOX_PAGE_SIZE = 200
/** Export reads the inquiries in batches of this many, newest first. */
export const EXPORT_BATCH = 1000
export const DAY_MS = 24 * 60 * 60 * 1000
const MAX_WORDS = 8

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Datum als JJJJ-MM-TT')
  .refine(isCalendarDay, 'kein gültiges Datum')
// Empty form fields (a GET form sends every field) mean "no filter".
const optional = <T extends z.ZodType>(schema: T) => z.preprocess((value) => (value === '' ? undefined : value), schema.optional())

export const inboxQuerySchema = z.object({
  domain: optional(z.string().max(253)),
  status: optional(z.enum(INQUIRY_STATUSES as [string, ...string[]])),
  since: optional(day),
  until: optional(day),
  q: optional(z.string().max(500)),
  cursor: optional(z.string().max(100)),
})

export const idParams = z.object({ id: z.coerce.number().int().positive() })
export const replyBody = z.object({
  body: z
    .string()
    .max(REPLY_MAX)
    .refine((text) => text.trim() !== '', 'Bitte eine Antwort schreiben.'),
})
export const actionBody = z.object({ action: z.enum(['archive', 'unarchive', 'spam', 'not-spam']) })
export const exportQuery = inboxQuerySchema.extend({ format: z.enum(['csv', 'json']).default('csv'), sep: z.enum(CSV_SEPARATORS).default(',') })
export const outboxQuery = z.object({ cursor: optional(z.string().max(100)) })
export const overviewQuery = z.object({ days: optional(z.coerce.number().pipe(z.union(OVERVIEW_DAYS.map((days) => z.literal(days))))) })

/** Parses or answers 400 with the one error body shape, in the words a route's schema would (the pages' data). */
export function parse<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const result = schema.safeParse(value)
  if (!result.success) throw new HttpError(400, describeIssues(result.error.issues))
  return result.data
}

/**
 * Words of the free-text search: letters and digits, everything else separates them (as in the index). A word
 * that ends in "*" also finds the words it starts.
 */
export const wordsOf = (text: string) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}*]+/u)
    .map((token) => {
      const word = token.replaceAll('*', '').slice(0, 64)
      return word && token.endsWith('*') ? `${word}*` : word
    })
    .filter(Boolean)
    .slice(0, MAX_WORDS)

export const encodeCursor = (row: { createdAt: number; id: number }) => Buffer.from(`${row.createdAt}.${row.id}`).toString('base64url')
export function decodeCursor(cursor: string): { createdAt: number; id: number } {
  const match = /^(\d{1,15})\.(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString())
  if (!match) throw new HttpError(400, CONSOLE_TEXT.inquiry.badCursor)
  return { createdAt: Number(match[1]), id: Number(match[2]) }
}

/** The store's filter for the console's query; `domain` may be written in Unicode. */
export function filterOf(query: z.infer<typeof inboxQuerySchema>): Omit<ConsoleFilter, 'limit'> {
  const domain = query.domain === undefined ? undefined : parseHost(query.domain)?.ascii
  if (query.domain !== undefined && domain === undefined) throw new HttpError(400, CONSOLE_TEXT.inquiry.badDomain)
  const words = query.q === undefined ? [] : wordsOf(query.q)
  return {
    ...(domain !== undefined && { domain }),
    ...(query.status !== undefined && { status: query.status as ConsoleFilter['status'] }),
    // "von" and "bis" are whole days in Berlin, both inclusive, as the CLI's --since and --until.
    ...berlinDayRange(query),
    ...(words.length > 0 && { words }),
    ...(query.cursor !== undefined && { before: decodeCursor(query.cursor) }),
  }
}
