import { describe, expect, test } from 'vitest'
import { berlinDayStart, wordsOf } from './query.ts'

describe('the inbox filters', () => {
  test('a day starts at midnight in Berlin, in winter and in summer time', () => {
    expect(new Date(berlinDayStart('2026-01-15')).toISOString()).toBe('2026-01-14T23:00:00.000Z')
    expect(new Date(berlinDayStart('2026-07-15')).toISOString()).toBe('2026-07-14T22:00:00.000Z')
    // The days the clocks change.
    expect(new Date(berlinDayStart('2026-03-29')).toISOString()).toBe('2026-03-28T23:00:00.000Z')
    expect(new Date(berlinDayStart('2026-10-25')).toISOString()).toBe('2026-10-24T22:00:00.000Z')
  })

  test('free text is cut into words of letters and digits, a trailing * asks for the words it starts; no other syntax', () => {
    expect(wordsOf('  Müller@Mail.example "NEAR" OR x* -y ')).toEqual(['müller', 'mail', 'example', 'near', 'or', 'x*', 'y'])
    expect(wordsOf('a*b** *')).toEqual(['ab*'])
    expect(wordsOf('a b c d e f g h i j')).toHaveLength(8)
    expect(wordsOf('***')).toEqual([])
  })
})
