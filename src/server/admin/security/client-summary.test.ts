import { expect, test } from 'vitest'
import { browserSummary, partialAddress } from './client-summary.ts'

test('a browser is summarised by its name and system, never the whole User-Agent', () => {
  expect(browserSummary('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36')).toBe('Chrome auf Linux')
  expect(
    browserSummary('Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'),
  ).toBe('Safari auf iOS')
  expect(browserSummary('Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:132.0) Gecko/20100101 Firefox/132.0')).toBe('Firefox auf Windows')
  expect(browserSummary('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0')).toBe(
    'Edge auf Windows',
  )
  expect(browserSummary('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36')).toBe(
    'Chrome auf Linux',
  )
  expect(browserSummary('<script>alert(1)</script>')).toBe('Unbekannter Browser')
  expect(browserSummary(undefined)).toBe('Unbekannter Browser')
})

test('an address is kept in part only', () => {
  expect(partialAddress('203.0.113.77')).toBe('203.0.x.x')
  expect(partialAddress('::ffff:198.51.100.4')).toBe('198.51.x.x')
  expect(partialAddress('2001:db8:1:2::5')).toBe('2001:db8:…')
  expect(partialAddress('nonsense')).toBeNull()
})
