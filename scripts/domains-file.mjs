// A made-up domains file of any size, from a fixed seed, for the bench (`npm run bench -- --domains N`) and for
// trying a large portfolio by hand:
//
//   node scripts/domains-file.mjs --domains 100000 --wildcards 1000 --format yaml > domains.yaml
//
// Names are two words of a German and English vocabulary (some with umlauts, so some are Unicode names), joined
// with or without a hyphen, sometimes with a number, under common top-level domains; every name has a price and
// a minimum offer, a few are reserved, sold or unlisted. The first name is always example.de. From a fixed seed
// (seed-data.mjs's generator): two files made with the same arguments are the same, byte for byte.
import { pathToFileURL } from 'node:url'
import { randomFrom } from './seed-data.mjs'

const WORDS = `auto bau bio blog buch cafe camp city club code data design digital dom event farm film finanz fit
  foto garten geld haus hotel immo info job kaffee kinder koch kunst land laden leben licht markt media mode musik
  natur netz online park pet plan praxis rad reise rent sale schule service shop smart solar sport stadt start
  store studio team technik tier tour trade travel urlaub velo verlag web wein welt werk wohnen yoga zeit zone`
  .trim()
  .split(/\s+/)
// About one name in twenty is a Unicode name, as in a German portfolio.
const UNICODE_WORDS = ['bäckerei', 'brücke', 'bücher', 'fähre', 'grün', 'küche', 'möbel', 'müller', 'schön', 'süß', 'tür', 'wärme', 'öko']
const TLDS = ['de', 'de', 'de', 'com', 'com', 'net', 'org', 'eu', 'shop', 'online', 'io', 'info', 'at', 'ch']

/** The document (as it would be parsed): `domains` exact names then `wildcards` wildcard entries. */
export function domainsDocument({ domains, wildcards = 0, seed = 11 }) {
  const random = randomFrom(seed)
  const pick = (list) => list[Math.floor(random() * list.length)]
  const word = () => pick(random() < 0.025 ? UNICODE_WORDS : WORDS)
  const entries = { 'example.de': { price: 4900, minOffer: 1500 } }
  let count = 1
  while (count < domains) {
    const number = random() < 0.15 ? String(Math.floor(random() * 100)) : ''
    const name = `${word()}${random() < 0.4 ? '-' : ''}${word()}${number}.${pick(TLDS)}`
    if (entries[name]) continue
    const price = 100 * Math.ceil(random() * 500)
    const entry = { price, minOffer: Math.round(price * 0.3) }
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
function toYaml(document) {
  const lines = ['# Made by scripts/domains-file.mjs', `unknownHosts: ${document.unknownHosts}`, 'default:']
  for (const [key, value] of Object.entries(document.default)) lines.push(`  ${key}: ${value}`)
  lines.push('domains:')
  for (const [name, entry] of Object.entries(document.domains)) {
    lines.push(`  ${name.startsWith('*') ? `"${name}"` : name}:`)
    for (const [key, value] of Object.entries(entry)) lines.push(`    ${key}: ${value}`)
  }
  return `${lines.join('\n')}\n`
}

/** The file's text: `format` is yaml or json (indented, as an editor or a script would write it). */
export function domainsFileText(format, options) {
  const document = domainsDocument(options)
  return format === 'json' ? `${JSON.stringify(document, null, 2)}\n` : toYaml(document)
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2)
  const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback)
  const format = option('--format', 'yaml')
  const domains = Number(option('--domains', '100000'))
  const wildcards = Number(option('--wildcards', '0'))
  if (!['yaml', 'json'].includes(format) || !(domains >= 1) || !(wildcards >= 0)) {
    console.error('usage: node scripts/domains-file.mjs [--domains N] [--wildcards N] [--format yaml|json] > FILE')
    process.exit(2)
  }
  process.stdout.write(domainsFileText(format, { domains, wildcards }))
}
