// `dns` prints the _for-sale TXT records (RFC 10023) for the names in DOMAINS_FILE; `dns check` looks them up and
// says which are missing, stale, left over or malformed. docs/dns.md.
import { isIP } from 'node:net'
import { Resolver } from 'node:dns/promises'
import type { Config } from '../server/config.ts'
import { checkDomains, type DomainReport } from '../server/dns/check.ts'
import { forSaleListing, ownerName, RECORD_TTL, zoneLine, zoneString, type ForSaleListing } from '../server/dns/for-sale.ts'
import { planZones, sendZoneUpdate, withRemoved } from '../server/dns/publish.ts'
import type { DnsNameRecords, Store } from '../server/store/types.ts'
import { jsonText, visible } from '../server/lib/escape.ts'
import { displayHost, parseHost } from '../server/sites/host.ts'
import { readDomainsFile } from '../server/sites/domains-file.ts'
import { table } from './format.ts'
import { UsageError } from './usage-error.ts'

interface DnsOptions {
  domain?: string | undefined
  format?: string | undefined
  json?: boolean | undefined
  resolver?: string | undefined
}

function domainsFrom(config: Config) {
  if (!config.domainsFile) throw new UsageError('dns needs DOMAINS_FILE: the records are made from the domains file')
  try {
    return readDomainsFile(config.domainsFile)
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
}

function listingFrom(config: Config, domainOption: string | undefined, sold: ReadonlySet<string>): ForSaleListing {
  let only: string | undefined
  if (domainOption !== undefined) {
    only = parseHost(domainOption)?.ascii
    if (!only) throw new UsageError(`--domain: "${domainOption}" is not a domain name`)
  }
  const domains = domainsFrom(config)
  const listing = forSaleListing(domains, only, sold)
  if (only !== undefined && listing.domains.length === 0 && listing.skipped.length === 0) {
    throw new UsageError(`--domain: ${displayHost(only)} is not in DOMAINS_FILE`)
  }
  return listing
}

/** `1.2.3.4`, `1.2.3.4:5353`, `[::1]:5353`: what Resolver.setServers takes. */
export function resolverFrom(option: string | undefined): Resolver {
  const resolver = new Resolver({ timeout: 3000, tries: 2 })
  if (option === undefined) return resolver
  const match = /^(?:\[([^\]]+)\]|([^:[\]]+))(?::(\d{1,5}))?$/.exec(option) ?? /^([0-9a-f:]+)$/i.exec(option)
  const host = match?.[1] ?? match?.[2]
  const port = match?.[3] === undefined ? 53 : Number(match[3])
  if (!host || !isIP(host) || port < 1 || port > 65535) {
    throw new UsageError(`--resolver takes IP or IP:PORT (e.g. 127.0.0.1:5353 or [::1]:5353), not "${visible(option)}"`)
  }
  resolver.setServers([option])
  return resolver
}

function printRecords(listing: ForSaleListing, format: string, print: (text: string) => void) {
  const published = listing.domains.filter((domain) => domain.status !== 'sold')
  const skipped = [
    ...listing.domains
      .filter((domain) => domain.status === 'sold')
      .map(({ domain }) => ({ domain, reason: 'sold: no records (remove any that are published)' })),
    ...listing.skipped,
  ]
  if (format === 'json') {
    const domains = published.map(({ domain, ascii, status, records }) => ({ domain, owner: ownerName(ascii), ttl: RECORD_TTL, status, records }))
    return print(jsonText({ domains, skipped }))
  }
  // The notes are zone-file comments, so the whole output can go into a zone as it is; a record line is printable
  // ASCII by construction (zoneString).
  const comment = (text: string) => `; ${visible(text)}`
  const lines: string[] = []
  for (const { domain, ascii, records } of published) {
    lines.push(comment(domain === ascii ? domain : `${domain} (${ascii})`), ...records.map((record) => zoneLine(ascii, record)))
  }
  for (const { domain, reason } of skipped) lines.push(comment(`skipped ${domain}: ${reason}`))
  if (published.length === 0) lines.push(comment('no domain to publish'))
  return print(lines.join('\n'))
}

function printReport(reports: DomainReport[], skipped: ForSaleListing['skipped'], json: boolean, print: (text: string) => void) {
  if (json) {
    const domains = reports.map(({ domain, status, findings }) => ({ domain, status, ok: findings.length === 0, findings }))
    return print(jsonText({ domains, skipped }))
  }
  // The details hold TXT data from the network: every control character is shown escaped.
  const rows = reports.flatMap(({ domain, status, findings }) =>
    findings.length === 0
      ? [[domain, 'ok', status === 'sold' ? 'sold, no records' : '']]
      : findings.map((finding) => [domain, finding.state, visible(finding.detail)]),
  )
  const off = reports.filter((report) => report.findings.length > 0).length
  const lines = [table(['Domain', 'State', 'Detail'], rows, 200)]
  for (const { domain, reason } of skipped) lines.push(`skipped ${domain}: ${reason}`)
  lines.push(off ? `${off} of ${reports.length} domains need attention.` : `All ${reports.length} domains are in order.`)
  return print(lines.join('\n'))
}

