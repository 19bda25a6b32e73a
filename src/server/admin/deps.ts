// What the console's routes work with: the same store, outbox and domains as the public app of this process.
import type { FastifyBaseLogger } from 'fastify'
import type { Config } from '../config.ts'
import type { OutboxWorker } from '../mail/outbox.ts'
import type { DomainRegistry } from '../sites/registry.ts'
import type { Store } from '../store/types.ts'

export interface ConsoleDeps {
  config: Config
  store: Store
  outbox: OutboxWorker
  domains: DomainRegistry
  log: FastifyBaseLogger
  /** The secret of the public app: signs the deal pages' links (deal/link.ts). */
  secret: string
  /** A deal completed in the console: the name is sold in this process at once (deal/sold-names.ts). */
  onDealCompleted: (domain: string) => void
  /** The DNS updates of the _for-sale records (dns/worker.ts), when DNS_UPDATE_* is set. */
  dnsUpdates?: { kick(): void } | null
  /** The daily checks' notifications (domain-checks/notices.ts). */
  domainNotices?: { kick(): void }
}
