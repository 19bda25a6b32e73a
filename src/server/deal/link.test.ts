import { describe, expect, test } from 'vitest'
import { dealUrl, newDealLink, readDealToken } from './link.ts'

const SECRET = 'a-secret-of-the-store-0123456789'

describe('the deal page’s link', () => {
  test('is 128 random bits and a 128-bit MAC, new every time, and reads back to the hash the store keeps', () => {
    const a = newDealLink(SECRET)
    const b = newDealLink(SECRET)
    expect(a.token).toMatch(/^[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{22}$/)
    expect(a.token).not.toBe(b.token)
    expect(a.linkHash).toMatch(/^[0-9a-f]{64}$/)
    expect(readDealToken(SECRET, a.token)).toBe(a.linkHash)
    expect(dealUrl('xn--bcher-kva.de', a.token)).toBe(`https://xn--bcher-kva.de/kauf/${a.token}`)
  })

  test('refuses a changed id, a changed MAC, another secret’s token and anything malformed', () => {
    const { token } = newDealLink(SECRET)
    const [id, mac] = token.split('.') as [string, string]
    const other = (char: string) => (char === 'A' ? 'B' : 'A')
    for (const wrong of [
      `${other(id[0]!)}${id.slice(1)}.${mac}`,
      `${id}.${other(mac[0]!)}${mac.slice(1)}`,
      newDealLink('another-secret-0123456789abcdef').token,
      id,
      `${token}.`,
      '',
      42,
      null,
      undefined,
      `${id}.${mac.slice(0, 21)}`,
    ]) {
      expect(readDealToken(SECRET, wrong), String(wrong)).toBeNull()
    }
  })
})
