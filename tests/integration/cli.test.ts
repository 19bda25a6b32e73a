// The owner's CLI on a real store: inquiries made through the running server, read back by the command.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { parse } from 'csv-parse/sync'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { filterOf } from '../../src/server/admin/inbox/query.ts'
import { openStore } from '../../src/server/store/index.ts'
import { startApp, tempDataDir, type TestApp } from '../helpers/app.ts'
import { runCli, runCliProcess } from '../helpers/cli.ts'
import { VISITOR, browserHeaders, fetchForm, requestAs } from '../helpers/contact.ts'
import { storeEnv } from '../helpers/postgres.ts'
import { startSmtpSink, type SmtpSink } from '../helpers/smtp.ts'
import { newInquiry } from '../helpers/store.ts'

const ROOT = path.resolve(import.meta.dirname, '../..')
let app: TestApp
let smtp: SmtpSink
let dataDir: string
let cliStoreEnv: Record<string, string> = {}

/** Runs `domain-lander ...args` against the test's DATA_DIR, in this process: what it prints is the subject. */
const cli = (...args: string[]) => runCli(dataDir, cliStoreEnv, ...args)

let browsers = 0
async function inquire(host: string, fields: Record<string, string>) {
  // Each from a browser and an address of its own (named by the proxy the app trusts): each page is a visitor.
  const { token, hash } = await fetchForm(app.url, host, { ...browserHeaders(browsers), 'x-forwarded-for': `198.51.100.${++browsers}` })
  const response = await requestAs(host, `${app.url}/api/contact`, { method: 'POST', body: { ...VISITOR, token, hash, ...fields } })
  expect(response.status).toBe(200)
}

beforeAll(async () => {
  dataDir = tempDataDir()
  cliStoreEnv = await storeEnv(dataDir)
  smtp = await startSmtpSink()
  app = await startApp({ DATA_DIR: dataDir, SMTP_URL: smtp.url, TRUST_PROXY: '1' })
  await inquire('example.de', { name58fnlsd: 'Erika', message: 'Erste Anfrage' })
  await inquire('xn--mnchen-3ya.de', { name58fnlsd: 'Max', themail3h6: 'max@example.de', message: '=HYPERLINK("http://evil")' })
  await inquire('example.de', { name58fnlsdbee: 'Bot', message: 'Spam, spam, spam' })
  await smtp.waitFor(2)
  // The page views are counted in memory; closing the app writes them.
  await app.close()
  app = await startApp({ DATA_DIR: dataDir, SMTP_URL: smtp.url, TRUST_PROXY: '1' })
})
afterAll(async () => {
  await app.close()
  await smtp.close()
  fs.rmSync(dataDir, { recursive: true, force: true })
})

describe('list and show', () => {
  test('list shows every inquiry, newest first, with the domain in Unicode and its kind', async () => {
    const { code, out } = await cli('list')
    expect(code).toBe(0)
    const lines = out.trim().split('\n')
    expect(lines[0]).toMatch(/^ID\s+Time\s+Domain\s+Name\s+E-Mail\s+Kind\s+Mail\s+Message$/)
    expect(lines.slice(2).map((line) => line.split(/\s{2,}/)[0])).toEqual(['3', '2', '1'])
    expect(out).toContain('münchen.de')
    expect(out).toContain('spam (decoy-filled)')
  })

  test('list filters by domain (Unicode or punycode), by spam and by day, and --json gives the whole record', async () => {
    const byDomain = JSON.parse((await cli('list', '--domain', 'münchen.de', '--json')).out)
    expect(byDomain).toEqual([expect.objectContaining({ id: 2, domain: 'münchen.de', name: 'Max', email: 'max@example.de', spam: null, mail: 'sent' })])
    expect(JSON.parse((await cli('list', '--spam', '--json')).out).map((i: { id: number }) => i.id)).toEqual([3])
    expect(JSON.parse((await cli('list', '--genuine', '--json')).out).map((i: { id: number }) => i.id)).toEqual([2, 1])
    expect(JSON.parse((await cli('list', '--until', '2000-01-01', '--json')).out)).toEqual([])
    const today = new Date().toISOString().slice(0, 10)
    expect(JSON.parse((await cli('list', '--since', today, '--json')).out)).toHaveLength(3)
  })

  test('show prints one inquiry with its message', async () => {
    const { code, out } = await cli('show', '1')
    expect(code).toBe(0)
    expect(out).toMatch(/Name:\s+Erika/)
    expect(out).toMatch(/Language:\s+de/)
    expect(out).toContain('Erste Anfrage')
  })

  test('mistakes get exit code 2 and a message that says what is wrong', async () => {
    expect(await cli('show', '99')).toMatchObject({ code: 2, err: expect.stringContaining('there is no inquiry 99') })
    expect(await cli('list', '--since', 'gestern')).toMatchObject({ code: 2, err: expect.stringContaining('--since takes a day as YYYY-MM-DD') })
    expect(await cli('frobnicate')).toMatchObject({ code: 2, err: expect.stringContaining('unknown command "frobnicate"') })
    expect(await cli('list', '--colour')).toMatchObject({ code: 2, err: expect.stringContaining("Unknown option '--colour'") })
    // The exit code as the shell sees it, from the bin entry itself.
    const missing = await runCliProcess(path.join(dataDir, 'nowhere'), {}, 'list')
    expect(missing.code).toBe(2)
    expect(missing.err).toContain('no store at')
  })
})

