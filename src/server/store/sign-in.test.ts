// Passkeys, challenges, the second factor and the sessions list (decision 041) on the store of the test project
// (SQLite, or PostgreSQL in the project "postgres"). Two store objects on the same data stand for two processes.
import { randomBytes } from 'node:crypto'
import { expect, test } from 'vitest'
import { queryStore } from '../../../tests/helpers/postgres.ts'
import { openTestStore as open, schemaBefore, testStoreConfig } from '../../../tests/helpers/store.ts'
import { openTotpSecret } from '../lib/seal.ts'
import { openStore } from './index.ts'

const HOUR = 60 * 60 * 1000
const IDLE = 12 * HOUR
const MAX = 7 * 24 * HOUR
const T0 = Date.UTC(2026, 0, 1)
const passkey = (credentialId: string, name = 'Laptop') => ({ credentialId, publicKey: 'pk', counter: 0, transports: ['internal'], name })

test('a challenge is taken once, by one process only, and not after it expired or for another purpose', async () => {
  const config = await testStoreConfig('sign-in-')
  const [a, b] = [await open(config), await open(config)]
  await a.putChallenge('c1', 'sign-in', null, T0 + 1000, T0)
  expect(await b.takeChallenge('c1', 'register', T0)).toBeNull()
  const [first, second] = await Promise.all([a.takeChallenge('c1', 'sign-in', T0), b.takeChallenge('c1', 'sign-in', T0)])
  expect([first, second].filter((taken) => taken !== null)).toEqual([{ sessionHash: null }])
  await a.putChallenge('c2', 'register', 'session-hash', T0 + 1000, T0)
  expect(await b.takeChallenge('c2', 'register', T0 + 1000)).toBeNull()
  await a.putChallenge('c3', 'register', 'session-hash', T0 + 1000, T0)
  expect(await b.takeChallenge('c3', 'register', T0 + 999)).toEqual({ sessionHash: 'session-hash' })
})

test('a flood of challenges keeps at most 100 of them', async () => {
  const store = await open()
  for (let i = 0; i < 130; i++) await store.putChallenge(`flood-${i}`, 'sign-in', null, T0 + 60_000 + i, T0)
  expect(await store.takeChallenge('flood-0', 'sign-in', T0)).toBeNull()
  expect(await store.takeChallenge('flood-129', 'sign-in', T0)).not.toBeNull()
})

test('passkeys are added, found by credential id, listed and removed; a credential id is stored once', async () => {
  const store = await open()
  const id = await store.addPasskey(passkey('cred-1', '<b>Laptop</b>'), T0)
  expect(id).not.toBeNull()
  expect(await store.addPasskey(passkey('cred-1'), T0)).toBeNull()
  expect(await store.passkeyByCredentialId('cred-1')).toMatchObject({ id, name: '<b>Laptop</b>', counter: 0, transports: ['internal'], lastUsedAt: null })
  expect((await store.listPasskeys()).map((p) => p.credentialId)).toEqual(['cred-1'])
  expect(await store.deletePasskey(id!)).toBe(true)
  expect(await store.deletePasskey(id!)).toBe(false)
  expect(await store.passkeyByCredentialId('cred-1')).toBeNull()
})

test('the signature counter moves only from the value read: of two sign-ins with one counter, one wins', async () => {
  const config = await testStoreConfig('sign-in-')
  const [a, b] = [await open(config), await open(config)]
  const id = (await a.addPasskey(passkey('cred-2'), T0))!
  expect(await a.usePasskey(id, 0, 1, T0 + 1)).toBe(true)
  expect(await b.usePasskey(id, 0, 1, T0 + 2)).toBe(false)
  expect(await b.passkeyByCredentialId('cred-2')).toMatchObject({ counter: 1, lastUsedAt: T0 + 1 })
})

