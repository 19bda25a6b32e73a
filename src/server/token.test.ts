import { describe, expect, test } from 'vitest'
import { TOKEN_MAX_AGE_MS, createToken, issueToken, signToken, verifyToken } from './token.ts'

const SECRET = 'a-test-secret-of-enough-length'
const HOST = 'example.de'

describe('form tokens', () => {
  test('a token is 15 letters and digits, and tokens do not repeat', () => {
    const tokens = Array.from({ length: 2000 }, createToken)
    for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9]{15}$/)
    expect(new Set(tokens).size).toBe(tokens.length)
  })

  test('a freshly issued token verifies, with the time it was issued', () => {
    const now = 1_800_000_000_000
    const { token, hash } = issueToken(SECRET, HOST, now)
    expect(verifyToken(SECRET, token, HOST, hash, now + 5000)).toEqual({ status: 'valid', issuedAt: now })
  })

  test('a changed token, hash, host or secret does not verify', () => {
    const now = Date.now()
    const { token, hash } = issueToken(SECRET, HOST, now)
    const otherToken = token.slice(0, 14) + (token.endsWith('A') ? 'B' : 'A')
    expect(verifyToken(SECRET, otherToken, HOST, hash, now)).toEqual({ status: 'invalid' })
    expect(verifyToken(SECRET, token, HOST, hash.slice(0, -1) + (hash.endsWith('A') ? 'B' : 'A'), now)).toEqual({ status: 'invalid' })
    expect(verifyToken(SECRET, token, 'other.de', hash, now)).toEqual({ status: 'invalid' })
    expect(verifyToken('another-secret-of-enough-length', token, HOST, hash, now)).toEqual({ status: 'invalid' })
  })

  test('the issue time cannot be moved without breaking the hash', () => {
    const now = Date.now()
    const { token, hash } = issueToken(SECRET, HOST, now - 10_000)
    const moved = `${(now - 1000).toString(36)}.${hash.split('.')[1]}`
    expect(verifyToken(SECRET, token, HOST, moved, now)).toEqual({ status: 'invalid' })
  })

  test('a token older than 24 hours has expired', () => {
    const issuedAt = 1_800_000_000_000
    const hash = signToken(SECRET, 'abcdefghijklmno', HOST, issuedAt)
    expect(verifyToken(SECRET, 'abcdefghijklmno', HOST, hash, issuedAt + TOKEN_MAX_AGE_MS - 1).status).toBe('valid')
    expect(verifyToken(SECRET, 'abcdefghijklmno', HOST, hash, issuedAt + TOKEN_MAX_AGE_MS + 1)).toEqual({ status: 'expired' })
  })

  test('a token from the future is refused', () => {
    const now = 1_800_000_000_000
    const hash = signToken(SECRET, 'abcdefghijklmno', HOST, now + 10 * 60_000)
    expect(verifyToken(SECRET, 'abcdefghijklmno', HOST, hash, now)).toEqual({ status: 'invalid' })
  })

  test.each(['', 'nodot', '.', 'zz.short', `${'9'.repeat(20)}.${'A'.repeat(43)}`])('the malformed hash %j is refused', (hash) => {
    expect(verifyToken(SECRET, 'abcdefghijklmno', HOST, hash)).toEqual({ status: 'invalid' })
  })
})
