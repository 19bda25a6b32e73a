// The owner's CLI on a real store: inquiries made through the running server, read back by the command.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startApp, tempDataDir, type TestApp } from '../helpers/app.ts'
import { VISITOR, fetchForm, requestAs } from '../helpers/contact.ts'
import { storeEnv } from '../helpers/postgres.ts'
import { startSmtpSink, type SmtpSink } from '../helpers/smtp.ts'

const ROOT = path.resolve(import.meta.dirname, '../..')
let app: TestApp
let smtp: SmtpSink
let dataDir: string
let cliStoreEnv: Record<string, string> = {}

/** Runs `domain-lander ...args` as a user would, against the test's DATA_DIR. */
function cli(...args: string[]) {
  const run = spawnSync(process.execPath, [path.join(ROOT, 'bin/domain-lander.mjs'), ...args], {
    env: { PATH: process.env.PATH, DATA_DIR: dataDir, ...cliStoreEnv },
    encoding: 'utf8',
  })
  return { code: run.status, out: run.stdout, err: run.stderr }
}

async function inquire(host: string, fields: Record<string, string>) {
  const { token, hash } = await fetchForm(app.url, host)
  const response = await requestAs(host, `${app.url}/api/contact`, { method: 'POST', body: { ...VISITOR, token, hash, ...fields } })
  expect(response.status).toBe(200)
}

beforeAll(async () => {
  dataDir = tempDataDir()
  cliStoreEnv = await storeEnv(dataDir)
  smtp = await startSmtpSink()
  app = await startApp({ DATA_DIR: dataDir, SMTP_URL: smtp.url })
  await inquire('example.de', { name58fnlsd: 'Erika', message: 'Erste Anfrage' })
  await inquire('xn--mnchen-3ya.de', { name58fnlsd: 'Max', themail3h6: 'max@example.de', message: '=HYPERLINK("http://evil")' })
  await inquire('example.de', { name58fnlsdbee: 'Bot', message: 'Spam, spam, spam' })
  await smtp.waitFor(2)
  // The page views are counted in memory; closing the app writes them.
  await app.close()
  app = await startApp({ DATA_DIR: dataDir, SMTP_URL: smtp.url })
})
afterAll(async () => {
  await app.close()
  await smtp.close()
  fs.rmSync(dataDir, { recursive: true, force: true })
})

describe('list and show', () => {
  test('list shows every inquiry, newest first, with the domain in Unicode and its kind', () => {
    const { code, out } = cli('list')
    expect(code).toBe(0)
    const lines = out.trim().split('\n')
    expect(lines[0]).toMatch(/^ID\s+Time\s+Domain\s+Name\s+E-Mail\s+Kind\s+Mail\s+Message$/)
    expect(lines.slice(2).map((line) => line.split(/\s{2,}/)[0])).toEqual(['3', '2', '1'])
    expect(out).toContain('münchen.de')
    expect(out).toContain('spam (decoy-filled)')
  })

  test('list filters by domain (Unicode or punycode), by spam and by day, and --json gives the whole record', () => {
    const byDomain = JSON.parse(cli('list', '--domain', 'münchen.de', '--json').out)
    expect(byDomain).toEqual([expect.objectContaining({ id: 2, domain: 'münchen.de', name: 'Max', email: 'max@example.de', spam: null, mail: 'sent' })])
    expect(JSON.parse(cli('list', '--spam', '--json').out).map((i: { id: number }) => i.id)).toEqual([3])
    expect(JSON.parse(cli('list', '--genuine', '--json').out).map((i: { id: number }) => i.id)).toEqual([2, 1])
    expect(JSON.parse(cli('list', '--until', '2000-01-01', '--json').out)).toEqual([])
    const today = new Date().toISOString().slice(0, 10)
    expect(JSON.parse(cli('list', '--since', today, '--json').out)).toHaveLength(3)
  })

  test('show prints one inquiry with its message', () => {
    const { code, out } = cli('show', '1')
    expect(code).toBe(0)
    expect(out).toMatch(/Name:\s+Erika/)
    expect(out).toContain('Erste Anfrage')
  })

  test('mistakes get exit code 2 and a message that says what is wrong', () => {
    expect(cli('show', '99')).toMatchObject({ code: 2, err: expect.stringContaining('there is no inquiry 99') })
    expect(cli('list', '--since', 'gestern')).toMatchObject({ code: 2, err: expect.stringContaining('--since takes a day as YYYY-MM-DD') })
    expect(cli('frobnicate')).toMatchObject({ code: 2, err: expect.stringContaining('unknown command "frobnicate"') })
    expect(cli('list', '--colour')).toMatchObject({ code: 2, err: expect.stringContaining("Unknown option '--colour'") })
    const missing = spawnSync(process.execPath, [path.join(ROOT, 'bin/domain-lander.mjs'), 'list'], {
      env: { PATH: process.env.PATH, DATA_DIR: path.join(dataDir, 'nowhere') },
      encoding: 'utf8',
    })
    expect(missing.status).toBe(2)
    expect(missing.stderr).toContain('no store at')
  })
})

