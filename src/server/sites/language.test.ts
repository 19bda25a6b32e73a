import { describe, expect, test } from 'vitest'
import { answerLanguageFor, languagesOf, preferredLanguage } from './language.ts'

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

describe('Accept-Language among the languages the owner allows', () => {
  const ALL = ['de', 'en', 'fr', 'es', 'it', 'nl', 'pl'] as const
  test.each([
    // What browsers in each country send.
    ['fr-FR,fr;q=0.9,en-US;q=0.8,en;q=0.7', 'fr'],
    ['fr-CH,fr;q=0.9,de;q=0.8', 'fr'],
    ['es-ES,es;q=0.9', 'es'],
    ['es-419,es;q=0.9,en;q=0.8', 'es'],
    ['it-IT,it;q=0.9,en-US;q=0.8,en;q=0.7', 'it'],
    ['nl-NL,nl;q=0.9,en-US;q=0.8,en;q=0.7', 'nl'],
    ['nl-BE,fr-BE;q=0.9', 'nl'],
    ['pl-PL,pl;q=0.9,en-US;q=0.8,en;q=0.7', 'pl'],
    // q-values decide, whatever the order of the entries.
    ['en;q=0.5,pl;q=0.6', 'pl'],
    ['pl;q=0.6,it;q=0.7,fr;q=0.65', 'it'],
    ['fr;q=0,es;q=0.1', 'es'],
    // A tie goes to the language the owner named first.
    ['fr;q=0.5,nl;q=0.5', 'fr'],
    ['nl,fr', 'fr'],
    ['*', 'de'],
    // Named by none of the allowed ones, or unreadable: the first allowed one.
    ['ja,zh;q=0.9', 'de'],
    ['pt-BR,pt;q=0.9', 'de'],
    ['fr;q=2', 'de'],
  ] as const)('%j is %s when the owner allows all seven', (header, language) => {
    expect(preferredLanguage(header, ALL)).toBe(language)
  })

  test('a language the owner does not allow is never chosen, however much the browser wants it', () => {
    expect(preferredLanguage('fr-FR,fr;q=0.9,en;q=0.1', ['de', 'en'])).toBe('en')
    expect(preferredLanguage('fr-FR,fr;q=0.9', ['de', 'en'])).toBe('de')
    expect(preferredLanguage('pl,fr;q=0.9', ['de', 'fr'])).toBe('fr')
    expect(preferredLanguage('pl', ['fr', 'es'])).toBe('fr')
  })

  test("the owner's first language is the fallback, German or not", () => {
    expect(preferredLanguage(undefined, ['en', 'fr'])).toBe('en')
    expect(preferredLanguage('de-DE', ['en', 'fr'])).toBe('en')
    expect(preferredLanguage('ja', ['nl', 'de'])).toBe('nl')
    expect(preferredLanguage('de;q=0.5,nl;q=0.5', ['nl', 'de'])).toBe('nl')
  })

  test('without a list of its own, auto chooses between German and English as it always did', () => {
    expect(preferredLanguage('fr-FR,fr;q=0.9')).toBe('de')
    expect(preferredLanguage('fr-FR,fr;q=0.9,en;q=0.7')).toBe('en')
    expect(answerLanguageFor('auto', 'pl-PL')).toEqual({ language: 'de', variesByLanguage: true })
  })
})

describe('the language a site answers in', () => {
  test('a fixed language of the seven does not vary, whatever the browser prefers', () => {
    for (const language of ['fr', 'es', 'it', 'nl', 'pl'] as const) {
      expect(answerLanguageFor(language, 'de-DE,en;q=0.9')).toEqual({ language, variesByLanguage: false })
      expect(languagesOf({ language, languages: ['de', 'en'] })).toEqual([language])
    }
  })

  test('auto chooses among the allowed languages and varies by the request', () => {
    expect(answerLanguageFor('auto', 'it-IT,it;q=0.9', ['de', 'en', 'it'])).toEqual({ language: 'it', variesByLanguage: true })
    expect(answerLanguageFor('auto', 'it-IT,it;q=0.9', ['de', 'en'])).toEqual({ language: 'de', variesByLanguage: true })
    expect(languagesOf({ language: 'auto' })).toEqual(['de', 'en'])
    expect(languagesOf({ language: 'auto', languages: ['fr', 'de'] })).toEqual(['fr', 'de'])
    expect(languagesOf({})).toEqual(['de'])
  })

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
