// Holds the current domains file in memory, and reloads it when it changes or on SIGHUP. A reload that fails
// validation is logged and the previous version stays in force, so requests are never dropped or answered from a
// half-read file.
import fs from 'node:fs'
import path from 'node:path'
import type { FastifyBaseLogger } from 'fastify'
import { createRequire } from 'node:module'
import { domainsFileSchema, type DomainsConfig } from './settings.ts'

export interface DomainRegistry {
  /** The domains file in force; without DOMAINS_FILE, the defaults (every host gets the page). */
  current(): DomainsConfig
  /** Whether a DOMAINS_FILE is configured. */
  readonly fromFile: boolean
  reload(): boolean
  close(): void
}

const require = createRequire(import.meta.url)

class DomainsFileError extends Error {
  override name = 'DomainsFileError'
}

export function readDomainsFile(file: string): DomainsConfig {
  let raw: unknown
  try {
    const text = fs.readFileSync(file, 'utf8')
    // The YAML parser is loaded only for a YAML file (a server without one starts faster).
    raw = /\.json$/i.test(file) ? JSON.parse(text) : (require('yaml') as typeof import('yaml')).parse(text)
  } catch (error) {
    throw new DomainsFileError(`${file}: ${(error as Error).message}`)
  }
  const result = domainsFileSchema.safeParse(raw ?? {})
  if (!result.success) {
    // A value can fail two checks with one message (a javascript: buyUrl: its scheme and its host): said once.
    const lines = [...new Set(result.error.issues.map((issue) => `  ${issue.path.join('.') || '(top level)'}: ${issue.message}`))]
    throw new DomainsFileError(`${file} is not a valid domains file:\n${lines.join('\n')}`)
  }
  return result.data
}

/** `check` answers why a file that the schema accepts cannot be used with this server's settings, or null. */
export function createDomainRegistry(file: string | undefined, log: FastifyBaseLogger, check?: (config: DomainsConfig) => string | null): DomainRegistry {
  if (!file) {
    const defaults = domainsFileSchema.parse({})
    // SIGHUP means "reload" to this server (systemd's ExecReload sends it); without a file there is nothing to do.
    const onHangup = () => log.info('SIGHUP: no DOMAINS_FILE to reload')
    process.on('SIGHUP', onHangup)
    return { current: () => defaults, fromFile: false, reload: () => true, close: () => void process.off('SIGHUP', onHangup) }
  }
  // At start-up a broken file stops the server (thrown here); later a broken edit only logs.
  const read = () => {
    const config = readDomainsFile(file)
    const problem = check?.(config)
    if (problem) throw new DomainsFileError(`${file} cannot be used: ${problem}`)
    return config
  }
  let current = read()
  const reload = () => {
    try {
      current = read()
      log.info({ file, domains: Object.keys(current.domains).length }, 'domains file reloaded')
      return true
    } catch (error) {
      log.error({ err: error }, 'domains file not reloaded: it has errors; the previous version stays in force')
      return false
    }
  }
  // Editors replace files rather than rewrite them, so watch the directory, and settle bursts of events.
  let timer: NodeJS.Timeout | undefined
  const watcher = fs.watch(path.dirname(file), (_event, name) => {
    if (name && name !== path.basename(file)) return
    clearTimeout(timer)
    timer = setTimeout(reload, 100)
  })
  watcher.on('error', (error) => log.warn({ err: error }, 'cannot watch the domains file; send SIGHUP to reload'))
  const onHangup = () => reload()
  process.on('SIGHUP', onHangup)
  return {
    current: () => current,
    fromFile: true,
    reload,
    close() {
      clearTimeout(timer)
      watcher.close()
      process.off('SIGHUP', onHangup)
    },
  }
}
