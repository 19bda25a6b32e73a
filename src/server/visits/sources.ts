// Where a visit came from, by class (decision 049): the link's own ?ref= or utm_source first, then the Referer's
// host: a search engine, a marketplace or a registrar's domain search, a social site, another site (its host), our
// own page, or nothing at all (typed in, a bookmark, an app: "direct", the common case for a domain).

/** Search engines and answer engines, by the name left of their public suffix (google.de, google.co.uk, …). */
const SEARCH = [
  'google',
  'bing',
  'duckduckgo',
  'yahoo',
  'yandex',
  'baidu',
  'ecosia',
  'qwant',
  'startpage',
  'kagi',
  'ask',
  'seznam',
  'naver',
  'metager',
  'mojeek',
  'perplexity',
  'chatgpt',
]
/** Marketplaces, domain search sites and registrars. */
const MARKETS = [
  'sedo',
  'afternic',
  'dan',
  'atom',
  'squadhelp',
  'godaddy',
  'namecheap',
  'brandbucket',
  'undeveloped',
  'efty',
  'hugedomains',
  'flippa',
  'spaceship',
  'dynadot',
  'namesilo',
  'porkbun',
  'ionos',
  'strato',
  'united-domains',
  'inwx',
  'gandi',
  'ovh',
  'hostinger',
  'checkdomain',
  'instantdomainsearch',
  'domainr',
  'expireddomains',
  'dnjournal',
  'epik',
  'sav',
  'unstoppabledomains',
]
/** Social sites and forums; a short host stands for its site (t.co is X's link shortener). */
const SOCIAL = [
  'facebook',
  'fb',
  'instagram',
  'twitter',
  'x',
  'linkedin',
  'lnkd',
  'reddit',
  'youtube',
  'pinterest',
  'tiktok',
  'xing',
  'mastodon',
  'threads',
  'bsky',
  'ycombinator',
  'namepros',
  'dnforum',
  'telegram',
  'whatsapp',
  'quora',
  'tumblr',
  'vk',
]
/** A few hosts whose name is not the site's. */
const SPECIAL: Record<string, string> = {
  't.co': 'social:x',
  'lnkd.in': 'social:linkedin',
  'bsky.app': 'social:bsky',
  'news.ycombinator.com': 'social:hackernews',
  't.me': 'social:telegram',
  'com.google.android.googlequicksearchbox': 'search:google',
  'com.google.android.gm': 'social:gmail',
  'com.linkedin.android': 'social:linkedin',
  'com.reddit.frontpage': 'social:reddit',
}

const CLASS_OF = new Map<string, string>([
  ...SEARCH.map((name) => [name, `search:${name}`] as const),
  ...MARKETS.map((name) => [name, `market:${name === 'squadhelp' ? 'atom' : name}`] as const),
  ...SOCIAL.map((name) => [name, `social:${name === 'fb' ? 'facebook' : name === 'twitter' ? 'x' : name === 'lnkd' ? 'linkedin' : name}`] as const),
])
/** Second-level labels of country suffixes (co.uk, com.br): the site's name stands left of them. */
const SECOND_LEVEL = new Set(['co', 'com', 'org', 'net', 'ac', 'gov', 'edu', 'ne', 'or'])
const HOST = /^[a-z0-9.-]{1,253}$/
const REF = /^[a-z0-9._-]{1,40}$/

/** The host of a Referer ("https://www.google.de/search?q=…" → "www.google.de"), lowercased; null if it has none. */
export function refererHost(referer: string): string | null {
  const start = referer.indexOf('//')
  if (start === -1) return null
  let end = referer.length
  for (const stop of ['/', '?', '#']) {
    const at = referer.indexOf(stop, start + 2)
    if (at !== -1 && at < end) end = at
  }
  let host = referer.slice(start + 2, end)
  const user = host.lastIndexOf('@')
  if (user !== -1) host = host.slice(user + 1)
  const port = host.lastIndexOf(':')
  if (port !== -1) host = host.slice(0, port)
  host = host.toLowerCase()
  if (host.endsWith('.')) host = host.slice(0, -1)
  return HOST.test(host) ? host : null
}

/** The class of a Referer's host: search:…, market:…, social:…, or site:<host> for any other. */
function classOfHost(host: string): string {
  const bare = host.startsWith('www.') ? host.slice(4) : host
  const special = SPECIAL[bare]
  if (special) return special
  const labels = bare.split('.')
  if (labels.length >= 2) {
    const name = labels.length >= 3 && SECOND_LEVEL.has(labels.at(-2)!) ? labels.at(-3)! : labels.at(-2)!
    const found = CLASS_OF.get(name)
    if (found) return found
  }
  return `site:${bare}`
}

/** Hosts already classified: the same few referrers come again and again; a spray of hosts starts afresh. */
const classified = new Map<string, string>()
const CLASSIFIED_MAX = 2000

/**
 * Where a visit of `ownHost`'s page came from. `ref` is the page's own ?ref= or ?utm_source= (a link the owner
 * placed), which says more than any Referer; a Referer of the name's own pages is "internal".
 */
export function sourceOf(referer: string | undefined, ref: string | undefined, ownHost: string): string {
  if (ref !== undefined) {
    const value = ref.trim().toLowerCase()
    return REF.test(value) ? `ref:${value}` : 'ref:other'
  }
  if (!referer) return 'direct'
  const host = refererHost(referer)
  if (host === null) return 'direct'
  if (host === ownHost || host === `www.${ownHost}`) return 'internal'
  let found = classified.get(host)
  if (found === undefined) {
    found = classOfHost(host)
    if (classified.size >= CLASSIFIED_MAX) classified.clear()
    classified.set(host, found)
  }
  return found
}
