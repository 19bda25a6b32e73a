// Bank statements (CAMT.053) against the real server process, a real SMTP server and the test project's store
// (SQLite or PostgreSQL): `payments import FILE --dry-run` shows and changes nothing; without it the deals paid are
// marked and their buyers mailed; the same file again changes nothing, in the CLI and in the console's "Kontoauszug
// importieren"; a file that is no statement is refused with a reason and nothing applied; what the file says is
// text in the terminal and the console; and the console's routes refuse without a session, from another site,
// without the console header, and over their size limit.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { InboxPage } from '../../src/shared/console-api.ts'
import { CONSOLE_HEADER } from '../../src/shared/console-api.ts'
import type { BankStatementPreview, BankStatementResult } from '../../src/shared/payments-api.ts'
import { runCli } from '../helpers/cli.ts'
import { consoleClient } from '../helpers/console.ts'
import { fetchForm, rawRequest, requestAs, VISITOR } from '../helpers/contact.ts'
import { storeEnv } from '../helpers/postgres.ts'
import { startServerProcess, type ServerProcess } from '../helpers/server.ts'
import { mailSettled, startSmtpSink, type SmtpSink } from '../helpers/smtp.ts'

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/camt')
/** The fixtures name deals of 2026; the deals made here are of this year. */
const YEAR = String(new Date().getUTCFullYear())
const statement = (name: string) => fs.readFileSync(path.join(FIXTURES, name), 'utf8').replace(/(DL[- ]?)2026/gi, `$1${YEAR}`)
const ref = (id: number) => `DL-${YEAR}-${String(id).padStart(4, '0')}`

let server: ServerProcess
let smtp: SmtpSink
let client: ReturnType<typeof consoleClient>
let cookie: string
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'payments-'))
const domainsFile = path.join(dir, 'domains.yaml')
const file = (name: string, text: string) => {
  const where = path.join(dir, name)
  fs.writeFileSync(where, text)
  return where
}

let visitors = 0
async function acceptedDeal(host: string, offer: string) {
  const email = `kaeufer${++visitors}@example.net`
  const { token, hash } = await fetchForm(server.url, host)
  const response = await requestAs(host, `${server.url}/api/contact`, {
    method: 'POST',
    body: { ...VISITOR, themail3h6: email, message: `Anfrage ${visitors}`, offer, token, hash },
  })
  expect(response.status, response.html).toBe(200)
  const inbox = (await (await client.call('/api/inbox', { cookie })).json()) as InboxPage
  const accepted = await client.call(`/api/inquiries/${inbox.items[0]!.id}/accept`, { method: 'POST', body: {}, cookie })
  expect(accepted.status, await accepted.clone().text()).toBe(200)
  return email
}

const buyers: string[] = []
const mailsTo = (email: string) => smtp.messages.filter((m) => m.envelope.to.includes(email))
const cli = async (...args: string[]) => runCli(server.dataDir, { ...(await storeEnv(server.dataDir)), DOMAINS_FILE: domainsFile }, ...args)
const post = (pathName: string, body: unknown, headers: Record<string, string> = {}) => client.call(pathName, { method: 'POST', body, cookie, headers })
const answer = async (response: Response) => ({ status: response.status, body: await response.json() })
const deals = async () =>
  Object.fromEntries(
    ((await (await client.call('/api/deals', { cookie })).json()) as { deals: { reference: string; status: string }[] }).deals.map((deal) => [
      deal.reference,
      deal.status,
    ]),
  )

