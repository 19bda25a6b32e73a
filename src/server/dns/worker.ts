// The server's side of DNS updates (decision 045): notices a change of the records (the domains file reloaded, a
// name sold) and queues one update per zone that changed; sends the queued updates, retried with the outbox's
// backoff while the DNS server is down. Every process runs it: the store queues a change once and leases each update
// to one sender.
import type { FastifyBaseLogger } from 'fastify'
import { RETRY, retryDelay } from '../mail/outbox.ts'
import type { DomainsConfig } from '../sites/domains-table.ts'
import { namesText } from '../store/dns-updates.ts'
import type { DnsUpdateItem, Store } from '../store/types.ts'
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
  store: Store
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
  const { store, settings, log, owner, leaseMs } = options
  const now = options.now ?? Date.now
  // Within half the lease: no other process claims the update while this one may still be sending it.
  const sendTimeoutMs = Math.min(options.sendTimeoutMs ?? SEND_TIMEOUT_MS, leaseMs / 2)
  /** Ends the exchange in flight when the worker stops: a shutdown does not wait for a server that stalls. */
  let stopping = new AbortController()
  let running = false
  let seenVersion: string | undefined
  /** Zone -> the JSON of its names as last queued from this process. */
  let seenZones = new Map<string, string>()
  let watchTimer: NodeJS.Timeout | undefined
  let sendTimer: NodeJS.Timeout | undefined
  let watching: Promise<void> | undefined
  let sending: Promise<void> | undefined
  let sendAgain = false

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
      triggerSend()
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

  async function deliver(item: DnsUpdateItem) {
    const { sendZoneUpdate, withRemoved } = await publishing()
    const names = withRemoved(item.names, await store.dnsPublishedNames(item.zone))
    const result = await sendZoneUpdate(settings, item.zone, names, now, { timeoutMs: sendTimeoutMs, signal: stopping.signal })
    const fields = { zone: item.zone, update: item.id, attempts: item.attempts + 1 }
    if (result.status === 'sent') {
      await store.markDnsUpdateSent(item.id, item.zone, names, now())
      log.info(fields, 'DNS records updated')
    } else if (result.status === 'failed') {
      await store.markDnsUpdateFailed(item.id, result.error, now())
      log.error({ ...fields, reason: result.error }, 'DNS UPDATE FAILED: see Postausgang')
    } else if (now() - item.createdAt > RETRY.giveUpAfterMs) {
      await store.markDnsUpdateFailed(item.id, result.error, now())
      log.error({ ...fields, reason: result.error }, 'DNS UPDATE FAILED: gave up after 5 days of retries')
    } else {
      const delay = retryDelay(item.attempts + 1)
      await store.markDnsUpdateRetry(item.id, now() + delay, result.error)
      log.warn({ ...fields, retryInMs: delay, reason: result.error }, 'DNS update not sent, will retry')
    }
  }

  /** How many updates it claimed. Stops between two updates once stop() was called (running is false before start). */
  async function sendPass(): Promise<number> {
    let claimed = 0
    do {
      sendAgain = false
      const due = await store.claimDnsUpdates(now(), 20, owner, leaseMs)
      claimed += due.length
      for (const item of due) {
        if (stopping.signal.aborted) return claimed
        await deliver(item)
      }
      // A zone's next update becomes claimable once the one before it is done.
      if (due.length) sendAgain = true
    } while (sendAgain && !stopping.signal.aborted)
    return claimed
  }

  async function scheduleSend() {
    if (!running) return
    clearTimeout(sendTimer)
    let wait = RETRY.pollMs
    try {
      const next = await store.nextDnsUpdateDueAt()
      if (next !== null) wait = Math.max(0, Math.min(RETRY.pollMs, next - now()))
    } catch (error) {
      log.error({ err: error }, 'DNS updates: could not read the store')
    }
    if (running) sendTimer = setTimeout(triggerSend, wait)
  }

  function startSend(): Promise<number> {
    const work = sendPass()
    sending = work
      .then(
        () => {},
        (error: unknown) => log.error({ err: error }, 'DNS update pass failed'),
      )
      .finally(() => {
        sending = undefined
        void scheduleSend()
      })
    return work
  }

  function triggerSend() {
    if (!running) return
    if (sending) {
      sendAgain = true
      return
    }
    void startSend()
  }

  return {
    start() {
      if (running) return
      running = true
      stopping = new AbortController()
      watchTimer = setInterval(triggerWatch, WATCH_MS)
      triggerWatch()
      triggerSend()
    },
    kick() {
      triggerWatch()
      triggerSend()
    },
    async drain() {
      while (watching) await watching
      if (stopping.signal.aborted) return
      await startWatch()
      for (;;) {
        while (sending) await sending
        if (stopping.signal.aborted || (await startSend()) === 0) return
      }
    },
    async stop() {
      running = false
      clearInterval(watchTimer)
      clearTimeout(sendTimer)
      stopping.abort()
      await watching
      await sending
    },
  }
}
