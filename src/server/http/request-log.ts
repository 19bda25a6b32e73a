// What the log says about requests. The server usually sits behind Caddy or nginx, which log every request already;
// a line per request here cost a fifth of GET /'s throughput at the default level (docs/decisions/034). So at `info`
// and above each failed answer is counted instead, and one line a minute says how many there were, by status;
// a 5xx is also logged on its own where it happens (http/errors.ts). `debug` and `trace` log every request as before.
import type { FastifyBaseLogger, FastifyInstance, LogLevel } from 'fastify'
import pino from 'pino'

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

/** A pino level's number; `silent` (not in pino's table) is above them all. */
const valueOf = (level: string) => pino.levels.values[level] ?? Infinity

type LogArguments = Parameters<FastifyBaseLogger['info']>
type ChildOptions = Parameters<FastifyBaseLogger['child']>[1]

/**
 * A request's logger (`request.log`) that becomes a child of the app's logger, with the request id bound, only
 * when something is logged through it. Fastify made the child for every request, and at the default level almost no
 * request logs anything: making it was a measured share of GET / (docs/decisions/034-request-path.md).
 */
class RequestLogger {
  readonly #parent: FastifyBaseLogger
  readonly #bindings: Record<string, unknown>
  readonly #options: ChildOptions
  #child: FastifyBaseLogger | undefined

  constructor(parent: FastifyBaseLogger, bindings: Record<string, unknown>, options: ChildOptions) {
    this.#parent = parent
    this.#bindings = bindings
    this.#options = options
  }

  #real(): FastifyBaseLogger {
    return (this.#child ??= this.#parent.child(this.#bindings, this.#options))
  }

  /** Whether a line at `level` would be written: asked of the parent while there is no child (no level of its own). */
  #logs(level: LogLevel): boolean {
    return this.#child !== undefined || this.#options?.level !== undefined || valueOf(level) >= valueOf(this.#parent.level)
  }

  get level(): string {
    return this.#child?.level ?? this.#options?.level ?? this.#parent.level
  }
  set level(level: string) {
    this.#real().level = level
  }
  fatal(...args: LogArguments) {
    if (this.#logs('fatal')) this.#real().fatal(...args)
  }
  error(...args: LogArguments) {
    if (this.#logs('error')) this.#real().error(...args)
  }
  warn(...args: LogArguments) {
    if (this.#logs('warn')) this.#real().warn(...args)
  }
  info(...args: LogArguments) {
    if (this.#logs('info')) this.#real().info(...args)
  }
  debug(...args: LogArguments) {
    if (this.#logs('debug')) this.#real().debug(...args)
  }
  trace(...args: LogArguments) {
    if (this.#logs('trace')) this.#real().trace(...args)
  }
  silent(...args: LogArguments) {
    this.#real().silent(...args)
  }
  child(bindings: Record<string, unknown>, options?: ChildOptions): FastifyBaseLogger {
    return this.#real().child(bindings, options)
  }
}

/** Fastify's `childLoggerFactory`: request loggers that cost nothing until they log. */
export function lazyRequestLogger(logger: FastifyBaseLogger, bindings: Record<string, unknown>, options: ChildOptions): FastifyBaseLogger {
  return new RequestLogger(logger, bindings, options) as unknown as FastifyBaseLogger
}
