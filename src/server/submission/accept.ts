// What the contact form and the checkout do alike with a submission whose token checked out: count it against the
// client's accepted submissions per hour, answer a repeat of one already stored as before even when the hour is full,
// store it, and give the count back when nothing new was stored. Counted before storing, in the same step as the
// check, so that a burst cannot pass the check all at once.
import type { FastifyBaseLogger, FastifyRequest } from 'fastify'
import type { RateLimits } from '../store/rate-limit-common.ts'

const HOUR_MS = 60 * 60 * 1000
/** All POSTs of a client address per hour, as a multiple of the accepted-submission limit. */
const POST_LIMIT_FACTOR = 10

/**
 * The route's `config` for a wider limit on every POST, whatever its fate, so that a flood of invalid requests is cut
 * off early too (@fastify/rate-limit, counted in a hook); none when CONTACT_RATE_LIMIT is 0.
 */
export function everyPostLimit(limit: number, groupId: string, keyGenerator: (request: FastifyRequest) => string, full: (request: FastifyRequest) => Error) {
  return limit > 0 ? { rateLimit: { groupId, max: limit * POST_LIMIT_FACTOR, timeWindow: HOUR_MS, keyGenerator, errorResponseBuilder: full } } : {}
}

export interface Acceptance {
  /** The quota of accepted submissions ('accepted inquiries'); null when CONTACT_RATE_LIMIT is 0. */
  quota: ReturnType<RateLimits['quota']> | null
  clientKey: string
  /** Accepted submissions per client and hour. */
  limit: number
  /** Whether the same token and content are stored already: a retry whose answer got lost. */
  stored: () => Promise<boolean>
  /** The error of a full hour, with the seconds until the next submission counts. */
  full: (retryAfterSeconds: number) => Error
  log: FastifyBaseLogger
}

/** Runs `save` (true when it stored something new) within the client's quota; throws `full`'s error over it. */
export async function acceptSubmission(acceptance: Acceptance, save: () => Promise<boolean>): Promise<boolean> {
  const { quota, clientKey, limit, stored, full, log } = acceptance
  const taken = quota && (await quota.take(clientKey, limit, HOUR_MS))
  if (taken?.status === 'full' && !(await stored())) throw full(Math.max(1, Math.ceil(taken.retryAfterMs / 1000)))
  let created = false
  try {
    created = await save()
  } finally {
    if (taken?.status === 'taken' && !created) {
      await taken.giveBack().catch((error: unknown) => log.warn({ err: error }, 'could not give back a rate-limit count'))
    }
  }
  return created
}
