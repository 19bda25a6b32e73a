// `dns check`: what the DNS publishes under _for-sale.<domain>, held against what the domains file says.
import type { Resolver } from 'node:dns/promises'
import { readForSaleTxt, type ForSaleDomain } from './for-sale.ts'

export type Finding = { state: 'missing' | 'stale' | 'left over' | 'malformed' | 'error'; detail: string }

export interface DomainReport {
  domain: string
  status: ForSaleDomain['status']
  /** Empty: the records are in order. */
  findings: Finding[]
}

/** No such name, or no TXT at it: an answer, not a failure. */
const NO_RECORDS = new Set(['ENODATA', 'ENOTFOUND'])

/**
 * The TXT records at _for-sale.<ascii>, each as its character-strings' octets. Node hands every octet over as one
 * Latin-1 character, so the octets are exactly what was published (UTF-8 or not).
 */
export async function lookupForSale(resolver: Resolver, ascii: string): Promise<{ records: Buffer[][] } | { error: string }> {
  try {
    const records = await resolver.resolveTxt(`_for-sale.${ascii}`)
    return { records: records.map((strings) => strings.map((text) => Buffer.from(text, 'latin1'))) }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown error'
    return NO_RECORDS.has(code) ? { records: [] } : { error: code }
  }
}

const listed = (values: string[]) => (values.length ? values.join(', ') : 'none')

/** The findings for one domain's published records; furi must be among them, fval must match exactly. ftxt is free. */
export function judgeRecords(domain: ForSaleDomain, published: Buffer[][]): Finding[] {
  const readings = published.map(readForSaleTxt).filter((reading) => reading.kind === 'for-sale')
  const findings: Finding[] = readings
    .filter((reading) => reading.problems.length > 0)
    .map((reading) => ({ state: 'malformed', detail: `"${reading.text}": ${reading.problems.join('; ')}` }))
  if (domain.status === 'sold') {
    if (readings.length)
      findings.unshift({ state: 'left over', detail: `sold, but ${readings.length} _for-sale record${readings.length === 1 ? ' remains' : 's remain'}` })
    return findings
  }
  const valid = readings.filter((reading) => reading.problems.length === 0)
  if (valid.length === 0) {
    findings.push({ state: 'missing', detail: readings.length ? 'no valid _for-sale record' : 'no _for-sale record' })
    return findings
  }
  const values = (tag: string) => [...new Set(valid.filter((reading) => reading.tag === tag).map((reading) => reading.value))].sort()
  const fvals = values('fval')
  const { furi, fval } = domain.expected
  if (fvals.join() !== (fval ?? '')) findings.push({ state: 'stale', detail: `fval: DNS has ${listed(fvals)}, the file says ${fval ?? 'no price'}` })
  const furis = values('furi')
  if (!furis.includes(furi)) findings.push({ state: 'stale', detail: `furi: DNS has ${listed(furis)}, the file's page is ${furi}` })
  return findings
}

/** Looks every domain up, a few at a time, in the listing's order. */
export async function checkDomains(resolver: Resolver, domains: ForSaleDomain[], parallel = 8): Promise<DomainReport[]> {
  const reports: DomainReport[] = new Array(domains.length)
  let next = 0
  const worker = async () => {
    while (next < domains.length) {
      const index = next++
      const domain = domains[index]!
      const found = await lookupForSale(resolver, domain.ascii)
      const findings: Finding[] = 'error' in found ? [{ state: 'error', detail: `lookup failed (${found.error})` }] : judgeRecords(domain, found.records)
      reports[index] = { domain: domain.domain, status: domain.status, findings }
    }
  }
  await Promise.all(Array.from({ length: Math.min(parallel, domains.length) }, worker))
  return reports
}