beforeAll(async () => {
  fs.writeFileSync(
    domainsFile,
    `default:
  payment:
    bank: { holder: Jürgen Müller, iban: DE89 3704 0044 0532 0130 00 }
domains:
  beispiel.de: { minOffer: 100 }
  zweite.de: { minOffer: 100 }
  dritte.de: { minOffer: 100 }
  vierte.de: { minOffer: 100 }
  english.com: { language: en, currency: USD, minOffer: 100 }
`,
  )
  smtp = await startSmtpSink()
  server = await startServerProcess({ SMTP_URL: smtp.url, MAIL_TO: 'owner@example.org', DOMAINS_FILE: domainsFile })
  client = consoleClient(server)
  expect((await client.setPassword()).code).toBe(0)
  ;({ cookie } = await client.signIn())
  // Deals 1-5 in this order, as the fixtures name them.
  for (const [host, offer] of [
    ['beispiel.de', '4.900'],
    ['zweite.de', '2.500'],
    ['dritte.de', '700'],
    ['vierte.de', '1.200'],
    ['english.com', '900'],
  ] as const)
    buyers.push(await acceptedDeal(host, offer))
  expect(Object.keys(await deals()).sort()).toEqual([1, 2, 3, 4, 5].map(ref))
})
afterAll(async () => {
  await server?.stop()
  server?.cleanup()
  await smtp?.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

describe('in order', () => {
  test('payments import --dry-run shows every class, prints the file’s text as text, and changes nothing', async () => {
    for (const buyer of buyers) await expect.poll(() => mailsTo(buyer).length).toBe(1)
    const run = await cli('payments', 'import', file('sparkasse.xml', statement('sparkasse-053-02.xml')), '--dry-run')
    expect(run.code, run.err).toBe(0)
    expect(run.out).toContain(
      'camt.053.001.02: 3 statement(s); 3 matched, 1 partly paid, 0 overpaid, 4 unmatched, 0 already applied, 0 returns (2 debits and unbooked entries left out)',
    )
    expect(run.out).toMatch(new RegExp(`partly paid +2026-11-03 +€1,000 +2 ${ref(2)} +Max Beispiel GmbH`))
    expect(run.out).toMatch(/unmatched +2026-11-04 +\$4,900 +1 DL-\d{4}-0001 .*another currency than the deal/)
    expect(run.out).toContain(`2     ${ref(2)}  zweite.de`)
    expect(run.out).toContain('would be marked paid')
    expect(run.out).toContain('Dry run: nothing recorded, no deal marked paid.')
    // A C1 control (CSI) and a bidi override from the file: escaped, not sent to the terminal.
    expect(run.out).toContain('<script>alert(1)</script> Studio')
    expect(run.out).toContain('Webdesign ]0;pwned \\x9b2J')
    expect(run.out).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u0080-\u009f\u202e]/)
    const json = await cli('payments', 'import', path.join(dir, 'sparkasse.xml'), '--dry-run', '--json')
    expect(json.out).toContain('Webdesign ]0;pwned \\u009b2J \\u202egnuhcer')
    expect(json.out).not.toMatch(/[\u0080-\u009f\u202e]/)
    expect(await deals()).toEqual(Object.fromEntries([1, 2, 3, 4, 5].map((id) => [ref(id), 'awaiting_payment'])))
  })

  test('payments import marks the deals paid and mails their buyers; the same file again changes nothing', async () => {
    const where = file('sparkasse.xml', statement('sparkasse-053-02.xml'))
    const run = await cli('payments', 'import', where)
    expect(run.code, run.err).toBe(0)
    expect(run.out).toContain(`4 booking(s) recorded; 3 deal(s) marked paid (${ref(1)}, ${ref(2)}, ${ref(4)})`)
    expect(await deals()).toMatchObject({ [ref(1)]: 'paid', [ref(2)]: 'paid', [ref(3)]: 'awaiting_payment', [ref(4)]: 'paid', [ref(5)]: 'awaiting_payment' })
    for (const i of [0, 1, 3]) {
      await expect.poll(() => mailsTo(buyers[i]!).length).toBe(2)
      expect(mailsTo(buyers[i]!)[1]!.parsed.text).toContain(`(Kaufnummer ${ref(i + 1)}) ist eingegangen`)
    }
    const again = await cli('payments', 'import', where, '--json')
    expect(again.code, again.err).toBe(0)
    expect(JSON.parse(again.out)).toMatchObject({ recorded: 0, paid: [], counts: { applied: 4, matched: 0, partial: 0 } })
    // A mail the second import had queued would be in the outbox already: sent and kept once this holds.
    await mailSettled(smtp, server.dataDir)
    expect(buyers.map((buyer) => mailsTo(buyer).length)).toEqual([2, 2, 1, 2, 1])
  })

  test('the console page "Kontoauszug importieren": the preview shows the return against a paid deal, "Übernehmen" applies, once', async () => {
    const page = await client.call('/kontoauszug', { cookie })
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('Kontoauszug importieren')
    const text = statement('volksbank-053-08-return.xml')
    const preview = await answer(await post('/api/payments/preview', { text }))
    expect(preview.status).toBe(200)
    // The console sends the file's bytes; the same answer as for the text in JSON.
    expect(await answer(await post('/api/payments/preview', Buffer.from(text)))).toEqual(preview)
    const report = preview.body as BankStatementPreview
    expect(report.items.map((item) => [item.class, item.reference, item.reason ?? null])).toEqual([
      ['overpaid', ref(3), null],
      ['return', ref(4), 'returned-after-payment'],
      ['return', null, null],
    ])
    expect(report.deals.find((deal) => deal.reference === ref(4))).toMatchObject({
      status: 'paid',
      receivedBefore: 120_000,
      receivedAfter: 0,
      marksPaid: false,
    })
    expect(await deals()).toMatchObject({ [ref(3)]: 'awaiting_payment' })
    const dryRun = await cli('payments', 'import', file('volksbank.xml', text), '--dry-run')
    expect(dryRun.out).toMatch(new RegExp(`4 +${ref(4)} +vierte\\.de +€1,200 +€0 +paid +WARNING: payment returned, but the deal counts as paid: check it`))
    expect(dryRun.out).toMatch(/return +2026-11-10 +-€1,200 .*payment returned: the deal counted as \(partly\) paid/)
    const applied = await answer(await post('/api/payments/apply', { text }))
    expect(applied.status).toBe(200)
    expect(applied.body as BankStatementResult).toMatchObject({ applied: true, recorded: 2, paid: [{ dealId: 3, reference: ref(3) }] })
    expect(await deals()).toMatchObject({ [ref(3)]: 'paid', [ref(4)]: 'paid' })
    await expect.poll(() => mailsTo(buyers[2]!).length).toBe(2)
    expect(server.output.filter((line) => line.includes('bank statement applied in the console'))).toEqual([expect.stringContaining('"paid":[3]')])
    // No name or remittance text in the log.
    expect(server.output.join('\n')).not.toMatch(/Petra Neumann|RUECKUEBERWEISUNG/)
    const again = await answer(await post('/api/payments/apply', Buffer.from(text)))
    expect(again.body as BankStatementResult).toMatchObject({ recorded: 0, paid: [], counts: { applied: 2 } })
  })

  test('a batch of two dollar payments in the console completes the deal in dollars; the buyer is mailed in English', async () => {
    const applied = await answer(await post('/api/payments/apply', { text: statement('usd-053-04-batch.xml') }))
    expect(applied.body as BankStatementResult).toMatchObject({ paid: [{ dealId: 5 }] })
    await expect.poll(() => mailsTo(buyers[4]!).length).toBe(2)
    expect(mailsTo(buyers[4]!)[1]!.parsed.text).toContain('your payment of $900 for english.com')
  })
})

