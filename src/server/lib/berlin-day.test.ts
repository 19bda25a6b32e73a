import { describe, expect, test } from 'vitest'
import { berlinDayRange, isCalendarDay } from './berlin-day.ts'

const iso = (time: number | undefined) => (time === undefined ? undefined : new Date(time).toISOString())
const dayStart = (day: string) => iso(berlinDayRange({ since: day }).since)

describe('Berlin days', () => {
  test('a day starts at midnight in Berlin, in winter and in summer time', () => {
    expect(dayStart('2026-01-15')).toBe('2026-01-14T23:00:00.000Z')
    expect(dayStart('2026-07-15')).toBe('2026-07-14T22:00:00.000Z')
    // The days the clocks change.
    expect(dayStart('2026-03-29')).toBe('2026-03-28T23:00:00.000Z')
    expect(dayStart('2026-10-25')).toBe('2026-10-24T22:00:00.000Z')
  })

  test('a range takes both days whole: from midnight of the first to midnight after the last, across months and years', () => {
    const range = berlinDayRange({ since: '2026-01-15', until: '2026-01-15' })
    expect({ since: iso(range.since), until: iso(range.until) }).toEqual({ since: '2026-01-14T23:00:00.000Z', until: '2026-01-15T23:00:00.000Z' })
    expect(iso(berlinDayRange({ until: '2026-12-31' }).until)).toBe('2026-12-31T23:00:00.000Z')
    // The day the clocks go back has 25 hours, and all of them count.
    expect(iso(berlinDayRange({ until: '2026-10-25' }).until)).toBe('2026-10-25T23:00:00.000Z')
    expect(berlinDayRange({})).toEqual({})
  })

  test('only days of the calendar are days', () => {
    expect(isCalendarDay('2028-02-29')).toBe(true)
    for (const text of ['2026-02-29', '2026-02-30', '2026-13-01', '2026-1-5', 'gestern', '2026-01-15T00:00']) expect(isCalendarDay(text), text).toBe(false)
    expect(() => berlinDayRange({ since: '2026-02-30' })).toThrow(RangeError)
    expect(() => berlinDayRange({ until: '2026-02-30' })).toThrow(RangeError)
  })
})