describe('export', () => {
  test('CSV starts with a BOM and a header, quotes every text cell, and defuses formulas', async () => {
    const { out } = await cli('export', '--format', 'csv', '--genuine')
    const lines = out.split('\r\n')
    expect(lines[0]).toBe('\ufeff"id","time","domain","name","email","message","offer","currency","belowMinimum","spam","mail","language"')
    expect(lines[1]).toContain(`"'=HYPERLINK(""http://evil"")"`)
    expect(lines[1]).toMatch(/,"de"$/)
    expect(lines[2]).toContain(',"Erste Anfrage",')
  })

  test('--sep ";" writes CSV for German spreadsheets; another separator is a mistake', async () => {
    const lines = (await cli('export', '--sep', ';', '--genuine')).out.split('\r\n')
    expect(lines[0]).toBe('\ufeff"id";"time";"domain";"name";"email";"message";"offer";"currency";"belowMinimum";"spam";"mail";"language"')
    expect(lines[2]).toMatch(/^1;"[^"]+";"example\.de";"Erika";/)
    expect(await cli('export', '--sep', '|')).toMatchObject({ code: 2, err: expect.stringContaining('--sep is "," or ";"') })
    expect(await cli('export', '--format', 'json', '--sep', ';')).toMatchObject({ code: 2, err: expect.stringContaining('--sep applies to --format csv only') })
  })

  test('JSON export into a file readable only by the owner', async () => {
    const file = path.join(dataDir, 'export.json')
    expect((await cli('export', '--format', 'json', '--out', file)).out).toContain('3 inquiries written')
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toHaveLength(3)
    expect(fs.statSync(file).mode & 0o777).toBe(0o600)
  })
})

describe('outbox, resend and retry', () => {
  test('resend queues a mail again and the running server sends it, with a new Message-ID', async () => {
    const before = smtp.messages.length
    expect(await cli('resend', '1')).toMatchObject({ code: 0, out: expect.stringContaining('Inquiry 1 is queued') })
    const mails = await smtp.waitFor(before + 1, 20_000)
    expect(mails.at(-1)!.parsed.messageId).toMatch(/^<inquiry-1-[A-Za-z0-9]{15}-resend1@example\.de>$/)
    expect(mails.at(-1)!.parsed.text).toContain('Erste Anfrage')
  })

  test('resend can send a spam-trapped inquiry to the owner after all, and to another address', async () => {
    const before = smtp.messages.length
    expect((await cli('resend', '3', '--to', 'pruefung@example.org')).code).toBe(0)
    const mails = await smtp.waitFor(before + 1, 20_000)
    expect(mails.at(-1)!.envelope.to).toEqual(['pruefung@example.org'])
  })

  test('outbox lists mail by status, and retry queues failed mail again', async () => {
    smtp.mode = 'permfail'
    expect((await cli('resend', '2')).code).toBe(0)
    await expect.poll(async () => JSON.parse((await cli('outbox', '--status', 'failed', '--json')).out).length, { timeout: 20_000 }).toBe(1)
    const table = (await cli('outbox', '--status', 'failed')).out
    expect(table).toMatch(/^Inquiry\s+Domain\s+Status\s+Attempts/)
    expect(table).toContain('550')
    smtp.mode = 'ok'
    const before = smtp.messages.length
    expect((await cli('retry')).out).toContain('1 failed mails queued again.')
    await smtp.waitFor(before + 1, 20_000)
    await expect.poll(async () => (await cli('outbox', '--status', 'failed')).out.trim()).toBe('No failed mail.')
    // Three waits of up to 20 s for what the running server does.
  }, 90_000)
})