describe('files that are no statement: a reason, exit code 1 or 422, nothing applied', () => {
  const cases: [string, string | Buffer, RegExp][] = [
    ['empty', '', /the file is empty/],
    ['truncated', statement('sparkasse-053-02.xml').slice(0, 3000), /not well-formed XML \(line \d+\)/],
    ['wrong namespace', statement('sparkasse-053-02.xml').replace('camt.053.001.02"', 'camt.054.001.02"'), /no CAMT\.053 statement/],
    ['billion laughs', '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]><Document>&b;</Document>', /DOCTYPE/],
    [
      'huge amount',
      statement('sparkasse-053-02.xml').replace('4900.00', '99999999999999999.99'),
      /an amount is invalid: .*"99999999999999999\.99" is not a decimal/,
    ],
    ['binary', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46]), /not UTF-8/],
  ]
  test.each(cases)('%s: in the CLI', async (_name, content, message) => {
    const run = await cli('payments', 'import', file('bad.xml', content as string))
    expect(run.code).toBe(1)
    expect(run.err).toMatch(message)
    expect(run.err).toContain('nothing was applied')
  })

  test('and in the console, as German sentences', async () => {
    const truncated = await answer(await post('/api/payments/apply', { text: statement('sparkasse-053-02.xml').slice(0, 3000) }))
    expect(truncated.status).toBe(422)
    expect(truncated.body.error).toMatch(/^Die Datei ist kein gültiges XML \(Zeile \d+\): .* Es wurde nichts übernommen\.$/)
    expect(await answer(await post('/api/payments/preview', { text: '' }))).toEqual({
      status: 422,
      body: { error: 'Die Datei ist leer. Es wurde nichts übernommen.' },
    })
  })

  test('a file that is not there, and a command that is not there, are usage errors', async () => {
    expect((await cli('payments', 'import', path.join(dir, 'missing.xml'))).err).toContain('cannot be read: ENOENT')
    expect((await cli('payments', 'export')).code).toBe(2)
    expect((await cli('payments', 'import')).err).toContain('payments import needs one FILE')
  })
})

