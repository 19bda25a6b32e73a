import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { firstAnswer } from './first-answer.ts'

let server: http.Server | undefined
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())))

/**
 * A server that holds each answer until the test calls `answer` (with `begin`, its headers go out at once), and the
 * order of what happened.
 */
async function startServer({ begin = false } = {}) {
  const events: string[] = []
  const held: http.ServerResponse[] = []
  server = http.createServer((_request, response) => {
    if (begin) response.writeHead(200).flushHeaders()
    held.push(response)
  })
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
  const answer = () => {
    events.push('answered')
    held.shift()!.end('ok')
  }
  return { events, answer, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` }
}

describe('firstAnswer', () => {
  it('resolves once the first request has been answered, not when it arrives', async () => {
    const { events, answer, url } = await startServer({ begin: true })
    const waited = firstAnswer(server!, 10_000).then(() => events.push('resolved'))
    // The headers have come back: the request arrived, and its answer began, a while ago.
    const response = await fetch(url)
    expect(events).toEqual([])
    answer()
    expect(await response.text()).toBe('ok')
    await waited
    expect(events).toEqual(['answered', 'resolved'])
  })

  it('resolves after the time given when no request comes, and leaves no listener behind', async () => {
    await startServer()
    const before = server!.listenerCount('request')
    const started = Date.now()
    await firstAnswer(server!, 30)
    expect(Date.now() - started).toBeGreaterThanOrEqual(25)
    expect(server!.listenerCount('request')).toBe(before)
  })

  it('resolves when the first request ends without an answer (the client went away)', async () => {
    const { url } = await startServer()
    const waited = firstAnswer(server!, 10_000)
    const controller = new AbortController()
    const request = fetch(url, { signal: controller.signal }).catch(() => 'aborted')
    await new Promise((resolve) => server!.once('request', resolve))
    controller.abort()
    expect(await request).toBe('aborted')
    await waited
    server!.closeAllConnections()
  })
})
