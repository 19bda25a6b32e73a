// The server's side of DNS updates (decision 045): notices a change of the records (the domains file reloaded, a
// name sold) and queues one update per zone that changed; sends the queued updates, retried with the outbox's
// backoff while the DNS server is down. Every process runs it: the store queues a change once and leases each update
// to one sender.
import type { FastifyBaseLogger } from 'fastify'
import { createLeasedQueue, type Attempt, type Outcome } from '../queue/leased-queue.ts'
import type { DomainsConfig } from '../sites/domains-table.ts'
import { namesText } from '../store/tables/dns-updates.ts'
import type { DnsUpdateItem, DnsUpdateSent, Store } from '../store/types.ts'
import type { DnsUpdateConfig } from './publish.ts'

// The update code brings dns2, whose index loads node:tls, node:https and node:http2 for its DNS-over-TLS/HTTPS
// parts: loaded with the first zone planned here, not with every start (decision 034).
const publishing = () => import('./publish.ts')

/** How often the domains in force are looked at (a version compare; the plan is made only when it moved). */
const WATCH_MS = 1_000
/**
 * The deadline of one update's whole exchange (update.ts's EXCHANGE_DEADLINE_MS, not imported: that would load dns2
 * at every start). A server that stalls holds up the zones after it this long at most, then waits for its retry.
 */
const SEND_TIMEOUT_MS = 10_000

export interface DnsWorker {
  start(): void
  /** Looks at the domains now (after a reload or a sale) instead of within the second. */
  kick(): void
  /**
   * Queues what changed and sends the updates due now, pass after pass, until a pass finds none (as the outbox's
   * drain): for tests, instead of waiting for the watch and the poll. Works before start() too.
   */
  drain(): Promise<void>
  stop(): Promise<void>
}

export function createDnsWorker(options: {
  /** The updates' queue functions (store/tables/dns-updates.ts) and what the watch and a delivery read or queue. */
  store: Pick<Store, 'queues' | 'dnsZoneStates' | 'queueDnsUpdate' | 'dnsPublishedNames'>
  settings: DnsUpdateConfig
  /** The domains file in force, and the names sold through a deal. */
  domains(): DomainsConfig
  sold: { has(ascii: string): boolean }
  log: FastifyBaseLogger
  owner: string
  leaseMs: number
  now?: () => number
  /** Tests: a shorter deadline per exchange than SEND_TIMEOUT_MS. */
  sendTimeoutMs?: number
}): DnsWorker {
  const { store, settings, log, leaseMs } = options
  const now = options.now ?? Date.now
  // Within half the lease: no other process claims the update while this one may still be sending it.
  const sendTimeoutMs = Math.min(options.sendTimeoutMs ?? SEND_TIMEOUT_MS, leaseMs / 2)
  let running = false
  let seenVersion: string | undefined
  /** Zone -> the JSON of its names as last queued from this process. */
  let seenZones = new Map<string, string>()
  let watchTimer: NodeJS.Timeout | undefined
  let watching: Promise<void> | undefined

  async function watch() {
    const config = options.domains()
    if (config.version === seenVersion) return
    // At the first look, what the store last queued or sent is what this process has "seen": a start queues only what
    // changed meanwhile, not every zone of a large portfolio again.
    if (seenVersion === undefined) seenZones = await store.dnsZoneStates()
    const { planZones } = await publishing()
    const plan = planZones(config, settings.zones, options.sold)
    const zones = new Map([...plan.zones].map(([zone, names]) => [zone, namesText(names)]))
    let queued = 0
    for (const [zone, names] of plan.zones) {
      if (seenZones.get(zone) === zones.get(zone)) continue
      if ((await store.queueDnsUpdate(zone, names, now())) !== null) queued++
    }
    // A zone whose names all left the file: its published records go (the update deletes the names it published).
    for (const zone of seenZones.keys()) {
      if (!zones.has(zone) && seenZones.get(zone) !== '[]' && (await store.queueDnsUpdate(zone, [], now())) !== null) queued++
    }
    seenVersion = config.version
    seenZones = zones
    if (queued) {
      log.info({ zones: queued }, 'DNS updates queued')
      queue.kick()
    }
  }

  function startWatch(): Promise<void> {
    const work = watch()
    watching = work
      .catch((error: unknown) => log.error({ err: error }, 'DNS updates: could not queue the change; trying again in a second'))
      .finally(() => (watching = undefined))
    return work
  }

  function triggerWatch() {
    if (!running || watching) return
    void startWatch()
  }

  // The signal ends the exchange in flight when the worker stops: a shutdown does not wait for a server that stalls.
  // A sent update carries the names it was sent with: its mark stores them as the zone's published ones.
  async function deliver(item: DnsUpdateItem, signal: AbortSignal): Promise<Attempt<DnsUpdateSent>> {
    const { sendZoneUpdate, withRemoved } = await publishing()
    const names = withRemoved(item.names, await store.dnsPublishedNames(item.zone))
    const result = await sendZoneUpdate(settings, item.zone, names, now, { timeoutMs: sendTimeoutMs, signal })
    return result.status === 'sent'
      ? { status: 'sent', zone: item.zone, names }
      : { status: result.status === 'failed' ? 'failed' : 'retry', error: result.error }
  }

  function report(item: DnsUpdateItem, outcome: Outcome) {
    const fields = { zone: item.zone, update: item.id, attempts: item.attempts + 1 }
    if (outcome.status === 'sent') log.info(fields, 'DNS records updated')
    else if (outcome.status === 'failed') log.error({ ...fields, reason: outcome.error }, 'DNS UPDATE FAILED: see Postausgang')
    else if (outcome.status === 'gave-up') log.error({ ...fields, reason: outcome.error }, 'DNS UPDATE FAILED: gave up after 5 days of retries')
    else log.warn({ ...fields, retryInMs: outcome.retryInMs, reason: outcome.error }, 'DNS update not sent, will retry')
  }

  const queue = createLeasedQueue(
    store.queues.dnsUpdates,
    // A zone's next update becomes claimable once the one before it is done.
    { name: 'DNS updates', deliver, report, chained: true },
    options,
  )

  return {
    start() {
      if (running || queue.signal.aborted) return
      running = true
      watchTimer = setInterval(triggerWatch, WATCH_MS)
      triggerWatch()
      queue.start()
    },
    kick() {
      triggerWatch()
      queue.kick()
    },
    async drain() {
      while (watching) await watching
      if (queue.signal.aborted) return
      await startWatch()
      await queue.drain()
    },
    async stop() {
      running = false
      clearInterval(watchTimer)
      const stopped = queue.stop()
      await watching
      await stopped
    },
  }
}
