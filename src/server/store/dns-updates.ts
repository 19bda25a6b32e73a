// DNS updates (decision 045): an outbox of their own, one row per zone and change, sent in order per zone; and the
// names the server has put records on. Same for both databases.
import { sql, type Kysely, type Transaction } from 'kysely'
import { writer, type DialectSpecifics } from './dialect.ts'
import { leasedTable } from './leased-table.ts'
import type { Database } from './schema.ts'
import type { DnsNameRecords, DnsUpdateStore } from './types.ts'

/** One text per state: names sorted, so that the same records always read the same. */
export const namesText = (names: DnsNameRecords[]) => JSON.stringify([...names].sort((a, b) => (a.ascii < b.ascii ? -1 : a.ascii > b.ascii ? 1 : 0)))

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

export function dnsUpdateStore(db: Kysely<Database>, dialect: DialectSpecifics): DnsUpdateStore {
  const { guard } = dialect
  const postgres = dialect.name === 'postgres'
  const write = writer(dialect)
  // A zone's updates go out in the order they were queued: the next only once the one before is done.
  const queue = leasedTable(db, dialect, 'dns_updates', { chainedBy: 'zone' })
  const lockZone = async (trx: Transaction<Database>, zone: string) => {
    // Two instances noticing one change take turns (SQLite's writers already do).
    if (postgres) await sql`SELECT pg_advisory_xact_lock(hashtext(${`dns:${zone}`}))`.execute(trx)
  }
  return {
    async queueDnsUpdate(zone, names, now) {
      const text = namesText(names)
      return write(() =>
        db.transaction().execute(async (trx) => {
          await lockZone(trx, zone)
          const last = await trx
            .selectFrom('dns_updates')
            .select(['names', 'status'])
            .where('zone', '=', zone)
            .orderBy('id', 'desc')
            .limit(1)
            .executeTakeFirst()
          if (last && last.status !== 'failed' && last.names === text) return null
          // Superseded: pending and not being sent, or failed. One being sent finishes first (claimDnsUpdates).
          await trx
            .deleteFrom('dns_updates')
            .where('zone', '=', zone)
            .where((eb) =>
              eb.or([
                eb('status', '=', 'failed'),
                eb.and([eb('status', '=', 'pending'), eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)])]),
              ]),
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
        }),
      )
    },
    async claimDnsUpdates(now, limit, owner, leaseMs) {
      const claimed = await queue.claim(now, limit, owner, leaseMs)
      return claimed.map((row) => ({
        id: row.id,
        zone: row.zone,
        names: JSON.parse(row.names) as DnsNameRecords[],
        attempts: row.attempts,
        createdAt: row.created_at,
      }))
    },
    async dnsPublishedNames(zone) {
      const rows = await guard(() => db.selectFrom('dns_names').select('domain').where('zone', '=', zone).orderBy('domain').execute())
      return rows.map((row) => row.domain)
    },
    async dnsZoneStates() {
      const rows = await guard(() =>
        db
          .selectFrom('dns_updates as d')
          .select(['d.zone', 'd.names'])
          .where('d.status', '!=', 'failed')
          .where(({ not, exists, selectFrom }) =>
            not(
              exists(
                selectFrom('dns_updates as e').select('e.id').whereRef('e.zone', '=', 'd.zone').where('e.status', '!=', 'failed').whereRef('e.id', '>', 'd.id'),
              ),
            ),
          )
          .execute(),
      )
      return new Map(rows.map((row) => [row.zone, row.names]))
    },
    async dnsPublishedZones() {
      const rows = await guard(() => db.selectFrom('dns_names').select('zone').distinct().orderBy('zone').execute())
      return rows.map((row) => row.zone)
    },
    async markDnsUpdateSent(id, zone, names, now) {
      await guard(() =>
        db.transaction().execute(async (trx) => {
          await lockZone(trx, zone)
          await queue.markSent(id, now, trx)
          await setPublished(trx, zone, names)
        }),
      )
    },
    markDnsUpdateRetry: queue.markRetry,
    markDnsUpdateFailed: queue.markFailed,
    async recordDnsPublish(zone, names, now) {
      await write(() =>
        db.transaction().execute(async (trx) => {
          await lockZone(trx, zone)
          await trx
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
          await setPublished(trx, zone, names)
        }),
      )
    },
    async listDnsUpdates(statuses) {
      const rows = await queue.list(statuses, ['zone'])
      return rows.map(({ id, zone, status, attempts, lastError, createdAt, nextAttemptAt }) => ({
        id,
        zone,
        status,
        attempts,
        lastError,
        createdAt,
        nextAttemptAt,
      }))
    },
    resendDnsUpdate: (id, now) => queue.resend(id, now, write),
    nextDnsUpdateDueAt: queue.nextDueAt,
  }
}
