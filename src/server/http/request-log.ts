// What the log says about requests. The server usually sits behind Caddy or nginx, which log every request already;
// a line per request here cost a fifth of GET /'s throughput at the default level (docs/decisions/034). So at `info`
// and above each failed answer is counted instead, and one line a minute says how many there were, by status;
// a 5xx is also logged on its own where it happens (http/errors.ts). `debug` and `trace` log every request as before.
import type { FastifyBaseLogger, FastifyInstance, LogLevel } from 'fastify'

const SUMMARY_MS = 60_000

/** Whether every request gets its own lines (Fastify's "incoming request" and "request completed"). */
export const logsEveryRequest = (level: LogLevel | 'silent') => level === 'debug' || level === 'trace'

/**
 * Counts the answers of 400 and above and logs them once per `intervalMs` (info; warn when a 5xx is among them),
 * only for a minute that had some. Unless every request is logged anyway.
 */
export function summariseFailedAnswers(app: FastifyInstance, log: FastifyBaseLogger, level: LogLevel | 'silent', intervalMs = SUMMARY_MS): void {
  if (logsEveryRequest(level)) return
  let byStatus = new Map<number, number>()
  app.addHook('onResponse', (_request, reply, done) => {
    const status = reply.statusCode
    if (status >= 400) byStatus.set(status, (byStatus.get(status) ?? 0) + 1)
    done()
  })
  const report = () => {
    if (byStatus.size === 0) return
    const counts = Object.fromEntries([...byStatus].sort(([a], [b]) => a - b))
    const serverErrors = [...byStatus.keys()].some((status) => status >= 500)
    byStatus = new Map()
    log[serverErrors ? 'warn' : 'info']({ answers: counts, seconds: intervalMs / 1000 }, 'failed answers since the last summary')
  }
  const timer = setInterval(report, intervalMs)
  timer.unref()
  app.addHook('onClose', (_instance, done) => {
    clearInterval(timer)
    report()
    done()
  })
}
