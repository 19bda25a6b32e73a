// DNS updates in the store (decision 045), on the store of the test project (SQLite, or a real PostgreSQL server):
// queued once per change, an older one dropped, sent in order per zone, the published names kept.
import { describe, expect, test } from 'vitest'
import { openTestStore } from '../../../tests/helpers/store.ts'

const T0 = Date.UTC(2026, 10, 1, 12)
const priced = (price: number) => [{ ascii: 'beispiel.de', records: ['v=FORSALE1;furi=https://beispiel.de/', `v=FORSALE1;fval=EUR${price}`] }]

describe('DNS updates in the store', () => {
  test('the same records are queued once, whoever notices them; a change is queued again', async () => {
    const store = await openTestStore()
    const first = await store.queueDnsUpdate('beispiel.de', priced(4900), T0)
    expect(first).not.toBeNull()
    expect(await store.queueDnsUpdate('beispiel.de', priced(4900), T0 + 1)).toBeNull()
    const second = await store.queueDnsUpdate('beispiel.de', priced(3900), T0 + 2)
    expect(second).not.toBeNull()
    // The first was not being sent: the second carries the zone's whole state, so the first is dropped.
    expect((await store.listDnsUpdates(['pending'])).map((row) => row.id)).toEqual([second])
    // What a process starting up takes as seen: the zone's latest update.
    expect(await store.dnsZoneStates()).toEqual(new Map([['beispiel.de', JSON.stringify(priced(3900))]]))
    await store.close()
  })

  test('an update being sent finishes before the next of its zone is handed out; other zones go meanwhile', async () => {
    const store = await openTestStore()
    const a = await store.queueDnsUpdate('beispiel.de', priced(4900), T0)
    const [claimed] = await store.claimDnsUpdates(T0, 10, 'w1', 60_000)
    expect(claimed).toMatchObject({ id: a, zone: 'beispiel.de', names: priced(4900), attempts: 0 })
    const b = await store.queueDnsUpdate('beispiel.de', priced(3900), T0 + 1)
    const other = await store.queueDnsUpdate('anderes.de', [{ ascii: 'anderes.de', records: ['v=FORSALE1;furi=https://anderes.de/'] }], T0 + 1)
    expect((await store.claimDnsUpdates(T0 + 2, 10, 'w2', 60_000)).map((item) => item.id)).toEqual([other])
    await store.markDnsUpdateSent(a!, 'beispiel.de', priced(4900), T0 + 3)
    expect((await store.claimDnsUpdates(T0 + 4, 10, 'w2', 60_000)).map((item) => item.id)).toEqual([b])
    await store.close()
  })

  test('a sent update makes the zone’s published names what it left; a retry waits, a failure is listed', async () => {
    const store = await openTestStore()
    const names = [...priced(4900), { ascii: 'shop.beispiel.de', records: ['v=FORSALE1;furi=https://shop.beispiel.de/'] }]
    await store.recordDnsPublish('beispiel.de', names, T0)
    expect(await store.dnsPublishedNames('beispiel.de')).toEqual(['beispiel.de', 'shop.beispiel.de'])
    expect(await store.dnsPublishedZones()).toEqual(['beispiel.de'])
    // Already published: the same records are not queued again.
    expect(await store.queueDnsUpdate('beispiel.de', names, T0 + 1)).toBeNull()
    const id = await store.queueDnsUpdate(
      'beispiel.de',
      [
        { ascii: 'beispiel.de', records: [] },
        { ascii: 'shop.beispiel.de', records: names[1]!.records },
      ],
      T0 + 2,
    )
    const [item] = await store.claimDnsUpdates(T0 + 2, 10, 'w', 60_000)
    await store.markDnsUpdateRetry(item!.id, T0 + 10_000, 'the DNS server cannot be reached (ECONNREFUSED)')
    expect(await store.claimDnsUpdates(T0 + 3, 10, 'w', 60_000)).toEqual([])
    expect(await store.nextDnsUpdateDueAt()).toBe(T0 + 10_000)
    const [again] = await store.claimDnsUpdates(T0 + 10_000, 10, 'w', 60_000)
    expect(again).toMatchObject({ id, attempts: 1 })
    await store.markDnsUpdateFailed(id!, 'the DNS server answered NOTAUTH (BADSIG)', T0 + 10_001)
    expect(await store.listDnsUpdates(['pending', 'failed'])).toEqual([
      {
        id,
        zone: 'beispiel.de',
        status: 'failed',
        attempts: 2,
        lastError: 'the DNS server answered NOTAUTH (BADSIG)',
        createdAt: T0 + 2,
        nextAttemptAt: T0 + 10_000,
      },
    ])
    expect(await store.dnsPublishedNames('beispiel.de')).toEqual(['beispiel.de', 'shop.beispiel.de'])
    // Erneut senden: due now; once sent, only the name with records is published.
    expect(await store.resendDnsUpdate(id!, T0 + 20_000)).toBe(true)
    const [resent] = await store.claimDnsUpdates(T0 + 20_000, 10, 'w', 60_000)
    expect(await store.resendDnsUpdate(id!, T0 + 20_001)).toBe(false)
    await store.markDnsUpdateSent(resent!.id, 'beispiel.de', resent!.names, T0 + 20_002)
    expect(await store.dnsPublishedNames('beispiel.de')).toEqual(['shop.beispiel.de'])
    expect(await store.listDnsUpdates(['pending', 'failed'])).toEqual([])
    await store.close()
  })

  test('a failed update does not stop the same records from being queued again', async () => {
    const store = await openTestStore()
    const id = await store.queueDnsUpdate('beispiel.de', priced(4900), T0)
    await store.claimDnsUpdates(T0, 10, 'w', 60_000)
    await store.markDnsUpdateFailed(id!, 'the DNS server answered NOTAUTH (BADKEY)', T0 + 1)
    // A process starting up does not take a failed update as seen.
    expect(await store.dnsZoneStates()).toEqual(new Map())
    const again = await store.queueDnsUpdate('beispiel.de', priced(4900), T0 + 2)
    expect(again).not.toBeNull()
    expect((await store.listDnsUpdates(['pending', 'failed'])).map((row) => [row.id, row.status])).toEqual([[again, 'pending']])
    await store.close()
  })
})
