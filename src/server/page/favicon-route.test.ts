import { describe, expect, test } from 'vitest'
import { faviconSvg, iconLetter } from './favicon-route.ts'

describe('the icon of a name', () => {
  test('is its first character as a capital', () => {
    expect(iconLetter('beispiel.de')).toBe('B')
    expect(iconLetter('über-uns.de')).toBe('Ü')
    expect(iconLetter('4you.de')).toBe('4')
    expect(iconLetter('日本.jp')).toBe('日')
  })

  test('a character whose capital is two letters stays as it is, and a letter with a combining mark stays whole', () => {
    expect(iconLetter('ßtraße.de')).toBe('ß')
    expect(iconLetter('e\u0301cole.fr')).toBe('E\u0301')
  })

  test('is an SVG with the letter as escaped text', () => {
    expect(faviconSvg('beispiel.de')).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" [^>]*>.*<text [^>]*>B<\/text><\/svg>$/)
    expect(faviconSvg('<script>.de')).toContain('>&lt;</text>')
  })
})
