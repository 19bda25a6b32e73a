// What the sessions page shows of the browser and the address a session signed in from (decision 041): enough for
// the owner to recognise a session, no more. Only these summaries are stored, never the whole User-Agent or address.
import net from 'node:net'

const BROWSERS: [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\b(?:OPR|Opera)\//, 'Opera'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/Chrom(?:e|ium)\/|\bCriOS\//, 'Chrome'],
  [/\bSafari\//, 'Safari'],
  [/\bcurl\//, 'curl'],
]
const SYSTEMS: [RegExp, string][] = [
  [/\bAndroid\b/, 'Android'],
  [/\biPhone|iPad|iPod\b/, 'iOS'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X|Macintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
]

/** "Chrome auf Linux"; "Unbekannter Browser" when nothing is recognised. */
export function browserSummary(userAgent: string | undefined): string {
  const ua = (userAgent ?? '').slice(0, 512)
  const browser = BROWSERS.find(([pattern]) => pattern.test(ua))?.[1]
  const system = SYSTEMS.find(([pattern]) => pattern.test(ua))?.[1]
  if (!browser) return system ? `Unbekannter Browser auf ${system}` : 'Unbekannter Browser'
  return system ? `${browser} auf ${system}` : browser
}

/** 203.0.113.7 → 203.0.x.x; 2001:db8:1:2::5 → 2001:db8:…; anything else: null. */
export function partialAddress(address: string | undefined): string | null {
  const ip = (address ?? '').replace(/^::ffff:(?=\d+\.)/, '')
  if (net.isIPv4(ip)) return `${ip.split('.').slice(0, 2).join('.')}.x.x`
  if (net.isIPv6(ip)) {
    const groups = ip.split(':').filter((group) => group !== '')
    return `${groups.slice(0, 2).join(':')}:…`
  }
  return null
}
