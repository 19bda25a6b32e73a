// Which site a request is for: the host (www. folded into the bare domain), its settings from the domains file,
// and the legal links of its footer. Page, contact API, legal pages and the TLS check all ask here.
import fs from 'node:fs'
import type { FastifyRequest } from 'fastify'
import type { Config } from './config.ts'
import type { DomainRegistry } from './domains/registry.ts'
import { resolveDomain, type DomainSettings, type DomainsFile } from './domains/settings.ts'
import { parseHost, type PageHost } from './host.ts'

export interface Site {
  host: PageHost
  settings: DomainSettings
  file: DomainsFile
  legal: { imprintHref?: string; privacyHref?: string }
}

export type SiteLookup =
  | { kind: 'site'; site: Site }
  | { kind: 'redirect'; location: string }
  | { kind: 'invalid' }
  | { kind: 'unknown'; answer: 'neutral' | 'not-found' }

export interface SiteResolver {
  lookup(request: FastifyRequest): SiteLookup
  /** For the TLS check: does this server show a page for `name`? */
  serves(name: string): boolean
  legalText(kind: 'imprint' | 'privacy', site: Site): string | undefined
}

/** "www.example.de" -> "example.de"; a bare two-label name stays as it is. */
function withoutWww(host: PageHost): PageHost {
  if (!host.ascii.startsWith('www.') || host.ascii.split('.').length < 3) return host
  return { ascii: host.ascii.slice(4), display: host.display.replace(/^www\./, '') }
}

export function createSiteResolver(config: Config, domains: DomainRegistry): SiteResolver {
  // Legal texts from files named in the environment are read once; the domains file's texts reload with it.
  const fileText = (file: string | undefined) => (file ? fs.readFileSync(file, 'utf8') : undefined)
  const envTexts = { imprint: fileText(config.legal.imprintFile), privacy: fileText(config.legal.privacyFile) }

  function legalText(kind: 'imprint' | 'privacy', site: Pick<Site, 'file'>) {
    const fromFile = kind === 'imprint' ? site.file.legal.imprintText : site.file.legal.privacyText
    return fromFile ?? envTexts[kind]
  }

  function legalLinks(settings: DomainSettings, file: DomainsFile): Site['legal'] {
    const imprintHref =
      settings.imprintUrl ?? file.legal.imprintUrl ?? config.legal.imprintUrl ?? (legalText('imprint', { file }) ? '/impressum' : undefined)
    const privacyHref =
      settings.privacyUrl ?? file.legal.privacyUrl ?? config.legal.privacyUrl ?? (legalText('privacy', { file }) ? '/datenschutz' : undefined)
    return { ...(imprintHref && { imprintHref }), ...(privacyHref && { privacyHref }) }
  }

  return {
    lookup(request) {
      const parsed = parseHost(request.headers.host)
      if (!parsed) return { kind: 'invalid' }
      const host = withoutWww(parsed)
      const file = domains.current()
      const resolved = resolveDomain(file, host.ascii)
      if (!resolved) return { kind: 'unknown', answer: file.unknownHosts === 'neutral' ? 'neutral' : 'not-found' }
      if (host !== parsed && file.www === 'redirect' && request.method === 'GET') {
        const port = /:(\d+)$/.exec(request.headers.host ?? '')?.[1]
        return { kind: 'redirect', location: `${request.protocol}://${host.ascii}${port ? `:${port}` : ''}${request.url}` }
      }
      return { kind: 'site', site: { host, settings: resolved.settings, file, legal: legalLinks(resolved.settings, file) } }
    },
    serves(name) {
      const parsed = parseHost(name)
      if (!parsed) return false
      const host = withoutWww(parsed)
      if (!domains.fromFile) return config.allowAnyTls
      const resolved = resolveDomain(domains.current(), host.ascii)
      return resolved !== null && (resolved.known || config.allowAnyTls)
    },
    legalText,
  }
}
