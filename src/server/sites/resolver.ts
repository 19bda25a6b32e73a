// Which site a request is for: the host (www. folded into the bare domain), its settings from the domains file,
// the legal links of its footer and the language of its answers. Page, contact API, legal pages and the TLS check
// all ask here.
import fs from 'node:fs'
import type { FastifyRequest } from 'fastify'
import { connectsFromThisMachine } from '../http/client-address.ts'
import type { Config } from '../config.ts'
import type { DomainRegistry } from './registry.ts'
import type { DomainsConfig } from './domains-table.ts'
import type { DomainSettings } from './settings.ts'
import { displayHost, isDomainName, parseHost, type PageHost } from './host.ts'
import { answerLanguageFor, GERMAN, type AnswerLanguage } from './language.ts'

/** A site as one request sees it: `language` is the one its answers to this request speak (sites/language.ts). */
export interface Site extends AnswerLanguage {
  host: PageHost
  /** Shown to a browser on this machine through `….localhost` (LOCAL_PREVIEW): the owner's look, not a visit. */
  preview?: true
  settings: DomainSettings
  /**
   * The domains file names this host itself: not a label under a `*.` wildcard, not a host shown for `unknownHosts:
   * page`. Only then is the name the owner's word; otherwise the sender of the Host header chose it (decisions 030,
   * 035), and it goes into no mail, deal or statistic that a confirmation or a checkout would make.
   */
  listedExactly: boolean
  /** The domains configuration in force when the request came (what the domains file says for every host). */
  domainsConfig: DomainsConfig
  legal: { imprintHref?: string; privacyHref?: string }
}

type SiteLookup =
  { kind: 'site'; site: Site } | { kind: 'redirect'; location: string } | { kind: 'invalid' } | { kind: 'unknown'; answer: 'neutral' | 'not-found' }

/** What the TLS check may answer for a name: yes, no, or yes within the daily limit of its wildcard entry. */
type CertificateRule = { kind: 'approve' } | { kind: 'refuse' } | { kind: 'limited'; wildcard: string; name: string }

export interface SiteResolver {
  lookup(request: FastifyRequest): SiteLookup
  /** For the TLS check: may this server get a certificate for `name`? */
  certificateRule(name: string): CertificateRule
  legalText(kind: 'imprint' | 'privacy', site: Site): string | undefined
  /** The language of the answers to this request: its site's, or German for a host without a page. */
  answerLanguage(request: FastifyRequest): AnswerLanguage
}

/** "www.example.de" -> "example.de"; a bare two-label name stays as it is. */
function withoutWww(host: PageHost): PageHost {
  if (!host.ascii.startsWith('www.') || host.ascii.split('.').length < 3) return host
  return { ascii: host.ascii.slice(4), display: host.display.replace(/^www\./, '') }
}

/**
 * Names that show the page when the connection comes from this machine (LOCAL_PREVIEW, on by default), so that
 * `npm start` and a browser on the same machine show the page. They never get a certificate (/tls-check).
 */
const LOCAL_NAMES = new Set(['localhost', '127.0.0.1'])

/**
 * Every browser resolves the names under `localhost` to this machine (RFC 6761), before any DNS exists: with
 * LOCAL_PREVIEW, `beispiel.de.localhost` shows a browser on this machine the page of `beispiel.de`, and
 * `beispiel.localhost` the page of the domains file's first name whose first label is `beispiel` (docs/domains.md).
 */
const LOCALHOST = '.localhost'
const isLocalName = (ascii: string) => LOCAL_NAMES.has(ascii) || ascii.endsWith(LOCALHOST)

/**
 * Where the www redirect goes: the bare host, the port of the Host header, and the path and query of the request
 * target. Of an absolute-form target (GET http://other.example/x HTTP/1.1) only the path is used.
 */
function redirectLocation(request: FastifyRequest, host: PageHost): string {
  const protocol = request.protocol === 'https' ? 'https' : 'http'
  const port = /:(\d+)$/.exec(request.headers.host ?? '')?.[1]
  return `${protocol}://${host.ascii}${port ? `:${port}` : ''}${pathOf(request.url)}`
}

