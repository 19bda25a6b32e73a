import { describe, expect, test } from 'vitest'
import { UNCONFIRMED_TTL_MS } from './confirm-link.ts'
import { checkConfirmToken, confirmUrl, readConfirmToken, signConfirmToken } from './confirm-link.ts'

const SECRET = 'a-secret-of-at-least-16'
const T0 = Date.UTC(2026, 2, 1, 9)
const target = { id: 42, token: 'AbCdEfGhIjKlMnO', domain: 'example.de', createdAt: T0 }

function check(t: string, now = T0 + 1000, of: Omit<typeof target, 'createdAt'> = target, secret = SECRET) {
  const read = readConfirmToken(t)
  return read && read.id === of.id ? checkConfirmToken(secret, read, of, now) : 'invalid'
}

describe('the confirmation link', () => {
  test('carries the id and an expiry 48 hours after the inquiry, and holds until then', () => {
    const t = signConfirmToken(SECRET, target)
    expect(readConfirmToken(t)).toMatchObject({ id: 42, expiresAt: T0 + UNCONFIRMED_TTL_MS })
    expect(check(t)).toBe('valid')
    expect(check(t, T0 + UNCONFIRMED_TTL_MS - 1)).toBe('valid')
    expect(check(t, T0 + UNCONFIRMED_TTL_MS)).toBe('expired')
  })

  test('is an https address on the inquiry domain', () => {
    expect(confirmUrl(SECRET, target)).toMatch(/^https:\/\/example\.de\/bestaetigen\?t=[0-9a-z]+\.[0-9a-z]+\.[A-Za-z0-9_-]{43}$/)
  })

  test('a changed expiry, signature, secret, domain or form token makes it invalid', () => {
    const t = signConfirmToken(SECRET, target)
    const [id, expiry, mac] = t.split('.') as [string, string, string]
    const later = (T0 + 10 * UNCONFIRMED_TTL_MS).toString(36)
    expect(check(`${id}.${later}.${mac}`)).toBe('invalid')
    expect(check(`${id}.${expiry}.${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`)).toBe('invalid')
    expect(check(t, T0, target, 'another-secret-16chars')).toBe('invalid')
    expect(check(t, T0, { ...target, domain: 'other.de' })).toBe('invalid')
    expect(check(t, T0, { ...target, token: 'ZZZZZZZZZZZZZZZ' })).toBe('invalid')
    // The same signature for another id: the id is signed too.
    expect(checkConfirmToken(SECRET, readConfirmToken(t)!, { ...target, id: 43 }, T0)).toBe('invalid')
  })

  test('anything but the three parts is not read at all', () => {
    for (const t of [undefined, '', 'abc', ['x'], 'ZZ.1.abc', `1.2.${'a'.repeat(44)}`, `1.2.${'a'.repeat(42)}`, `${'z'.repeat(12)}.1.${'a'.repeat(43)}`]) {
      expect(readConfirmToken(t)).toBeNull()
    }
  })
})
