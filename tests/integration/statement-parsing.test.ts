// A bank statement of the largest size taken (5 MB), previewed in the console of the app in process, sent as the
// console sends it (the file's bytes), while visitors ask for the public page: reading the file must not hold up
// their answers (it is read and matched in a worker thread, payments/camt-read.ts). Measured as the longest stretch in
// which no GET / was answered, against the whole preview: with the file read on the server's thread, that stretch was
// most of the preview. What a preview still costs the server's thread is a figure of the bench (`npm run bench --
// --statement`), not of a test.
import { afterAll, beforeAll, expect, test } from 'vitest'
import { CAMT_MAX_BYTES } from '../../src/server/payments/camt.ts'
import { buildTestApp, type InProcessApp } from '../helpers/app.ts'
import { camtStatementOfSize } from '../helpers/camt.ts'
import { consoleClient } from '../helpers/console.ts'
import { removeTestFiles, writeTestFile } from '../helpers/domains.ts'

let app: InProcessApp
let client: ReturnType<typeof consoleClient>

beforeAll(async () => {
  app = await buildTestApp({ DOMAINS_FILE: writeTestFile('domains:\n  beispiel.de:\n    price: 4900\n') })
  client = consoleClient(app)
  expect((await client.setPassword()).code).toBe(0)
})
afterAll(async () => {
  await app?.close()
  removeTestFiles()
})

test('the public page is answered all along while a 5 MB statement is read', { timeout: 120_000 }, async () => {
  const { cookie } = await client.signIn()
  const text = camtStatementOfSize(CAMT_MAX_BYTES)
  expect(Buffer.byteLength(text)).toBeGreaterThan(0.98 * CAMT_MAX_BYTES)
  const page = async () => {
    const response = await app.fetch(`${app.url}/`, { headers: { host: 'beispiel.de' } })
    expect(response.status).toBe(200)
    await response.arrayBuffer()
  }
  await page()

  let previewing = true
  const started = performance.now()
  const preview = client.call('/api/payments/preview', { method: 'POST', body: Buffer.from(text), cookie }).finally(() => (previewing = false))
  const answered: number[] = []
  while (previewing) {
    await page()
    answered.push(performance.now())
    // inject answers without the event loop's I/O phase, where the worker's answer arrives: as requests over sockets
    // would, each next one waits for it.
    await new Promise(setImmediate)
  }
  const response = await preview
  const ended = performance.now()
  expect(response.status, await response.clone().text()).toBe(200)
  expect(((await response.json()) as { counts: { unmatched: number } }).counts.unmatched).toBeGreaterThan(6000)

  const moments = [started, ...answered.filter((moment) => moment < ended), ended]
  // A loop, not Math.max(...): under load the answers run into the hundreds of thousands, past the spread's stack.
  let longest = 0
  for (let i = 1; i < moments.length; i++) longest = Math.max(longest, moments[i]! - moments[i - 1]!)
  expect(longest, `${answered.length} answers in ${Math.round(ended - started)} ms`).toBeLessThan((ended - started) / 4)
})