test('stats counts page views and inquiries per domain and day', async () => {
  const rows: { domain: string; day: string; views: number; inquiries: number; spam: number }[] = JSON.parse((await cli('stats', '--json')).out)
  // Visits are counted by Berlin day, inquiries by UTC day: between 23:00 and 24:00 UTC they fall on two days.
  const days = [new Date().toISOString().slice(0, 10), new Date(Date.now() + 2 * 3_600_000).toISOString().slice(0, 10)]
  expect(rows.every((row) => days.includes(row.day))).toBe(true)
  const sums = new Map<string, { views: number; inquiries: number; spam: number }>()
  for (const row of rows) {
    const sum = sums.get(row.domain) ?? { views: 0, inquiries: 0, spam: 0 }
    sums.set(row.domain, { views: sum.views + row.views, inquiries: sum.inquiries + row.inquiries, spam: sum.spam + row.spam })
  }
  expect(Object.fromEntries(sums)).toEqual({ 'example.de': { views: 2, inquiries: 1, spam: 1 }, 'münchen.de': { views: 1, inquiries: 1, spam: 0 } })
  const one = (await cli('stats', '--domain', 'example.de')).out
  expect(one).toMatch(/^Day\s+Domain\s+Views\s+Inquiries\s+Spam/)
  expect(one).toContain('example.de')
  expect(one).not.toContain('münchen.de')
})

test("stats summary shows the Übersicht's numbers: visitors, visits, turns to the form, inquiries per name", async () => {
  const { code, out } = await cli('stats', 'summary', '--days', '7')
  expect(code).toBe(0)
  // Domain, Visitors, Visits, Bots, Form, Inquiries.
  expect(out).toMatch(/example\.de\s+2\s+2\s+0\s+0\s+1\s/)
  expect(out).toMatch(/münchen\.de\s+1\s+1\s+0\s+0\s+1\s/)
  const json = JSON.parse((await cli('stats', 'summary', '--json')).out)
  expect(json.total).toMatchObject({ visitors: 3, visits: 3, inquiries: 2 })
})

test('npx domain-lander runs the same command', () => {
  const run = spawnSync('npx', ['--no-install', 'domain-lander', 'list', '--json'], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, ...cliStoreEnv },
    encoding: 'utf8',
  })
  expect(run.status).toBe(0)
  expect(JSON.parse(run.stdout)).toHaveLength(3)
})

