import { parse } from 'csv-parse/sync'
import { describe, expect, test } from 'vitest'
import { csv } from './csv.ts'

// Some programs drop leading quotes, tabs, CRs and spaces before they look: what comes after must not be a trigger.
const TRIGGER = /^["\s]*[=+\-@\uff1d\uff0b\uff0d\uff20\ufe66\ufe62\ufe63\ufe6b]/u
const HOSTILE = [
  '=1+1',
  ';=1+1;',
  'a,=HYPERLINK("http://evil.example")',
  '+49 30 1234',
  '-2+3',
  '@SUM(A1)',
  '\t=1',
  '\r=1',
  'x\n=1',
  'x\r\n -1',
  '\uff1d1+1',
  'a; \uff0b1',
  'say "hi", =2',
]

describe('CSV', () => {
  test.each([',', ';'] as const)('with "%s" every text cell is quoted and reads back with no formula, whichever separator a program splits on', (separator) => {
    const text = csv(
      ['id', 'message'],
      HOSTILE.map((message, i) => [i + 1, message]),
      separator,
    )
    expect(text.startsWith('\ufeff"id"' + separator + '"message"\r\n')).toBe(true)
    const records = parse(text, { bom: true, delimiter: separator }) as string[][]
    expect(records).toHaveLength(HOSTILE.length + 1)
    for (const [i, message] of HOSTILE.entries()) {
      expect(records[i + 1]![0]).toBe(String(i + 1))
      // The text is all there, only an apostrophe in front of each trigger.
      expect(records[i + 1]![1]!.replaceAll("'", '')).toBe(message.replace(/\r\n/g, '\n').replace(/\t/g, '\\t').replace(/\r/g, '\\r'))
    }
    // A program that splits on the other separator, or on any separator and line break, ignoring the quotes.
    for (const piece of text.replace(/^\ufeff/, '').split(/[,;\t\r\n]/)) expect(piece).not.toMatch(TRIGGER)
    for (const other of [',', ';']) {
      const loose = parse(text, { bom: true, delimiter: other, relax_quotes: true, relax_column_count: true }) as string[][]
      for (const field of loose.flat()) expect(field).not.toMatch(TRIGGER)
    }
  })

  test('numbers and booleans stay bare, an empty value is an empty cell, control characters are escaped', () => {
    expect(csv(['a', 'b', 'c', 'd'], [[4900, false, null, 'x\u001b]52;c;eA==\u0007']])).toBe('\ufeff"a","b","c","d"\r\n4900,false,,"x\\x1b]52;c;eA==\\x07"\r\n')
  })
})
