// The domains file in force (sites/registry.ts) as everything sees it: through the names sold by a deal (decision
// 033), which are sold whatever the file says. Decorates `soldNames` and `domains`; the sold names refresh with the
// background work. The file's first load was started by app.ts before the store opened (it runs in a process of
// its own), and is awaited here, where the first thing needs it.
import fp from 'fastify-plugin'
import { publicPlugin } from '../decorations.ts'
import { createSoldNames } from '../deal/sold-names.ts'
import type { DomainRegistry } from '../sites/registry.ts'

export default fp(
  publicPlugin<{ loaded: Promise<DomainRegistry> }>(async (app, { loaded }) => {
    const soldNames = createSoldNames(app.store, app.log.child({ component: 'deals' }))
    app.addHook('onClose', () => soldNames.stop())
    await soldNames.refresh()
    const domains = soldNames.overlay(await loaded)
    app.addHook('onClose', async () => domains.close())
    app.decorate('soldNames', soldNames)
    app.decorate('domains', domains)
    app.background.later(() => soldNames.start())
  }),
  { name: 'domains', dependencies: ['store', 'background'] },
)