/** An update as nsupdate(1) would be told it: what --dry-run shows. */
function updateLines(zone: string, names: DnsNameRecords[]): string[] {
  const lines = [`zone ${zone}.`]
  for (const { ascii, records } of names) {
    lines.push(`update delete ${ownerName(ascii)} TXT`, ...records.map((record) => `update add ${ownerName(ascii)} ${RECORD_TTL} TXT ${zoneString(record)}`))
  }
  return [...lines, 'send']
}

/** `dns publish`: one update per zone, sent now (or shown with --dry-run); exit 1 when any zone was not updated. */
async function publish(
  options: DnsOptions & { 'dry-run'?: boolean | undefined },
  config: Config,
  print: (text: string) => void,
  sold: ReadonlySet<string>,
  store: Store | undefined,
): Promise<number> {
  const settings = config.dnsUpdate
  if (!settings) throw new UsageError('dns publish needs DNS_UPDATE_SERVER, DNS_UPDATE_KEY_NAME and DNS_UPDATE_KEY_SECRET (docs/dns.md)')
  if (!store) throw new UsageError('dns publish needs the store (DATA_DIR or DATABASE_URL)')
  if (options.domain !== undefined || options.resolver !== undefined || options.format !== undefined) throw new UsageError('dns publish takes --dry-run only')
  const plan = planZones(domainsFrom(config), settings.zones, sold)
  for (const zone of await store.dnsPublishedZones()) if (!plan.zones.has(zone)) plan.zones.set(zone, [])
  let failed = 0
  for (const [zone, planned] of [...plan.zones].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const names = withRemoved(planned, await store.dnsPublishedNames(zone))
    if (options['dry-run']) {
      print(updateLines(zone, names).join('\n'))
      continue
    }
    const result = await sendZoneUpdate(settings, zone, names)
    if (result.status === 'sent') {
      await store.recordDnsPublish(zone, names, Date.now())
      const records = names.reduce((sum, name) => sum + name.records.length, 0)
      print(`${zone}: updated (${records} record${records === 1 ? '' : 's'} for ${names.length} name${names.length === 1 ? '' : 's'})`)
    } else {
      failed++
      print(`${zone}: not updated: ${result.error}`)
    }
  }
  for (const ascii of plan.outside) print(`skipped ${displayHost(ascii)}: in none of DNS_UPDATE_ZONES`)
  if (plan.zones.size === 0) print('no zone to update')
  return failed ? 1 : 0
}

/**
 * Runs `dns`, `dns check` or `dns publish`; the exit code (check: 1 when any record is off; publish: 1 when a zone
 * was not updated). `sold`: the names sold through a deal, from the store (none before the server's first start).
 */
export async function runDns(
  args: string[],
  options: DnsOptions & { 'dry-run'?: boolean | undefined },
  config: Config,
  print: (text: string) => void,
  sold: ReadonlySet<string> = new Set(),
  store?: Store,
): Promise<number> {
  const [sub, ...rest] = args
  if (rest.length || (sub !== undefined && sub !== 'check' && sub !== 'publish'))
    throw new UsageError(`unknown dns command "${visible(args.join(' '))}" (dns, dns check or dns publish)`)
  if (sub === 'publish') return publish(options, config, print, sold, store)
  if (options['dry-run']) throw new UsageError('--dry-run applies to dns publish only')
  if (sub === undefined) {
    if (options.resolver !== undefined) throw new UsageError('--resolver applies to dns check only')
    const format = options.format ?? (options.json ? 'json' : 'zone')
    if (format !== 'zone' && format !== 'json') throw new UsageError('--format is zone or json')
    printRecords(listingFrom(config, options.domain, sold), format, print)
    return 0
  }
  if (options.format !== undefined && options.format !== 'json') throw new UsageError('dns check: --format is json (or leave it out)')
  const resolver = resolverFrom(options.resolver)
  const listing = listingFrom(config, options.domain, sold)
  const reports = await checkDomains(resolver, listing.domains)
  printReport(reports, listing.skipped, options.json === true || options.format === 'json', print)
  return reports.some((report) => report.findings.length > 0) ? 1 : 0
}
