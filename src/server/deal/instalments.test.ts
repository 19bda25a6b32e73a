import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { berlinPartsOf } from '../lib/berlin.ts'
import { endOfBerlinDay } from './due-date.ts'
import { instalmentSchedule, MAX_RATES, MIN_RATES, monthsLater, planProblem, rateReference, splitAmount } from './instalments.ts'

const day = (text: string) => endOfBerlinDay(text)!
const berlinDay = (ms: number) => {
  const p = berlinPartsOf(ms)
  return `${p.year}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')} ${String(p.hour).padStart(2, '0')}:${String(p.minute).padStart(2, '0')}`
}

describe('an instalment plan', () => {
  test('adds up to the total exactly, in whole minor units, for any total, count and down payment', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: MIN_RATES, max: MAX_RATES }),
        fc.integer({ min: 0, max: 9_000_000_000_00 }),
        fc.integer({ min: 0, max: 9_000_000_000_00 }),
        (rates, extra, down) => {
          const total = rates + extra
          const downPayment = Math.min(down, total - rates)
          const schedule = instalmentSchedule(total, { rates, downPayment }, day('2026-01-31'))
          expect(schedule.reduce((sum, rate) => sum + rate.amount, 0)).toBe(total)
          expect(schedule.every((rate) => Number.isSafeInteger(rate.amount) && rate.amount >= 1)).toBe(true)
          expect(schedule.filter((rate) => rate.number > 0)).toHaveLength(rates)
          const monthly = schedule.filter((rate) => rate.number > 0).map((rate) => rate.amount)
          expect(Math.max(...monthly) - Math.min(...monthly)).toBeLessThanOrEqual(1)
          // Due dates never go backwards and each payment is due after the one before.
          for (let i = 1; i < schedule.length; i++) expect(schedule[i]!.dueAt).toBeGreaterThan(schedule[i - 1]!.dueAt)
        },
      ),
      { numRuns: 5000 },
    )
  })

  test('splits 1000.00 € into 3 rates of 333.34, 333.33 and 333.33', () => {
    expect(splitAmount(100_000, 3)).toEqual([33_334, 33_333, 33_333])
    expect(splitAmount(100_000, 3, 10_000)).toEqual([30_000, 30_000, 30_000])
  })

  test('is refused below 2 or above 60 rates, and with a down payment that leaves less than a cent a rate', () => {
    expect(planProblem(100_000, { rates: 1, downPayment: 0 })).toBe('rates')
    expect(planProblem(100_000, { rates: 61, downPayment: 0 })).toBe('rates')
    expect(planProblem(100_000, { rates: 2.5, downPayment: 0 })).toBe('rates')
    expect(planProblem(100_000, { rates: 12, downPayment: 99_990 })).toBe('down-payment')
    expect(planProblem(100_000, { rates: 12, downPayment: -1 })).toBe('down-payment')
    expect(planProblem(100_000, { rates: 60, downPayment: 0 })).toBeNull()
    expect(() => splitAmount(100, 61)).toThrow(RangeError)
  })

  test('falls due monthly on the same Berlin day, the month end when the month is shorter', () => {
    const schedule = instalmentSchedule(120_000, { rates: 4, downPayment: 0 }, day('2027-01-31'))
    expect(schedule.map((rate) => berlinDay(rate.dueAt))).toEqual(['2027-01-31 23:59', '2027-02-28 23:59', '2027-03-31 23:59', '2027-04-30 23:59'])
    expect(monthsLater({ year: 2028, month: 1, day: 31 }, 1)).toEqual({ year: 2028, month: 2, day: 29 })
    expect(monthsLater({ year: 2026, month: 11, day: 15 }, 3)).toEqual({ year: 2027, month: 2, day: 15 })
  })

  test('puts the down payment first and rate 1 a month after it, across a change of the clocks', () => {
    const schedule = instalmentSchedule(50_000, { rates: 2, downPayment: 10_000 }, day('2026-03-10'))
    expect(schedule.map((rate) => [rate.number, rate.amount, berlinDay(rate.dueAt)])).toEqual([
      [0, 10_000, '2026-03-10 23:59'],
      [1, 20_000, '2026-04-10 23:59'],
      [2, 20_000, '2026-05-10 23:59'],
    ])
  })

  test('gives each rate a reference of its own', () => {
    expect(rateReference('DL-2026-0042', 3)).toBe('DL-2026-0042-R03')
    expect(rateReference('DL-2026-0042', 0)).toBe('DL-2026-0042-R00')
  })
})
