// Which language a site answers a request in: the domains file's `language`, or with `auto` the one among the site's
// `languages` that the browser prefers by its Accept-Language header (RFC 9110, 12.5.4), the first of them when it
// prefers none or several alike (decisions 025 and 048).
import type { FastifyReply } from 'fastify'
import type { Language } from '../../shared/language.ts'
import type { DomainSettings } from './settings.ts'

/** The language of one answer, and whether it came from the request's Accept-Language (then the answer varies by it). */
export interface AnswerLanguage {
  language: Language
  variesByLanguage: boolean
}

/** For answers about no site at all (an invalid or unknown host): German, as the page always was. */
export const GERMAN: AnswerLanguage = { language: 'de', variesByLanguage: false }

// language-range [ weight ] (RFC 4647 2.1, RFC 9110 12.4.2): a tag of up to eight letters, subtags of up to eight
// letters or digits, or "*"; a weight of 0 to 1 with at most three decimals.
const RANGE = /^(?:([a-z]{1,8})(?:-[a-z0-9]{1,8})*|\*)$/i
const WEIGHT = /^q=(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/i
/** Further entries are not looked at: no browser sends that many, and a header of thousands costs nothing more. */
const MAX_RANGES = 50

/** What `auto` chooses among when the domains file names no `languages`: German and English, as before decision 048. */
const DEFAULT_LANGUAGES: readonly Language[] = ['de', 'en']

/**
 * The allowed language the Accept-Language header prefers: each language's weight is the highest weight of a range
 * with its primary tag (de, de-AT, de-CH …), else that of "*"; q=0 rules a language out. The one that weighs most
 * wins; a tie goes to the one named first in `allowed`, and so does a header naming none of them, none at all or one
 * that cannot be read ("German when unsure" with the default list). Entries that cannot be read are skipped, the
 * others still count.
 */
export function preferredLanguage(header: string | undefined, allowed: readonly Language[] = DEFAULT_LANGUAGES): Language {
  const weights: Partial<Record<string, number>> = {}
  for (const entry of (header ?? '').split(',', MAX_RANGES)) {
    const [range = '', ...parameters] = entry.split(';').map((part) => part.trim())
    const tag = RANGE.exec(range)
    if (!tag || parameters.length > 1) continue
    let weight = 1
    if (parameters.length === 1) {
      const q = WEIGHT.exec(parameters[0]!)
      if (!q) continue
      weight = Number(q[1])
    }
    const key = tag[1]?.toLowerCase() ?? '*'
    weights[key] = Math.max(weights[key] ?? 0, weight)
  }
  const weightOf = (language: Language) => weights[language] ?? weights['*'] ?? 0
  let best = allowed[0] ?? 'de'
  for (const language of allowed) if (weightOf(language) > weightOf(best)) best = language
  return best
}

/** The language a site with these settings answers this request in. */
export function answerLanguageFor(setting: DomainSettings['language'], acceptLanguage: string | undefined, allowed?: readonly Language[]): AnswerLanguage {
  if (setting === 'auto') return { language: preferredLanguage(acceptLanguage, allowed), variesByLanguage: true }
  return { language: setting ?? 'de', variesByLanguage: false }
}

/** The languages a site's page can be in: the fixed one, or those `auto` chooses among. */
export const languagesOf = (settings: Pick<DomainSettings, 'language' | 'languages'>): readonly Language[] =>
  settings.language === 'auto' ? (settings.languages ?? DEFAULT_LANGUAGES) : [settings.language ?? 'de']

/** Adds Accept-Language to the answer's Vary header when its language was chosen by it. */
export function varyByLanguage(reply: FastifyReply, answer: AnswerLanguage): FastifyReply {
  if (!answer.variesByLanguage) return reply
  const vary = reply.getHeader('vary')
  return reply.header('vary', vary ? `${String(vary)}, Accept-Language` : 'Accept-Language')
}
