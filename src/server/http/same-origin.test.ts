import { describe, expect, it } from 'vitest'
import { isCrossSite } from './same-origin.ts'

describe('the cross-site check', () => {
  it('lets a same-origin post and a client that sends neither header through', () => {
    expect(isCrossSite({ host: 'example.de', origin: 'https://example.de', 'sec-fetch-site': 'same-origin' })).toBe(false)
    expect(isCrossSite({ host: 'example.de' })).toBe(false)
  })
  it('refuses what the browser says came from another site, or from a sibling subdomain', () => {
    expect(isCrossSite({ host: 'example.de', 'sec-fetch-site': 'cross-site' })).toBe(true)
    expect(isCrossSite({ host: 'example.de', 'sec-fetch-site': 'same-site' })).toBe(true)
  })
  it('refuses an Origin of another host, an opaque one and garbage', () => {
    expect(isCrossSite({ host: 'example.de', origin: 'https://evil.example' })).toBe(true)
    expect(isCrossSite({ host: 'example.de', origin: 'null' })).toBe(true)
    expect(isCrossSite({ host: 'example.de', origin: '::' })).toBe(true)
  })
})
