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
  expect(parsed(server.output).length).toBe(server.output.length)
})

test('mail failing for more than an hour is logged as an error on every further attempt', async () => {
  server = await startServerProcess({ SMTP_URL: 'smtp://127.0.0.1:9' })
  expect((await submitInquiry(server.url)).status).toBe(200)
  await expect.poll(() => server!.output.some((line) => line.includes('will retry'))).toBe(true)
  // Move the inquiry an hour into the past, as if the mail server had been down since then.
  await queryStore(server.dataDir, 'UPDATE outbox SET created_at = created_at - 3700000')
  await expect.poll(() => parsed(server!.output).find((line) => String(line.msg).startsWith('MAIL FAILING')), { timeout: 15_000 }).toMatchObject({
    level: 50,
    failingForMinutes: expect.any(Number),
  })
}, 30_000)