// Last in the file, so that the counts above see three inquiries: a visitor's message that attacks the terminal
// (OSC 52 writes the clipboard, OSC 0 the window title, CSI and C1 CSI move the cursor, U+202E reverses the text)
// and a spreadsheet that splits on ";".
describe('what a visitor typed reaches the owner as text', () => {
  // Escaped, the cursor movement straddles the 40th place, where list cuts the cell.
  const HOSTILE = '\u001b]52;c;ZXZpbA==\u0007\u001b]0;pwned\u0007\u001b[2A\u001b[2K\u009b1A\u202Etxt.exe ;=1+1; lange Nachricht bis hinter den Schnitt'
  // Raw ESC, C0 (but a line break), C1, DEL, bidi controls, Unicode line separators.
  const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u

  beforeAll(async () => {
    await inquire('example.de', { name58fnlsd: 'Mallory\u202Egnp.exe', message: HOSTILE })
    await smtp.waitFor(smtp.messages.length + 1)
  })

  const COMMANDS = [
    'list',
    'list --json',
    'show 4',
    'show 4 --json',
    'export',
    'export --sep ;',
    'export --format json',
    'outbox',
    'outbox --json',
    'stats',
    'stats --json',
    'stats summary',
    'stats summary --json',
  ]
  test.each(COMMANDS)('%s prints no raw control or bidi character', async (command) => {
    const { code, out } = await cli(...command.split(' '))
    expect(code).toBe(0)
    // CSV rows end in CRLF; that is the only CR allowed.
    expect(out.replace(/\r\n/g, '\n')).not.toMatch(RAW)
  })

  test('show and --json show the escapes, and --json reads back to exactly what was stored', async () => {
    const { out } = await cli('show', '4')
    expect(out).toMatch(/Name:\s+Mallory\\u202egnp\.exe/)
    expect(out).toContain('\\x1b]52;c;ZXZpbA==\\x07\\x1b]0;pwned\\x07\\x1b[2A\\x1b[2K\\x9b1A\\u202etxt.exe')
    const json = (await cli('list', '--json')).out
    expect(json).toContain('\\u001b]52;c;ZXZpbA==\\u0007')
    expect(json).toContain('\\u009b1A\\u202etxt.exe')
    expect(JSON.parse(json)[0]).toMatchObject({ id: 4, name: 'Mallory\u202Egnp.exe', message: HOSTILE })
  })

  test('list cuts the message after escaping, never inside an escape', async () => {
    const row = (await cli('list')).out.split('\n').find((line) => line.startsWith('4 '))!
    const message = row.slice(row.indexOf('\\x1b]52;c;'))
    expect(message).toMatch(/^\\x1b\]52;c;ZXZpbA==\\x07\\x1b\]0;pwned\\x07.*…$/)
    expect(message).toMatch(/^(?:[^\\]|\\x[0-9a-f]{2}|\\u[0-9a-f]{4})*…$/)
  })

  test.each([',', ';'])('CSV with --sep "%s" reads back, and no cell starts a formula whichever separator a spreadsheet splits on', async (separator) => {
    const text = (await cli('export', '--sep', separator)).out
    const records = parse(text, { bom: true, delimiter: separator }) as string[][]
    expect(records.map((r) => r[0])).toEqual(['id', '4', '3', '2', '1'])
    expect(records[1]![5]).toContain(";'=1+1;")
    const trigger = /^["\s]*[=+\-@\uff1d\uff0b\uff0d\uff20]/u
    for (const other of [',', ';']) {
      const cells = (parse(text, { bom: true, delimiter: other, relax_quotes: true, relax_column_count: true }) as string[][]).flat()
      expect(cells.filter((cell) => trigger.test(cell))).toEqual([])
    }
  })
})

// Last of all: its inquiries are months old and of a name of their own, so that nothing above counts them.
test('--since and --until are whole days in Berlin, and give the rows the console’s "von" and "bis" give', async () => {
  const store = await openStore({ dataDir, databaseUrl: cliStoreEnv.DATABASE_URL })
  const made = new Map<string, number>()
  try {
    // Berlin is an hour ahead in January: 23:00 UTC is midnight there.
    for (const at of ['2026-01-14T22:59:59.999Z', '2026-01-14T23:00:00.000Z', '2026-01-15T22:59:59.999Z', '2026-01-15T23:00:00.000Z']) {
      const saved = await store.saveInquiry(newInquiry({ domain: 'mitternacht.de', createdAt: Date.parse(at) }), { queue: false })
      if (saved.status !== 'created') throw new Error(`not saved: ${at}`)
      made.set(at, saved.id)
    }
    const cliIds = async (...args: string[]) =>
      JSON.parse((await cli('list', '--domain', 'mitternacht.de', ...args, '--json')).out).map((i: { id: number }) => i.id)
    const consoleIds = async (query: { since?: string; until?: string }) =>
      (await store.consoleInquiries({ ...filterOf({ domain: 'mitternacht.de', ...query }), limit: 50 })).map((i) => i.id)
    const fifteenth = [made.get('2026-01-15T22:59:59.999Z'), made.get('2026-01-14T23:00:00.000Z')]
    expect(await cliIds('--since', '2026-01-15', '--until', '2026-01-15')).toEqual(fifteenth)
    expect(await consoleIds({ since: '2026-01-15', until: '2026-01-15' })).toEqual(fifteenth)
    expect(await cliIds('--until', '2026-01-14')).toEqual([made.get('2026-01-14T22:59:59.999Z')])
    expect(await consoleIds({ until: '2026-01-14' })).toEqual([made.get('2026-01-14T22:59:59.999Z')])
    expect(await cliIds('--since', '2026-01-16')).toEqual([made.get('2026-01-15T23:00:00.000Z')])
    expect(await consoleIds({ since: '2026-01-16' })).toEqual([made.get('2026-01-15T23:00:00.000Z')])
    expect(await cli('list', '--since', '2026-02-30')).toMatchObject({
      code: 2,
      err: expect.stringContaining('--since takes a day as YYYY-MM-DD, not "2026-02-30"'),
    })
  } finally {
    await store.close()
  }
}, 90_000)
