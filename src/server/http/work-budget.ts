// A per-client budget for requests that make this process work hard (a search of the whole portfolio, drawing an
// image): counted in this process's memory, not in the shared store, because what it protects is this process's
// CPU, and a write to the store per counted request would itself be work on every such request (decision 032).

/** The clients whose windows are kept; beyond that the one whose window began longest ago is forgotten. */
const CLIENTS_KEPT = 10_000

type BudgetAnswer = { ok: true } | { ok: false; retryAfterSeconds: number }

export interface WorkBudget {
  /** Counts one unit of work for `client`, unless its budget for the current window is spent. */
  take(client: string): BudgetAnswer
}

/**
 * At most `max` units per client in a window of `windowMs` that starts at the client's first unit; `max` 0 means no
 * limit.
 */
export function createWorkBudget({ max, windowMs, now = Date.now }: { max: number; windowMs: number; now?: () => number }): WorkBudget {
  // In the order the windows began, so the first is the one to forget (a forgotten client starts afresh, as it
  // would when its window ends).
  const windows = new Map<string, { used: number; ends: number }>()
  return {
    take(client) {
      if (max <= 0) return { ok: true }
      const time = now()
      const window = windows.get(client)
      if (!window || window.ends <= time) {
        windows.delete(client)
        windows.set(client, { used: 1, ends: time + windowMs })
        if (windows.size > CLIENTS_KEPT) windows.delete(windows.keys().next().value!)
        return { ok: true }
      }
      if (window.used >= max) return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((window.ends - time) / 1000)) }
      window.used++
      return { ok: true }
    },
  }
}
