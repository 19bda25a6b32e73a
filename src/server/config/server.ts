// The process itself: where it listens, where it keeps its data, how it logs, how many workers, how it stops.
import os from 'node:os'
import path from 'node:path'
import { z } from 'zod'
import { flag } from './fields.ts'

export const serverEnv = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // Unset: readable lines on a terminal, JSON lines otherwise (src/server/logger.ts).
  LOG_FORMAT: z.enum(['json', 'pretty'], { error: 'must be json (one JSON object a line) or pretty (readable lines)' }).optional(),
  WORKERS: z.union([z.literal('auto'), z.coerce.number().int().min(1).max(64)], { error: 'must be a whole number from 1 to 64, or auto' }).default(1),
  DOMAINS_FILE: z.string().min(1).optional(),
  // The heap a load of the domains file may use, in its own process (docs/domains.md, "Large portfolios").
  DOMAINS_FILE_MEMORY_MIB: z.coerce
    .number({ error: 'must be a whole number of MiB from 16 to 4096' })
    .int('must be a whole number of MiB from 16 to 4096')
    .min(16, 'must be a whole number of MiB from 16 to 4096')
    .max(4096, 'must be a whole number of MiB from 16 to 4096')
    .default(384),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// URL, e.g. postgres://lander:secret@db.internal:5432/lander' }).optional(),
  // At most 9: a request accepted just before the drain ends must still arrive (10 s) within the 20 s a shutdown has.
  SHUTDOWN_DRAIN_SECONDS: z.coerce
    .number({ error: 'must be a number of seconds from 0 to 9, e.g. 1 or 0.5' })
    .min(0, 'must be a number of seconds from 0 to 9, e.g. 1 or 0.5')
    .max(9, 'must be a number of seconds from 0 to 9, e.g. 1 or 0.5')
    .default(1),
  READYZ_DETAILS: flag.default(false),
})

export const serverConfig = (env: z.output<typeof serverEnv>) => ({
  port: env.PORT,
  host: env.HOST,
  dataDir: path.resolve(env.DATA_DIR),
  logLevel: env.LOG_LEVEL,
  logFormat: env.LOG_FORMAT,
  workers: env.WORKERS === 'auto' ? os.availableParallelism() : env.WORKERS,
  domainsFile: env.DOMAINS_FILE && path.resolve(env.DOMAINS_FILE),
  domainsFileMemoryMiB: env.DOMAINS_FILE_MEMORY_MIB,
  databaseUrl: env.DATABASE_URL,
  drainMs: Math.round(env.SHUTDOWN_DRAIN_SECONDS * 1000),
  readyzDetails: env.READYZ_DETAILS,
})
