import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

/**
 * The SQLite store's secret (Store.secret): generated on the first start and kept in DATA_DIR, so forms already
 * open in a browser stay valid across restarts.
 */
export function loadOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'contact-secret')
  try {
    fs.writeFileSync(file, randomBytes(32).toString('base64url'), { flag: 'wx', mode: 0o600 })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  }
  const secret = fs.readFileSync(file, 'utf8').trim()
  if (secret.length < 16) throw new Error(`${file} holds no usable secret; delete it to have a new one generated`)
  return secret
}
