// The store, opened once per app and closed last (decision 061): registered first, and every plugin that uses it
// names it in its dependencies, so their onClose hooks, which run in the reverse order of registration, come first.
import fp from 'fastify-plugin'
import { publicPlugin } from '../decorations.ts'
import { openStore } from '../store/index.ts'

interface StoreOptions {
  /** A cluster's worker: its primary ended the leases left over from a previous run (app.ts's AppOptions). */
  clusterWorker?: boolean | undefined
}

export default fp(
  publicPlugin<StoreOptions>(async (app, { clusterWorker }) => {
    const { config } = app
    const store = await openStore(config, { log: app.log.child({ component: 'store' }) })
    app.addHook('onClose', () => store.close())
    app.decorate('store', store)
    app.decorate('secret', config.contactSecret ?? (await store.secret()))
    if (!clusterWorker) await store.releaseLeftoverLeases()
  }),
  { name: 'store' },
)
