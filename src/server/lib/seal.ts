// Secrets at rest (decisions 033 and 041): sealed with AES-256-GCM under a key that is never in the database, so a
// copy of the database (a backup, a dump, `access`) gives none away. The key comes from DEAL_KEY, or from
// DATA_DIR/deal-key (0600), made on first use. The additional data binds each sealed value to its place: a value
// copied onto another row does not open.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

const VERSION = 'v1'

/** The key: DEAL_KEY's bytes, else the file in DATA_DIR, made (0600) when missing. */
export function sealKeyOf(config: { dataDir: string; deal: { key: Buffer | null } }): Buffer {
  if (config.deal.key) return config.deal.key
  const file = path.join(config.dataDir, 'deal-key')
  try {
    fs.writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  }
  const bytes = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64')
  if (bytes.length !== 32) throw new Error(`${file} does not hold a 32-byte key (base64): restore it from the backup, or set DEAL_KEY`)
  return bytes
}

export function seal(key: Buffer, aad: string, text: string): string {
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', key, iv)
  cipher.setAAD(Buffer.from(aad))
  const sealed = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()])
  return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), sealed.toString('base64url')].join('.')
}

/** The text, or null when it does not open with this key in this place (another key, another place, tampered). */
export function open(key: Buffer, aad: string, sealed: string): string | null {
  const [version, iv, tag, data] = sealed.split('.')
  if (version !== VERSION || !iv || !tag || data === undefined) return null
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'))
    decipher.setAAD(Buffer.from(aad))
    decipher.setAuthTag(Buffer.from(tag, 'base64url'))
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8')
  } catch {
    return null
  }
}

/** Whether a stored value is sealed at all: a base32 TOTP secret never holds a dot. */
export const isSealed = (value: string): boolean => value.startsWith(`${VERSION}.`)

const totpPlace = 'totp-secret'

/** The TOTP secret (decision 041): the server must read it to check a code, so it is sealed rather than hashed. */
export const sealTotpSecret = (key: Buffer, secret: string) => seal(key, totpPlace, secret)
export const openTotpSecret = (key: Buffer, sealed: string) => open(key, totpPlace, sealed)
