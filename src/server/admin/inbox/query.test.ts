import { describe, expect, test } from 'vitest'
import { filterOf, wordsOf } from './query.ts'

describe('the inbox filters', () => {
  test('von and bis are whole days in Berlin, both inclusive', () => {
    expect(filterOf({ since: '2026-01-15', until: '2026-01-15' })).toEqual({
      since: Date.parse('2026-01-14T23:00:00Z'),
      until: Date.parse('2026-01-15T23:00:00Z'),
    })
  })

  test('free text is cut into words of letters and digits, a trailing * asks for the words it starts; no other syntax', () => {
    expect(wordsOf('  Müller@Mail.example "NEAR" OR x* -y ')).toEqual(['müller', 'mail', 'example', 'near', 'or', 'x*', 'y'])
    expect(wordsOf('a*b** *')).toEqual(['ab*'])
    expect(wordsOf('a b c d e f g h i j')).toHaveLength(8)
    expect(wordsOf('***')).toEqual([])
  })
})
