// Two writing imports at once, against the real server with WORKERS=2 (two server processes, one console port):
// two "Übernehmen" confirmed in the same moment, and the CLI's import while the console's runs. Each import either
// lands in the domains file, or its owner is told (409) and none of its names is there: nothing is lost unseen.
// Before the domains file's lock (decision 029), both answered 200 and the later rename dropped the other's names.
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { CONSOLE_HEADER } from '../../src/shared/console-api.ts'
import type { ImportReport } from '../../src/shared/import-api.ts'
import { runCliProcess } from '../helpers/cli.ts'
import { consoleClient } from '../helpers/console.ts'
import { startServerProcess, type ServerProcess } from '../helpers/server.ts'

const ROUNDS = 4
const TOLD = [
  'Die Domains-Datei wurde seit der Vorschau geändert. Bitte die Vorschau neu laden.',
  // Both requests in the same server process: its one-import-at-a-time guard.
  'Es läuft schon ein Import. Bitte warten, bis er fertig ist.',
]

let server: ServerProcess
let client: ReturnType<typeof consoleClient>
let cookie: string
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-race-'))
const START = 'domains:\n  start.de: {}\n'
const domainsFile = path.join(dir, 'domains.yaml')

beforeAll(async () => {
  fs.writeFileSync(domainsFile, START)
  server = await startServerProcess({ WORKERS: '2', DOMAINS_FILE: domainsFile })
  // Both workers up: each says so once.
  await server.waitForLines(/domain-lander is ready/, { count: 2, timeoutMs: 30_000 })
  client = consoleClient(server)
  expect((await client.setPassword()).code).toBe(0)
  ;({ cookie } = await client.signIn())
}, 60_000)
afterAll(async () => {
  await server?.stop()
  server?.cleanup()
  fs.rmSync(dir, { recursive: true, force: true })
})

/** A list of `count` names of its own, and the names as the file writes them. */
const list = (prefix: string, count: number) => {
  const names = Array.from({ length: count }, (_, i) => `${prefix}-${i}.de`)
  return { names, text: `Domain;Preis\n${names.map((name, i) => `${name};${i + 1}`).join('\n')}\n` }
}
/** How many of `names` the domains file has. */
const inFile = (names: string[]) => {
  const keys = new Set(
    fs
      .readFileSync(domainsFile, 'utf8')
      .match(/^ {2}[^\s:]+(?=:)/gm)
      ?.map((key) => key.trim()),
  )
  return names.filter((name) => keys.has(name)).length
}
const post = (pathName: string, body: unknown) => client.call(pathName, { method: 'POST', body, cookie })

/**
 * "Übernehmen" on a connection of its own: the cluster hands each new connection to the next server process, so two
 * at once go to two processes (on one kept-alive connection both would reach the same one, whose own guard answers).
 */
function apply(text: string, fingerprint: string): Promise<{ status: number; body: { error?: string } }> {
  const url = new URL('/api/import/apply', client.admin)
  const payload = JSON.stringify({ text, format: 'csv', prune: false, fingerprint })
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', origin: client.admin, [CONSOLE_HEADER]: '1', cookie, 'content-length': Buffer.byteLength(payload) },
      },
      (response) => {
        let body = ''
        response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk))
        response.on('end', () => resolve({ status: response.statusCode!, body: JSON.parse(body) as { error?: string } }))
      },
    )
    request.on('error', reject)
    request.end(payload)
  })
}

/** The fingerprint of the domains file as a preview reports it (of a short list: it is the file's, not the list's). */
async function fingerprint(): Promise<string> {
  const response = await post('/api/import/preview', { text: 'Domain\nvorschau.de\n', format: 'csv', prune: false })
  expect(response.status).toBe(200)
  return ((await response.json()) as ImportReport).fingerprint
}

test('two "Übernehmen" at once in two server processes: one lands, the other is told; never both 200 with one lost', async () => {
  let pids = new Set<number>()
  for (let round = 0; round < ROUNDS; round++) {
    // A small file each round (what a round adds would make the next one slower).
    fs.writeFileSync(domainsFile, START)
    // Large enough that each import reads the file well before it writes (a few seconds each).
    const a = list(`a${round}`, 5_000)
    const b = list(`b${round}`, 5_000)
    // Both confirm the same preview: the file as it is now.
    const seen = await fingerprint()
    const answers = await Promise.all([a, b].map(({ text }) => apply(text, seen)))
    for (const [i, { names }] of [a, b].entries()) {
      const { status, body } = answers[i]!
      if (status === 200) expect(inFile(names), `round ${round}: an import answered 200 but its names are not in the file`).toBe(names.length)
      else {
        expect(status).toBe(409)
        expect(TOLD).toContain(body.error)
        expect(inFile(names)).toBe(0)
      }
    }
    // The same preview can be written once: the other import was made from a file that is no longer there.
    expect(answers.map(({ status }) => status).sort(), `round ${round}`).toEqual([200, 409])
    pids = new Set([
      ...pids,
      ...server.output.filter((line) => line.includes('domains imported in the console')).map((line) => (JSON.parse(line) as { pid: number }).pid),
    ])
  }
  expect(inFile(['start.de'])).toBe(1)
  // Not a condition of the outcome (the cluster picks the process), but what the test is about: both wrote at times.
  console.info(`imports written by ${pids.size} server process(es)`)
}, 180_000)

test("the CLI's import while the console's runs: the CLI waits and keeps the console's names, or the console is told", async () => {
  for (let round = 0; round < 3; round++) {
    fs.writeFileSync(domainsFile, START)
    // The CLI takes longer to start than the console's import process: the console's list is the longer one, so that
    // the two read and write at overlapping times.
    const cli = list(`cli${round}`, 200)
    const web = list(`web${round}`, 15_000)
    fs.writeFileSync(path.join(dir, `cli${round}.csv`), cli.text)
    const seen = await fingerprint()
    const [run, applied] = await Promise.all([
      runCliProcess(dir, { DOMAINS_FILE: domainsFile }, 'import', path.join(dir, `cli${round}.csv`)),
      apply(web.text, seen),
    ])
    // The CLI has no preview to be out of date: it reads the file once it holds the lock, so it always lands.
    expect(run.code, run.out + run.err).toBe(0)
    expect(inFile(cli.names)).toBe(cli.names.length)
    if (applied.status === 200) expect(inFile(web.names), `round ${round}: the console answered 200 but its names are gone`).toBe(web.names.length)
    else {
      expect(applied).toEqual({ status: 409, body: { error: TOLD[0] } })
      expect(inFile(web.names)).toBe(0)
    }
  }
}, 180_000)
