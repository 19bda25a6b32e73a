// Invoice numbers with three instances on one PostgreSQL database, as behind a load balancer, each with its own
// DATA_DIR: deals marked paid on all three at once get the numbers 1..N, none twice, none left out (decision 038).
// (Project "postgres" only.)
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, expect, test } from 'vitest'
import { tempDataDir } from '../helpers/app.ts'
import { consoleClient } from '../helpers/console.ts'
import { queryStore, storeEnv } from '../helpers/postgres.ts'
import { confirmedPurchase } from '../helpers/purchase.ts'
import { startServerProcess, type ServerProcess } from '../helpers/server.ts'
import { startSmtpSink, type SmtpSink } from '../helpers/smtp.ts'
import { SELLER_ENV } from '../helpers/invoice.ts'

let instances: ServerProcess[] = []
let smtp: SmtpSink | undefined
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'invoices-instances-'))
afterEach(async () => {
  for (const instance of instances) {
    await instance.stop()
    instance.cleanup()
  }
  await smtp?.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

test('three instances marking fifteen deals paid at once number the invoices 1..15', async () => {
  const domainsFile = path.join(dir, 'domains.yaml')
  // Fifteen names: a name has one open deal at a time (decision 037).
  fs.writeFileSync(domainsFile, `domains:\n${Array.from({ length: 15 }, (_, i) => `  geteilt-${i + 1}.de: { price: 900, priceType: fixed }\n`).join('')}`)
  smtp = await startSmtpSink()
  const shared = tempDataDir()
  const { DATABASE_URL } = await storeEnv(shared)
  const env = {
    SMTP_URL: smtp.url,
    DOMAINS_FILE: domainsFile,
    DATABASE_URL: DATABASE_URL!,
    DEAL_KEY: 'ef'.repeat(32),
    ...SELLER_ENV,
  }
  instances = await Promise.all([startServerProcess(env), startServerProcess(env), startServerProcess(env)])
  const owners = instances.map((instance) => consoleClient(instance))
  expect((await owners[0]!.setPassword(undefined, shared)).code).toBe(0)
  const cookies = await Promise.all(owners.map(async (owner) => (await owner.signIn()).cookie))
  const deals: number[] = []
  for (let i = 0; i < 15; i++) deals.push((await confirmedPurchase(instances[0]!.url, `geteilt-${i + 1}.de`, owners[0]!, cookies[0]!)).dealId)
  const answers = await Promise.all(deals.map((id, i) => owners[i % 3]!.call(`/api/deals/${id}/paid`, { method: 'POST', body: {}, cookie: cookies[i % 3]! })))
  expect(answers.map((answer) => answer.status)).toEqual(deals.map(() => 200))
  const rows = await queryStore<{ number: string }>(shared, 'SELECT number FROM invoices ORDER BY number')
  expect(rows.map((row) => Number(row.number))).toEqual(Array.from({ length: 15 }, (_, i) => i + 1))
}, 120_000)
