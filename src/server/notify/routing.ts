// Which addresses an inquiry's notifications go to, and where the link in them points.
import type { FastifyInstance } from 'fastify'
import type { Config } from '../config.ts'
import type { DomainsConfig } from '../sites/domains-table.ts'
import type { DomainSettings } from '../sites/settings.ts'

/**
 * The domain's `notify:` (its own, else the default's) replaces NOTIFY_URLS; an empty list means none. For every
 * caller that makes an inquiry genuine (a new one, "Kein Spam", a confirmed one), together with queueNotifications.
 */
export function notifyUrlsFor(settings: Pick<DomainSettings, 'notify'>, config: Pick<Config, 'notify'>): readonly string[] {
  return settings.notify ?? config.notify.urls
}

/** Null when the domains file is fine without NOTIFY_SECRET, else why it is not. */
export function missingNotifySecret(domains: Pick<DomainsConfig, 'notifyIn'>, secret: string | undefined): string | null {
  if (secret || domains.notifyIn === null) return null
  return `${domains.notifyIn}: notify: needs NOTIFY_SECRET (at least 32 characters), which signs every notification`
}

/** ADMIN_URL, else the address the console listens on (as the start-up line shows it), else null (no console). */
export function consoleUrlOf(config: Pick<Config, 'adminUrl' | 'adminHost'>, admin: FastifyInstance | null): string | null {
  if (config.adminUrl) return config.adminUrl
  const address = admin?.server.address()
  if (!address || typeof address !== 'object') return null
  const host = ['0.0.0.0', '::'].includes(config.adminHost) ? 'localhost' : config.adminHost.includes(':') ? `[${config.adminHost}]` : config.adminHost
  return `http://${host}:${address.port}`
}
