// What the owner's DNS should hold under _for-sale, zone by zone, and one zone's update sent (decision 045). Used by
// `dns publish` and by the server's DNS worker.
import type { Config } from '../config.ts'
import type { DomainsConfig } from '../sites/domains-table.ts'
import type { DnsNameRecords } from '../store/types.ts'
import { forSaleListing } from './for-sale.ts'
import { buildUpdate, inZone, sendUpdate, type UpdateResult } from './update.ts'

export type DnsUpdateConfig = NonNullable<Config['dnsUpdate']>

/** The zone a name's records are written to: the longest of DNS_UPDATE_ZONES it is in, or itself without them. */
export function zoneOf(ascii: string, zones: readonly string[] | null): string | null {
  if (zones === null) return ascii
  let found: string | null = null
  for (const zone of zones) if (inZone(ascii, zone) && (found === null || zone.length > found.length)) found = zone
  return found
}

export interface ZonePlan {
  /** Zone -> every name of the file in it, with the records it should have (none: sold, not listed). */
  zones: Map<string, DnsNameRecords[]>
  /** Names the file lists that are in none of DNS_UPDATE_ZONES (ASCII). */
  outside: string[]
}

/**
 * The records of every exact name in the file, by zone. A name that should have none (sold, `listed: false`) is in
 * its zone too, so that records published before are deleted. Wildcard entries have no records of their own.
 */
export function planZones(config: DomainsConfig, zones: readonly string[] | null, sold: Pick<ReadonlySet<string>, 'has'> = new Set()): ZonePlan {
  const plan: ZonePlan = { zones: new Map(), outside: [] }
  const add = (ascii: string, records: string[]) => {
    const zone = zoneOf(ascii, zones)
    if (zone === null) return plan.outside.push(ascii)
    const names = plan.zones.get(zone) ?? []
    names.push({ ascii, records })
    plan.zones.set(zone, names)
  }
  for (const domain of forSaleListing(config, undefined, sold).domains) add(domain.ascii, domain.records)
  for (const [key, entry] of config.entries()) {
    if (!key.startsWith('*.') && { ...config.default, ...entry }.listed === false) add(key, [])
  }
  return plan
}

/** The update's names: the plan's, and a name published before that the file no longer has, with none. */
export function withRemoved(names: DnsNameRecords[], published: readonly string[]): DnsNameRecords[] {
  const known = new Set(names.map((name) => name.ascii))
  return [...names, ...published.filter((ascii) => !known.has(ascii)).map((ascii) => ({ ascii, records: [] }))]
}

/** Sends one zone's update: every name's _for-sale TXT records replaced by the ones given. */
export async function sendZoneUpdate(
  settings: DnsUpdateConfig,
  zone: string,
  names: DnsNameRecords[],
  now: () => number = Date.now,
  options: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<UpdateResult> {
  let request
  try {
    request = buildUpdate(zone, names, settings.key, now())
  } catch (error) {
    return { status: 'failed', error: (error as Error).message }
  }
  // A TCP message has at most 65535 octets: a zone with that many records needs them in the zone file instead.
  if (request.message.length > 65_535) return { status: 'failed', error: `the update of ${zone} is too large for one DNS message (${names.length} names)` }
  const { timeoutMs, signal } = options
  return sendUpdate({ host: settings.host, port: settings.port, key: settings.key, ...(timeoutMs !== undefined && { timeoutMs }) }, request, now, signal)
}
