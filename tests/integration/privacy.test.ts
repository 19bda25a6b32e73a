// GDPR and the weekly digest with the real server process: `forget` and `access` on the CLI, the console's
// Datenschutz routes (and their guards), retention at start-up, and the digest arriving at a real SMTP server when
// the jobs' clock says Monday 08:00.
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { nextRunAt } from '../../src/server/scheduler/scheduler.ts'
import { openStore } from '../../src/server/store/index.ts'
import { runCli } from '../helpers/cli.ts'
import { consoleClient } from '../helpers/console.ts'
import { submitInquiry } from '../helpers/contact.ts'
import { leftoversOf } from '../helpers/leftovers.ts'
import { databaseUrlFor, storeEnv } from '../helpers/postgres.ts'
import { startServerProcess, type ServerProcess } from '../helpers/server.ts'
import { startSmtpSink, type SmtpSink } from '../helpers/smtp.ts'

const DAY = 86_400_000

describe('forget and access (CLI) and the console page', () => {
  let server: ServerProcess
  const ids: number[] = []
  const cli = async (...args: string[]) => runCli(server.dataDir, await storeEnv(server.dataDir), ...args)

  beforeAll(async () => {
    // No SMTP_URL: the mail goes to .eml files in DATA_DIR, which an erasure must remove too.
    server = await startServerProcess()
    for (const [name, email, message] of [
      ['Erika Quendelmoos', 'Erika.Quendel@example.org', 'Ich biete für Quendelhof \u001b]52;c;aGk=\u0007'],
      ['Erika Quendelmoos', 'erika.quendel@EXAMPLE.org', 'Zweite Quendelfrage'],
      ['Max Muster', 'max@example.org', 'Bleibt'],
    ]) {
      const response = await submitInquiry(server.url, { name58fnlsd: name, themail3h6: email, message })
      expect(response.status).toBe(200)
      ids.push(((await response.json()) as { id?: number }).id ?? ids.length + 1)
    }
    const mailDir = path.join(server.dataDir, 'mail')
    const deadline = Date.now() + 15_000
    while (!(fs.existsSync(mailDir) && fs.readdirSync(mailDir).filter((name) => name.endsWith('.eml')).length === 3)) {
      if (Date.now() > deadline) throw new Error('the three mails were not written')
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  })
  afterAll(async () => {
    await server?.stop()
    server?.cleanup()
  })

  test('access prints everything stored about the address as JSON, control characters escaped', async () => {
    const { code, out } = await cli('access', '--email', 'ERIKA.QUENDEL@example.org')
    expect(code).toBe(0)
    expect(out).not.toContain('\u001b')
    const report = JSON.parse(out)
    expect(report.inquiries.map((inquiry: { message: string }) => inquiry.message)).toEqual([
      'Ich biete für Quendelhof \u001b]52;c;aGk=\u0007',
      'Zweite Quendelfrage',
    ])
    expect(report.inquiries[0].mails).toEqual([expect.objectContaining({ kind: 'inquiry', status: 'sent', to: 'MAIL_TO' })])
    expect(await cli('access', '--email', 'kein-at-zeichen')).toMatchObject({ code: 2, err: expect.stringContaining('is not an e-mail address') })
    expect(await cli('forget')).toMatchObject({ code: 2, err: expect.stringContaining('forget needs --email ADDRESS') })
  })

  test('the console page needs a session, and erasing needs the same origin and the console header', async () => {
    const client = consoleClient(server)
    expect((await client.setPassword()).code).toBe(0)
    expect((await client.call('/datenschutz')).status).toBe(303)
    expect((await client.call('/api/privacy/access', { method: 'POST', body: { email: 'max@example.org' } })).status).toBe(401)
    const { cookie } = await client.signIn()
    const page = await client.call('/datenschutz', { cookie })
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('Datenschutz')
    const crossSite = await client.call('/api/privacy/erase', {
      method: 'POST',
      cookie,
      body: { email: 'max@example.org' },
      headers: { origin: 'https://evil.example' },
    })
    expect(crossSite.status).toBe(403)
    const noHeader = await fetch(`${client.admin}/api/privacy/erase`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', origin: client.admin },
      body: JSON.stringify({ email: 'max@example.org' }),
    })
    expect(noHeader.status).toBe(403)
    const bad = await client.call('/api/privacy/access', { method: 'POST', cookie, body: { email: 'nope' } })
    expect(bad.status).toBe(400)
    expect(await bad.json()).toEqual({ error: 'Bitte eine E-Mail-Adresse eingeben.' })
    const access = await client.call('/api/privacy/access', { method: 'POST', cookie, body: { email: 'MAX@example.org' } })
    expect((await access.json()).inquiries).toHaveLength(1)
  })

  test('forget erases every inquiry of the address with its mail files and leaves nothing in any table', async () => {
    const { code, out } = await cli('forget', '--email', 'erika.quendel@example.org')
    expect(code).toBe(0)
    expect(out).toContain('Erased everything about erika.quendel@example.org:')
    expect(out).toContain(`2 inquiries (${ids[0]}, ${ids[1]})`)
    expect(out).toContain('2 .eml files')
    expect(
      await leftoversOf(server.dataDir, {
        texts: ['erika.quendel@example.org', 'Quendelmoos', 'Quendelhof', 'Quendelfrage'],
        inquiryIds: ids.slice(0, 2),
        replyIds: [],
      }),
    ).toEqual([])
    expect(fs.readdirSync(path.join(server.dataDir, 'mail')).filter((name) => name.endsWith('.eml'))).toEqual([`inquiry-${ids[2]}.eml`])
    expect(JSON.parse((await cli('forget', '--email', 'erika.quendel@example.org', '--json')).out)).toMatchObject({ inquiries: [], outboxRows: 0 })
  })

  test('the console erases too, and says what it removed', async () => {
    const client = consoleClient(server)
    const { cookie } = await client.signIn()
    const erase = await client.call('/api/privacy/erase', { method: 'POST', cookie, body: { email: 'max@example.org' } })
    expect(erase.status).toBe(200)
    expect(await erase.json()).toMatchObject({ inquiries: [{ id: ids[2] }], mailFiles: 1, outboxRows: 1 })
    expect(await leftoversOf(server.dataDir, { texts: ['max@example.org', 'Max Muster'], inquiryIds: [ids[2]!], replyIds: [] })).toEqual([])
    expect(server.output.join('\n')).not.toContain('max@example.org')
  })
})

