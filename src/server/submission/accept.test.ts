import { describe, expect, test } from 'vitest'
import pino from 'pino'
import type { Taken } from '../store/rate-limit-common.ts'
import { acceptSubmission, type Acceptance } from './accept.ts'

/** A quota that answers `status` and counts what was given back. */
function quotaOf(status: 'taken' | 'full') {
  const counts = { taken: 0, givenBack: 0 }
  const quota = {
    async take(): Promise<Taken> {
      counts.taken++
      return status === 'taken' ? { status, giveBack: async () => void counts.givenBack++ } : { status, retryAfterMs: 1500 }
    },
  }
  return { quota, counts }
}

const acceptance = (quota: Acceptance['quota'], stored = false): Acceptance => ({
  quota,
  clientKey: '192.0.2.1',
  limit: 5,
  stored: async () => stored,
  full: (seconds) => new Error(`full, again in ${seconds} s`),
  log: pino({ level: 'silent' }),
})

describe('a submission within the quota of accepted submissions', () => {
  test('one that stores something new keeps its count', async () => {
    const { quota, counts } = quotaOf('taken')
    expect(await acceptSubmission(acceptance(quota), async () => true)).toBe(true)
    expect(counts).toEqual({ taken: 1, givenBack: 0 })
  })

  test('a repeat that stores nothing new gives its count back', async () => {
    const { quota, counts } = quotaOf('taken')
    expect(await acceptSubmission(acceptance(quota), async () => false)).toBe(false)
    expect(counts).toEqual({ taken: 1, givenBack: 1 })
  })

  test('a save that fails gives its count back and the failure reaches the caller', async () => {
    const { quota, counts } = quotaOf('taken')
    await expect(
      acceptSubmission(acceptance(quota), async () => {
        throw new Error('store down')
      }),
    ).rejects.toThrow('store down')
    expect(counts.givenBack).toBe(1)
  })

  test('a full hour refuses a new submission with the whole seconds until the next one counts', async () => {
    const { quota } = quotaOf('full')
    let saved = false
    await expect(
      acceptSubmission(acceptance(quota), async () => {
        saved = true
        return true
      }),
    ).rejects.toThrow('full, again in 2 s')
    expect(saved).toBe(false)
  })

  test('a full hour still answers the repeat of a submission already stored', async () => {
    const { quota, counts } = quotaOf('full')
    expect(await acceptSubmission(acceptance(quota, true), async () => false)).toBe(false)
    expect(counts.givenBack).toBe(0)
  })

  test('without a limit nothing is counted', async () => {
    expect(await acceptSubmission(acceptance(null), async () => true)).toBe(true)
  })
})
