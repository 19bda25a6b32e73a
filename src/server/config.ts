// The whole configuration is read from the environment once, by this one schema, at start-up. Each part of
// config/ gives its variables, the checks that span several of them, and what the rest of the server reads.
import { z } from 'zod'
import { consoleConfig, consoleEnv } from './config/console.ts'
import { dealsConfig, dealsEnv } from './config/deals.ts'
import { checkDnsUpdate, dnsUpdateConfig, dnsUpdateEnv } from './config/dns.ts'
import { domainChecksConfig, domainChecksEnv } from './config/domain-checks.ts'
import { checkInvoices, invoicesConfig, invoicesEnv } from './config/invoices.ts'
import { checkMail, mailConfig, mailEnv } from './config/mail.ts'
import { checkNotify, notifyConfig, notifyEnv } from './config/notify.ts'
import { privacyConfig, privacyEnv } from './config/privacy.ts'
import { publicPageConfig, publicPageEnv } from './config/public-page.ts'
import { serverConfig, serverEnv } from './config/server.ts'

const configSchema = z
  .object({
    ...serverEnv.shape,
    ...consoleEnv.shape,
    ...publicPageEnv.shape,
    ...mailEnv.shape,
    ...privacyEnv.shape,
    ...dealsEnv.shape,
    ...invoicesEnv.shape,
    ...notifyEnv.shape,
    ...dnsUpdateEnv.shape,
    ...domainChecksEnv.shape,
  })
  .superRefine((env, ctx) => {
    checkMail(env, ctx)
    checkInvoices(env, ctx)
    checkDnsUpdate(env, ctx)
    checkNotify(env, ctx)
  })
  .transform((env) => ({
    ...serverConfig(env),
    ...consoleConfig(env),
    ...publicPageConfig(env),
    ...mailConfig(env),
    ...privacyConfig(env),
    ...dealsConfig(env),
    ...invoicesConfig(env),
    ...notifyConfig(env),
    ...dnsUpdateConfig(env),
    ...domainChecksConfig(env),
  }))

export type Config = z.output<typeof configSchema>

export class ConfigError extends Error {
  override name = 'ConfigError'
}

/** Parses the environment; an empty variable counts as unset. Throws one error naming every wrong variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const input = Object.fromEntries(Object.keys(configSchema.in.shape).map((key) => [key, env[key] === '' ? undefined : env[key]]))
  // Parsed once per process: zod's generated parser (its JIT) would cost more to build than it saves (decision 053).
  const result = configSchema.safeParse(input, { jitless: true })
  if (result.success) return result.data
  const lines = result.error.issues.map((issue) => `  ${issue.path.join('.') || 'config'}: ${issue.message}`)
  throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`)
}
