// The second factor for the password (decision 041): TOTP after RFC 6238 (30 s, 6 digits, SHA-1, as every
// authenticator app reads it) through otpauth, its QR code drawn here (qrcode-generator), and the one-time recovery
// codes, of which only SHA-256 hashes are stored.
import { createHash, randomInt } from 'node:crypto'
import { Secret, TOTP } from 'otpauth'
import qrcode from 'qrcode-generator'
import { openTotpSecret, sealKeyOf, sealTotpSecret } from '../../lib/seal.ts'

const PERIOD_S = 30
/** One step either side: a phone's clock a little off, or a code typed as it changed. */
const WINDOW = 1
const RECOVERY_CODE_COUNT = 10

const totpOf = (secret: string) =>
  new TOTP({ issuer: 'domain-lander', label: 'Konsole', algorithm: 'SHA1', digits: 6, period: PERIOD_S, secret: Secret.fromBase32(secret) })

/** 160 random bits in base32, as RFC 4226 recommends. */
export const newTotpSecret = (): string => new Secret({ size: 20 }).base32

type KeyConfig = Parameters<typeof sealKeyOf>[0]

/** As the store keeps it: sealed with the deal key, so that a copy of the database does not hold it. */
export const sealedTotpSecret = (config: KeyConfig, secret: string): string => sealTotpSecret(sealKeyOf(config), secret)

/** The secret of the stored value, or null when it does not open with this key (DEAL_KEY differs between processes). */
export const openedTotpSecret = (config: KeyConfig, sealed: string): string | null => openTotpSecret(sealKeyOf(config), sealed)

export const totpUri = (secret: string): string => totpOf(secret).toString()

/** The time step a code belongs to, or null when it is none of the steps around `now`. */
export function totpStepOf(secret: string | null, code: string, now: number): number | null {
  if (secret === null || !/^\d{6}$/.test(code)) return null
  const delta = totpOf(secret).validate({ token: code, timestamp: now, window: WINDOW })
  return delta === null ? null : Math.floor(now / 1000 / PERIOD_S) + delta
}

/** A QR code as the path of an SVG: React draws it, no markup from a string. */
export function qrPath(text: string): { size: number; path: string } {
  const code = qrcode(0, 'M')
  code.addData(text, 'Byte')
  code.make()
  const count = code.getModuleCount()
  let path = ''
  for (let row = 0; row < count; row++) {
    for (let col = 0; col < count; col++) if (code.isDark(row, col)) path += `M${col + 4} ${row + 4}h1v1h-1z`
  }
  return { size: count + 8, path }
}

/** No 0/o, 1/l/i: read off a sheet of paper. */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789'

/** Three groups of four (some 59 bits): "k7mp-2xqa-9rtd". */
function newRecoveryCode(): string {
  const chars = Array.from({ length: 12 }, () => ALPHABET[randomInt(ALPHABET.length)])
  return `${chars.slice(0, 4).join('')}-${chars.slice(4, 8).join('')}-${chars.slice(8).join('')}`
}

export const newRecoveryCodes = (): string[] => Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode)

/** As typed: case, spaces and dashes do not matter. */
const normalizedRecoveryCode = (code: string): string => code.toLowerCase().replace(/[\s-]/g, '')

export const recoveryCodeHash = (code: string): string => createHash('sha256').update(normalizedRecoveryCode(code)).digest('base64url')

export const looksLikeRecoveryCode = (code: string): boolean => /^[a-z0-9]{12}$/.test(normalizedRecoveryCode(code))
