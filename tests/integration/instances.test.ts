// Several instances on one PostgreSQL database, as behind a load balancer: each with its own DATA_DIR, sharing
// the inquiries, the outbox, the form secret and the rate limits. (Project "postgres" only.)
import { afterEach, expect, test } from 'vitest'
import { tempDataDir } from '../helpers/app.ts'
import { VISITOR, fetchForm, postContact } from '../helpers/contact.ts'
import { queryStore, storeEnv } from '../helpers/postgres.ts'
import { startServerProcess, type ServerProcess } from '../helpers/server.ts'
import { startSmtpSink, type SmtpSink } from '../helpers/smtp.ts'

let instances: ServerProcess[] = []
let smtp: SmtpSink | undefined
afterEach(async () => {
  for (const instance of instances) {
    await instance.kill()
    instance.cleanup()
  }
  await smtp?.close()
  instances = []
  smtp = undefined
})

/** Three server processes on the test's database; `shared` is the DATA_DIR that names that database. */
async function startInstances(env: Record<string, string>, count = 3) {
  const shared = tempDataDir()
  // An empty database, not the migrated copy: instances starting together must migrate it once between them.
  const { DATABASE_URL } = await storeEnv(shared, { empty: true })
  instances = await Promise.all(Array.from({ length: count }, () => startServerProcess({ ...env, DATABASE_URL: DATABASE_URL!, MAIL_LEASE_SECONDS: '3' })))
  return shared
}

/** The visitor loads the page from one instance and the load balancer sends the form to another. */
async function inquire(from: ServerProcess, to: ServerProcess, message: string) {
  const { token, hash } = await fetchForm(from.url)
  const response = await postContact(to.url, { ...VISITOR, token, hash, message })
  return response.status
}

const numbersIn = (sink: SmtpSink) => sink.messages.map((mail) => /Nachricht (\d+)/.exec(mail.parsed.text ?? '')?.[1])
const logOf = (instance: ServerProcess) =>
  instance.output.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as { msg: string; inquiry?: number })

test('three instances share one database: forms work across them and every inquiry is mailed exactly once', async () => {
  smtp = await startSmtpSink()
  await startInstances({ SMTP_URL: smtp.url })
  const statuses = await Promise.all(Array.from({ length: 30 }, (_, i) => inquire(instances[i % 3]!, instances[(i + 1) % 3]!, `Nachricht ${i}`)))
  expect(statuses).toEqual(Array(30).fill(200))
  await smtp.waitFor(30, 30_000)
  // Stopped, an instance has finished the mail it was sending: a second copy of any mail would be in by now.
  for (const instance of instances) expect(await instance.stop()).toBe(0)
  expect(numbersIn(smtp).sort()).toEqual(Array.from({ length: 30 }, (_, i) => String(i)).sort())
  // The work was shared: more than one instance stored and mailed inquiries.
  expect(instances.filter((instance) => logOf(instance).some((line) => line.msg === 'inquiry stored')).length).toBeGreaterThan(1)
  expect(instances.filter((instance) => logOf(instance).some((line) => line.msg === 'inquiry mailed')).length).toBeGreaterThan(1)
}, 60_000)

test('an instance killed mid-send leaves no inquiry behind: the others deliver its mail when its lease runs out', async () => {
  smtp = await startSmtpSink({ delayMs: 400 })
  const shared = await startInstances({ SMTP_URL: smtp.url, LOG_LEVEL: 'debug' })
  const [victim, ...survivors] = instances as [ServerProcess, ServerProcess, ServerProcess]
  // Each instance polls the outbox first when its background work starts, then every few seconds. A survivor's first
  // poll in the middle of the burst would claim a batch of the victim's mail before the victim's own second claim:
  // the burst waits until every instance's first poll (one query each, slow under load) is done, as each logs at debug.
  await expect.poll(() => instances.every((instance) => logOf(instance).some((line) => line.msg === 'outbox pass done')), { timeout: 20_000 }).toBe(true)
  // The victim stores (and so starts sending) every inquiry. Were some stored by a survivor, its kick would claim
  // the victim's mail too, and the victim might hold no lease when it is killed.
  const statuses = await Promise.all(Array.from({ length: 24 }, (_, i) => inquire(survivors[i % 2]!, victim, `Nachricht ${i}`)))
  expect(statuses).toEqual(Array(24).fill(200))
  const pid = victim.child.pid!
  const leasedByVictim = async () =>
    (await queryStore<{ inquiry_id: number }>(shared, `SELECT inquiry_id FROM outbox WHERE status = 'pending' AND lease_owner LIKE ?`, [`%:${pid}`])).map(
      (row) => row.inquiry_id,
    )
  // Kill it while it is sending and holds leases on mail it has not sent yet.
  await expect
    .poll(async () => logOf(victim).some((line) => line.msg === 'inquiry mailed') && (await leasedByVictim()).length > 0, { timeout: 15_000 })
    .toBe(true)
  expect(await victim.kill()).toBe('SIGKILL')
  const orphaned = await leasedByVictim()
  expect(orphaned.length).toBeGreaterThan(0)

  await expect.poll(() => new Set(numbersIn(smtp!)).size, { timeout: 30_000, interval: 250 }).toBe(24)
  const sent = await queryStore<{ status: string; n: number }>(shared, 'SELECT status, COUNT(*) AS n FROM outbox GROUP BY status')
  expect(sent).toEqual([{ status: 'sent', n: 24 }])
  // The survivors mailed what the victim had leased; only the one mail on the wire at the kill may arrive twice.
  const mailedBySurvivors = new Set(
    survivors.flatMap((s) =>
      logOf(s)
        .filter((line) => line.msg === 'inquiry mailed')
        .map((line) => line.inquiry),
    ),
  )
  expect(orphaned.filter((id) => !mailedBySurvivors.has(id))).toEqual([])
  expect(smtp.messages.length - 24).toBeLessThanOrEqual(1)
  for (const survivor of survivors) expect(await survivor.stop()).toBe(0)
}, 90_000)

test('the rate limit counts across instances', async () => {
  await startInstances({ CONTACT_RATE_LIMIT: '2' })
  const statuses: number[] = []
  for (let i = 0; i < 6; i++) statuses.push(await inquire(instances[i % 3]!, instances[(i + 1) % 3]!, `Nachricht ${i}`))
  expect(statuses).toEqual([200, 200, 429, 429, 429, 429])
}, 60_000)