describe('access and erasure find every spelling of an address', () => {
  let server: ServerProcess
  const cli = async (...args: string[]) => runCli(server.dataDir, await storeEnv(server.dataDir), ...args)
  const messagesIn = (report: { inquiries: { message: string }[] }) => report.inquiries.map((inquiry) => inquiry.message).sort()

  beforeAll(async () => {
    server = await startServerProcess()
    for (const [email, message] of [
      ['Wanda@BÜCHER.example', 'Xylofon1'],
      ['wanda@xn--bcher-kva.example', 'Xylofon2'],
      ['wanda@ｂüｃｈｅｒ．ｅｘａｍｐｌｅ', 'Xylofon3'],
      // Not the same mailbox everywhere: a +tag or a dot elsewhere than at Gmail may be another person's.
      ['wanda+shop@bücher.example', 'Andersfon1'],
      ['wan.da@bücher.example', 'Andersfon2'],
      ['W.a.n.d.a+shop@googlemail.com', 'Mailfon1'],
      ['wanda@ｇｍａｉｌ.com', 'Mailfon2'],
    ]) {
      const response = await submitInquiry(server.url, { name58fnlsd: 'Wanda Wortreich', themail3h6: email, message })
      expect(response.status, email).toBe(200)
    }
  })
  afterAll(async () => {
    await server?.stop()
    server?.cleanup()
  })

  test('access on the CLI and in the console finds the inquiries stored under full-width, Unicode and punycode spellings', async () => {
    const runs = await Promise.all(
      ['wanda@bücher.example', 'WANDA@xn--bcher-kva.example', 'wanda@ｂüｃｈｅｒ.example'].map((email) => cli('access', '--email', email)),
    )
    for (const { code, out, err } of runs) {
      expect(code, err).toBe(0)
      expect(messagesIn(JSON.parse(out))).toEqual(['Xylofon1', 'Xylofon2', 'Xylofon3'])
    }
    const client = consoleClient(server)
    expect((await client.setPassword()).code).toBe(0)
    const { cookie } = await client.signIn()
    const access = await client.call('/api/privacy/access', { method: 'POST', cookie, body: { email: 'wanda@gmail.com' } })
    expect(messagesIn(await access.json())).toEqual(['Mailfon1', 'Mailfon2'])
    // Erased in the console: Gmail's dots, tag and googlemail.com are one mailbox.
    const erase = await client.call('/api/privacy/erase', { method: 'POST', cookie, body: { email: 'wan.da+x@GMAIL.com' } })
    expect((await erase.json()).inquiries).toHaveLength(2)
    expect(await leftoversOf(server.dataDir, { texts: ['Mailfon1', 'Mailfon2'], inquiryIds: [], replyIds: [] })).toEqual([])
  }, 60_000)

  test('forget erases every spelling of the mailbox, and only that mailbox', async () => {
    const { code, out } = await cli('forget', '--email', 'WANDA@BÜCHER.EXAMPLE', '--json')
    expect(code).toBe(0)
    expect(JSON.parse(out).inquiries).toHaveLength(3)
    expect(await leftoversOf(server.dataDir, { texts: ['Xylofon1', 'Xylofon2', 'Xylofon3'], inquiryIds: [], replyIds: [] })).toEqual([])
    const [tagged, dotted] = await Promise.all([
      cli('access', '--email', 'wanda+shop@bücher.example'),
      cli('access', '--email', 'wan.da@xn--bcher-kva.example'),
    ])
    expect(messagesIn(JSON.parse(tagged.out))).toEqual(['Andersfon1'])
    expect(messagesIn(JSON.parse(dotted.out))).toEqual(['Andersfon2'])
  }, 60_000)
})

