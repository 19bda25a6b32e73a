import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, onTestFinished, test } from 'vitest'
import { dealKeyOf, openLinkToken, openTransferCode, sealLinkToken, sealTransferCode } from './seal.ts'

describe('sealed deal secrets', () => {
  test('a transfer code opens with its key for its deal only; a changed byte or another key opens nothing', () => {
    const key = randomBytes(32)
    const sealed = sealTransferCode(key, 7, 'Auth#Info-ÄÖÜ')
    expect(sealed).not.toContain('Auth')
    expect(sealTransferCode(key, 7, 'Auth#Info-ÄÖÜ')).not.toBe(sealed)
    expect(openTransferCode(key, 7, sealed)).toBe('Auth#Info-ÄÖÜ')
    expect(openTransferCode(key, 8, sealed)).toBeNull()
    expect(openTransferCode(randomBytes(32), 7, sealed)).toBeNull()
    const [version, iv, tag, data] = sealed.split('.') as [string, string, string, string]
    const flipped = `${data[0] === 'A' ? 'B' : 'A'}${data.slice(1)}`
    expect(openTransferCode(key, 7, [version, iv, tag, flipped].join('.'))).toBeNull()
    expect(openTransferCode(key, 7, 'garbage')).toBeNull()
    // A sealed link token is no transfer code, and the other way round.
    expect(openLinkToken(key, '7', sealed)).toBeNull()
    expect(openLinkToken(key, 'hash', sealLinkToken(key, 'hash', 'token'))).toBe('token')
  })

  test('the key is DEAL_KEY, or a file in DATA_DIR made once with mode 0600', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'deal-key-'))
    onTestFinished(() => fs.rmSync(dataDir, { recursive: true, force: true }))
    const given = randomBytes(32)
    expect(dealKeyOf({ dataDir, deal: { key: given } })).toBe(given)
    expect(fs.existsSync(path.join(dataDir, 'deal-key'))).toBe(false)
    const made = dealKeyOf({ dataDir, deal: { key: null } })
    expect(made).toHaveLength(32)
    expect(fs.statSync(path.join(dataDir, 'deal-key')).mode & 0o777).toBe(0o600)
    expect(dealKeyOf({ dataDir, deal: { key: null } })).toEqual(made)
    fs.writeFileSync(path.join(dataDir, 'deal-key'), 'short')
    expect(() => dealKeyOf({ dataDir, deal: { key: null } })).toThrow(/does not hold a 32-byte key/)
  })
})
