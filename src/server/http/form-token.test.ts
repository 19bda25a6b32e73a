import { describe, expect, test } from 'vitest'
import { TOKEN_MAX_AGE_MS, TOKEN_WINDOW_MS, deriveToken, issueToken, signToken, verifyToken } from './form-token.ts'

const SECRET = 'a-test-secret-of-enough-length'
const HOST = 'example.de'

describe('form tokens', () => {
  test('a token is 15 letters and digits, derived from host and window: the same pair gives the same token, another host or window another', () => {
    const now = 1_800_000_000_000
    const first = issueToken(SECRET, HOST, now)
    expect(first.token).toMatch(/^[A-Za-z0-9]{15}$/)
    // Anywhere in the same second: the same token and the same signed issue time, so the same page bytes.
    expect(issueToken(SECRET, HOST, now + 999)).toEqual(first)
    expect(issueToken(SECRET, HOST, now + 1000).token).not.toBe(first.token)
    expect(issueToken(SECRET, HOST, now - 1).token).not.toBe(first.token)
    expect(issueToken(SECRET, 'other.de', now).token).not.toBe(first.token)
    expect(issueToken('another-secret-of-enough-length', HOST, now).token).not.toBe(first.token)
    // Over many windows and hosts, tokens do not repeat.
    const tokens = Array.from({ length: 2000 }, (_, i) => deriveToken(SECRET, i % 2 ? HOST : 'other.de', Math.floor(now / TOKEN_WINDOW_MS) + i))
    for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9]{15}$/)
    expect(new Set(tokens).size).toBe(tokens.length)
  })

  test('the signed issue time is the end of the window the page was served in, never before it', () => {
    for (const now of [1_800_000_000_000, 1_800_000_000_001, 1_800_000_000_999]) {
      const { token, signedIssueTime, issuedAt } = issueToken(SECRET, HOST, now)
      expect(issuedAt).toBe(1_800_000_001_000)
      expect(signedIssueTime).toBe(signToken(SECRET, token, HOST, 1_800_000_001_000))
      expect(verifyToken(SECRET, token, HOST, signedIssueTime, now)).toEqual({ status: 'valid', issuedAt: 1_800_000_001_000 })
    }
  })

  test('the characters of derived tokens are uniform over the 62', () => {
    const counts = new Map<string, number>()
    const windows = 4000
    for (let window = 0; window < windows; window++) for (const char of deriveToken(SECRET, HOST, window)) counts.set(char, (counts.get(char) ?? 0) + 1)
    expect(counts.size).toBe(62)
    // 60,000 characters, 967.7 expected of each: a byte mapped by `% 62` without the skip would give 8 characters
    // (those of bytes 248-255) 25 % more, 1,210. The secret is fixed, so the figure is too; over 61 degrees of freedom
    // chi-square reaches 100 by chance with p < 0.001, and the mapping without the skip gives about 480.
    const expected = (windows * 15) / 62
    const chiSquare = [...counts.values()].reduce((sum, count) => sum + (count - expected) ** 2 / expected, 0)
    expect(chiSquare).toBeLessThan(100)
  })

  test('a token of another window still verifies, within the maximum age', () => {
    const servedAt = 1_800_000_000_000
    const { token, signedIssueTime, issuedAt } = issueToken(SECRET, HOST, servedAt)
    const later = servedAt + 60 * 60 * 1000
    expect(issueToken(SECRET, HOST, later).token).not.toBe(token)
    expect(verifyToken(SECRET, token, HOST, signedIssueTime, later)).toEqual({ status: 'valid', issuedAt })
  })

  test('a freshly issued token verifies, with the time it was issued', () => {
    const now = 1_800_000_000_000
    const { token, signedIssueTime } = issueToken(SECRET, HOST, now)
    expect(verifyToken(SECRET, token, HOST, signedIssueTime, now + 5000)).toEqual({ status: 'valid', issuedAt: now + TOKEN_WINDOW_MS })
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
