// Where the server's log lines go. JSON lines are for machines (journald, Docker, log collectors) and stay the
// default; a person who starts the server on a terminal reads plain lines instead. LOG_FORMAT decides either way.
import type { DestinationStream, Logger } from 'pino'
import type { Config } from './config.ts'
import { redactCapabilityLinks } from './lib/capability-links.ts'

type LogConfig = Pick<Config, 'logFormat' | 'logLevel'>

export function logFormatOf(config: Pick<Config, 'logFormat'>, isTTY = Boolean(process.stdout.isTTY)): 'json' | 'pretty' {
  return config.logFormat ?? (isTTY ? 'pretty' : 'json')
}

/**
 * The stream for pino, or undefined for pino's own JSON lines on stdout. pino-pretty runs as a stream in this
 * process, not as a pino transport: a transport is a worker thread that loads its module by name at run time, which
 * the bundled server (vite.config.ts) cannot resolve. It is loaded only when asked for.
 */
export async function logStream(config: Pick<Config, 'logFormat'>): Promise<DestinationStream | undefined> {
  if (logFormatOf(config) === 'json') return undefined
  const { default: pretty } = await import('pino-pretty')
  // sync: a line written just before process.exit() (a refused start, the cluster's last word) is not lost.
  return pretty({ colorize: Boolean(process.stdout.isTTY), translateTime: 'SYS:HH:MM:ss', ignore: 'hostname', singleLine: true, sync: true })
}

/**
 * What every logger of the server is made with. Each line passes the redaction as the text written, after every
 * serializer and whatever field or message holds a URL (a request's, an error's, Fastify's own): a deal or
 * confirmation link in a log is the buyer's or visitor's key in the hands of whoever reads the log (decision 033).
 */
export const logHooks = { streamWrite: redactCapabilityLinks }

/** A logger for what runs outside the app (start-up, a cluster's primary), in the app's format and level. */
export async function createLogger(config: LogConfig, bindings: Record<string, unknown> = {}): Promise<Logger> {
  const { pino } = await import('pino')
  const stream = await logStream(config)
  const options = { level: config.logLevel, hooks: logHooks }
  const logger = stream ? pino(options, stream) : pino(options)
  return logger.child(bindings)
}