describe('scheduled jobs in the real server', () => {
  test('retention erases old inquiries when the server starts, and logs only how many', async () => {
    const dataDir = fs.mkdtempSync(path.join((await import('node:os')).tmpdir(), 'domain-lander-test-'))
    const store = await openStore({ dataDir, databaseUrl: await databaseUrlFor(dataDir) })
    const base = {
      contentHash: 'h',
      domain: 'example.de',
      name: 'Alt Ottokar',
      message: 'alt',
      language: 'de' as const,
      spamReason: null,
      offer: null,
      belowMinimum: false,
    }
    await store.saveInquiry({ ...base, token: 'retention-old-0000001', email: 'ottokar@example.org', createdAt: Date.now() - 40 * DAY }, { queue: false })
    await store.saveInquiry(
      { ...base, token: 'retention-new-0000001', name: 'Neu Nora', email: 'neu@example.org', createdAt: Date.now() - 2 * DAY },
      { queue: false },
    )
    await store.close()
    const server = await startServerProcess({ DATA_DIR: dataDir, RETENTION_DAYS: '30' })
    try {
      await expect.poll(() => server.output.some((line) => line.includes('retention: erased 1 inquiries older than 30 days'))).toBe(true)
      expect(await leftoversOf(dataDir, { texts: ['ottokar@example.org', 'Ottokar'], inquiryIds: [], replyIds: [] })).toEqual([])
      expect(server.output.join('\n')).not.toContain('ottokar')
    } finally {
      await server.stop()
      fs.rmSync(dataDir, { recursive: true, force: true })
    }
  })

  test('the weekly digest arrives once at the SMTP server when the clock says Monday 08:00, also with two workers', async () => {
    const smtp: SmtpSink = await startSmtpSink()
    // The jobs' clock starts two seconds before the next Monday 08:00 in Berlin (JOBS_CLOCK_START, docs/digest.md):
    // it reports on the seven days before.
    const monday = nextRunAt({ weekly: { weekday: 1, hour: 8 } }, Date.now() + 60_000)
    const dataDir = fs.mkdtempSync(path.join((await import('node:os')).tmpdir(), 'domain-lander-test-'))
    const store = await openStore({ dataDir, databaseUrl: await databaseUrlFor(dataDir) })
    const base = {
      contentHash: 'h',
      domain: 'example.de',
      name: 'Nora',
      email: 'nora@example.org',
      message: 'x',
      language: 'de' as const,
      spamReason: null,
      offer: null,
      belowMinimum: false,
    }
    await store.saveInquiry({ ...base, token: 'digest-inquiry-000001', createdAt: monday - DAY }, { queue: false })
    await store.close()
    const server = await startServerProcess({
      DATA_DIR: dataDir,
      SMTP_URL: smtp.url,
      DIGEST: 'weekly',
      WORKERS: '2',
      JOBS_CLOCK_START: new Date(monday - 2000).toISOString(),
    })
    try {
      const digest = async () => smtp.messages.filter((mail) => /^Wochenbericht/.test(mail.parsed.subject ?? ''))
      await expect.poll(async () => (await digest()).length).toBe(1)
      const [mail] = await digest()
      expect(mail!.envelope.to).toEqual(['owner@example.org'])
      expect(mail!.parsed.text).toContain('Zusammen:')
      expect(mail!.parsed.text).toContain('1. example.de: 1 Anfrage, 0 Seitenaufrufe')
      expect(mail!.parsed.html).toBe(false)
      // Both workers looked: a second digest would have come within the scheduler's next look at the clock.
      await expect.poll(() => server.output.filter((line) => line.includes('job digest done')).length).toBe(1)
      expect((await digest()).length).toBe(1)
    } finally {
      await server.stop()
      fs.rmSync(dataDir, { recursive: true, force: true })
      await smtp.close()
    }
  })
})
