// What the server writes to its log: structured lines, nothing the visitor wrote, and a loud line when mail fails.
import { afterEach, expect, test } from 'vitest'
import { queryStore } from '../helpers/postgres.ts'
import { submitInquiry } from '../helpers/contact.ts'
import { startServerProcess, type ServerProcess } from '../helpers/server.ts'

let server: ServerProcess | undefined
afterEach(async () => {
  await server?.stop()
  server?.cleanup()
  server = undefined
})

const parsed = (lines: string[]) => lines.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>)

test('the log is JSON lines and holds neither the message, the name, the address nor the client address', async () => {
  server = await startServerProcess({ SMTP_URL: 'smtp://127.0.0.1:9', LOG_LEVEL: 'debug' })
  const response = await submitInquiry(server.url, {
    name58fnlsd: 'Xaver Geheimname',
    themail3h6: 'xaver.geheim@example.de',
    message: 'Streng vertrauliche Nachricht',
  })
  expect(response.status).toBe(200)
  await expect.poll(() => server!.output.some((line) => line.includes('inquiry stored'))).toBe(true)
  const log = server.output.join('\n')
  for (const secret of ['Geheimname', 'xaver.geheim', 'example.de', 'Streng vertrauliche', 'remoteAddress', 'remotePort', '"ip"']) {
    expect(log).not.toContain(secret)
  }
  expect(server.output.filter((line) => !line.startsWith('{'))).toEqual([])
})

test('mail failing for more than an hour is logged as an error on every further attempt', async () => {
  server = await startServerProcess({ SMTP_URL: 'smtp://127.0.0.1:9' })
  expect((await submitInquiry(server.url)).status).toBe(200)
  await expect.poll(() => server!.output.some((line) => line.includes('will retry'))).toBe(true)
  // Move the inquiry an hour into the past, as if the mail server had been down since then.
  await queryStore(server.dataDir, 'UPDATE outbox SET created_at = created_at - 3700000')
  await expect
    .poll(() => parsed(server!.output).find((line) => String(line.msg).startsWith('MAIL FAILING')), { timeout: 15_000 })
    .toMatchObject({
      level: 50,
      failingForMinutes: expect.any(Number),
    })
}, 30_000)

test('at the default level no request gets a line of its own; failed answers are summed up by status, and debug logs every request', async () => {
  server = await startServerProcess({})
  const host = { host: 'beispiel.de' }
  expect((await fetch(`${server.url}/`, { headers: host })).status).toBe(200)
  expect((await fetch(`${server.url}/gibt-es-nicht`, { headers: host })).status).toBe(404)
  expect((await fetch(`${server.url}/gibt-es-auch-nicht`, { headers: host })).status).toBe(404)
  expect(await server.stop()).toBe(0)
  const lines = parsed(server.output)
  expect(lines.filter((line) => line.msg === 'incoming request' || line.msg === 'request completed')).toEqual([])
  // The minute's summary is also written when the server stops.
  expect(lines.filter((line) => line.msg === 'failed answers since the last summary').map((line) => line.answers)).toEqual([{ 404: 2 }])
  server.cleanup()

  server = await startServerProcess({ LOG_LEVEL: 'debug' })
  expect((await fetch(`${server.url}/`, { headers: host })).status).toBe(200)
  await expect.poll(() => parsed(server!.output).filter((line) => line.msg === 'request completed').length).toBe(1)
})
