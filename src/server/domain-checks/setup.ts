// The daily checks as the configuration asks for them (SERVER_ADDRESSES, DOMAIN_CHECK_RESOLVER): shared by the
// server's job and `domains check`.
import { Resolver } from 'node:dns/promises'
import type { Config } from '../config.ts'
import { forSaleListing, type ForSaleDomain } from '../dns/for-sale.ts'
import { notifyUrlsFor } from '../notify/routing.ts'
import type { DomainsConfig } from '../sites/domains-table.ts'
import type { CheckOptions } from './check.ts'

/** A lookup may take its timeout twice; a name's checks run side by side. */
const DNS_TIMEOUT_MS = 3_000
const HTTP_TIMEOUT_MS = 5_000
const RDAP_TIMEOUT_MS = 10_000
const CONCURRENCY = 16

export function checkOptionsFor(settings: Config['domainChecks']): Omit<CheckOptions, 'bootstrap' | 'now'> {
  const resolver = new Resolver({ timeout: DNS_TIMEOUT_MS, tries: 2 })
  if (settings.resolver) resolver.setServers([settings.resolver])
  return {
    resolver,
    serverAddresses: settings.serverAddresses,
    http: { scheme: 'https', port: 443, timeoutMs: HTTP_TIMEOUT_MS },
    rdapTimeoutMs: RDAP_TIMEOUT_MS,
    concurrency: CONCURRENCY,
  }
}

/** The exact names the server shows, sold ones marked (they are not checked). */
export const listedNames = (domains: DomainsConfig, sold: { has(ascii: string): boolean }): ForSaleDomain[] => forSaleListing(domains, undefined, sold).domains

/** Where a name's domain.* notifications go: its notify: (else the default's), else NOTIFY_URLS. */
export const noticeUrlsFor = (domains: DomainsConfig, config: Pick<Config, 'notify'>) => (ascii: string) =>
  notifyUrlsFor(domains.entry(ascii) ?? { ...domains.default }, config)
