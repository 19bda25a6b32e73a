// A real HTTP server on 127.0.0.1, port 0, that receives notifications (a webhook, or a local stand-in for ntfy,
// Telegram, Matrix, Slack or Mattermost) and keeps every request. `answer` decides each reply; `hold` keeps a request
// unanswered (a receiver that is slow while the sender dies). With `tlsName` it speaks HTTPS, with a certificate
// for that name made for the test (a checkout a browser is sent to).
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import https from 'node:https'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'

export interface ReceivedRequest {
  method: string
  /** Path and query, as sent. */
  url: string
  headers: http.IncomingHttpHeaders
  /** The raw body, as the bytes were sent (UTF-8). */
  body: string
}

export type Answer = { status: number; body?: string; headers?: Record<string, string> } | 'hold'

export interface Receiver {
  url: string
  /** "127.0.0.1:PORT", as the sender's logs and the Postausgang name it. */
  host: string
  requests: ReceivedRequest[]
  /** Decides the reply to each request (default: 200 "ok"). */
  answer: (request: ReceivedRequest) => Answer
  /** Resolves when at least `count` requests for which `match` holds have arrived. */
  waitFor(count: number, match?: (request: ReceivedRequest) => boolean, timeoutMs?: number): Promise<ReceivedRequest[]>
  close(): Promise<void>
}

/** A self-signed certificate for `name`, made by openssl (Debian's openssl package; PostgreSQL's ssl-cert needs it). */
function selfSignedCertificate(name: string): { key: string; cert: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'domain-lander-tls-'))
  try {
    const [key, cert] = [path.join(dir, 'key.pem'), path.join(dir, 'cert.pem')]
    const run = spawnSync(
      process.env.OPENSSL_PATH ?? 'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-keyout',
        key,
        '-out',
        cert,
        '-subj',
        `/CN=${name}`,
        '-addext',
        `subjectAltName=DNS:${name}`,
      ],
      { encoding: 'utf8' },
    )
    if (run.status !== 0) throw new Error(`openssl could not make a test certificate (apt-get install openssl): ${run.error?.message ?? run.stderr}`)
    return { key: fs.readFileSync(key, 'utf8'), cert: fs.readFileSync(cert, 'utf8') }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

export async function startReceiver(options: { tlsName?: string } = {}): Promise<Receiver> {
  const held: http.ServerResponse[] = []
  const waiters: (() => void)[] = []
  const receiver = { requests: [] as ReceivedRequest[], answer: () => ({ status: 200, body: 'ok' }) } as unknown as Receiver
  const handle: http.RequestListener = (req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const request: ReceivedRequest = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') }
      receiver.requests.push(request)
      waiters.splice(0).forEach((wake) => wake())
      const answer = receiver.answer(request)
      if (answer === 'hold') {
        held.push(res)
        return
      }
      res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers }).end(answer.body ?? '')
    })
  }
  const server = options.tlsName ? https.createServer(selfSignedCertificate(options.tlsName), handle) : http.createServer(handle)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  receiver.url = `${options.tlsName ? 'https' : 'http'}://127.0.0.1:${port}`
  receiver.host = `127.0.0.1:${port}`
  receiver.waitFor = (count, match = () => true, timeoutMs = 20_000) =>
    new Promise((resolve, reject) => {
      // A deadline that bounds the wait for the requests: each one that arrives looks again at once.
      const timer = setTimeout(
        () =>
          reject(
            new Error(
              `expected ${count} requests, got ${receiver.requests.filter(match).length}: ${receiver.requests.map((r) => `${r.method} ${r.url}`).join(', ')}`,
            ),
          ),
        timeoutMs,
      )
      const check = () => {
        const found = receiver.requests.filter(match)
        if (found.length >= count) {
          clearTimeout(timer)
          resolve(found)
        } else waiters.push(check)
      }
      check()
    })
  receiver.close = async () => {
    held.splice(0).forEach((res) => res.destroy())
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
  return receiver
}
