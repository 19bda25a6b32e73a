import { describe, expect, test } from 'vitest'
import { createWorkBudget } from './work-budget.ts'

describe('a per-client budget of costly work', () => {
  test('allows max units per window, then says how long to wait, and starts afresh when the window ends', () => {
    let time = 1_000_000
    const budget = createWorkBudget({ max: 3, windowMs: 60_000, now: () => time })
    expect([1, 2, 3].map(() => budget.take('a').ok)).toEqual([true, true, true])
    expect(budget.take('a')).toEqual({ ok: false, retryAfterSeconds: 60 })
    time += 59_500
    expect(budget.take('a')).toEqual({ ok: false, retryAfterSeconds: 1 })
    time += 500
    expect(budget.take('a').ok).toBe(true)
  })

  test('each client has its own budget', () => {
    const budget = createWorkBudget({ max: 1, windowMs: 60_000 })
    expect(budget.take('a').ok).toBe(true)
    expect(budget.take('a').ok).toBe(false)
    expect(budget.take('b').ok).toBe(true)
  })

  test('max 0 is no limit', () => {
    const budget = createWorkBudget({ max: 0, windowMs: 60_000 })
    expect(Array.from({ length: 100 }, () => budget.take('a').ok).every(Boolean)).toBe(true)
  })
})
