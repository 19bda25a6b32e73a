// The owner's console: where it listens apart from the public page, whom it believes, where the owner opens it.
import { z } from 'zod'
import { httpUrl, trustProxy } from './fields.ts'

export const consoleEnv = z.object({
  // `off` switches the console off.
  ADMIN_PORT: z.union([z.literal('off'), z.coerce.number().int().min(0).max(65535)], { error: 'must be a port number from 0 to 65535, or off' }).default(3001),
  ADMIN_HOST: z.string().min(1).default('127.0.0.1'),
  // The console's own: the public port's proxy is not the console's, and a tunnel connects from loopback too.
  ADMIN_TRUST_PROXY: trustProxy.default(false),
  // Where the owner opens the console (through a tunnel or a proxy): the link in every notification.
  ADMIN_URL: httpUrl.optional(),
})

export const consoleConfig = (env: z.output<typeof consoleEnv>) => ({
  /** Null: no console. */
  adminPort: env.ADMIN_PORT === 'off' ? null : env.ADMIN_PORT,
  adminHost: env.ADMIN_HOST,
  adminTrustProxy: env.ADMIN_TRUST_PROXY,
  /** Without a trailing slash; undefined: the console's own address (notify/console-link.ts). */
  adminUrl: env.ADMIN_URL?.replace(/\/+$/, ''),
})
