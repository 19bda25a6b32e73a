// Every instance takes in the edits of the domains file made on the others (decision 044): every 2 s it asks the
// store for numbered edits after the last one its file has taken in, and writes those into its own file with the
// same editor (save.ts); its watcher then reloads the file as after any other change. Nothing is copied between
// machines, and each file stays the one its server reads.
import type { FastifyBaseLogger } from 'fastify'
import type { ResolvedEdit } from '../../shared/domains-api.ts'
import type { Store } from '../store/types.ts'
import { catchUp, type EditJournal, type Planner } from './save.ts'

const ROUND_MS = 2_000
/** How long a shared store keeps an edit that this file has taken in, for the instances that have not yet. */
const SHARED_JOURNAL_KEEP_MS = 30 * 24 * 60 * 60 * 1000

type JournalStore = Pick<Store, 'domainEditsAfter' | 'latestDomainEdit' | 'recordDomainEdit' | 'pruneDomainEdits' | 'sharedByInstances'>

/** The store's numbered edits as save.ts asks for them. */
export function storeJournal(store: JournalStore, now: () => number = Date.now): EditJournal {
  return {
    async after(version) {
      const rows = await store.domainEditsAfter(version)
      return rows.map((row) => ({ version: row.version, edits: JSON.parse(row.edits) as ResolvedEdit[] }))
    },
    latest: () => store.latestDomainEdit(),
    record: (version, edits) => store.recordDomainEdit(version, JSON.stringify(edits), now()),
    // A store of this server alone: its one file (shared by the CLI and the cluster's processes) is the only reader.
    // A shared one: other instances may still lack an edit; they get a bound to come back within.
    prune: (takenIn) => store.pruneDomainEdits(takenIn, store.sharedByInstances ? now() - SHARED_JOURNAL_KEEP_MS : Number.MAX_SAFE_INTEGER),
  }
}

export interface DomainsSync {
  /** One round now (the tests, and a console edit's own catching up is in save.ts). */
  round(): Promise<void>
  start(): void
  stop(): Promise<void>
}

export interface SyncOptions {
  domainsFile: string
  memoryMiB: number
  journal: EditJournal
  plan: Planner
  log: FastifyBaseLogger
  /** The file changed: reload now rather than wait for the watcher (which may not see a file a symbolic link names). */
  reload: () => Promise<void>
  roundMs?: number
}

/**
 * The sync where other instances can edit: a shared store (PostgreSQL). A store of this server alone gets none: every
 * edit made on it (the console, `domains` beside it, the cluster's processes) is written into this server's one file
 * under the lock by whoever made it, so a poll would only ever find nothing.
 */
export function domainsSyncFor(store: Pick<Store, 'sharedByInstances'>, options: SyncOptions): DomainsSync | null {
  return store.sharedByInstances ? createDomainsSync(options) : null
}

function createDomainsSync(options: SyncOptions): DomainsSync {
  let timer: NodeJS.Timeout | undefined
  let running: Promise<void> | undefined
  const round = async () => {
    const changed = await catchUp(options)
    if (changed > 0) {
      options.log.info({ edits: changed }, 'domains file: edits made on another instance taken in')
      await options.reload()
    }
  }
  const run = () => {
    running ??= round()
      .catch((error: unknown) => options.log.error({ err: error }, 'could not take in the edits of the domains file; trying again in a few seconds'))
      .finally(() => (running = undefined))
  }
  return {
    round,
    start() {
      timer = setInterval(run, options.roundMs ?? ROUND_MS)
      timer.unref()
    },
    async stop() {
      clearInterval(timer)
      await running
    },
  }
}
