// kill -9 in the middle of a burst of submissions, again and again: every inquiry that got a 200 survives in the
// store and is delivered at least once; the database stays intact. `npm run crash` runs more rounds.
import { afterAll, expect, test } from 'vitest'
import { onPostgres, queryStore } from '../helpers/postgres.ts'
import { tempDataDir } from '../helpers/app.ts'
import { submitInquiry } from '../helpers/contact.ts'
import { startServerProcess } from '../helpers/server.ts'
import { startSmtpSink, type SmtpSink } from '../helpers/smtp.ts'

const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 20)
const BURST = 24
let smtp: SmtpSink | undefined
afterAll(async () => smtp?.close())

async function submitOne(url: string, round: number, i: number, onAnswer: () => void): Promise<string | null> {
  try {
    const response = await submitInquiry(url, {
      name58fnlsd: `Runde ${round}`,
      themail3h6: `r${round}n${i}@example.de`,
      message: `Nachricht ${i} aus Runde ${round}`,
    })
    onAnswer()
    // Token and message: together they name the inquiry (pages served in the same second share a token).
    return response.status === 200 ? `${String(response.sent.token)} ${String(response.sent.message)}` : null
  } catch {
    return null // the process died under this request: no 200, no promise made
  }
}

test(`${ROUNDS} crashes (kill -9) during bursts lose no inquiry that was answered 200`, async () => {
  smtp = await startSmtpSink()
  const dataDir = tempDataDir()
  const env = { DATA_DIR: dataDir, SMTP_URL: smtp.url }
  const acknowledged: string[] = []
  let killedWhileBusy = 0
  for (let round = 0; round < ROUNDS; round++) {
    const server = await startServerProcess(env)
    // Kill somewhere inside the burst: on its k-th answer, while the others are in flight. (On the answer, not
    // after a fixed time: on a fast or idle machine a whole burst is answered within any fixed time.)
    const killAt = 1 + (round % 8)
    let answers = 0
    let kthAnswer!: () => void
    const answered = new Promise<void>((resolve) => (kthAnswer = resolve))
    const burst = Array.from({ length: BURST }, (_, i) => submitOne(server.url, round, i, () => ++answers === killAt && kthAnswer()))
    await Promise.race([answered, Promise.all(burst)])
    const exit = await server.kill()
    expect(exit).toBe('SIGKILL')
    const tokens = await Promise.all(burst)
    const ok = tokens.filter((token): token is string => token !== null)
    if (ok.length < BURST) killedWhileBusy++
    acknowledged.push(...ok)
  }
  // Not a test of luck: most rounds must really have been cut off mid-burst.
  expect(killedWhileBusy).toBeGreaterThan(ROUNDS / 2)

  const final = await startServerProcess({ ...env, LOG_LEVEL: 'info' })
  try {
    const rows = await queryStore<{ id: number; token: string; message: string }>(dataDir, 'SELECT id, token, message FROM inquiries')
    const idOf = new Map(rows.map((row) => [`${row.token} ${row.message}`, String(row.id)]))
    const stored = new Set(idOf.keys())
    if (!onPostgres()) expect((await queryStore(dataDir, 'PRAGMA integrity_check'))[0]).toEqual({ integrity_check: 'ok' })
    expect(acknowledged.filter((sent) => !stored.has(sent))).toEqual([])
    // Every acknowledged inquiry reaches the mailbox at least once (a crash mid-send may deliver one twice).
    const delivered = () => new Set(smtp!.messages.map((mail) => /inquiry-(\d+)-[A-Za-z0-9]{15}@/.exec(mail.parsed.messageId ?? '')?.[1]))
    await expect
      .poll(() => acknowledged.filter((sent) => !delivered().has(idOf.get(sent))).length, { timeout: 60_000 + 100 * acknowledged.length, interval: 250 })
      .toBe(0)
    console.log(
      `crash: ${ROUNDS} kill -9 rounds, ${acknowledged.length} inquiries answered 200, 0 lost, ${smtp.messages.length} mails for ${stored.size} stored`,
    )
  } finally {
    expect(await final.stop()).toBe(0)
    final.cleanup()
  }
}, 600_000)
