// A made-up domains file of any size, from a fixed seed, for the bench (`npm run bench -- --domains N`) and for
// trying a large portfolio by hand:
//
//   npm exec -- node scripts/domains-file.ts --domains 100000 --wildcards 1000 --format yaml > domains.yaml
//
// Names are two words of a German and English vocabulary (some with umlauts, so some are Unicode names), joined
// with or without a hyphen, sometimes with a number, under common top-level domains; every name has a price and
// a minimum offer, a few are reserved, sold or unlisted. The first name is always example.de. From a fixed seed
// (seed-data.ts's generator): two files made with the same arguments are the same, byte for byte.
import { pathToFileURL } from 'node:url'
import { randomFrom } from './seed-data.ts'

const WORDS = `auto bau bio blog buch cafe camp city club code data design digital dom event farm film finanz fit
  foto garten geld haus hotel immo info job kaffee kinder koch kunst land laden leben licht markt media mode musik
  natur netz online park pet plan praxis rad reise rent sale schule service shop smart solar sport stadt start
  store studio team technik tier tour trade travel urlaub velo verlag web wein welt werk wohnen yoga zeit zone`
  .trim()
  .split(/\s+/)
// About one name in twenty is a Unicode name, as in a German portfolio.
const UNICODE_WORDS = ['bäckerei', 'brücke', 'bücher', 'fähre', 'grün', 'küche', 'möbel', 'müller', 'schön', 'süß', 'tür', 'wärme', 'öko']
const TLDS = ['de', 'de', 'de', 'com', 'com', 'net', 'org', 'eu', 'shop', 'online', 'io', 'info', 'at', 'ch']

interface Entry {
  price: number
  minOffer?: number
  status?: 'sold' | 'reserved'
  listed?: false
}

export interface DomainsDocument {
  unknownHosts: string
  default: Record<string, string>
  domains: Record<string, Entry>
}

/** The document (as it would be parsed): `domains` exact names then `wildcards` wildcard entries. */
export function domainsDocument({ domains, wildcards = 0, seed = 11 }: { domains: number; wildcards?: number; seed?: number }): DomainsDocument {
  const random = randomFrom(seed)
  const pick = (list: readonly string[]): string => list[Math.floor(random() * list.length)]!
  const word = () => pick(random() < 0.025 ? UNICODE_WORDS : WORDS)
  const entries: Record<string, Entry> = { 'example.de': { price: 4900, minOffer: 1500 } }
  let count = 1
  while (count < domains) {
    const number = random() < 0.15 ? String(Math.floor(random() * 100)) : ''
    const name = `${word()}${random() < 0.4 ? '-' : ''}${word()}${number}.${pick(TLDS)}`
    if (entries[name]) continue
    const price = 100 * Math.ceil(random() * 500)
    const entry: Entry = { price, minOffer: Math.round(price * 0.3) }
    const roll = random()
    if (roll < 0.02) entry.status = 'sold'
    else if (roll < 0.04) entry.status = 'reserved'
    else if (roll < 0.05) entry.listed = false
    entries[name] = entry
    count++
  }
  let made = 0
  while (made < wildcards) {
    const key = `*.${pick(WORDS)}-${pick(WORDS)}${made}.${pick(TLDS)}`
    if (entries[key]) continue
    entries[key] = { price: 100 * Math.ceil(random() * 50) }
    made++
  }
  return { unknownHosts: 'not-found', default: { currency: 'EUR', mailTo: 'verkauf@example.org' }, domains: entries }
}

/** YAML the way a person writes it: block mappings, one key a line, wildcard keys quoted. */
function toYaml(document: DomainsDocument): string {
  const lines = ['# Made by scripts/domains-file.ts', `unknownHosts: ${document.unknownHosts}`, 'default:']
  for (const [key, value] of Object.entries(document.default)) lines.push(`  ${key}: ${value}`)
  lines.push('domains:')
  for (const [name, entry] of Object.entries(document.domains)) {
    lines.push(`  ${name.startsWith('*') ? `"${name}"` : name}:`)
    for (const [key, value] of Object.entries(entry)) lines.push(`    ${key}: ${value}`)
  }
  return `${lines.join('\n')}\n`
}

/** The file's text: `format` is yaml or json (indented, as an editor or a script would write it). */
export function domainsFileText(format: 'yaml' | 'json', options: { domains: number; wildcards?: number; seed?: number }): string {
  const document = domainsDocument(options)
  return format === 'json' ? `${JSON.stringify(document, null, 2)}\n` : toYaml(document)
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2)
  const option = (name: string, fallback: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback)
  const format = option('--format', 'yaml') as 'yaml' | 'json'
  const domains = Number(option('--domains', '100000'))
  const wildcards = Number(option('--wildcards', '0'))
  if (!['yaml', 'json'].includes(format) || !(domains >= 1) || !(wildcards >= 0)) {
    console.error('usage: npm exec -- node scripts/domains-file.ts [--domains N] [--wildcards N] [--format yaml|json] > FILE')
    process.exit(2)
  }
  process.stdout.write(domainsFileText(format, { domains, wildcards }))
}
