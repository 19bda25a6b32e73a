// Merges the checked list into the domains file: a new name gets an entry with the imported terms; a listed name
// changes only price, minOffer and currency (every other key of its entry stays); with prune, an exact name the list
// does not have is removed (never a wildcard). A currency the same as the default's is not written.
import type { ImportReport, Terms } from '../../shared/import-api.ts'
import { displayHost } from '../sites/host.ts'
import type { DomainsText, TermChanges } from './domains-text.ts'
import type { ImportedDomain } from './rows.ts'

export type ImportDiff = Pick<ImportReport, 'added' | 'changed' | 'removed'> & { unchanged: number }

const amount = (value: unknown) => (typeof value === 'number' ? value : null)

export function mergeInto(file: DomainsText, domains: readonly ImportedDomain[], prune: boolean): ImportDiff {
  const diff: ImportDiff = { added: [], changed: [], removed: [], unchanged: 0 }
  const termsOf = (ascii: string): Terms => {
    const entry = file.entries.get(ascii)!
    return {
      price: amount(entry.price),
      minOffer: amount(entry.minOffer),
      currency: typeof entry.currency === 'string' ? entry.currency : file.defaultCurrency,
    }
  }
  for (const domain of domains) {
    if (!file.entries.has(domain.ascii)) {
      const terms: Terms = { price: domain.price ?? null, minOffer: domain.minOffer ?? null, currency: domain.currency ?? file.defaultCurrency }
      file.add(domain.name, { price: terms.price, minOffer: terms.minOffer, currency: terms.currency === file.defaultCurrency ? null : terms.currency })
      diff.added.push({ name: domain.name, terms })
      continue
    }
    const before = termsOf(domain.ascii)
    // A column the list does not have leaves its term alone; an empty cell removes it.
    const after: Terms = {
      price: domain.price === undefined ? before.price : domain.price,
      minOffer: domain.minOffer === undefined ? before.minOffer : domain.minOffer,
      currency: domain.currency ?? before.currency,
    }
    const changes: TermChanges = {}
    if (after.price !== before.price) changes.price = after.price
    if (after.minOffer !== before.minOffer) changes.minOffer = after.minOffer
    if (after.currency !== before.currency) changes.currency = after.currency === file.defaultCurrency ? null : after.currency
    if (Object.keys(changes).length === 0) {
      diff.unchanged++
      continue
    }
    file.change(domain.ascii, changes)
    diff.changed.push({ name: domain.name, before, after })
  }
  if (prune) {
    const listed = new Set(domains.map((domain) => domain.ascii))
    for (const ascii of file.entries.keys()) {
      if (listed.has(ascii)) continue
      diff.removed.push({ name: displayHost(ascii), terms: termsOf(ascii) })
      file.remove(ascii)
    }
  }
  return diff
}
