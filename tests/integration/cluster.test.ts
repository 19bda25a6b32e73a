// WORKERS=2: two server processes on one port and one store. Every inquiry is mailed once, a worker that dies
// mid-send is replaced and its mail still goes out, and SIGTERM stops them all cleanly.
import { afterEach, expect, test } from 'vitest'
import { submitInquiry } from '../helpers/contact.ts'
import { startServerProcess, type ServerProcess } from '../helpers/server.ts'
import { startSmtpSink, type SmtpSink } from '../helpers/smtp.ts'

let server: ServerProcess | undefined
let smtp: SmtpSink | undefined
afterEach(async () => {
  await server?.kill()
  server?.cleanup()
  await smtp?.close()
  server = smtp = undefined
})

const lines = (s: ServerProcess) => s.output.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as { pid: number; msg: string })
const messagesOf = (sink: SmtpSink) => sink.messages.map((mail) => /Nachricht (\d+)/.exec(mail.parsed.text ?? '')?.[1])

test('two workers share the load and every inquiry is mailed exactly once', async () => {
  smtp = await startSmtpSink()
  server = await startServerProcess({ WORKERS: '2', SMTP_URL: smtp.url })
  await expect.poll(() => lines(server!).filter((line) => line.msg.startsWith('domain-lander is ready')).length).toBe(2)
  const statuses = await Promise.all(Array.from({ length: 40 }, (_, i) => submitInquiry(server!.url, { message: `Nachricht ${i}` }).then((r) => r.status)))
  expect(statuses).toEqual(Array(40).fill(200))
  await smtp.waitFor(40, 30_000)
  // Stopped, the workers have finished the mail they were sending: a second copy of any mail would be in by now.
  expect(await server.stop()).toBe(0)
  expect(messagesOf(smtp).sort()).toEqual(Array.from({ length: 40 }, (_, i) => String(i)).sort())
  const storedBy = new Set(
    lines(server)
      .filter((line) => line.msg === 'inquiry stored')
      .map((line) => line.pid),
  )
  expect(storedBy.size).toBe(2)
}, 60_000)

test('a worker killed while sending is replaced, and its mail is still delivered', async () => {
  smtp = await startSmtpSink({ delayMs: 1500 })
  server = await startServerProcess({ WORKERS: '2', SMTP_URL: smtp.url })
  await expect.poll(() => lines(server!).filter((line) => line.msg.startsWith('domain-lander is ready')).length).toBe(2)
  expect((await submitInquiry(server.url, { message: 'Nachricht 1' })).status).toBe(200)
  await expect.poll(() => smtp!.receiving).toBe(1)
  // The worker that stored the inquiry is the one sending it (it was woken by its own inquiry).
  const sender = lines(server).find((line) => line.msg === 'inquiry stored')!.pid
  process.kill(sender, 'SIGKILL')
  await expect.poll(() => lines(server!).some((line) => line.msg === 'worker died, starting another')).toBe(true)
  await expect.poll(() => lines(server!).filter((line) => line.msg.startsWith('domain-lander is ready')).length, { timeout: 10_000 }).toBe(3)
  // The dead worker's lease was ended, so a living worker sends the mail (the first attempt may also have landed).
  await expect.poll(() => messagesOf(smtp!).filter((n) => n === '1').length, { timeout: 20_000 }).toBeGreaterThanOrEqual(1)
  expect((await submitInquiry(server.url, { message: 'Nachricht 2' })).status).toBe(200)
  await expect.poll(() => messagesOf(smtp!).includes('2'), { timeout: 20_000 }).toBe(true)
  expect(await server.stop()).toBe(0)
}, 60_000)

test('the rate limit is shared by the workers', async () => {
  server = await startServerProcess({ WORKERS: '2', CONTACT_RATE_LIMIT: '2' })
  await expect.poll(() => lines(server!).filter((line) => line.msg.startsWith('domain-lander is ready')).length).toBe(2)
  const statuses: number[] = []
  for (let i = 0; i < 6; i++) statuses.push((await submitInquiry(server.url, { message: `Nachricht ${i}` })).status)
  expect(statuses).toEqual([200, 200, 429, 429, 429, 429])
  expect(await server.stop()).toBe(0)
}, 60_000)
