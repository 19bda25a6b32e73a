// DNS updates (decision 045): an outbox of their own, one row per zone and change, sent in order per zone; and the
// names the server has put records on. Plain functions over the store's Kysely or a unit of work (decision 060);
// `dnsUpdateQueue` is what the DNS worker's queue takes (decision 057), guarded as tables/leased.ts says.
import { sql, type Transaction } from 'kysely'
import { writer, type DialectSpecifics } from '../dialect.ts'
import type { OutboxStatus } from '../inquiry-types.ts'
import type { Database } from '../schema.ts'
import type { Work } from '../unit-of-work.ts'
import type { Db, Q } from './db.ts'
import { leasedTable, type LeasedQueueTable } from './leased.ts'

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

/** What a sent update leaves in its zone: its mark makes them the zone's published names. */
export interface DnsUpdateSent {
  zone: string
  names: DnsNameRecords[]
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

/** The Store's methods over this table (store.ts delegates each to a function below). */
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

/** One text per state: names sorted, so that the same records always read the same. */
export const namesText = (names: DnsNameRecords[]) => JSON.stringify([...names].sort((a, b) => (a.ascii < b.ascii ? -1 : a.ascii > b.ascii ? 1 : 0)))

/** Two instances noticing one change take turns (SQLite's writers already do). */
const zoneKey = (zone: string) => `dns:${zone}`

// A zone's updates go out in the order they were queued: the next only once the one before is done.
const leased = (db: Db, dialect: DialectSpecifics) => leasedTable(db, dialect, 'dns_updates', { chainedBy: 'zone' })

async function setPublished(trx: Transaction<Database>, zone: string, names: DnsNameRecords[]) {
  await trx.deleteFrom('dns_names').where('zone', '=', zone).execute()
  const published = names.filter((name) => name.records.length > 0).map((name) => ({ domain: name.ascii, zone }))
  // A name moved to another zone is the new zone's now.
  if (published.length)
    await trx
      .insertInto('dns_names')
      .values(published)
      .onConflict((oc) => oc.column('domain').doUpdateSet({ zone }))
      .execute()
  // The last sent update stays (queueDnsUpdate compares with it); older ones say nothing more.
  await trx
    .deleteFrom('dns_updates')
    .where('zone', '=', zone)
    .where('status', '=', 'sent')
    .where('id', '<', (eb) => eb.selectFrom('dns_updates').select(eb.fn.max('id').as('id')).where('zone', '=', zone).where('status', '=', 'sent'))
    .execute()
}

/** The DNS worker's queue: the claim read into items, and the sent mark that records the zone's published names. */
export function dnsUpdateQueue(db: Db, dialect: DialectSpecifics): LeasedQueueTable<DnsUpdateItem, DnsUpdateSent> {
  const { claim, nextDueAt, releaseLeases, markSentIn, markRetry, markFailed } = leased(db, dialect)
  return {
    async claim(now, limit, owner, leaseMs) {
      const claimed = await claim(now, limit, owner, leaseMs)
      return claimed.map((row) => ({
        id: row.id,
        zone: row.zone,
        names: JSON.parse(row.names) as DnsNameRecords[],
        attempts: row.attempts,
        createdAt: row.created_at,
      }))
    },
    nextDueAt,
    releaseLeases,
    // Guarded, not a write (tables/leased.ts): an update queued before a lost SQLite file is still settled.
    async markSent(id, now, { zone, names }) {
      await dialect.guard(() =>
        db.transaction().execute(async (trx) => {
          if (dialect.name === 'postgres') await sql`SELECT pg_advisory_xact_lock(hashtext(${zoneKey(zone)}))`.execute(trx)
          await markSentIn(trx, id, now)
          await setPublished(trx, zone, names)
        }),
      )
    },
    markRetry,
    markFailed,
  }
}

export async function queueDnsUpdate(work: Work, zone: string, names: DnsNameRecords[], now: number): Promise<number | null> {
  const { trx } = work
  const text = namesText(names)
  await work.lockKey(zoneKey(zone))
  const last = await trx.selectFrom('dns_updates').select(['names', 'status']).where('zone', '=', zone).orderBy('id', 'desc').limit(1).executeTakeFirst()
  if (last && last.status !== 'failed' && last.names === text) return null
  // Superseded: pending and not being sent, or failed. One being sent finishes first (claimDnsUpdates).
  await trx
    .deleteFrom('dns_updates')
    .where('zone', '=', zone)
    .where((eb) =>
      eb.or([eb('status', '=', 'failed'), eb.and([eb('status', '=', 'pending'), eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)])])]),
    )
    .execute()
  const row = await trx
    .insertInto('dns_updates')
    .values({
      zone,
      names: text,
      status: 'pending',
      next_attempt_at: now,
      created_at: now,
      last_error: null,
      sent_at: null,
      failed_at: null,
      lease_owner: null,
      lease_until: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

export async function dnsPublishedNames(q: Q, zone: string): Promise<string[]> {
  const rows = await q.selectFrom('dns_names').select('domain').where('zone', '=', zone).orderBy('domain').execute()
  return rows.map((row) => row.domain)
}

export async function dnsZoneStates(q: Q): Promise<Map<string, string>> {
  const rows = await q
    .selectFrom('dns_updates as d')
    .select(['d.zone', 'd.names'])
    .where('d.status', '!=', 'failed')
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(selectFrom('dns_updates as e').select('e.id').whereRef('e.zone', '=', 'd.zone').where('e.status', '!=', 'failed').whereRef('e.id', '>', 'd.id')),
      ),
    )
    .execute()
  return new Map(rows.map((row) => [row.zone, row.names]))
}

export async function dnsPublishedZones(q: Q): Promise<string[]> {
  const rows = await q.selectFrom('dns_names').select('zone').distinct().orderBy('zone').execute()
  return rows.map((row) => row.zone)
}

export async function recordDnsPublish(work: Work, zone: string, names: DnsNameRecords[], now: number): Promise<void> {
  await work.lockKey(zoneKey(zone))
  await work.trx
    .insertInto('dns_updates')
    .values({
      zone,
      names: namesText(names),
      status: 'sent',
      attempts: 1,
      next_attempt_at: now,
      created_at: now,
      sent_at: now,
      last_error: null,
      failed_at: null,
      lease_owner: null,
      lease_until: null,
    })
    .execute()
  await setPublished(work.trx, zone, names)
}

export async function listDnsUpdates(db: Db, dialect: DialectSpecifics, statuses: OutboxStatus[]): Promise<DnsUpdateListing[]> {
  const rows = await leased(db, dialect).list(statuses, ['zone'])
  return rows.map(({ id, zone, status, attempts, lastError, createdAt, nextAttemptAt }) => ({
    id,
    zone,
    status,
    attempts,
    lastError,
    createdAt,
    nextAttemptAt,
  }))
}

/** "Erneut senden": new work, so a write (refused on a lost SQLite file). */
export const resendDnsUpdate = (db: Db, dialect: DialectSpecifics, id: number, now: number) => leased(db, dialect).resend(id, now, writer(dialect))
