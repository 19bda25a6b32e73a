// One check of listed names (decision 047): where each points, whether its _for-sale records are in step (the same
// judgement as `dns check`), and when it expires (RDAP, asked less often: the date moves once a year). A few names at
// a time; every lookup has a timeout, so a dead server costs a name its timeout, never the run.
import type { Resolver } from 'node:dns/promises'
import type { DomainCheck, RecordsState } from '../../shared/domain-checks.ts'
import { judgeRecords, lookupForSale, type Finding } from '../dns/check.ts'
import type { ForSaleDomain } from '../dns/for-sale.ts'
import { visible } from '../lib/escape.ts'
import { checkPointing, type PointingOptions } from './pointing.ts'
import { lookupExpiry, rdapServersFor, type RdapBootstrap } from './rdap.ts'
import type { OutboundPolicy } from './outbound.ts'

const DAY_MS = 86_400_000
/** RDAP is asked again after this long, or daily once the date is near or unknown. */
const RDAP_EVERY_MS = 7 * DAY_MS
const RDAP_DAILY_WITHIN_MS = 45 * DAY_MS
/** At most this many requests to one RDAP server at a time (registries rate-limit per client). */
const RDAP_PER_SERVER = 2
/** Texts from the network are kept this short. */
const DETAIL_MAX = 300

export interface CheckOptions extends OutboundPolicy {
  resolver: Resolver
  serverAddresses: readonly string[]
  http: PointingOptions['http']
  bootstrap: () => RdapBootstrap
  rdapTimeoutMs: number
  /** Names checked at the same time. */
  concurrency: number
  now: () => number
  /** Ask RDAP whatever the last answer (the CLI). */
  forceRdap?: boolean
  signal?: AbortSignal
}

/** Network text as one safe line: controls and bidi marks escaped, length bounded. */
const detailText = (text: string) => {
  const line = visible(text)
  return line.length > DETAIL_MAX ? `${line.slice(0, DETAIL_MAX - 1)}…` : line
}

const RECORDS_OF: Record<Finding['state'], RecordsState> = {
  missing: 'missing',
  stale: 'stale',
  'left over': 'left-over',
  malformed: 'malformed',
  error: 'unknown',
}
/** The worst finding decides the state. */
const RANK: Finding['state'][] = ['error', 'left over', 'missing', 'malformed', 'stale']

function recordsOf(findings: Finding[]): { records: RecordsState; detail: string } {
  if (findings.length === 0) return { records: 'ok', detail: '' }
  const worst = RANK.find((state) => findings.some((finding) => finding.state === state))!
  return { records: RECORDS_OF[worst], detail: detailText(findings.map((finding) => finding.detail).join('; ')) }
}

const needsRdap = (previous: DomainCheck | undefined, now: number) =>
  !previous ||
  previous.rdapCheckedAt === null ||
  now - previous.rdapCheckedAt >= RDAP_EVERY_MS ||
  previous.expiry !== 'known' ||
  (previous.expiresAt !== null && previous.expiresAt - now < RDAP_DAILY_WITHIN_MS)

/** A semaphore per key. */
function perKeyLimit(limit: number) {
  const active = new Map<string, number>()
  const waiting = new Map<string, (() => void)[]>()
  return async <T>(key: string, work: () => Promise<T>): Promise<T> => {
    if ((active.get(key) ?? 0) >= limit) await new Promise<void>((resolve) => waiting.set(key, [...(waiting.get(key) ?? []), resolve]))
    active.set(key, (active.get(key) ?? 0) + 1)
    try {
      return await work()
    } finally {
      active.set(key, active.get(key)! - 1)
      const next = waiting.get(key)?.shift()
      if (next) next()
    }
  }
}

export function createChecker(options: CheckOptions) {
  const rdapSlot = perKeyLimit(RDAP_PER_SERVER)

  async function checkOne(domain: ForSaleDomain, previous: DomainCheck | undefined): Promise<DomainCheck> {
    const now = options.now()
    const [pointing, forSale] = await Promise.all([checkPointing(domain.ascii, options), lookupForSale(options.resolver, domain.ascii)])
    const records =
      'error' in forSale ? { records: 'unknown' as const, detail: detailText(`DNS: ${forSale.error}`) } : recordsOf(judgeRecords(domain, forSale.records))
    let expiry: Pick<DomainCheck, 'expiry' | 'expiresAt' | 'expiryDetail' | 'rdapCheckedAt'>
    if (options.forceRdap || needsRdap(previous, now)) {
      const bootstrap = options.bootstrap()
      const server = rdapServersFor(bootstrap, domain.ascii)[0]?.host ?? ''
      const found = await rdapSlot(server, () =>
        lookupExpiry(bootstrap, domain.ascii, { timeoutMs: options.rdapTimeoutMs, allowLoopback: options.allowLoopback, signal: options.signal }),
      )
      // An RDAP server that does not answer leaves the last date known in place (still warned about), marked unknown.
      const expiresAt = found.expiry === 'known' ? found.expiresAt : found.expiry === 'unknown' ? (previous?.expiresAt ?? null) : null
      expiry = { expiry: found.expiry, expiresAt, expiryDetail: detailText(found.detail), rdapCheckedAt: now }
    } else {
      expiry = { expiry: previous!.expiry, expiresAt: previous!.expiresAt, expiryDetail: previous!.expiryDetail, rdapCheckedAt: previous!.rdapCheckedAt }
    }
    return {
      domain: domain.ascii,
      checkedAt: now,
      pointing: pointing.state,
      pointingDetail: detailText(pointing.detail),
      records: records.records,
      recordsDetail: records.detail,
      ...expiry,
    }
  }

  return {
    /** Checks the names, `concurrency` at a time; `onChecked` gets each as it is done (to be stored in slices). */
    async check(
      domains: ForSaleDomain[],
      previous: ReadonlyMap<string, DomainCheck>,
      onChecked?: (check: DomainCheck) => Promise<void>,
    ): Promise<DomainCheck[]> {
      const results: DomainCheck[] = new Array(domains.length)
      let next = 0
      const worker = async () => {
        while (next < domains.length && !options.signal?.aborted) {
          const index = next++
          const domain = domains[index]!
          results[index] = await checkOne(domain, previous.get(domain.ascii))
          await onChecked?.(results[index])
        }
      }
      await Promise.all(Array.from({ length: Math.min(options.concurrency, domains.length) }, worker))
      return results.filter(Boolean)
    },
  }
}
