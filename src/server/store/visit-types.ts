// The store's part for visitor statistics (store/visits.ts, decision 049): counters per name, Berlin day, metric and
// key, the day's visitor hashes and the day's salts.

/**
 * What a counter counts:
 * - visit: a GET of the page by a browser that was no repeat (key '');
 * - visitor: unique visitors of a day that is over (key ''); today's come from the hashes;
 * - filtered: requests that were no visit, by reason ('bot', 'head', 'prefetch', 'headers', 'repeat');
 * - source: visits by where they came from ('direct', 'search:google', 'market:sedo', 'social:x', 'site:host',
 *   'ref:value');
 * - language: visits by the browser's first language ('de', 'en', … or 'other');
 * - form: visitors who turned to the form (their browser fetched the form's script).
 */
export type VisitMetric = 'visit' | 'visitor' | 'filtered' | 'source' | 'language' | 'form'

export interface VisitCount {
  /** ASCII (punycode), or a wildcard entry, or "andere" (decision 049). */
  domain: string
  /** The Berlin day, YYYY-MM-DD. */
  day: string
  metric: VisitMetric
  key: string
  count: number
}

export interface VisitorHash {
  domain: string
  day: string
  /** A hash of the day's salt, the client's address, its User-Agent and the host: never the address itself. */
  hash: string
}

export interface VisitStore {
  /** Adds the counts to what is stored (one row per domain, day, metric and key). */
  addVisitCounts(rows: VisitCount[]): Promise<void>
  /** Stores the hashes of the day's visitors; one seen before that day is kept once. */
  addVisitorHashes(rows: VisitorHash[]): Promise<void>
  /** The salt of a Berlin day: the stored one, or `candidate` if there was none (every process gets the same). */
  visitSalt(day: string, candidate: string): Promise<string>
  /**
   * Ends the days before `day`: their salts are erased, their visitor hashes become a count (metric 'visitor') and
   * are erased too. Safe to run in several processes at once: each hash is counted by the one that deleted it.
   */
  settleVisitDays(day: string): Promise<void>
  /** The counts from `sinceDay` on, today's visitors counted from the hashes. */
  visitCounts(filter: { sinceDay: string; domain?: string }): Promise<VisitCount[]>
  /** The first day anything was counted (how far back "no visitor" can be said), null before. */
  firstVisitDay(): Promise<string | null>
}
