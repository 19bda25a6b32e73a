// Picks the store: PostgreSQL when DATABASE_URL is set (several instances on one database), else the embedded
// SQLite file in DATA_DIR. PostgreSQL's modules (and `pg`) are loaded only when asked for.
import path from 'node:path'
import { lockDataDir } from '../data-dir.ts'
import { sealKeyOf, sealTotpSecret } from '../lib/seal.ts'
import type { RateLimits } from './rate-limit-common.ts'
import { createSqliteStore, type SqliteStoreOptions } from './sqlite.ts'
import { sqliteRateLimitStore } from './sqlite-rate-limit.ts'
import type { Store } from './types.ts'

export interface StoreConfig {
  dataDir: string
  databaseUrl?: string | undefined
  /** DEAL_KEY: the key of the secrets sealed at rest (a schema step seals a plain TOTP secret with it). */
  deal?: { key: Buffer | null }
}

export const sqliteFileOf = (config: StoreConfig) => path.join(config.dataDir, 'domain-lander.sqlite')

/**
 * Run once per server at start (the primary of a cluster): the embedded store belongs to one server, so a second one
 * started on the same DATA_DIR stops with a message. PostgreSQL instances share their store by design; DATA_DIR then
 * holds only .eml files (docs/decisions/009).
 */
export function claimStore(config: StoreConfig): void {
  if (!config.databaseUrl) lockDataDir(config.dataDir)
}

/** options.log: where the SQLite store reports a database file deleted under it (PostgreSQL has no such file). */
export async function openStore(config: StoreConfig, options: SqliteStoreOptions = {}): Promise<Store> {
  const { deal } = config
  // Asked for only when there is a plain secret to seal: no key file is made for a store without one.
  const migration = { sealTotpSecret: deal && ((secret: string) => sealTotpSecret(sealKeyOf({ dataDir: config.dataDir, deal }), secret)), ...options.migration }
  if (config.databaseUrl) return (await import('./postgres.ts')).createPostgresStore(config.databaseUrl, migration, options.onQuery)
  return createSqliteStore(sqliteFileOf(config), { ...options, migration })
}

export async function openRateLimitStore(config: StoreConfig, secret: string): Promise<RateLimits> {
  if (config.databaseUrl) return (await import('./postgres-rate-limit.ts')).postgresRateLimitStore(config.databaseUrl, secret)
  return sqliteRateLimitStore(config.dataDir, secret)
}

/** Says where the inquiries are kept, for the start-up log line: never the database password. */
export function describeStore(config: StoreConfig): string {
  if (!config.databaseUrl) return `SQLite ${sqliteFileOf(config)}`
  const url = new URL(config.databaseUrl)
  return `PostgreSQL ${url.hostname}${url.port ? `:${url.port}` : ''}${url.pathname}`
}
