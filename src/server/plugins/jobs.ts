// This process's scheduled jobs, the complete list for its configuration: the server's own (jobs/server-jobs.ts)
// and the deals', confirmations', counter offers' and daily checks'. Decorated as `jobs` (a test moves them on with
// `app.jobs.runDue(now)`), started with the background work, stopped before the outbox that their mail goes
// through and the transport it closes (decision 061): registered after it, so closed before it.
import fp from 'fastify-plugin'
import { unconfirmedExpiryJob } from '../confirm/expiry.ts'
import { publicPlugin } from '../decorations.ts'
import { dealAutoCompleteJob } from '../deal/auto-complete.ts'
import { dealDeadlinesJob, transferCodeErasureJob } from '../deal/deadlines.ts'
import { counterExpiryJob } from '../deal/expiry.ts'
import { bootstrapHolder, domainCheckJob } from '../domain-checks/job.ts'
import { checkOptionsFor, listedNames, noticeUrlsFor } from '../domain-checks/setup.ts'
import { createServerJobs } from '../jobs/server-jobs.ts'
import type { MailTransport } from '../mail/transport.ts'

export default fp(
  publicPlugin<{ transport: MailTransport }>(async (app, { transport }) => {
    const { config, store, domains, soldNames, outbox, domainNotices } = app
    const log = (component: string) => app.log.child({ component })
    const jobs = createServerJobs(config, { store, transport, domains, log: log('jobs') })
    // Made anew for each job and never spread: `domains` is a getter, the domains in force when the job runs.
    const deals = () => ({
      store,
      config,
      get domains() {
        return domains.current()
      },
      log: log('deals'),
      kick: () => outbox.kick(),
    })
    jobs.add(dealAutoCompleteJob(Object.assign(deals(), { onCompleted: (domain: string) => soldNames.add(domain) })))
    jobs.add(dealDeadlinesJob(deals()))
    jobs.add(transferCodeErasureJob({ store, log: log('deals') }))
    jobs.add(unconfirmedExpiryJob({ store, log: log('confirm') }))
    jobs.add(counterExpiryJob({ store, log: log('counter-expiry') }))
    // The daily checks of the listed names (decision 047): hourly slices of the portfolio, notifications of their own.
    if (config.domainChecks.daily) {
      jobs.add(
        domainCheckJob({
          store,
          listed: () => listedNames(domains.current(), soldNames),
          checks: checkOptionsFor(config.domainChecks),
          bootstrap: bootstrapHolder(),
          notify: (ascii) => noticeUrlsFor(domains.current(), config)(ascii),
          queued: () => domainNotices.kick(),
          log: log('domain-checks'),
        }),
      )
    }
    app.decorate('jobs', jobs)
    app.background.later(() => jobs.start())
    app.addHook('onClose', () => jobs.stop())
  }),
  { name: 'jobs', dependencies: ['store', 'background', 'outbox', 'domains', 'domain-notices'] },
)
