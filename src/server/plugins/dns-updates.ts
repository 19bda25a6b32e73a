// The _for-sale records in the owner's DNS follow the domains in force (decision 045), when DNS_UPDATE_* is set:
// decorated as `dnsUpdates` (null otherwise), started with the background work, stopped before the store.
import fp from 'fastify-plugin'
import { leaseOwnerOf } from '../cluster/lease.ts'
import { publicPlugin } from '../decorations.ts'
import { createDnsWorker } from '../dns/worker.ts'

export default fp(
  publicPlugin(async (app) => {
    const { config, domains } = app
    const dnsUpdates =
      config.dnsUpdate &&
      createDnsWorker({
        store: app.store,
        settings: config.dnsUpdate,
        domains: () => domains.current(),
        sold: app.soldNames,
        log: app.log.child({ component: 'dns' }),
        owner: `${leaseOwnerOf(process.pid)}:dns`,
        leaseMs: config.mailLeaseMs,
      })
    app.decorate('dnsUpdates', dnsUpdates || null)
    if (!dnsUpdates) return
    app.background.later(() => dnsUpdates.start())
    app.addHook('onClose', () => dnsUpdates.stop())
  }),
  { name: 'dns-updates', dependencies: ['store', 'background', 'domains'] },
)
