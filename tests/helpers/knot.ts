// A real authoritative DNS server for the tests of RFC 2136 updates: Debian's Knot DNS (knotd), started from a
// temporary directory on a free loopback port with the zones and TSIG key the test gives it. Updates need the key;
// zone transfers (AXFR, read with kdig) are open on loopback, so a test can see the whole zone after an update.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { freePort } from '../../scripts/server-lib.ts'
import { whenLogSays } from './process-log.ts'

const KNOTD = process.env.KNOTD_PATH ?? '/usr/sbin/knotd'
const KDIG = process.env.KDIG_PATH ?? '/usr/bin/kdig'

export interface KnotServer {
  host: string
  port: number
  keyName: string
  /** The key's secret, base64 (as DNS_UPDATE_KEY_SECRET takes it). */
  secret: string
  /** Stops the server (the zones stay in its directory). */
  stop(): Promise<void>
  /** Starts it again on the same port with what it had. */
  start(): Promise<void>
  /** The zone's records as kdig prints an AXFR (one line each, SOA left out: its serial moves with every update). */
  zone(zone: string): string[]
  /** The TXT strings at a name (each record's strings joined), sorted. */
  txt(name: string): string[]
  close(): Promise<void>
}

export interface KnotOptions {
  /** Zone name -> zone-file text (without the SOA, which is added). */
  zones: Record<string, string>
  keyName?: string
  /**
   * Scopes the key as docs/dns.md advises: TXT only, at exactly these owners (relative to each zone, e.g.
   * `_for-sale`, `_for-sale.shop`). Unset: the key may update anything in its zones.
   */
  updateOwners?: string[]
}

function kdig(port: number, args: string[]): string {
  const run = spawnSync(KDIG, ['@127.0.0.1', '-p', String(port), '+tcp', ...args], { encoding: 'utf8', timeout: 10_000 })
  if (run.status !== 0) throw new Error(`kdig failed: ${run.stderr || run.stdout}`)
  return run.stdout
}

/**
 * Waits until knotd says it serves. Its own line, not an open port: a port taken by another process between
 * freePort() and knotd's bind would answer a connect, while knotd stops with "address already in use". Looked at
 * whenever knotd writes to its log or ends (after 'close', its last words are in the log).
 */
function waitForStart(child: ChildProcess, log: () => string): Promise<'started' | 'port taken'> {
  return whenLogSays(
    child,
    log,
    (text, ended) => (text.includes('server started') ? 'started' : ended && text.includes('address already in use') ? 'port taken' : undefined),
    // A deadline that bounds the wait for knotd's line (a knotd that hangs): it never decides when knotd has started.
    { ms: 15_000, message: 'knotd did not start' },
  )
}

export async function startKnot(options: KnotOptions): Promise<KnotServer> {
  if (!fs.existsSync(KNOTD)) throw new Error('Knot DNS is not installed: apt-get install -y knot knot-dnsutils (the DNS update tests need it)')
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'domain-lander-knot-'))
  let port = await freePort()
  const keyName = options.keyName ?? 'lander-key.'
  const secret = randomBytes(32).toString('base64')
  for (const [zone, body] of Object.entries(options.zones)) {
    const soa = `$ORIGIN ${zone}.\n$TTL 3600\n@ SOA ns.${zone}. hostmaster.${zone}. 1 3600 900 604800 300\n@ NS ns.${zone}.\nns A 127.0.0.1\n`
    fs.writeFileSync(path.join(dir, `${zone}.zone`), soa + body)
  }
  const config = () => `server:
  listen: 127.0.0.1@${port}
  rundir: "${dir}"
  background-workers: 1
  udp-workers: 1
  tcp-workers: 1
log:
  - target: stderr
    any: info
database:
  storage: "${dir}"
key:
  - id: ${keyName}
    algorithm: hmac-sha256
    secret: ${secret}
acl:
  - id: update
    key: ${keyName}
    action: update
${options.updateOwners ? `    update-type: [TXT]\n    update-owner: name\n    update-owner-match: equal\n    update-owner-name: [${options.updateOwners.join(', ')}]\n` : ''}  - id: transfer
    address: 127.0.0.1
    action: transfer
template:
  - id: default
    storage: "${dir}"
    file: "%s.zone"
    zonefile-sync: 0
    acl: [update, transfer]
zone:
${Object.keys(options.zones)
  .map((zone) => `  - domain: ${zone}`)
  .join('\n')}
`
  const configFile = path.join(dir, 'knot.conf')
  let child: ChildProcess | undefined
  let log = ''
  const launch = async () => {
    log = ''
    fs.writeFileSync(configFile, config())
    child = spawn(KNOTD, ['-c', configFile], { stdio: ['ignore', 'ignore', 'pipe'] })
    child.stderr!.on('data', (chunk) => (log += chunk))
    return waitForStart(child, () => log)
  }
  // A restart keeps its port (the tests' settings name it); only the first start may move to another.
  const start = async () => {
    if ((await launch()) === 'port taken') throw new Error(`knotd could not bind its port ${port} again:\n${log}`)
  }
  const stop = async () => {
    const running = child
    if (!running || running.exitCode !== null || running.signalCode !== null) return
    const exited = new Promise((resolve) => running.once('exit', resolve))
    running.kill('SIGTERM')
    // A deadline that bounds the wait for its exit: past it, SIGKILL.
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))])
    if (running.exitCode === null && running.signalCode === null) running.kill('SIGKILL')
  }
  for (let attempt = 1; (await launch()) === 'port taken'; attempt++) {
    if (attempt === 10) throw new Error(`knotd found no free port:\n${log}`)
    port = await freePort()
  }
  return {
    host: '127.0.0.1',
    port,
    keyName,
    secret,
    stop,
    start,
    zone: (zone) =>
      kdig(port, [zone, 'AXFR', '+nocomments', '+nostats', '+noheader'])
        .split('\n')
        .filter((line) => line.trim() && !/\sSOA\s/.test(line))
        .map((line) => line.replace(/\s+/g, ' ').trim())
        .sort(),
    txt: (name) => kdig(port, [name, 'TXT', '+short']).split('\n').filter(Boolean).sort(),
    async close() {
      await stop()
      fs.rmSync(dir, { recursive: true, force: true })
    },
  }
}