function pathOf(target: string): string {
  if (target.startsWith('/')) return target
  try {
    const url = new URL(target)
    return `${url.pathname}${url.search}`
  } catch {
    return '/'
  }
}

/** Host and Accept-Language pairs whose lookup a domains configuration keeps. */
const ANSWERS_PER_CONFIG = 2000

const APPROVE = { kind: 'approve' } as const
const REFUSE = { kind: 'refuse' } as const

/**
 * Where a request keeps its site once looked up. app.ts declares it on every request (decorateRequest), so that all
 * requests keep one shape; a map from request to answer cost an entry per request (docs/decisions/034).
 */
export const SITE_LOOKUP = Symbol('site lookup')

declare module 'fastify' {
  interface FastifyRequest {
    [SITE_LOOKUP]?: SiteLookup | null
  }
}

export function createSiteResolver(config: Config, domains: DomainRegistry): SiteResolver {
  // Legal texts from files named in the environment are read once; the domains file's texts reload with it.
  const fileText = (file: string | undefined) => (file ? fs.readFileSync(file, 'utf8') : undefined)
  const envTexts = { imprint: fileText(config.legal.imprintFile), privacy: fileText(config.legal.privacyFile) }

  function legalText(kind: 'imprint' | 'privacy', site: Pick<Site, 'domainsConfig'>) {
    const { legal } = site.domainsConfig
    const fromFile = kind === 'imprint' ? legal.imprintText : legal.privacyText
    return fromFile ?? envTexts[kind]
  }

  function legalLinks(settings: DomainSettings, domainsConfig: DomainsConfig): Site['legal'] {
    const { legal } = domainsConfig
    const imprintHref =
      settings.imprintUrl ?? legal.imprintUrl ?? config.legal.imprintUrl ?? (legalText('imprint', { domainsConfig }) ? '/impressum' : undefined)
    const privacyHref =
      settings.privacyUrl ?? legal.privacyUrl ?? config.legal.privacyUrl ?? (legalText('privacy', { domainsConfig }) ? '/datenschutz' : undefined)
    return { ...(imprintHref && { imprintHref }), ...(privacyHref && { privacyHref }) }
  }

  // What a Host and Accept-Language header come to is the same for every request until the domains configuration
  // changes (a reload, a name sold: a new object): kept per configuration, the oldest going first beyond a bound (a
  // spray of hosts). Looking it up anew was a measured share of GET / (docs/decisions/034-request-path.md). Answers
  // that depend on more than these headers (the local preview, the www redirect) are not kept.
  const answers = new WeakMap<DomainsConfig, Map<string, SiteLookup>>()
  function lookupOnce(request: FastifyRequest): SiteLookup {
    const domainsConfig = domains.current()
    let perConfig = answers.get(domainsConfig)
    if (!perConfig) answers.set(domainsConfig, (perConfig = new Map()))
    const key = `${request.headers.host ?? ''}\n${request.headers['accept-language'] ?? ''}`
    const kept = perConfig.get(key)
    if (kept) return kept
    const { lookup: found, keep } = resolve(request, domainsConfig)
    if (keep) {
      if (perConfig.size >= ANSWERS_PER_CONFIG) perConfig.delete(perConfig.keys().next().value!)
      perConfig.set(key, found)
    }
    return found
  }

  function resolve(request: FastifyRequest, domainsConfig: DomainsConfig): { lookup: SiteLookup; keep: boolean } {
    const parsed = parseHost(request.headers.host)
    if (!parsed) return { lookup: { kind: 'invalid' }, keep: true }
    if (isLocalName(parsed.ascii)) return { lookup: resolveParsed(request, domainsConfig, parsed), keep: false }
    const found = resolveParsed(request, domainsConfig, parsed)
    return { lookup: found, keep: found.kind !== 'redirect' && !(found.kind === 'site' && found.site.host !== parsed) }
  }

  // The first labels of the file's names, for `NAME.localhost`: made on the first such preview of a configuration.
  const firstLabels = new WeakMap<DomainsConfig, Map<string, string>>()
  function nameWithFirstLabel(domainsConfig: DomainsConfig, label: string): string | undefined {
    let names = firstLabels.get(domainsConfig)
    if (!names) {
      names = new Map()
      for (const name of domainsConfig.names()) {
        const first = name.slice(0, name.indexOf('.'))
        if (first !== '*' && !names.has(first) && domainsConfig.resolve(name)?.known) names.set(first, name)
      }
      firstLabels.set(domainsConfig, names)
    }
    return names.get(label)
  }

  /** The name `….localhost` previews, if any: `beispiel.de.localhost` → beispiel.de, `beispiel.localhost` → the file's. */
  function previewed(ascii: string, domainsConfig: DomainsConfig): PageHost | undefined {
    const inner = ascii.slice(0, -LOCALHOST.length)
    const name = inner.includes('.') ? inner : nameWithFirstLabel(domainsConfig, inner)
    return name !== undefined && isDomainName(name) ? { ascii: name, display: displayHost(name) } : undefined
  }

  function resolveParsed(request: FastifyRequest, domainsConfig: DomainsConfig, parsed: PageHost): SiteLookup {
    const fromHere = config.localPreview && isLocalName(parsed.ascii) && connectsFromThisMachine(request)
    const target = fromHere && parsed.ascii.endsWith(LOCALHOST) ? previewed(parsed.ascii, domainsConfig) : undefined
    // The previewed name's own page, the www. form's too: a redirect would leave this machine for the real name.
    if (target) return siteFor(request, domainsConfig, withoutWww(target), { preview: true })
    // An address or a single label is nobody's domain: it gets what unknown hosts get, but never the page.
    if (!isDomainName(parsed.ascii) && !(fromHere && LOCAL_NAMES.has(parsed.ascii))) return unknownHost(domainsConfig)
    const host = withoutWww(parsed)
    // HEAD answers like GET (RFC 9110, 9.3.2).
    const redirect = host !== parsed && domainsConfig.www === 'redirect' && (request.method === 'GET' || request.method === 'HEAD')
    return siteFor(request, domainsConfig, host, { redirect })
  }

  const unknownHost = (domainsConfig: DomainsConfig): SiteLookup => ({
    kind: 'unknown',
    answer: domainsConfig.unknownHosts === 'not-found' ? 'not-found' : 'neutral',
  })

  function siteFor(request: FastifyRequest, domainsConfig: DomainsConfig, host: PageHost, how: { redirect?: boolean; preview?: true }): SiteLookup {
    const resolved = domainsConfig.resolve(host.ascii)
    if (!resolved) return { kind: 'unknown', answer: domainsConfig.unknownHosts === 'neutral' ? 'neutral' : 'not-found' }
    if (how.redirect) return { kind: 'redirect', location: redirectLocation(request, host) }
    const { settings } = resolved
    const language = answerLanguageFor(settings.language, request.headers['accept-language'], settings.languages)
    return {
      kind: 'site',
      site: {
        host,
        ...(how.preview && { preview: true }),
        settings,
        listedExactly: resolved.known === true && resolved.wildcard === undefined,
        domainsConfig,
        legal: legalLinks(settings, domainsConfig),
        ...language,
      },
    }
  }

  // A request is looked up once, whoever asks: the contact route, then its error handler answering with the page,
  // see the same site, even if the domains file reloaded in between.
  function lookup(request: FastifyRequest): SiteLookup {
    return (request[SITE_LOOKUP] ??= lookupOnce(request))
  }
  return {
    lookup,
    answerLanguage(request) {
      const found = lookup(request)
      return found.kind === 'site' ? found.site : GERMAN
    },
    certificateRule(name) {
      const parsed = parseHost(name)
      // An address or a single label is nobody's domain: a certificate for one could only serve an attacker.
      if (!parsed || !isDomainName(parsed.ascii)) return REFUSE
      if (!domains.fromFile) return config.allowAnyTls ? APPROVE : REFUSE
      const resolved = domains.current().resolve(withoutWww(parsed).ascii)
      if (!resolved) return REFUSE
      if (config.allowAnyTls) return APPROVE
      if (!resolved.known) return REFUSE
      return resolved.wildcard ? { kind: 'limited', wildcard: resolved.wildcard, name: parsed.ascii } : APPROVE
    },
    legalText,
  }
}
