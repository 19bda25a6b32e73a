import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { validateDomains } from './domains-document.ts'
import { openDomainsTable } from './domains-table.ts'
import { domainsFileSchema } from './settings.ts'

// Values each key may or may not accept: valid ones, wrong types, wrong ranges.
const value = fc.oneof(
  fc.constantFrom(4900, 0, -1, 1.5, 2_000_000_000, 'EUR', 'eur', 'fixed', 'on-request', 'sold', 'en', 'auto', 'https://escrow.example/x', 'http://x.example/'),
  fc.constantFrom('verkauf@example.org', 'a@b, c@d', true, false, null, [], ['https://hooks.example.org/a'], {}, 'text'),
  fc.string({ maxLength: 8 }),
)
const key = fc.constantFrom('price', 'currency', 'minOffer', 'priceType', 'vat', 'status', 'listed', 'noindex', 'language', 'buyUrl', 'mailTo', 'description', 'notify', 'confirm', 'prize')
const entry = fc.oneof(fc.dictionary(key, value, { maxKeys: 4 }), fc.constantFrom(null, 'x', 3, []))

describe('a domains document', () => {
  test('an entry checked key by key is accepted or refused exactly as the whole schema does, with the same settings', () => {
    fc.assert(
      fc.property(entry, (settings) => {
        const whole = domainsFileSchema.safeParse({ domains: { 'example.de': settings } })
        const checked = validateDomains({ domains: { 'example.de': settings } })
        expect('data' in checked).toBe(whole.success)
        if (whole.success && 'data' in checked) {
          expect([...openDomainsTable(checked.data).entries()]).toEqual([['example.de', whole.data.domains['example.de']]])
        }
      }),
      { numRuns: 3000 },
    )
  })
})
