// Where passkeys belong (decision 041): the relying-party id and origin come from the console's address as the
// browser sees it, ADMIN_URL when the request came by its name, else the request (its Host, and behind a trusted
// proxy its scheme). WebAuthn works only in a secure context and never on an IP address: on plain http it needs
// the name localhost.
import net from 'node:net'
import type { FastifyBaseLogger, FastifyRequest } from 'fastify'
import type { Config } from '../../config.ts'

export type RelyingParty = { ok: true; rpID: string; origin: string } | { ok: false; origin: string; problem: string; logLine: string }

const isLocalhost = (host: string) => host === 'localhost' || host.endsWith('.localhost')

export function relyingPartyOf(config: Pick<Config, 'adminUrl'>, request: FastifyRequest): RelyingParty {
  const hostHeader = (request.headers.host ?? '').toLowerCase()
  const fromUrl = config.adminUrl ? new URL(config.adminUrl) : null
  const url = fromUrl && new URL(`http://${hostHeader}`).hostname === fromUrl.hostname ? fromUrl : new URL(`${request.protocol}://${request.host}`)
  const origin = url.origin
  const host = url.hostname
  const port = url.port ? `:${url.port}` : ''
  if (net.isIP(host.replace(/^\[|\]$/g, '')) !== 0) {
    return {
      ok: false,
      origin,
      problem: `Passkeys gehen nicht unter einer IP-Adresse (${origin}). Öffnen Sie die Konsole unter http://localhost${port} (SSH-Tunnel) oder unter ihrer HTTPS-Adresse (ADMIN_URL).`,
      logLine: `console: passkeys cannot work at ${origin} (an IP address is no relying-party id): open the console at http://localhost${port} or behind HTTPS (ADMIN_URL, docs/console.md)`,
    }
  }
  if (url.protocol !== 'https:' && !isLocalhost(host)) {
    return {
      ok: false,
      origin,
      problem: `Passkeys gehen nur über HTTPS oder auf localhost, nicht unter ${origin}. Stellen Sie die Konsole hinter HTTPS (ADMIN_URL, ADMIN_TRUST_PROXY) oder öffnen Sie sie über den SSH-Tunnel unter http://localhost${port}.`,
      logLine: `console: passkeys cannot work at ${origin} (plain http on a name that is not localhost): put the console behind HTTPS with ADMIN_URL and ADMIN_TRUST_PROXY, or use the SSH tunnel at http://localhost (docs/console.md)`,
    }
  }
  return { ok: true, rpID: host, origin }
}

/** Logs each origin's problem once (at most a few origins: the console answers only its own names). */
export function problemLogger(log: FastifyBaseLogger) {
  const told = new Set<string>()
  return (rp: RelyingParty) => {
    if (rp.ok || told.has(rp.origin) || told.size >= 16) return
    told.add(rp.origin)
    log.warn(rp.logLine)
  }
}

/** At start: an ADMIN_URL on plain http under a name that is not localhost can never have passkeys. */
export function startupProblem(config: Pick<Config, 'adminUrl'>): string | null {
  if (!config.adminUrl) return null
  const url = new URL(config.adminUrl)
  if (url.protocol === 'https:' || isLocalhost(url.hostname)) return null
  return `console: passkeys cannot work at ADMIN_URL ${url.origin} (plain http on a name that is not localhost): use https (docs/console.md)`
}

/** A WebAuthn challenge is answered within this long or not at all (the browser's own timeout is a minute). */
export const CHALLENGE_MS = 5 * 60_000

/** The challenge the browser signed, read from the response's clientDataJSON; null when that is no JSON with one. */
export function challengeOf(response: { clientDataJSON?: unknown } | undefined): string | null {
  if (typeof response?.clientDataJSON !== 'string') return null
  try {
    const data = JSON.parse(Buffer.from(response.clientDataJSON, 'base64url').toString('utf8')) as { challenge?: unknown }
    return typeof data.challenge === 'string' && data.challenge.length <= 128 ? data.challenge : null
  } catch {
    return null
  }
}