test('TOTP: set up, confirmed with its secret, each step used once and only forwards; recovery codes once each', async () => {
  const config = await testStoreConfig('sign-in-')
  const [a, b] = [await open(config), await open(config)]
  expect(await a.startTotp('SECRET1', T0)).toBe(true)
  expect(await a.useTotpStep(10)).toBe(false)
  expect(await a.confirmTotp('OTHER', 10, ['h1'], T0, null)).toBe(false)
  expect(await a.confirmTotp('SECRET1', 10, ['h1', 'h2'], T0, null)).toBe(true)
  expect(await b.totp()).toEqual({ secret: 'SECRET1', confirmedAt: T0, lastStep: 10 })
  expect(await a.startTotp('SECRET2', T0)).toBe(false)
  expect(await a.useTotpStep(10)).toBe(false)
  expect(await a.useTotpStep(11)).toBe(true)
  expect(await b.useTotpStep(11)).toBe(false)
  expect(await b.useTotpStep(9)).toBe(false)
  expect(await a.recoveryCodesLeft()).toBe(2)
  const [first, second] = await Promise.all([a.useRecoveryCode('h1', T0), b.useRecoveryCode('h1', T0)])
  expect([first, second].filter(Boolean)).toEqual([true])
  expect(await a.useRecoveryCode('unknown', T0)).toBe(false)
  expect(await a.recoveryCodesLeft()).toBe(1)
})

test('switching TOTP on ends every session but the one that switched it on', async () => {
  const store = await open()
  for (const session of ['mine', 'other', 'third']) await store.createSession(session, T0)
  await store.startTotp('SECRET', T0)
  expect(await store.confirmTotp('SECRET', 5, ['h1'], T0, 'mine')).toBe(true)
  expect(await store.useSession('mine', T0 + 1, IDLE, MAX)).toBe(true)
  for (const session of ['other', 'third']) expect(await store.useSession(session, T0 + 1, IDLE, MAX)).toBe(false)
})

test('resetting the second factor switches it off, forgets the recovery codes and ends every session', async () => {
  const store = await open()
  await store.startTotp('SECRET', T0)
  await store.confirmTotp('SECRET', 5, ['h1'], T0, null)
  await store.createSession('s1', T0)
  await store.resetSecondFactor()
  expect(await store.totp()).toBeNull()
  expect(await store.recoveryCodesLeft()).toBe(0)
  expect(await store.useRecoveryCode('h1', T0)).toBe(false)
  expect(await store.useSession('s1', T0 + 1, IDLE, MAX)).toBe(false)
})

test('the sessions list shows the valid sessions with their details, the last used first; ending all ends all', async () => {
  const store = await open()
  await store.createSession('old', T0, { userAgent: 'Firefox auf Linux', address: '203.0.x.x', method: 'password' })
  await store.createSession('new', T0 + HOUR, { userAgent: 'Chrome auf macOS', address: null, method: 'passkey' })
  await store.createSession('expired', T0 - IDLE)
  const listed = await store.listSessions(T0 + HOUR + 1, IDLE, MAX)
  expect(listed).toEqual([
    { idHash: 'new', createdAt: T0 + HOUR, lastSeenAt: T0 + HOUR, userAgent: 'Chrome auf macOS', address: null, method: 'passkey' },
    { idHash: 'old', createdAt: T0, lastSeenAt: T0, userAgent: 'Firefox auf Linux', address: '203.0.x.x', method: 'password' },
  ])
  await store.deleteAllSessions()
  expect(await store.listSessions(T0 + HOUR + 1, IDLE, MAX)).toEqual([])
})

test('a plain TOTP secret of a store made before the sealing is sealed by its schema step, with the key of the configuration', async () => {
  const config = await testStoreConfig('sign-in-', { empty: true })
  const steps = await schemaBefore(config, (all) => all.indexOf('0025-seal-totp-secrets'))
  // What the program before the sealing stored: the secret as it is.
  await queryStore(config.dataDir, "INSERT INTO totp (owner, secret, confirmed_at, last_step, created_at) VALUES (1, 'JBSWY3DPEHPK3PXP', 1, 0, 1)")

  // Opened without the key (no configuration): refused, and the step is not recorded as done.
  await expect(openStore({ dataDir: config.dataDir, databaseUrl: config.databaseUrl })).rejects.toThrow(/TOTP secret .* sealed/)
  const key = randomBytes(32)
  const after = await open({ ...config, deal: { key } })
  const { secret } = (await after.totp())!
  expect(secret).not.toContain('JBSWY3DPEHPK3PXP')
  expect(openTotpSecret(key, secret)).toBe('JBSWY3DPEHPK3PXP')
  expect(openTotpSecret(randomBytes(32), secret)).toBeNull()
  const recorded = await queryStore<{ name: string }>(config.dataDir, 'SELECT name FROM kysely_migration ORDER BY name')
  expect(recorded).toHaveLength(steps)
})
