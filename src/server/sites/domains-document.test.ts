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
const key = fc.constantFrom(
  'price',
  'currency',
  'minOffer',
  'priceType',
  'vat',
  'status',
  'listed',
  'noindex',
  'language',
  'buyUrl',
  'mailTo',
  'description',
  'notify',
  'confirm',
  'prize',
)
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

describe('the checkout plan of a domain (instalments)', () => {
  const problems = (instalments: unknown) => {
    const checked = validateDomains({ domains: { 'raten.de': { price: 1200, priceType: 'fixed', instalments } } })
    return 'problems' in checked ? checked.problems.map((problem) => `${problem.path.join('.')}: ${problem.message}`) : []
  }
  const planOf = (instalments: unknown) => {
    const checked = validateDomains({ domains: { 'raten.de': { price: 1200, instalments } } })
    if (!('data' in checked)) throw new Error(JSON.stringify(checked.problems))
    return openDomainsTable(checked.data).resolve('raten.de')!.settings.instalments
  }

  test('is a number of rates, or rates with a down payment and when the name moves; both forms mean the same plan', () => {
    expect(planOf(12)).toEqual({ rates: 12, downPayment: 0, transfer: 'after-last' })
    expect(planOf({ rates: 12 })).toEqual({ rates: 12, downPayment: 0, transfer: 'after-last' })
    expect(planOf({ rates: 12, downPayment: 500, transfer: 'at-once' })).toEqual({ rates: 12, downPayment: 500, transfer: 'at-once' })
    expect(planOf({ rates: 2, transfer: 'after-last-rate' })).toEqual({ rates: 2, downPayment: 0, transfer: 'after-last' })
  })

  test('is refused with a line that says what is wrong', () => {
    expect(problems(61)).toEqual(['domains.raten.de.instalments: must be 2 to 60 monthly rates'])
    expect(problems(2.5)).toEqual(['domains.raten.de.instalments: must be a whole number of monthly rates'])
    expect(problems('12')).toEqual(['domains.raten.de.instalments: must be a number of monthly rates (2 to 60) or a mapping { rates, downPayment, transfer }'])
    expect(problems({ rates: 1 })).toEqual(['domains.raten.de.instalments.rates: must be 2 to 60 monthly rates'])
    expect(problems({ downPayment: 500 })[0]).toMatch(/^domains\.raten\.de\.instalments\.rates: /)
    expect(problems({ rates: 12, downPayment: 0 })).toEqual(['domains.raten.de.instalments.downPayment: must be more than 0 (leave it out for none)'])
    expect(problems({ rates: 12, transfer: 'sofort' })).toEqual(['domains.raten.de.instalments.transfer: must be after-last-rate or at-once'])
    expect(problems({ rates: 12, anzahlung: 5 })).toEqual(['domains.raten.de.instalments.anzahlung: Unrecognized key: "anzahlung"'])
  })
})
