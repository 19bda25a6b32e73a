// DNS updates (decision 045): an outbox of their own, one row per zone and change, sent in order per zone; and the
// names the server has put records on. Same for both databases.
import { sql, type Kysely, type Transaction } from 'kysely'
import { writer, type DialectSpecifics } from './dialect.ts'
import type { Database } from './schema.ts'
import type { DnsNameRecords, DnsUpdateStore } from './types.ts'

const noLease = { lease_owner: null, lease_until: null } as const

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
      return write(async () => {
        const claimed = await db
          .updateTable('dns_updates')
          .set({ lease_owner: owner, lease_until: now + leaseMs })
          .where('id', 'in', (eb) =>
            eb
              .selectFrom('dns_updates as d')
              .select('d.id')
              .where('d.status', '=', 'pending')
              .where('d.next_attempt_at', '<=', now)
              .where((eb) => eb.or([eb('d.lease_until', 'is', null), eb('d.lease_until', '<=', now)]))
              .where(({ not, exists, selectFrom }) =>
                not(
                  exists(
                    selectFrom('dns_updates as e')
                      .select('e.id')
                      .whereRef('e.zone', '=', 'd.zone')
                      .where('e.status', '=', 'pending')
                      .whereRef('e.id', '<', 'd.id'),
                  ),
                ),
              )
              .orderBy('d.id')
              .limit(limit)
              .$if(postgres, (qb) => qb.forUpdate().skipLocked()),
          )
          .returning(['id', 'zone', 'names', 'attempts', 'created_at'])
          .execute()
        return claimed.map((row) => ({
          id: row.id,
          zone: row.zone,
          names: JSON.parse(row.names) as DnsNameRecords[],
          attempts: row.attempts,
          createdAt: row.created_at,
        }))
      })
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
      await write(() =>
        db.transaction().execute(async (trx) => {
          await lockZone(trx, zone)
          await trx
            .updateTable('dns_updates')
            .set((eb) => ({ status: 'sent', sent_at: now, attempts: eb('attempts', '+', 1), last_error: null, ...noLease }))
            .where('id', '=', id)
            .execute()
          await setPublished(trx, zone, names)
        }),
      )
    },
    async markDnsUpdateRetry(id, nextAttemptAt, error) {
      await write(() =>
        db
          .updateTable('dns_updates')
          .set((eb) => ({ attempts: eb('attempts', '+', 1), next_attempt_at: nextAttemptAt, last_error: error.slice(0, 1000), ...noLease }))
          .where('id', '=', id)
          .execute(),
      )
    },
    async markDnsUpdateFailed(id, error, now) {
      await write(() =>
        db
          .updateTable('dns_updates')
          .set((eb) => ({ status: 'failed', attempts: eb('attempts', '+', 1), last_error: error.slice(0, 1000), failed_at: now, ...noLease }))
          .where('id', '=', id)
          .execute(),
      )
    },
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
      if (statuses.length === 0) return []
      const rows = await guard(() =>
        db
          .selectFrom('dns_updates')
          .select(['id', 'zone', 'status', 'attempts', 'last_error', 'created_at', 'next_attempt_at'])
          .where('status', 'in', statuses)
          .orderBy('created_at')
          .orderBy('id')
          .limit(1000)
          .execute(),
      )
      return rows.map((row) => ({
        id: row.id,
        zone: row.zone,
        status: row.status,
        attempts: row.attempts,
        lastError: row.last_error,
        createdAt: row.created_at,
        nextAttemptAt: row.next_attempt_at,
      }))
    },
    async resendDnsUpdate(id, now) {
      return write(async () => {
        const updated = await db
          .updateTable('dns_updates')
          .set({ status: 'pending', attempts: 0, last_error: null, next_attempt_at: now, failed_at: null, ...noLease })
          .where('id', '=', id)
          .where('status', 'in', ['pending', 'failed'])
          .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)]))
          .executeTakeFirst()
        return Number(updated.numUpdatedRows) > 0
      })
    },
    async nextDnsUpdateDueAt() {
      const row = await guard(() =>
        db
          .selectFrom('dns_updates')
          .select(sql<number | null>`MIN(CASE WHEN lease_until > next_attempt_at THEN lease_until ELSE next_attempt_at END)`.as('at'))
          .where('status', '=', 'pending')
          .executeTakeFirstOrThrow(),
      )
      return row.at
    },
  }
}
