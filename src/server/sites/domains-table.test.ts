import { describe, expect, test } from 'vitest'
import { domainsConfigOf } from './domains-document.ts'
import { domainsTableBuilder, openDomainsTable } from './domains-table.ts'
import { hashBytes } from './packed.ts'
import { domainsFileSchema } from './settings.ts'

const TOP = (() => {
  const { domains: _none, ...top } = domainsFileSchema.parse({ default: { currency: 'EUR' } })
  return top
})()

/** A table of `names`, each with the price of its position, made as the loading process makes it. */
function tableOf(names: string[]) {
  const builder = domainsTableBuilder(TOP)
  names.forEach((name, i) => builder.add(name, { price: i }))
  return openDomainsTable(builder.build())
}

describe('the domains table', () => {
  test('finds every name it holds with its own settings, and no name it does not hold', () => {
    const names = Array.from({ length: 5000 }, (_, i) => `name-${i}.de`)
    const table = tableOf(names)
    expect(table.size).toBe(5000)
    for (const [i, name] of names.entries()) expect(table.resolve(name)?.settings.price).toBe(i)
    for (const name of ['name-5000.de', 'name-1.d', 'ame-1.de', 'name-1.dee', '', 'de'])
      expect(table.resolve(name)).toEqual({ known: false, settings: { currency: 'EUR' } })
  })

  test("lists every name in order as one array, as names() yields them, and gives an unlisted entry's settings", () => {
    const names = ['xn--mnchen-3ya.de', '*.wild.de', ...Array.from({ length: 300 }, (_, i) => `name-${i}.de`)]
    const table = tableOf(names)
    expect(table.nameList()).toEqual([...table.names()])
    expect(table.nameList()).toEqual(names)
    const hidden = domainsConfigOf({ domains: { 'versteckt.de': { listed: false, price: 5 } } })
    expect([hidden.resolve('versteckt.de'), hidden.entry('versteckt.de'), hidden.entry('fehlt.de')]).toEqual([null, { listed: false, price: 5 }, null])
  })

  test('names whose hashes fall into the same slot are all found', () => {
    const slots = 16
    const slotOf = (name: string) => {
      const bytes = new TextEncoder().encode(name)
      return hashBytes(bytes, 0, bytes.length) & (slots - 1)
    }
    // Eight names in the table's 16 slots (it keeps at most half of them taken), five of them in the same slot.
    const candidates = Array.from({ length: 500 }, (_, i) => `c${i}.de`)
    const colliding = candidates.filter((name) => slotOf(name) === slotOf('c0.de')).slice(0, 5)
    expect(colliding).toHaveLength(5)
    const names = [...colliding, 'a.de', 'b.de', 'c.de']
    const table = tableOf(names)
    for (const [i, name] of names.entries()) expect(table.resolve(name)?.settings.price).toBe(i)
    const missing = candidates.filter((name) => slotOf(name) === slotOf('c0.de') && !names.includes(name))[0]!
    expect(table.resolve(missing)?.known).toBe(false)
  })

  test('Unicode keys are held and found by their ASCII form; shown in the file’s order', () => {
    const table = domainsConfigOf({ domains: { 'München.de': { price: 1 }, 'bücher.example': { price: 2 }, 'plain.de': null } })
    expect([...table.names()]).toEqual(['xn--mnchen-3ya.de', 'xn--bcher-kva.example', 'plain.de'])
    expect(table.resolve('xn--mnchen-3ya.de')?.settings.price).toBe(1)
    expect(table.resolve('xn--bcher-kva.example')?.settings.price).toBe(2)
    expect(table.resolve('münchen.de')?.known).toBe(false)
  })

  test('a wildcard covers one label below it and is named; an exact entry wins over it', () => {
    const table = domainsConfigOf({ unknownHosts: 'not-found', domains: { '*.parked.de': { price: 5 }, 'own.parked.de': { price: 7 } } })
    expect(table.resolve('shop.parked.de')).toEqual({ known: true, wildcard: '*.parked.de', settings: { price: 5 } })
    expect(table.resolve('own.parked.de')).toEqual({ known: true, settings: { price: 7 } })
    expect(table.resolve('a.shop.parked.de')).toBeNull()
    expect(table.resolve('parked.de')).toBeNull()
    expect(table.resolve('de')).toBeNull()
  })

  test('entries give each name with its own settings, without the defaults', () => {
    const table = domainsConfigOf({ default: { currency: 'USD' }, domains: { 'a.de': { price: 1 }, '*.b.de': null } })
    expect([...table.entries()]).toEqual([
      ['a.de', { price: 1 }],
      ['*.b.de', {}],
    ])
  })

  test('settings handed to requests are shared, so they cannot be changed', () => {
    const table = domainsConfigOf({ domains: { 'a.de': { price: 1 } } })
    const settings = table.resolve('a.de')!.settings
    expect(table.resolve('a.de')!.settings).toBe(settings)
    expect(() => Object.assign(settings, { price: 2 })).toThrow(TypeError)
  })

  test('the same entries give the same version, other entries another', () => {
    const names = ['a.de', 'b.de']
    expect(tableOf(names).version).toBe(tableOf(names).version)
    expect(tableOf(['a.de', 'c.de']).version).not.toBe(tableOf(names).version)
    expect(tableOf(names).version).toMatch(/^[\w-]{10}$/)
  })

  test('says where notify is set first, for the NOTIFY_SECRET check', () => {
    expect(domainsConfigOf({ domains: { 'a.de': {} } }).notifyIn).toBeNull()
    expect(domainsConfigOf({ domains: { 'a.de': {}, 'b.de': { notify: 'https://hooks.example.org/x' } } }).notifyIn).toBe('b.de')
    expect(domainsConfigOf({ default: { notify: 'https://hooks.example.org/x' }, domains: { 'b.de': {} } }).notifyIn).toBe('default')
  })
})
