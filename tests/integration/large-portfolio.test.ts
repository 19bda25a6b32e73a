// A portfolio of 100,000 names in one domains file: the real server loads it in a process of its own, keeps
// answering while it reloads, and keeps the version in force when a reload fails (a broken edit, a file too large,
// a load that runs out of memory, a storm of SIGHUPs).
import fs from 'node:fs'
import { afterEach, expect, test } from 'vitest'
import { getPage, type RawResponse } from '../helpers/contact.ts'
import { largeDomainsLines, removeTestFiles, replaceFile, writeTestFile } from '../helpers/domains.ts'
import { startServerProcess, type ServerProcess } from '../helpers/server.ts'

let server: ServerProcess | undefined
afterEach(async () => {
  await server?.stop()
  server?.cleanup()
  server = undefined
  removeTestFiles()
})

// Bounds, not waits: a reload of 100,000 names in its own process took over 15 s (expect.poll's bound) on two cores
// with the suite's load and two CPU burners; each test does several, and waits for each one's own sign.
const RELOAD = { timeout: 60_000 }
const LONG = { timeout: 180_000 }

const text = (lines: string[]) => `${lines.join('\n')}\n`
const priceShown = (page: RawResponse) => /<p class="price">Preis: ([\d.]+)/.exec(page.html)?.[1]
/** Whether the server logged that a reload failed, for the reason `pattern` matches. */
const notReloaded = (pattern: RegExp) => server!.output.some((line) => line.includes('domains file not reloaded') && pattern.test(line))

test('a broken edit of a 100,000-name file is logged with its line, and the version in force stays', LONG, async () => {
  const lines = largeDomainsLines('json', 100_000)
  const file = writeTestFile(text(lines), 'domains.json')
  server = await startServerProcess({ DOMAINS_FILE: file })
  expect(priceShown(await getPage(server.url, 'name-99999.de'))).toBe('99.999')

  // A schema error on line 80,003 (name-80000.de), then a syntax error on line 90,003.
  const wrongPrice = [...lines]
  wrongPrice[80_002] = wrongPrice[80_002]!.replace('"price": 80000', '"price": "teuer"')
  replaceFile(file, text(wrongPrice))
  await expect.poll(() => notReloaded(/line 80003: domains\.name-80000\.de\.price: /), RELOAD).toBe(true)
  const noComma = [...lines]
  noComma[90_002] = noComma[90_002]!.replace(/,$/, '')
  replaceFile(file, text(noComma))
  await expect.poll(() => notReloaded(/line 90004: Expected ',' or '}' after property value/), RELOAD).toBe(true)
  expect(priceShown(await getPage(server.url, 'name-80000.de'))).toBe('80.000')

  // Fixed: the change is in force.
  replaceFile(file, text(largeDomainsLines('json', 100_000, 1)))
  await expect.poll(async () => priceShown(await getPage(server!.url, 'name-80000.de')), RELOAD).toBe('80.001')
})

test(`a file over the size limit is refused at start-up with its size, and on reload the version in force stays`, LONG, async () => {
  const big = writeTestFile('domains: {}\n')
  fs.truncateSync(big, 33 * 2 ** 20)
  await expect(startServerProcess({ DOMAINS_FILE: big })).rejects.toThrow(`domain-lander: ${big} is 33.0 MiB; a domains file may have at most 32 MiB`)

  const file = writeTestFile('domains:\n  example.de:\n    price: 4900\n')
  server = await startServerProcess({ DOMAINS_FILE: file })
  fs.truncateSync(file, 40 * 2 ** 20)
  server.child.kill('SIGHUP')
  await expect.poll(() => notReloaded(/ is 40\.0 MiB; a domains file may have at most 32 MiB/), RELOAD).toBe(true)
  expect(priceShown(await getPage(server.url, 'example.de'))).toBe('4.900')
})

test('a reload that runs out of memory fails alone: the server answers with the version in force', LONG, async () => {
  const file = writeTestFile(text(largeDomainsLines('yaml', 10)))
  // Enough for ten names, not for 100,000.
  server = await startServerProcess({ DOMAINS_FILE: file, DOMAINS_FILE_MEMORY_MIB: '16' })
  replaceFile(file, text(largeDomainsLines('yaml', 100_000, 1)))
  await expect.poll(() => notReloaded(/needs more than the 16 MiB of memory it may use \(DOMAINS_FILE_MEMORY_MIB\)/), RELOAD).toBe(true)
  // The new version would say 10.
  expect(priceShown(await getPage(server.url, 'name-9.de'))).toBe('9')
  expect(server.child.exitCode).toBeNull()
})

test('a storm of 20 SIGHUPs 100 ms apart while a 10,000-name YAML file changes leaves no request waiting, and the last version wins', LONG, async () => {
  const file = writeTestFile(text(largeDomainsLines('yaml', 10_000)))
  server = await startServerProcess({ DOMAINS_FILE: file })
  const answers: (number | 'no answer')[] = []
  let storming = true
  // Requests one after another through the whole storm, each given 10 s (a hanging one fails the test).
  const requests = (async () => {
    while (storming) {
      const answer = await Promise.race([
        getPage(server!.url, 'name-5000.de').then((page) => page.status),
        // The wait is the subject: a request still unanswered after 10 s is one left waiting by the storm.
        new Promise<'no answer'>((resolve) => setTimeout(resolve, 10_000, 'no answer')),
      ])
      answers.push(answer)
    }
  })()
  // Awaited below; when the test fails before that, its last request meets the stopped server and must not also be
  // an unhandled rejection.
  requests.catch(() => {})
  for (let signal = 1; signal <= 20; signal++) {
    fs.writeFileSync(file, text(largeDomainsLines('yaml', 10_000, signal * 100_000)))
    server.child.kill('SIGHUP')
    // The wait is the subject: a storm comes at its own pace, not the server's (some signals land while a reload runs).
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  // The last version: name-5000.de at 2,005,000.
  try {
    await expect.poll(async () => priceShown(await getPage(server!.url, 'name-5000.de')), RELOAD).toBe('2.005.000')
  } finally {
    storming = false
  }
  await requests
  expect(answers.length).toBeGreaterThan(0)
  expect(answers.filter((answer) => answer !== 200)).toEqual([])
  expect(server.child.exitCode).toBeNull()
})
