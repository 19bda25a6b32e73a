import { describe, expect, test } from 'vitest'
import { jsonText, visible, visibleUnits } from './escape.ts'

// Nothing a terminal would act on or reorder: C0, DEL, C1, bidi controls, the Unicode line separators.
const RAW_UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u

describe('visible text', () => {
  test.each([
    ['OSC 52 (write the clipboard)', '\u001b]52;c;ZXZpbA==\u0007', '\\x1b]52;c;ZXZpbA==\\x07'],
    ['OSC 0 (window title)', '\u001b]0;pwned\u001b\\', '\\x1b]0;pwned\\x1b\\'],
    ['CSI cursor up, erase line', 'ok\u001b[2A\u001b[2K', 'ok\\x1b[2A\\x1b[2K'],
    ['C1 CSI and NEL', 'a\u009b2Ab\u0085', 'a\\x9b2Ab\\x85'],
    ['a right-to-left override', 'invoice\u202Efdp.exe', 'invoice\\u202efdp.exe'],
    ['isolates, marks and the Arabic letter mark', '\u2066x\u2069\u200e\u200f\u061c', '\\u2066x\\u2069\\u200e\\u200f\\u061c'],
    ['tab, CR, LF, NUL, DEL', 'a\tb\rc\nd\u0000e\u007f', 'a\\tb\\rc\\nd\\x00e\\x7f'],
    ['the Unicode line separators', 'a\u2028b\u2029c', 'a\\u2028b\\u2029c'],
  ])('%s is shown as escapes', (_what, raw, shown) => {
    expect(visible(raw)).toBe(shown)
    expect(visible(raw)).not.toMatch(RAW_UNSAFE)
  })

  test('ordinary text, umlauts, emoji and right-to-left letters are left as they are', () => {
    expect(visible('Grüße 👋 שלום, C:\\Pfad')).toBe('Grüße 👋 שלום, C:\\Pfad')
  })

  test('with keepLineBreaks a message keeps its lines (CRLF becomes LF), but a lone CR and a tab are escaped', () => {
    expect(visible('Zeile 1\r\nZeile 2\nZeile 3\rüberschrieben\t.', { keepLineBreaks: true })).toBe('Zeile 1\nZeile 2\nZeile 3\\rüberschrieben\\t.')
  })

  test('each escape is one unit, and so is each code point, an emoji included', () => {
    expect(visibleUnits('a\u001b[👋')).toEqual(['a', '\\x1b', '[', '👋'])
  })
})

describe('JSON for the terminal', () => {
  test('escapes what JSON.stringify leaves raw, and parses back to the same value', () => {
    const value = { message: 'a\u009b2A\u202Eb\u2066\u2028\u007f\u001b]52;c;x\u0007', n: 1 }
    expect(JSON.stringify(value)).toMatch(RAW_UNSAFE)
    const text = jsonText(value)
    expect(text).not.toMatch(RAW_UNSAFE)
    expect(text).toContain('\\u009b2A\\u202eb\\u2066\\u2028\\u007f\\u001b]52;c;x\\u0007')
    expect(JSON.parse(text)).toEqual(value)
  })
})
