// The store's part for DNS updates (decision 045; store/dns-updates.ts).
import type { OutboxStatus } from './inquiry-types.ts'

/** One name's _for-sale records as an update leaves them: none means deleted. */
export interface DnsNameRecords {
  /** The domain in ASCII, without the final dot. */
  ascii: string
  records: string[]
}

/** A pending update, claimed to be sent. */
export interface DnsUpdateItem {
  id: number
  zone: string
  names: DnsNameRecords[]
  attempts: number
  createdAt: number
}

/** A row of the Postausgang. */
interface DnsUpdateListing {
  id: number
  zone: string
  status: OutboxStatus
  attempts: number
  lastError: string | null
  createdAt: number
  nextAttemptAt: number
}

export interface DnsUpdateStore {
  /**
   * Queues an update of the zone to these records, due now, unless the last one queued or sent said the same (every
   * process and instance may notice one change: it is queued once). An older update of the zone not yet being sent
   * is dropped: the new one carries the zone's whole state. Returns the new row's id, or null.
   */
  queueDnsUpdate(zone: string, names: DnsNameRecords[], now: number): Promise<number | null>
  /** Leases due updates, the oldest pending one of each zone only, so that a zone's updates land in order. */
  claimDnsUpdates(now: number, limit: number, owner: string, leaseMs: number): Promise<DnsUpdateItem[]>
  /** The names the server has put records on in the zone (for the deletion of a name no longer in the file). */
  dnsPublishedNames(zone: string): Promise<string[]>
  /**
   * Zone -> the names of its latest update that did not fail (queued or sent), in the form queueDnsUpdate compares:
   * what a process starting up need not queue again.
   */
  dnsZoneStates(): Promise<Map<string, string>>
  /** Every zone with names the server has put records on. */
  dnsPublishedZones(): Promise<string[]>
  /** The update is in the zone: marked sent, the zone's published names made what it left. */
  markDnsUpdateSent(id: number, zone: string, names: DnsNameRecords[], now: number): Promise<void>
  markDnsUpdateRetry(id: number, nextAttemptAt: number, error: string): Promise<void>
  markDnsUpdateFailed(id: number, error: string, now: number): Promise<void>
  /** An update sent by `dns publish` itself: kept as a sent row, the zone's published names made what it left. */
  recordDnsPublish(zone: string, names: DnsNameRecords[], now: number): Promise<void>
  /** Pending and failed updates, oldest first. */
  listDnsUpdates(statuses: OutboxStatus[]): Promise<DnsUpdateListing[]>
  /** Queues a pending or failed update again, due now; false when there is none (or it is being sent). */
  resendDnsUpdate(id: number, now: number): Promise<boolean>
  /** When the next pending update is due (or its lease ends), or null if none is pending. */
  nextDnsUpdateDueAt(): Promise<number | null>
}
