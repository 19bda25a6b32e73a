// tr46 (UTS #46, the IDNA processing browsers apply to host names), loaded when a name first needs it. tr46 parses
// its mapping table when it loads, which costs memory every process would carry from its start, and most names
// never need it: plain ASCII names skip it (host.ts, settings.ts), and mail addresses come with the first inquiry
// (docs/decisions/034). require() rather than import: the callers are synchronous, and Node finds tr46 in
// node_modules, where the build leaves it.
import { createRequire } from 'node:module'
import { lazy } from '../../shared/lazy.ts'

type Tr46 = typeof import('tr46')

const tr46 = lazy(() => createRequire(import.meta.url)('tr46') as Tr46)

export const toASCII: Tr46['toASCII'] = (domainName, options) => tr46().toASCII(domainName, options)
export const toUnicode: Tr46['toUnicode'] = (domainName, options) => tr46().toUnicode(domainName, options)