describe('export', () => {
  test('CSV has a header, quotes what needs quoting, and defuses formulas', () => {
    const { out } = cli('export', '--format', 'csv', '--genuine')
    const lines = out.trim().split('\r\n')
    expect(lines[0]).toBe('id,time,domain,name,email,message,offer,belowMinimum,spam,mail')
    expect(lines[1]).toContain(`"'=HYPERLINK(""http://evil"")"`)
    expect(lines[2]).toContain(',Erste Anfrage,')
  })

  test('JSON export into a file readable only by the owner', () => {
    const file = path.join(dataDir, 'export.json')
    expect(cli('export', '--format', 'json', '--out', file).out).toContain('3 inquiries written')
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toHaveLength(3)
    expect(fs.statSync(file).mode & 0o777).toBe(0o600)
  })
})

describe('outbox, resend and retry', () => {
  test('resend queues a mail again and the running server sends it, with a new Message-ID', async () => {
    const before = smtp.messages.length
    expect(cli('resend', '1')).toMatchObject({ code: 0, out: expect.stringContaining('Inquiry 1 is queued') })
    const mails = await smtp.waitFor(before + 1, 20_000)
    expect(mails.at(-1)!.parsed.messageId).toMatch(/^<inquiry-1-[A-Za-z0-9]{15}-resend1@example\.de>$/)
    expect(mails.at(-1)!.parsed.text).toContain('Erste Anfrage')
  })

  test('resend can send a spam-trapped inquiry to the owner after all, and to another address', async () => {
    const before = smtp.messages.length
    expect(cli('resend', '3', '--to', 'pruefung@example.org').code).toBe(0)
    const mails = await smtp.waitFor(before + 1, 20_000)
    expect(mails.at(-1)!.envelope.to).toEqual(['pruefung@example.org'])
  })

  test('outbox lists mail by status, and retry queues failed mail again', async () => {
    smtp.mode = 'permfail'
    expect(cli('resend', '2').code).toBe(0)
    await expect.poll(() => JSON.parse(cli('outbox', '--status', 'failed', '--json').out).length, { timeout: 20_000 }).toBe(1)
    const table = cli('outbox', '--status', 'failed').out
    expect(table).toMatch(/^Inquiry\s+Domain\s+Status\s+Attempts/)
    expect(table).toContain('550')
    smtp.mode = 'ok'
    const before = smtp.messages.length
    expect(cli('retry').out).toContain('1 failed mails queued again.')
    await smtp.waitFor(before + 1, 20_000)
    await expect.poll(() => cli('outbox', '--status', 'failed').out.trim()).toBe('No failed mail.')
  })
})

test('stats counts page views and inquiries per domain and day', () => {
  const rows = JSON.parse(cli('stats', '--json').out)
  const today = new Date().toISOString().slice(0, 10)
  expect(rows).toEqual([
    { domain: 'example.de', day: today, views: 2, inquiries: 1, spam: 1 },
    { domain: 'münchen.de', day: today, views: 1, inquiries: 1, spam: 0 },
  ])
  expect(cli('stats', '--domain', 'example.de').out).toMatch(/example\.de\s+2\s+1\s+1/)
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
