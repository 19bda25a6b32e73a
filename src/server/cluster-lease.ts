/** The name under which a server process leases the mail it sends (see docs/decisions/009). */
export const leaseOwnerOf = (pid: number) => `pid-${pid}`
