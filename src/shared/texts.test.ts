import { describe, expect, test } from 'vitest'
import { LANGUAGES } from './language.ts'
import { TEXT, textsOf } from './texts.ts'
import { TEXTS } from './texts-all.ts'

const HOST = 'münchen.de'
const keys = Object.keys(TEXT) as (keyof typeof TEXT)[]
const OTHERS = LANGUAGES.filter((language) => language !== 'de')
/** Words that are the same in German and the language; "terms: price" is punctuation around two translated values. */
const SAME_AS_GERMAN: Record<string, ReadonlySet<string>> = {
  en: new Set(['labelName', 'domainListName', 'pricedAs']),
  fr: new Set(['labelMessage', 'pricedAs']),
  es: new Set(['pricedAs']),
  it: new Set(['pricedAs']),
  nl: new Set(['labelName', 'checkoutCountry', 'pricedAs']),
  pl: new Set(['pricedAs']),
}
/** A text as shown: a string, or what a function makes of the sample value (for each of its values). */
const shown = (value: string | ((...values: string[]) => string)) => (typeof value === 'function' ? value(HOST, HOST) : value)
/** Each value a function takes, told apart: every one must come out again. */
const SAMPLES = ['⟦first⟧', '⟦second⟧']

describe('the text tables', () => {
  test('German is the table the page always had', () => {
    expect(TEXTS.de).toBe(TEXT)
    expect(textsOf('de')).toBe(TEXT)
  })

  test.each(OTHERS)('%s has every German text, of the same kind, and no other', (language) => {
    expect(Object.keys(TEXTS[language]).sort()).toEqual([...keys].sort())
    for (const key of keys) expect(typeof TEXTS[language][key], key).toBe(typeof TEXT[key])
    // The server's checks (contact form, checkout) read the same table.
    expect(textsOf(language)).toBe(TEXTS[language])
  })

  test.each(OTHERS)('every %s text says something, and not in German', (language) => {
    for (const key of keys) {
      const text = shown(TEXTS[language][key])
      expect(text.trim(), key).not.toBe('')
      // Only the sample host may have an umlaut or ß (Polish and the others have no use for them); no German word
      // is left over.
      expect(text.replaceAll(HOST, ''), key).not.toMatch(/[äöüßÄÖÜ]|\b(?:Sie|Bitte|der|das|und|nicht|Domain ist)\b/)
      if (!SAME_AS_GERMAN[language]?.has(key)) expect(text, `${language} ${key}`).not.toBe(shown(TEXT[key]))
    }
  })

  test.each(OTHERS)('every value a %s text is made from survives, each in its place', (language) => {
    for (const key of keys) {
      const german = TEXT[key]
      if (typeof german !== 'function') continue
      const text = TEXTS[language][key] as (...values: string[]) => string
      expect(text.length, key).toBe(german.length)
      const made = text(...SAMPLES)
      for (const sample of SAMPLES.slice(0, german.length)) expect(made, `${language} ${key}`).toContain(sample)
    }
  })

  test('a count of one is singular in every language, and Polish counts have their three forms', () => {
    for (const language of LANGUAGES) expect(TEXTS[language].domainListCount('1'), language).toMatch(/^1 \p{L}/u)
    expect(['1', '2', '4', '5', '12', '22', '25', '1 002'].map((count) => TEXTS.pl.domainListCount(count))).toEqual([
      '1 domena',
      '2 domeny',
      '4 domeny',
      '5 domen',
      '12 domen',
      '22 domeny',
      '25 domen',
      '1 002 domeny',
    ])
  })
})
