// Turns the Host header into the name shown on the page. Anything that is not a valid host name is refused here,
// so it can never reach the page as markup.
import tr46 from 'tr46'

export interface PageHost {
  /** The ASCII (punycode) form, used for mail headers and comparisons. */
  ascii: string
  /** The Unicode form shown to people: xn--mnchen-3ya.de -> münchen.de */
  display: string
}

const ASCII_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/
const MAX_HEADER = 1024

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
  const ascii = tr46.toASCII(name, {
    checkBidi: true,
    checkHyphens: true,
    checkJoiners: true,
    useSTD3ASCIIRules: true,
    verifyDNSLength: true,
    transitionalProcessing: false,
  })
  if (!ascii || ascii.length > 253) return null
  if (!ascii.split('.').every((label) => ASCII_LABEL.test(label))) return null
  const unicode = tr46.toUnicode(ascii, { checkBidi: true, checkHyphens: true, checkJoiners: true, useSTD3ASCIIRules: true })
  return { ascii, display: unicode.error ? ascii : unicode.domain }
}
