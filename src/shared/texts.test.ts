import { describe, expect, test } from 'vitest'
import { TEXT, TEXTS } from './texts.ts'

const HOST = 'münchen.de'
const keys = Object.keys(TEXT) as (keyof typeof TEXT)[]
/** "Name" and "Domain" are the same word in both; "terms: price" is punctuation around two English values. */
const SAME_IN_BOTH = new Set<string>(['labelName', 'domainListName', 'pricedAs'])
/** A text as shown: a string, or what a function makes of the sample value (for each of its values). */
const shown = (value: string | ((...values: string[]) => string)) => (typeof value === 'function' ? value(HOST, HOST) : value)

describe('the text tables', () => {
  test('German is the table the page always had', () => {
    expect(TEXTS.de).toBe(TEXT)
  })

  test('English has every German text, of the same kind, and no other', () => {
    expect(Object.keys(TEXTS.en).sort()).toEqual([...keys].sort())
    for (const key of keys) expect(typeof TEXTS.en[key], key).toBe(typeof TEXT[key])
  })

  test('every English text says something, and says it in English', () => {
    for (const key of keys) {
      const english = shown(TEXTS.en[key])
      expect(english.trim(), key).not.toBe('')
      // Only the sample host may have an umlaut; no German word is left over.
      expect(english.replaceAll(HOST, ''), key).not.toMatch(/[äöüßÄÖÜ]|\b(?:Sie|Bitte|der|die|das|und|nicht|Domain ist)\b/)
      if (!SAME_IN_BOTH.has(key)) expect(english, key).not.toBe(shown(TEXT[key]))
    }
  })

  test('texts made from a value keep the value', () => {
    for (const key of keys) {
      const german = TEXT[key]
      if (typeof german === 'function') expect(shown(TEXTS.en[key]), key).toContain(HOST)
    }
  })
})
