// Names sold through a deal (decision 033): the store says so, not the domains file. Every process keeps the set of
// them in memory, reads it anew every few seconds (another instance may have completed a deal) and adds a name at
// once when a deal completes in this process. The domains file in force is seen through it: a sold name's status
// is `sold` (its page says "verkauft", it has no _for-sale records and no sitemap entry), and it leaves
// "Weitere Domains" and /domains.
import type { FastifyBaseLogger } from 'fastify'
import type { DomainsConfig } from '../sites/domains-table.ts'
import { displayHost } from '../sites/host.ts'
import type { DomainRegistry } from '../sites/registry.ts'
import type { Store } from '../store/types.ts'

const REFRESH_MS = 5_000

export interface SoldNames {
  has(ascii: string): boolean
  /** A deal of this process completed: the name is sold here at once. */
  add(ascii: string): void
  /** Reads the set from the store now. */
  refresh(): Promise<void>
  start(): void
  stop(): Promise<void>
  /** The registry as the rest of the server sees it: the domains file with the sold names marked. */
  overlay(registry: DomainRegistry): DomainRegistry
}

/**
 * The domains configuration with `sold` names marked sold and left out of the portfolio. Its version names the sold
 * set too (`generation`): what is kept per version (the plain /domains page, link-preview images, a page's parts) is
 * made anew when a name is sold, not only when the file changes.
 */
function withSoldNames(config: DomainsConfig, sold: ReadonlySet<string>, generation: number): DomainsConfig {
  if (sold.size === 0) return config
  const isSold = (ascii: string) => sold.has(ascii)
  // As the portfolio index chooses its names (sites/portfolio-index.ts): an exact entry, listed and available.
  const inPortfolio = (ascii: string) => {
    const resolved = config.resolve(ascii)
    return (
      resolved !== null &&
      resolved.known &&
      resolved.wildcard === undefined &&
      resolved.settings.listed !== false &&
      (resolved.settings.status ?? 'available') === 'available'
    )
  }
  return {
    ...config,
    version: `${config.version}.${generation}`,
    entry(key) {
      const settings = config.entry(key)
      return settings && isSold(key) ? { ...settings, status: 'sold' } : settings
    },
    resolve(ascii) {
      const resolved = config.resolve(ascii)
      return resolved && isSold(ascii) ? { ...resolved, settings: { ...resolved.settings, status: 'sold' } } : resolved
    },
    related(ascii, limit = 12) {
      return config
        .related(ascii, limit + sold.size)
        .filter((item) => !isSold(item.ascii))
        .slice(0, limit)
    },
    list(query) {
      // Asks for as many more as could be sold and leaves those out. The total counts the sold names that match the
      // query out, so "n names" and the pages stay right; an offset may show a name of the page before once.
      const page = config.list({ ...query, limit: (query.limit ?? 50) + sold.size })
      const items = page.items.filter((item) => !isSold(item.ascii)).slice(0, query.limit ?? 50)
      const needle = (query.q ?? '').trim().toLowerCase()
      const soldListed = [...sold].filter(
        (ascii) => inPortfolio(ascii) && (needle === '' || ascii.includes(needle) || displayHost(ascii).includes(needle)),
      ).length
      return { total: Math.max(0, page.total - soldListed), items }
    },
  }
}

export function createSoldNames(store: Store, log: FastifyBaseLogger, refreshMs = REFRESH_MS): SoldNames {
  let sold = new Set<string>()
  // Counts the sets `sold` has been: each new one is a new version of what the server shows.
  let generation = 0
  let timer: NodeJS.Timeout | undefined
  let running: Promise<void> | undefined
  const overlays = new WeakMap<DomainsConfig, { sold: Set<string>; config: DomainsConfig }>()

  const refresh = async () => {
    const names = await store.soldDomains()
    // A new set (never changed in place): an overlay made from the old one stays as it was.
    if (names.length !== sold.size || names.some((name) => !sold.has(name))) {
      sold = new Set(names)
      generation++
    }
  }
  const run = () => {
    running ??= refresh()
      .catch((error: unknown) => log.error({ err: error }, 'could not read the sold names; trying again in a few seconds'))
      .finally(() => (running = undefined))
  }

  return {
    has: (ascii) => sold.has(ascii),
    add(ascii) {
      if (!sold.has(ascii)) {
        sold = new Set([...sold, ascii])
        generation++
      }
    },
    refresh,
    start() {
      timer = setInterval(run, refreshMs)
      timer.unref()
    },
    async stop() {
      clearInterval(timer)
      await running
    },
    overlay(registry) {
      return {
        get fromFile() {
          return registry.fromFile
        },
        reload: () => registry.reload(),
        close: () => registry.close(),
        current() {
          const config = registry.current()
          const kept = overlays.get(config)
          if (kept && kept.sold === sold) return kept.config
          const made = { sold, config: withSoldNames(config, sold, generation) }
          overlays.set(config, made)
          return made.config
        },
      }
    },
  }
}
