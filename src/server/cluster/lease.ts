import os from 'node:os'

/**
 * The name under which a server process leases the mail it sends (see docs/decisions/009): unique among the
 * processes on one store, also when several hosts share a PostgreSQL database, and computable by the primary of
 * a cluster for a worker that died.
 */
export const leaseOwnerOf = (pid: number) => `${os.hostname()}:${pid}`
