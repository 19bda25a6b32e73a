// Turns the Host header into the name shown on the page. Anything that is not a valid host name is refused here,
// so it can never reach the page as markup.
import { toASCII, toUnicode } from '../lib/uts46.ts'

export interface PageHost {
  /** The ASCII (punycode) form, used for mail headers and comparisons. */
  ascii: string
  /** The form shown to people (see displayHost): xn--mnchen-3ya.de -> münchen.de, but xn--pple-43d.com stays. */
  display: string
}

const ASCII_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/

/**
 * Lower-case letters, digits and inner hyphens, label by label, without "--" in the third and fourth place (where
 * "xn--" marks punycode), at most 253 characters: UTS #46 leaves such a name as it is, so it needs no tr46 call.
 */
const PLAIN_NAME = /^(?:(?!..--)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*(?!..--)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/

/** Whether tr46 would give back `name` unchanged as a valid name (see PLAIN_NAME). */
export const isPlainName = (name: string) => name.length <= 253 && PLAIN_NAME.test(name)
const MAX_HEADER = 1024

const UTS46 = { checkBidi: true, checkHyphens: true, checkJoiners: true, useSTD3ASCIIRules: true } as const

// Most requests carry one of a few Host headers; UTS #46 processing is worth remembering (bounded, oldest out).
const known = new Map<string, PageHost | null>()
const KNOWN_MAX = 5000

export function parseHost(header: string | undefined): PageHost | null {
  if (!header || header.length > MAX_HEADER) return null
  let host = known.get(header)
  if (host === undefined) {
    host = parseUncached(header)
    if (known.size >= KNOWN_MAX) known.delete(known.keys().next().value!)
    known.set(header, host)
  }
  return host
}

function parseUncached(header: string): PageHost | null {
  // IPv6 literals are addresses, not domains anybody sells.
  if (header.startsWith('[')) return null
  const withoutPort = header.replace(/:\d{1,5}$/, '')
  const name = withoutPort.toLowerCase().replace(/\.$/, '')
  if (name === '' || name.includes(':')) return null
  // Most Host headers are plain names; new ones come by the thousand when Caddy renews the certificates of a large
  // portfolio through /tls-check, and tr46 costs tens of microseconds each.
  const ascii = isPlainName(name) ? name : toASCII(name, { ...UTS46, verifyDNSLength: true, transitionalProcessing: false })
  if (!ascii || ascii.length > 253) return null
  if (!ascii.split('.').every((label) => ASCII_LABEL.test(label))) return null
  return { ascii, display: displayHost(ascii) }
}

/**
 * Whether a parsed host can be a domain somebody sells: at least two labels, and not an IPv4 address in any of
 * the spellings URL parsers accept (127.0.0.1, 127.1, 0x7f.1, 0177.0.0.1, 2130706433). Those all end in a
 * number, and no top-level domain is one (https://url.spec.whatwg.org/#ends-in-a-number-checker).
 */
export function isDomainName(ascii: string): boolean {
  const labels = ascii.split('.')
  const tld = labels.at(-1)!
  // .localhost names are the machine itself (RFC 6761).
  return labels.length >= 2 && !/^(?:\d+|0x[0-9a-f]*)$/.test(tld) && tld !== 'localhost'
}

/**
 * The name as people should read it: each label in Unicode, except a label whose letters could pass for another
 * name's. Such a label stays punycode, as browsers show it (UTS #39, "highly restrictive"): one script per label,
 * or Latin with the scripts written together with Han (Japanese, Chinese, Korean); only the scripts recommended
 * for identifiers; and no Cyrillic label made only of letters that look Latin under a Latin top-level domain.
 */
export function displayHost(ascii: string): string {
  // Without a punycode label there is nothing to convert (and no tr46 call to pay for).
  if (!ascii.includes('xn--')) return ascii
  const { domain, error } = toUnicode(ascii, UTS46)
  const asciiLabels = ascii.split('.')
  const labels = domain.split('.')
  if (error || labels.length !== asciiLabels.length) return ascii
  const tld = labels.at(-1)!
  return labels.map((label, i) => (label === asciiLabels[i] || isReadableLabel(label, tld) ? label : asciiLabels[i])).join('.')
}

// UTS #39, Table 5 (Recommended Scripts), by their ISO 15924 codes.
const RECOMMENDED_SCRIPTS = [
  'Arab',
  'Armn',
  'Beng',
  'Bopo',
  'Cyrl',
  'Deva',
  'Ethi',
  'Geor',
  'Grek',
  'Gujr',
  'Guru',
  'Hang',
  'Hani',
  'Hebr',
  'Hira',
  'Kana',
  'Khmr',
  'Knda',
  'Laoo',
  'Latn',
  'Mlym',
  'Mymr',
  'Orya',
  'Sinh',
  'Taml',
  'Telu',
  'Thaa',
  'Thai',
  'Tibt',
].map((code) => ({ code, pattern: new RegExp(`^\\p{sc=${code}}$`, 'u') }))

/** Digits, hyphens and combining marks belong to no script of their own. */
const SCRIPT_NEUTRAL = /^[\p{sc=Zyyy}\p{sc=Zinh}]$/u

/** The mixes a highly restrictive label may use; any single script is allowed too. */
const ALLOWED_MIXES = [
  ['Latn', 'Hani', 'Hira', 'Kana'],
  ['Latn', 'Hani', 'Bopo'],
  ['Latn', 'Hani', 'Hang'],
]

// Cyrillic letters that look like Latin ones (а с ԁ е һ і ј ӏ о р ԛ ѕ ԝ х у), and the top-level domains where a
// Cyrillic name is expected.
const LATIN_LOOKING_CYRILLIC = /^[\u0430\u0441\u0501\u0435\u04bb\u0456\u0458\u04cf\u043e\u0440\u051b\u0455\u051d\u0445\u0443\p{sc=Zyyy}\p{sc=Zinh}]+$/u
const CYRILLIC_COUNTRIES = new Set(['bg', 'by', 'kg', 'kz', 'mk', 'mn', 'rs', 'ru', 'su', 'tj', 'ua', 'uz'])

function isReadableLabel(label: string, tld: string): boolean {
  const scripts = new Set<string>()
  for (const char of label) {
    if (SCRIPT_NEUTRAL.test(char)) continue
    const script = RECOMMENDED_SCRIPTS.find(({ pattern }) => pattern.test(char))
    if (!script) return false
    scripts.add(script.code)
  }
  if (scripts.size > 1) return ALLOWED_MIXES.some((mix) => [...scripts].every((code) => mix.includes(code)))
  if (scripts.has('Cyrl') && LATIN_LOOKING_CYRILLIC.test(label)) return !/^[a-z0-9-]+$/.test(tld) || CYRILLIC_COUNTRIES.has(tld)
  return true
}
