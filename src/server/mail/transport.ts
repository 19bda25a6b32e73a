// Where mail goes: an SMTP server when SMTP_URL is set, otherwise .eml files in DATA_DIR so that nothing is lost
// while the owner has not configured mail yet.
import fs from 'node:fs/promises'
import path from 'node:path'
import type { SendMailOptions, Transporter } from 'nodemailer'

export interface MailTransport {
  send(message: SendMailOptions, fileName: string): Promise<void>
  close(): void
}

// Explicit timeouts: a server that accepts the connection and never answers must not hold the outbox forever.
const SMTP_TIMEOUTS = {
  connectionTimeout: 10_000,
  greetingTimeout: 10_000,
  socketTimeout: 30_000,
}
export type SmtpTimeouts = typeof SMTP_TIMEOUTS

/**
 * nodemailer is loaded when the first mail goes out, not at start-up: its load time and memory are wasted on a
 * server with no inquiry yet (figures in docs/decisions/004).
 */
function lazily(create: (nodemailer: (typeof import('nodemailer'))['default']) => Transporter) {
  let transporter: Promise<Transporter> | undefined
  return {
    get: () => (transporter ??= import('nodemailer').then((module) => create(module.default))),
    close: () => void transporter?.then((t) => t.close()),
  }
}

export interface MailConfig {
  smtpUrl?: string | undefined
  dataDir: string
}

/** Without SMTP_URL, mail is written here as .eml files. */
export const mailDirOf = (config: MailConfig) => path.join(config.dataDir, 'mail')

/** Where mail goes, for the start-up log: never the SMTP credentials. */
export function describeMailTransport(config: MailConfig): string {
  if (!config.smtpUrl) return `files in ${mailDirOf(config)}`
  const url = new URL(config.smtpUrl)
  return `SMTP ${url.protocol}//${url.host}`
}

export function createMailTransport(config: MailConfig, timeouts: Partial<SmtpTimeouts> = {}): MailTransport {
  const { smtpUrl } = config
  if (smtpUrl) {
    // nodemailer reads host, port, TLS and credentials from the URL; the options object adds the timeouts. A pooled
    // connection is reused for the next mail, which is far cheaper than a new one per mail (docs/decisions/004).
    const transporter = lazily((nodemailer) => nodemailer.createTransport({ url: smtpUrl, pool: true, maxConnections: 1, ...SMTP_TIMEOUTS, ...timeouts }))
    return {
      async send(message) {
        await (await transporter.get()).sendMail(message)
      },
      close: transporter.close,
    }
  }
  const mailDir = mailDirOf(config)
  const transporter = lazily((nodemailer) => nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }))
  return {
    async send(message, fileName) {
      const info = await (await transporter.get()).sendMail(message)
      await fs.mkdir(mailDir, { recursive: true })
      const target = path.join(mailDir, fileName)
      const temp = `${target}.tmp`
      const handle = await fs.open(temp, 'w', 0o600)
      try {
        await handle.writeFile(info.message as Buffer)
        await handle.sync()
      } finally {
        await handle.close()
      }
      await fs.rename(temp, target)
    },
    close: transporter.close,
  }
}
