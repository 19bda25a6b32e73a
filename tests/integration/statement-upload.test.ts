// A bank statement sent as the file's bytes is streamed to the worker that reads it, piece by piece as it arrives
// (payments/camt-read.ts, decision 040), over a real socket to the console of the app in process: without
// Content-Length (chunked) it is read as with it; past the size limit the worker ends at once and the answer is the
// limit's 413; an upload the client abandons leaves no worker behind, and the next file is read.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { CAMT_MAX_BYTES } from '../../src/server/payments/camt.ts'
import { statementWorkersAlive } from '../../src/server/payments/camt-read.ts'
import { CONSOLE_HEADER } from '../../src/shared/console-api.ts'
import type { BankStatementPreview, BankStatementResult } from '../../src/shared/payments-api.ts'
import { buildTestApp, type InProcessApp } from '../helpers/app.ts'
import { camtStatementOfSize } from '../helpers/camt.ts'
import { consoleClient } from '../helpers/console.ts'
import { removeTestFiles, writeTestFile } from '../helpers/domains.ts'

const TOO_LARGE = { error: 'Die Datei ist größer als 5 MB. Bitte einen kürzeren Zeitraum exportieren.' }

let app: InProcessApp
let client: ReturnType<typeof consoleClient>
let cookie: string
let port: number

beforeAll(async () => {
  app = await buildTestApp({ DOMAINS_FILE: writeTestFile('domains:\n  beispiel.de:\n    price: 4900\n') })
  client = consoleClient(app)
  expect((await client.setPassword()).code).toBe(0)
  ;({ cookie } = await client.signIn())
  // The console's own listener, on a port of its own: these requests need a socket (chunks, an abort).
  await app.admin!.listen({ port: 0, host: '127.0.0.1' })
  port = (app.admin!.server.address() as AddressInfo).port
})
afterAll(async () => {
  await app?.close()
  removeTestFiles()
})

/** A POST of the file's bytes as the console sends it, written by the test piece by piece; no Content-Length unless given. */
function upload(pathName: string, length?: number) {
  const host = `127.0.0.1:${port}`
  const request = http.request({
    host: '127.0.0.1',
    port,
    path: pathName,
    method: 'POST',
    headers: {
      host,
      origin: `http://${host}`,
      [CONSOLE_HEADER]: '1',
      cookie,
      'content-type': 'application/xml',
      ...(length !== undefined && { 'content-length': String(length) }),
    },
  })
  const answer = new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    request.once('response', (response) => {
      const pieces: Buffer[] = []
      response.on('data', (piece: Buffer) => pieces.push(piece))
      response.once('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(pieces) }))
      response.once('error', reject)
    })
    request.once('error', reject)
  })
  // Awaiting the socket's room for each piece: the file arrives over time, as from a browser.
  async function write(bytes: Buffer, piece = 64 * 1024) {
    for (let at = 0; at < bytes.length; at += piece) {
      if (!request.write(bytes.subarray(at, at + piece))) await new Promise((resolve) => request.once('drain', resolve))
    }
  }
  return { request, answer, write }
}

test('a file sent without Content-Length (chunked) is read as one sent with it; the answers come as JSON of their length', async () => {
  const file = Buffer.from(camtStatementOfSize(128 * 1024))
  const { answer, write, request } = upload('/api/payments/preview')
  await write(file, 16 * 1024)
  request.end()
  const chunked = await answer
  expect(chunked.status, chunked.body.toString()).toBe(200)
  expect(chunked.headers['content-type']).toBe('application/json; charset=utf-8')
  expect(Number(chunked.headers['content-length'])).toBe(chunked.body.length)
  const preview = JSON.parse(chunked.body.toString()) as BankStatementPreview
  expect(preview.counts.unmatched).toBeGreaterThan(100)

  const sized = await client.call('/api/payments/preview', { method: 'POST', body: file, cookie })
  expect(sized.status).toBe(200)
  expect(await sized.json()).toEqual(preview)

  // Applying: the preview's JSON with what applying did written into its end.
  const apply = upload('/api/payments/apply')
  await apply.write(file, 16 * 1024)
  apply.request.end()
  const applied = await apply.answer
  expect(applied.status, applied.body.toString()).toBe(200)
  expect(Number(applied.headers['content-length'])).toBe(applied.body.length)
  expect(JSON.parse(applied.body.toString())).toEqual({ ...preview, applied: true, recorded: 0, paid: [] } satisfies BankStatementResult)
  await expect.poll(statementWorkersAlive).toBe(0)
})

test('past the size limit the worker ends while the body still arrives, and the answer is the limit’s 413', async () => {
  const { answer, write, request } = upload('/api/payments/preview')
  // Never parsed: what it says does not matter.
  const file = Buffer.alloc(CAMT_MAX_BYTES + 128 * 1024, '<')
  await write(file.subarray(0, 64 * 1024))
  // Started as the body began, not when it ended.
  await expect.poll(statementWorkersAlive).toBe(1)
  await write(file.subarray(64 * 1024))
  await expect.poll(statementWorkersAlive).toBe(0)
  request.end()
  const refused = await answer
  expect([refused.status, JSON.parse(refused.body.toString())]).toEqual([413, TOO_LARGE])
})

test('an upload the client abandons mid-body leaves no worker behind, and the next file is read', async () => {
  const file = Buffer.alloc(CAMT_MAX_BYTES, '<')
  const { answer, write, request } = upload('/api/payments/preview', file.length)
  answer.catch(() => undefined)
  await write(file.subarray(0, 1024 * 1024))
  await expect.poll(statementWorkersAlive).toBe(1)
  request.destroy()
  await expect.poll(statementWorkersAlive).toBe(0)

  const small = Buffer.from(camtStatementOfSize(16 * 1024))
  const next = upload('/api/payments/preview', small.length)
  await next.write(small)
  next.request.end()
  expect((await next.answer).status).toBe(200)
})
