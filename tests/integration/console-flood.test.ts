// The console's listener under an unauthenticated flood (issue 12/19, break 6): many connections posting sign-ins
// with large bodies, and more connections than the listener takes. Against the built server, on loopback; its memory
// read from /proc. Run once (SQLite): what is tested is the listener, which refuses all of this before the store.
import net from 'node:net'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { consoleAnswers, floodSignIn, residentMiB } from '../../scripts/bench/console-flood-lib.ts'
import { MAX_CONNECTIONS } from '../../src/server/admin/app.ts'
import { SIGN_IN_BODY_LIMIT } from '../../src/server/admin/session/route.ts'
import { CONSOLE_HEADER } from '../../src/shared/console-api.ts'
import { startServerProcess, type ServerProcess } from '../helpers/server.ts'

let server: ServerProcess
let adminPort: number
beforeAll(async () => {
  server = await startServerProcess()
  adminPort = Number(new URL(server.adminUrl!).port)
})
afterAll(async () => {
  await server?.stop()
  server?.cleanup()
})

test('1,000 connections each sending all but the last byte of a 255 KiB sign-in are refused unread, and the console answers', async () => {
  expect(await consoleAnswers(adminPort)).toBe(200)
  const before = residentMiB(server.child.pid!).rss
  let answeredWhileHeld: number | string = 0
  const flood = await floodSignIn({
    port: adminPort,
    connections: 1000,
    bodyBytes: 255 * 1024,
    holdMs: 1000,
    parallel: 1000,
    // The attacker has not closed one of its connections yet.
    onHeld: async () => {
      await expect.poll(() => consoleAnswers(adminPort)).toBe(200)
      answeredWhileHeld = 200
    },
  })
  expect(answeredWhileHeld).toBe(200)
  // Each one refused before its body was read (413, the connection closed by the server) or not taken at all, past
  // the listener's cap; none still held when the attacker gave up, none answered otherwise.
  const { 413: refused = 0, reset = 0, closed = 0, ...other } = flood.counts
  expect(other).toEqual({})
  expect(refused + reset + closed).toBe(1000)
  expect(refused).toBeGreaterThan(0)
  // Before the fix every body was kept: 1,000 × 255 KiB is some 250 MiB, and the process stayed there.
  const { rss, peak } = residentMiB(server.child.pid!)
  expect(peak - before).toBeLessThan(64)
  expect(rss - before).toBeLessThan(64)
  expect(await consoleAnswers(adminPort)).toBe(200)
})

test('a sign-in body over the limit is refused with 413 and the one error body, declared or sent in chunks', async () => {
  const post = (body: BodyInit, headers: Record<string, string> = {}) =>
    fetch(`${server.adminUrl}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.adminUrl!, [CONSOLE_HEADER]: '1', ...headers },
      body,
      duplex: 'half',
    } as RequestInit)
  const password = (length: number) => JSON.stringify({ password: 'x'.repeat(length - '{"password":""}'.length) })
  const tooLarge = await post(password(SIGN_IN_BODY_LIMIT + 1))
  expect([tooLarge.status, await tooLarge.json()]).toEqual([413, { error: 'Die Anfrage ist zu groß.' }])
  expect(tooLarge.headers.get('connection')).toBe('close')
  // Without a Content-Length the reading stops at the limit.
  const chunks = new ReadableStream({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(password(SIGN_IN_BODY_LIMIT * 4)))
      controller.close()
    },
  })
  const chunked = await post(chunks)
  expect([chunked.status, await chunked.json()]).toEqual([413, { error: 'Die Anfrage ist zu groß.' }])
  // At the limit it is a sign-in (no password is set on this server, which the answer says).
  const atLimit = await post(password(SIGN_IN_BODY_LIMIT))
  expect(atLimit.status).toBe(401)
  expect((await atLimit.json()).error).toContain('set-password')
})

test(`past ${MAX_CONNECTIONS} connections at once the console takes no more, and takes new ones once they are gone`, async () => {
  // Each holds its place: the guard answers 401 before the body, and the server then waits for the 10 bytes declared
  // (up to its request timeout) to keep the connection.
  const head =
    `POST /api/inbox HTTP/1.1\r\nHost: 127.0.0.1:${adminPort}\r\nOrigin: http://127.0.0.1:${adminPort}\r\nX-Domain-Lander-Console: 1\r\n` +
    'Content-Type: application/json\r\nContent-Length: 10\r\n\r\n'
  const sockets: net.Socket[] = []
  const outcomes = await Promise.all(
    Array.from(
      { length: MAX_CONNECTIONS + 20 },
      () =>
        new Promise<string>((resolve) => {
          const socket = net.connect(adminPort, '127.0.0.1', () => socket.write(head))
          sockets.push(socket)
          socket.once('data', (data) => resolve(data.toString('latin1', 9, 12)))
          socket.once('error', () => resolve('refused'))
          socket.once('close', () => resolve('refused'))
        }),
    ),
  )
  try {
    const admitted = outcomes.filter((outcome) => outcome === '401').length
    expect(admitted + outcomes.filter((outcome) => outcome === 'refused').length).toBe(MAX_CONNECTIONS + 20)
    expect(admitted).toBeLessThanOrEqual(MAX_CONNECTIONS)
    // The test's own keep-alive connection from the test before may still hold one place.
    expect(admitted).toBeGreaterThanOrEqual(MAX_CONNECTIONS - 1)
  } finally {
    for (const socket of sockets) socket.destroy()
  }
  await expect.poll(() => consoleAnswers(adminPort)).toBe(200)
})
