// WORKERS > 1: a primary process forks that many server processes, which share the port (Node's cluster module).
// The primary serves nothing itself; it ends the mail leases of a worker that died, starts a new one, passes
// SIGHUP on, and on SIGTERM/SIGINT stops every worker gracefully before it exits.
import cluster, { type Worker } from 'node:cluster'
import type { Config } from '../config.ts'
import { leaseOwnerOf } from './lease.ts'
import { createLogger } from '../logger.ts'
import { openStore } from '../store/index.ts'
import type { Store } from '../store/types.ts'

export async function runPrimary(config: Config): Promise<void> {
  const log = await createLogger(config, { component: 'cluster' })
  const withStore = async (use: (store: Store) => Promise<void>) => {
    const store = await openStore(config)
    try {
      await use(store)
    } finally {
      await store.close()
    }
  }
  // Before any worker claims mail: the workers leave each other's leases alone.
  await withStore((store) => store.releaseLeftoverLeases())

  let stopping = false
  const fork = () => cluster.fork()
  cluster.on('exit', (worker: Worker, code, signal) => {
    const pid = worker.process.pid!
    if (stopping) return
    log.warn({ worker: pid, code, signal }, 'worker died, starting another')
    void withStore((store) => store.releaseLeasesOfProcess(leaseOwnerOf(pid))).finally(fork)
  })
  log.info({ workers: config.workers }, `starting ${config.workers} workers`)
  for (let i = 0; i < config.workers; i++) fork()

  // Only to workers that listen: one still starting has no SIGHUP handler yet (the signal would end it), and reads
  // the domains file as it starts anyway. (main.ts keeps SIGHUP from ending this process before this point.)
  const listening = new Set<Worker>()
  cluster.on('listening', (worker) => listening.add(worker))
  cluster.on('exit', (worker) => listening.delete(worker))
  process.on('SIGHUP', () => listening.forEach((worker) => worker.process.kill('SIGHUP')))
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return
    stopping = true
    log.info({ signal }, 'stopping workers')
    const workers = Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => worker !== undefined)
    // A worker still starting has no SIGTERM handler yet and ends by the signal: nothing was in flight there, so
    // that is a clean stop too.
    const exits = workers.map((worker) => {
      const started = listening.has(worker)
      return new Promise<number>((resolve) => worker.once('exit', (code, signal) => resolve(code ?? (!started && signal === 'SIGTERM' ? 0 : 1))))
    })
    workers.forEach((worker) => worker.process.kill('SIGTERM'))
    void Promise.all(exits).then((codes) => process.exit(codes.every((code) => code === 0) ? 0 : 1))
  }
  process.on('SIGTERM', stop)
  process.on('SIGINT', stop)
}
