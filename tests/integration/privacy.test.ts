// GDPR and the weekly digest: `forget` and `access` on the CLI, the console's Datenschutz routes (and their guards),
// retention at start-up with the real server process (its log is part of the subject), and the digest arriving once
// at a real SMTP server when two apps on one store run their jobs at a Monday 08:00 the test holds.
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { nextRunAt } from '../../src/server/scheduler/scheduler.ts'
import { openStore } from '../../src/server/store/index.ts'
import { buildTestApp, tempDataDir, type InProcessApp } from '../helpers/app.ts'
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
    // The process's outbox writes them: wait for the three files, not for a time.
    const mailDir = path.join(server.dataDir, 'mail')
    const written = () => (fs.existsSync(mailDir) ? fs.readdirSync(mailDir).filter((name) => name.endsWith('.eml')).length : 0)
    // vi.waitFor: expect.poll is for tests, not hooks.
    await vi.waitFor(() => expect(written()).toBe(3), { timeout: 15_000, interval: 50 })
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

// In process: what is asked of the app and the CLI is the subject, not the server's process.
describe('access and erasure find every spelling of an address', () => {
  let server: InProcessApp
  const cli = async (...args: string[]) => runCli(server.dataDir, await storeEnv(server.dataDir), ...args)
  const messagesIn = (report: { inquiries: { message: string }[] }) => report.inquiries.map((inquiry) => inquiry.message).sort()

  beforeAll(async () => {
    server = await buildTestApp()
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
      const response = await submitInquiry(server.url, { name58fnlsd: 'Wanda Wortreich', themail3h6: email, message }, {}, server.fetch)
      expect(response.status, email).toBe(200)
    }
  })
  afterAll(async () => {
    await server?.close()
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
    // The next Monday 08:00 in Berlin, a clock the test holds: the digest reports on the seven days before.
    const monday = nextRunAt({ weekly: { weekday: 1, hour: 8 } }, Date.now())
    const dataDir = tempDataDir()
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
    // Two apps on one store, as two workers are (the second, as a cluster's worker, leaves the first's leases alone).
    // Neither is asked anything, so their own timers never start: only runDue moves their jobs, and a Monday by the
    // real clock sends no digest of its own.
    const env = { DATA_DIR: dataDir, SMTP_URL: smtp.url, DIGEST: 'weekly', ADMIN_PORT: 'off' }
    const workers: InProcessApp[] = []
    try {
      workers.push(await buildTestApp(env), await buildTestApp(env, { clusterWorker: true }))
      // Both look at the same time; the store gives the run to one.
      const runs = (await Promise.all(workers.map(({ app }) => app.jobs.runDue(monday)))).flat().filter((run) => run.job === 'digest')
      expect(runs.map((run) => run.result).sort()).toEqual(['claimed', 'done'])
      await Promise.all(workers.map(({ app }) => app.outbox.drain()))
      // The digest was sent within its run: what the SMTP server holds now is all it gets.
      const digests = smtp.messages.filter((mail) => /^Wochenbericht/.test(mail.parsed.subject ?? ''))
      expect(digests).toHaveLength(1)
      const [mail] = digests
      expect(mail!.envelope.to).toEqual(['owner@example.org'])
      expect(mail!.parsed.text).toContain('Zusammen:')
      expect(mail!.parsed.text).toContain('1. example.de: 1 Anfrage, 0 Seitenaufrufe')
      expect(mail!.parsed.html).toBe(false)
      // Asked again within the week, neither runs it again.
      const again = (await Promise.all(workers.map(({ app }) => app.jobs.runDue(monday + 60_000)))).flat().filter((run) => run.job === 'digest')
      expect(again.map((run) => run.result)).toEqual(['claimed', 'claimed'])
      expect(smtp.messages.filter((each) => /^Wochenbericht/.test(each.parsed.subject ?? ''))).toHaveLength(1)
    } finally {
      for (const worker of workers) await worker.close()
      fs.rmSync(dataDir, { recursive: true, force: true })
      await smtp.close()
    }
  })
})
