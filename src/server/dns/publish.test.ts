import { describe, expect, test } from 'vitest'
import { domainsConfigOf } from '../sites/domains-document.ts'
import { planZones, withRemoved, zoneOf } from './publish.ts'

const FILE = {
  domains: {
    'beispiel.de': { price: 4900 },
    'shop.beispiel.de': {},
    'alt.beispiel.de': { status: 'sold' },
    'versteckt.beispiel.de': { listed: false },
    '*.geparkt.de': { price: 10 },
    'anderes.com': { price: 100, currency: 'USD' },
  },
}

describe('the zones an update writes to', () => {
  test('without DNS_UPDATE_ZONES every name is a zone of its own; with them, the longest that holds it', () => {
    expect(zoneOf('shop.beispiel.de', null)).toBe('shop.beispiel.de')
    expect(zoneOf('shop.beispiel.de', ['de', 'beispiel.de'])).toBe('beispiel.de')
    expect(zoneOf('beispiel.de', ['beispiel.de'])).toBe('beispiel.de')
    // Whole labels: "xbeispiel.de" is not under "beispiel.de".
    expect(zoneOf('xbeispiel.de', ['beispiel.de'])).toBeNull()
  })

  test('every exact name of the file is in its zone, sold and hidden ones with no records; wildcards have none', () => {
    const plan = planZones(domainsConfigOf(FILE), ['beispiel.de'], new Set(['shop.beispiel.de']))
    expect(plan.outside).toEqual(['anderes.com'])
    expect(Object.fromEntries(plan.zones)).toEqual({
      'beispiel.de': expect.arrayContaining([
        { ascii: 'beispiel.de', records: ['v=FORSALE1;furi=https://beispiel.de/', 'v=FORSALE1;fval=EUR4900'] },
        { ascii: 'shop.beispiel.de', records: [] },
        { ascii: 'alt.beispiel.de', records: [] },
        { ascii: 'versteckt.beispiel.de', records: [] },
      ]),
    })
    expect(plan.zones.get('beispiel.de')).toHaveLength(4)
  })

  test('a name published before that the file no longer has is deleted', () => {
    const names = [{ ascii: 'beispiel.de', records: ['v=FORSALE1;furi=https://beispiel.de/'] }]
    expect(withRemoved(names, ['beispiel.de', 'weg.beispiel.de'])).toEqual([...names, { ascii: 'weg.beispiel.de', records: [] }])
  })
})
