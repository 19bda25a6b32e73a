// Edits made in the console or the CLI of another instance, taken into this one's domains file (decision 044); only
// where there can be other instances (domainsSyncFor says). Nothing is decorated: nothing else uses it.
import fp from 'fastify-plugin'
import { publicPlugin } from '../decorations.ts'
import { planEdit } from '../domains-edit/planner.ts'
import { domainsSyncFor, storeJournal } from '../domains-edit/sync.ts'

export default fp(
  publicPlugin(async (app) => {
    const { config, store, domains } = app
    if (config.domainsFile === undefined) return
    const domainsSync = domainsSyncFor(store, {
      domainsFile: config.domainsFile,
      memoryMiB: config.domainsFileMemoryMiB,
      journal: storeJournal(store),
      plan: planEdit,
      log: app.log.child({ component: 'domains' }),
      reload: () => domains.reload(),
    })
    if (!domainsSync) return
    app.background.later(() => domainsSync.start())
    app.addHook('onClose', () => domainsSync.stop())
  }),
  { name: 'domains-sync', dependencies: ['store', 'background', 'domains'] },
)
