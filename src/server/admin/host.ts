// Which Host headers the console answers (docs/decisions/031). A page of another site whose name its owner points at
// 127.0.0.1 (DNS rebinding) reaches the console through the owner's own tunnel as a same-origin page of that name: it
// could read the console, and guess passwords until the owner is locked out. Its requests carry its own name as
// Host, which is never one of these.
import net from 'node:net'
import type { Config } from '../config.ts'

/** The names of this machine that no DNS answer decides. */
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]']

/** A name, an IPv4 address or a bracketed IPv6 address, and an optional port. */
const HOST_HEADER = /^(\[[\da-f:.]+\]|[^:[\]]+)(?::\d{1,5})?$/

/** As a Host header writes it: IPv6 in brackets, lower case. */
const asHostName = (address: string) => (net.isIPv6(address) ? `[${address}]` : address).toLowerCase()

/**
 * The host names (without port: a tunnel may arrive on any local port) the console answers: this machine's
 * loopback names, ADMIN_HOST when it is one address of this machine, and ADMIN_URL's host (the proxy's name).
 */
export function consoleHostNames(config: Pick<Config, 'adminHost' | 'adminUrl'>): ReadonlySet<string> {
  const names = new Set(LOOPBACK_NAMES)
  if (net.isIP(config.adminHost) && !['0.0.0.0', '::'].includes(config.adminHost)) names.add(asHostName(config.adminHost))
  if (config.adminUrl) names.add(new URL(config.adminUrl).hostname.toLowerCase())
  return names
}

/** Whether the Host header names one of `names` (any port). */
export function isConsoleHost(names: ReadonlySet<string>, host: string | undefined): boolean {
  const name = HOST_HEADER.exec((host ?? '').toLowerCase())?.[1]
  return name !== undefined && names.has(name)
}
