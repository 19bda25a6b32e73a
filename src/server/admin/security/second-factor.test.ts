import { TOTP } from 'otpauth'
import { expect, test } from 'vitest'
import { looksLikeRecoveryCode, newRecoveryCodes, newTotpSecret, qrPath, recoveryCodeHash, totpStepOf, totpUri } from './second-factor.ts'

const T0 = Date.UTC(2026, 0, 1, 12, 0, 10)

test('a code of the current step, or one step either side, is accepted with its step; others are not', () => {
  const secret = newTotpSecret()
  const app = new TOTP({ secret, digits: 6, period: 30, algorithm: 'SHA1' })
  const step = Math.floor(T0 / 30_000)
  expect(totpStepOf(secret, app.generate({ timestamp: T0 }), T0)).toBe(step)
  expect(totpStepOf(secret, app.generate({ timestamp: T0 - 30_000 }), T0)).toBe(step - 1)
  expect(totpStepOf(secret, app.generate({ timestamp: T0 + 30_000 }), T0)).toBe(step + 1)
  expect(totpStepOf(secret, app.generate({ timestamp: T0 - 90_000 }), T0)).toBeNull()
  expect(totpStepOf(secret, 'abcdef', T0)).toBeNull()
})

test('the URI carries the secret for the app; the QR code is a path of modules only', () => {
  const secret = newTotpSecret()
  expect(totpUri(secret)).toContain(`secret=${secret}`)
  const { size, path } = qrPath(totpUri(secret))
  expect(size).toBeGreaterThan(20)
  expect(path).toMatch(/^(M\d+ \d+h1v1h-1z)+$/)
})

test('ten distinct recovery codes; typed with spaces or capitals they hash the same', () => {
  const codes = newRecoveryCodes()
  expect(new Set(codes).size).toBe(10)
  for (const code of codes) expect(looksLikeRecoveryCode(code)).toBe(true)
  expect(recoveryCodeHash(codes[0]!.toUpperCase().replace(/-/g, ' '))).toBe(recoveryCodeHash(codes[0]!))
})