describe('attacks on the console routes', () => {
  const body = { text: statement('usd-053-04-batch.xml') }

  test('without a session, the page and every route are refused', async () => {
    expect((await client.call('/kontoauszug')).status).toBe(303)
    for (const pathName of ['/api/payments/preview', '/api/payments/apply']) {
      expect(await answer(await client.call(pathName, { method: 'POST', body }))).toEqual({ status: 401, body: { error: 'Bitte anmelden.' } })
    }
  })

  test('from another site, or without the console header, nothing is applied', async () => {
    const refused = { status: 403, body: { error: 'Anfragen von anderen Websites werden nicht angenommen.' } }
    for (const headers of [{ origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site' }] as Record<string, string>[]) {
      expect(await answer(await post('/api/payments/apply', body, headers))).toEqual(refused)
    }
    const withoutHeader = await fetch(`${client.admin}/api/payments/apply`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: client.admin, cookie },
      body: JSON.stringify(body),
    })
    expect(await answer(withoutHeader)).toEqual(refused)
  })

  test('a file over 5 MB is refused with its limit, as text or as bytes; a body over twice that before it is read', async () => {
    const big = `${statement('usd-053-04-batch.xml')}<!--${'x'.repeat(5 * 1024 * 1024)}-->`
    const tooLarge = { status: 413, body: { error: 'Die Datei ist größer als 5 MB. Bitte einen kürzeren Zeitraum exportieren.' } }
    expect(await answer(await post('/api/payments/preview', { text: big }))).toEqual(tooLarge)
    expect(await answer(await post('/api/payments/preview', Buffer.from(big)))).toEqual(tooLarge)
    const port = new URL(client.admin).port
    for (const type of ['application/json', 'application/xml']) {
      const huge = await rawRequest(
        Number(port),
        `POST /api/payments/apply HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: ${client.admin}\r\n${CONSOLE_HEADER}: 1\r\nCookie: ${cookie}\r\nContent-Type: ${type}\r\nContent-Length: ${11 * 1024 * 1024}`,
      )
      expect([huge.status, JSON.parse(huge.body)]).toEqual([413, { error: 'Die Anfrage ist zu groß.' }])
    }
  })

  test('a malformed request is a 400 with the one error shape', async () => {
    for (const bad of [{}, { text: 1 }, { file: 'x' }]) {
      expect(await answer(await post('/api/payments/preview', bad))).toEqual({ status: 400, body: { error: 'Bitte eine CAMT.053-Datei (XML) wählen.' } })
    }
  })
})
