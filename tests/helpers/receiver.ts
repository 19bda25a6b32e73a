// A real HTTP server on 127.0.0.1, port 0, that receives notifications (a webhook, or a local stand-in for ntfy,
// Telegram, Matrix, Slack or Mattermost) and keeps every request. `answer` decides each reply; `hold` keeps a request
// unanswered (a receiver that is slow while the sender dies).
import http from 'node:http'
import type { AddressInfo } from 'node:net'

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

export async function startReceiver(): Promise<Receiver> {
  const held: http.ServerResponse[] = []
  const waiters: (() => void)[] = []
  const receiver = { requests: [] as ReceivedRequest[], answer: () => ({ status: 200, body: 'ok' }) } as unknown as Receiver
  const server = http.createServer((req, res) => {
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
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  receiver.url = `http://127.0.0.1:${port}`
  receiver.host = `127.0.0.1:${port}`
  receiver.waitFor = (count, match = () => true, timeoutMs = 20_000) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`expected ${count} requests, got ${receiver.requests.filter(match).length}: ${receiver.requests.map((r) => `${r.method} ${r.url}`).join(', ')}`)),
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
