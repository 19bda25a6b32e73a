// `domains check [--json] [--resolver IP:PORT]`: the server's daily checks of every listed name, now (RDAP too):
// where it points, its _for-sale records, when it expires. With a store, the results are kept there (the console
// shows them) and changes notified as the daily job does. Exit 1 when a name needs attention. docs/cli.md.
import type { Config } from '../server/config.ts'
import { createChecker } from '../server/domain-checks/check.ts'
import { runDomainChecks } from '../server/domain-checks/job.ts'
import { shippedBootstrap } from '../server/domain-checks/rdap.ts'
import { checkOptionsFor, listedNames, noticeUrlsFor } from '../server/domain-checks/setup.ts'
import { jsonText } from '../server/lib/escape.ts'
import { displayHost } from '../server/sites/host.ts'
import { readDomainsFile } from '../server/sites/domains-file.ts'
import type { Store } from '../server/store/types.ts'
import { needsAttention, type DomainCheck } from '../shared/domain-checks.ts'
import { resolverFrom } from './dns.ts'
import { table } from './format.ts'
import { UsageError } from './usage-error.ts'

const day = (ms: number | null) => (ms === null ? '' : new Date(ms).toISOString().slice(0, 10))

function printChecks(checks: DomainCheck[], now: number, print: (text: string) => void) {
  const rows = checks.map((check) => [
    displayHost(check.domain),
    check.pointing,
    check.records,
    check.expiry === 'known' ? day(check.expiresAt) : check.expiry,
    [check.pointing === 'here' ? '' : check.pointingDetail, check.recordsDetail, check.expiry === 'known' ? '' : check.expiryDetail].filter(Boolean).join('; '),
  ])
  print(table(['Domain', 'Points', 'Records', 'Expires', 'Detail'], rows, 80))
  const attention = checks.filter((check) => needsAttention(check, now)).length
  print(attention ? `${attention} of ${checks.length} domains need attention.` : `All ${checks.length} domains are in order.`)
}

export async function runDomainsCheck(
  options: { json?: boolean | undefined; resolver?: string | undefined },
  config: Config,
  store: Store | undefined,
  print: (text: string) => void,
): Promise<number> {
  if (!config.domainsFile) throw new UsageError('domains check needs DOMAINS_FILE: it checks the names listed there')
  let domains
  try {
    domains = readDomainsFile(config.domainsFile)
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
  const checks = { ...checkOptionsFor(config.domainChecks), resolver: resolverFrom(options.resolver ?? config.domainChecks.resolver ?? undefined) }
  const sold = new Set(store ? await store.soldDomains() : [])
  const listed = listedNames(domains, sold)
  const now = Date.now
  const results = store
    ? (await runDomainChecks({ store, listed, checks, bootstrap: shippedBootstrap, now, notify: noticeUrlsFor(domains, config), all: true })).checks
    : await createChecker({ ...checks, bootstrap: shippedBootstrap, now, forceRdap: true }).check(
        listed.filter((domain) => domain.status !== 'sold'),
        new Map(),
      )
  if (options.json)
    print(jsonText({ checks: results.map((check) => ({ ...check, domainUnicode: displayHost(check.domain), needsAttention: needsAttention(check, now()) })) }))
  else printChecks(results, now(), print)
  return results.some((check) => needsAttention(check, now())) ? 1 : 0
}
