import { describe, expect, test } from 'vitest'
import { endOfBerlinDay } from './due-date.ts'

describe('a deadline given as a day', () => {
  test('is the end of that day in Berlin, in winter and in summer', () => {
    expect(new Date(endOfBerlinDay('2026-12-31')!).toISOString()).toBe('2026-12-31T22:59:00.000Z')
    expect(new Date(endOfBerlinDay('2026-07-15')!).toISOString()).toBe('2026-07-15T21:59:00.000Z')
  })

  test('on the days the clocks change is still 23:59 there', () => {
    expect(new Date(endOfBerlinDay('2026-03-29')!).toISOString()).toBe('2026-03-29T21:59:00.000Z')
    expect(new Date(endOfBerlinDay('2026-10-25')!).toISOString()).toBe('2026-10-25T22:59:00.000Z')
  })

  test.each(['2026-02-30', '2026-13-01', '31.12.2026', '2026-1-5', '', 'morgen', '2026-12-31T10:00'])('is refused for "%s"', (text) => {
    expect(endOfBerlinDay(text)).toBeNull()
  })
})
