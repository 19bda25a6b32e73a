import { describe, expect, test } from 'vitest'
import { cell, table } from './format.ts'

describe('table cells', () => {
  test('a long cell is cut after escaping, never inside an escape', () => {
    // Cut naively at 10 characters this would end in the middle of "\x1b" (or of the raw sequence).
    const cut = cell('abcdefg\u001b[2Jrest of the message', 10)
    expect(cut).toEqual({ text: 'abcdefg…', width: 8 })
    expect(cell('abcdef\u001b[2J', 11)).toEqual({ text: 'abcdef\\x1b…', width: 11 })
  })

  test('line breaks become one space and the cell is trimmed; tab and CR are escaped', () => {
    expect(cell('  Zeile 1\r\n\r\nZeile 2  ', 40).text).toBe('Zeile 1 Zeile 2')
    expect(cell('a\tb\rc', 40).text).toBe('a\\tb\\rc')
  })

  test('columns are aligned by the places the escaped cells take', () => {
    const lines = table(
      ['A', 'B'],
      [
        ['\u001b', 'x'],
        ['👋', 'y'],
      ],
    ).split('\n')
    expect(lines).toEqual(['A     B', '----  -', '\\x1b  x', '👋     y'])
  })

  test('a table of 200,000 rows is aligned to its widest cell (a spread of the widths was beyond the call stack)', () => {
    const rows = Array.from({ length: 200_000 }, (_, i) => [`name-${i}.de`, i])
    const lines = table(['Domain', 'Price'], rows).split('\n')
    expect(lines).toHaveLength(200_002)
    expect(lines[1]).toBe('--------------  ------')
    expect(lines.at(-1)).toBe('name-199999.de  199999')
  })
})
