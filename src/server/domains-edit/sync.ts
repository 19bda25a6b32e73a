// Every instance takes in the edits of the domains file made on the others (decision 044): every 2 s it asks the
// store for numbered edits after the last one its file has taken in, and writes those into its own file with the
// same editor (save.ts); its watcher then reloads the file as after any other change. Nothing is copied between
// machines, and each file stays the one its server reads.
import type { FastifyBaseLogger } from 'fastify'
import type { ResolvedEdit } from '../../shared/domains-api.ts'
import type { Store } from '../store/types.ts'
import { catchUp, type EditJournal, type Planner } from './save.ts'

const ROUND_MS = 2_000

/** The store's numbered edits as save.ts asks for them. */
export function storeJournal(store: Pick<Store, 'domainEditsAfter' | 'latestDomainEdit' | 'recordDomainEdit'>): EditJournal {
  return {
    async after(version) {
      const rows = await store.domainEditsAfter(version)
      return rows.map((row) => ({ version: row.version, edits: JSON.parse(row.edits) as ResolvedEdit[] }))
    },
    latest: () => store.latestDomainEdit(),
    record: (version, edits) => store.recordDomainEdit(version, JSON.stringify(edits), Date.now()),
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

export function createDomainsSync(options: SyncOptions): DomainsSync {
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
