// A transferred deal completes by itself AUTO_COMPLETE_DAYS after the owner marked it, unless the buyer confirmed
// first: once an hour, on the job scheduler, so that one process across every instance does it (decision 018). Each
// deal is its own step (completeDeal): a deal the buyer completed in between is refused by the store, not mailed twice.
import type { FastifyBaseLogger } from 'fastify'
import type { Job } from '../scheduler/scheduler.ts'
import { completeDeal, type DealStepContext } from './steps.ts'

const HOUR_MS = 60 * 60 * 1000

export function dealAutoCompleteJob(context: DealStepContext & { log: FastifyBaseLogger; onCompleted: (domain: string) => void; kick: () => void }): Job {
  return {
    name: 'deal-auto-complete',
    schedule: { everyMs: HOUR_MS },
    async run({ now, signal }) {
      for (const id of await context.store.dealsToComplete(now)) {
        if (signal.aborted) return
        const result = await completeDeal(context, id, 'owner', now)
        if (result.status !== 'done') continue
        context.kick()
        context.onCompleted(result.deal.domain)
        context.log.info({ deal: id, domain: result.deal.domain }, 'deal completed by itself: the buyer did not answer within the time')
      }
    },
  }
}
