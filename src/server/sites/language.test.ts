import { describe, expect, test } from 'vitest'
import { answerLanguageFor, preferredLanguage } from './language.ts'

describe('Accept-Language', () => {
  test.each([
    // What browsers send.
    ['en-US,en;q=0.9', 'en'],
    ['en-GB', 'en'],
    ['de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7', 'de'],
    ['de-AT', 'de'],
    ['de-CH,en;q=0.5', 'de'],
    ['fr-FR,fr;q=0.9,en-US;q=0.8,en;q=0.7', 'en'],
    ['ja,en-US;q=0.9,en;q=0.8', 'en'],
    ['nl,de;q=0.9,en;q=0.8', 'de'],
    ['nl,en;q=0.9,de;q=0.8', 'en'],
    // Weights: the higher one wins, a tie is German, q=0 rules a language out.
    ['de;q=0.5,en;q=0.8', 'en'],
    ['en;q=0.8,de;q=0.8', 'de'],
    ['en;q=0.001', 'en'],
    ['en;q=0', 'de'],
    ['en;q=0,de;q=0', 'de'],
    ['EN-us;Q=1.000', 'en'],
    ['en;q=1.0,de;q=0.999', 'en'],
    // The best range of a language counts, whatever its region.
    ['de-DE;q=0.3,en-GB;q=0.4,de;q=0.5', 'de'],
    ['en-GB;q=0.2,en-US;q=0.9,de;q=0.8', 'en'],
    // "*" stands for every language not named.
    ['*', 'de'],
    ['*;q=0.5,de;q=0.1', 'en'],
    ['fr,*;q=0.5,en;q=0', 'de'],
    ['en,*;q=0', 'en'],
    // Neither language, nothing, or nothing readable: German.
    ['fr-FR,fr;q=0.9', 'de'],
    ['', 'de'],
    [undefined, 'de'],
    ['   ', 'de'],
    [',,,;;;', 'de'],
    ['english', 'de'],
    // Entries that cannot be read are skipped; the others still count.
    ['en;q=2', 'de'],
    ['en;q=-1', 'de'],
    ['en;q=0.0001', 'de'],
    ['en;q=1.5', 'de'],
    ['en;q=abc,de;q=0.1', 'de'],
    ['en;q=0.9;x=1', 'de'],
    ['e n,de;q=0.5', 'de'],
    ['toolongtag-x,en;q=0.5', 'en'],
    ['en-toolongsubtag,de;q=0.5', 'de'],
    ['<script>,en', 'en'],
    ['en ; q=0.7 , de ; q=0.6', 'en'],
  ] as const)('%j is %s', (header, language) => {
    expect(preferredLanguage(header)).toBe(language)
  })

  test('a header of thousands of entries is read by its first fifty', () => {
    expect(preferredLanguage(`${'fr,'.repeat(49)}en`)).toBe('en')
    expect(preferredLanguage(`${'fr,'.repeat(50)}en`)).toBe('de')
    expect(preferredLanguage(`${'x-'.repeat(100_000)}en`)).toBe('de')
  })
})

describe('the language a site answers in', () => {
  test('de and en are fixed and do not vary; unset is German', () => {
    expect(answerLanguageFor('en', 'de-DE')).toEqual({ language: 'en', variesByLanguage: false })
    expect(answerLanguageFor('de', 'en-US')).toEqual({ language: 'de', variesByLanguage: false })
    expect(answerLanguageFor(undefined, 'en-US')).toEqual({ language: 'de', variesByLanguage: false })
  })

  test('auto follows the request and varies by it', () => {
    expect(answerLanguageFor('auto', 'en-GB')).toEqual({ language: 'en', variesByLanguage: true })
    expect(answerLanguageFor('auto', 'de-AT')).toEqual({ language: 'de', variesByLanguage: true })
    expect(answerLanguageFor('auto', undefined)).toEqual({ language: 'de', variesByLanguage: true })
  })
})
