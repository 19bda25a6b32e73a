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
    const { token, signedIssueTime } = issueToken(SECRET, HOST, now)
    expect(verifyToken(SECRET, token, HOST, signedIssueTime, now + 5000)).toEqual({ status: 'valid', issuedAt: now })
  })

  test('a changed token, signed issue time, host or secret does not verify', () => {
    const now = Date.now()
    const { token, signedIssueTime } = issueToken(SECRET, HOST, now)
    const otherToken = token.slice(0, 14) + (token.endsWith('A') ? 'B' : 'A')
    expect(verifyToken(SECRET, otherToken, HOST, signedIssueTime, now)).toEqual({ status: 'invalid' })
    expect(verifyToken(SECRET, token, HOST, signedIssueTime.slice(0, -1) + (signedIssueTime.endsWith('A') ? 'B' : 'A'), now)).toEqual({ status: 'invalid' })
    expect(verifyToken(SECRET, token, 'other.de', signedIssueTime, now)).toEqual({ status: 'invalid' })
    expect(verifyToken('another-secret-of-enough-length', token, HOST, signedIssueTime, now)).toEqual({ status: 'invalid' })
  })

  test('the issue time cannot be moved without breaking its HMAC', () => {
    const now = Date.now()
    const { token, signedIssueTime } = issueToken(SECRET, HOST, now - 10_000)
    const moved = `${(now - 1000).toString(36)}.${signedIssueTime.split('.')[1]}`
    expect(verifyToken(SECRET, token, HOST, moved, now)).toEqual({ status: 'invalid' })
  })

  test('a token older than 24 hours has expired', () => {
    const issuedAt = 1_800_000_000_000
    const signedIssueTime = signToken(SECRET, 'abcdefghijklmno', HOST, issuedAt)
    expect(verifyToken(SECRET, 'abcdefghijklmno', HOST, signedIssueTime, issuedAt + TOKEN_MAX_AGE_MS - 1).status).toBe('valid')
    expect(verifyToken(SECRET, 'abcdefghijklmno', HOST, signedIssueTime, issuedAt + TOKEN_MAX_AGE_MS + 1)).toEqual({ status: 'expired' })
  })

  test('a token from the future is refused', () => {
    const now = 1_800_000_000_000
    const signedIssueTime = signToken(SECRET, 'abcdefghijklmno', HOST, now + 10 * 60_000)
    expect(verifyToken(SECRET, 'abcdefghijklmno', HOST, signedIssueTime, now)).toEqual({ status: 'invalid' })
  })

  test.each(['', 'nodot', '.', 'zz.short', `${'9'.repeat(20)}.${'A'.repeat(43)}`])('the malformed signed issue time %j is refused', (signedIssueTime) => {
    expect(verifyToken(SECRET, 'abcdefghijklmno', HOST, signedIssueTime)).toEqual({ status: 'invalid' })
  })
})
