// What counts as a visit (decision 049): a GET of the page by a browser. Everything else is told apart by the
// reason it is no visit, so the owner sees how much was filtered and why.
import type { IncomingHttpHeaders } from 'node:http'
import { isbot } from 'isbot'

export type FilterReason = 'bot' | 'head' | 'prefetch' | 'headers' | 'repeat'

/** User-Agents already judged: a crawler comes back with the same string, so isbot's pattern runs once per string. */
const judged = new Map<string, boolean>()
const JUDGED_MAX = 2000

function isBotAgent(userAgent: string): boolean {
  let bot = judged.get(userAgent)
  if (bot === undefined) {
    bot = isbot(userAgent)
    // A spray of made-up agents starts the memory afresh rather than growing it.
    if (judged.size >= JUDGED_MAX) judged.clear()
    judged.set(userAgent, bot)
  }
  return bot
}

/**
 * Why a request of the page or the form's script is no visit, or null when it is one (before the repeat check):
 * - HEAD (and any other method): no browser shows a page it did not GET;
 * - a prefetch or prerender (Sec-Purpose, Purpose, X-Moz, X-Purpose): the browser may never show it;
 * - without User-Agent, Accept or Accept-Language, which every browser sends;
 * - a crawler, a preview or a tool by its User-Agent (isbot's list).
 */
export function filterReason(method: string, headers: IncomingHttpHeaders): FilterReason | null {
  if (method !== 'GET') return 'head'
  if (headers['sec-purpose'] !== undefined || headers.purpose !== undefined || headers['x-moz'] !== undefined || headers['x-purpose'] !== undefined) {
    return 'prefetch'
  }
  const userAgent = headers['user-agent']
  if (!userAgent || !headers.accept || !headers['accept-language']) return 'headers'
  return isBotAgent(userAgent) ? 'bot' : null
}

const LANGUAGE = /^[a-z]{2,3}$/

/** The primary language of the browser's first choice ("de" of "de-DE,de;q=0.9,en;q=0.8"), or "other". */
export function languageOf(acceptLanguage: string): string {
  let end = acceptLanguage.length
  for (const stop of [',', ';', '-', '_']) {
    const at = acceptLanguage.indexOf(stop)
    if (at !== -1 && at < end) end = at
  }
  const tag = acceptLanguage.slice(0, end).trim().toLowerCase()
  return LANGUAGE.test(tag) ? tag : 'other'
}
