// The files in deploy/: what can be checked without Docker or systemd running here.
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { expect, test } from 'vitest'
import { parse as parseYaml } from 'yaml'
import { SERVER_ENV, SERVER_NODE_FLAGS } from '../../scripts/server-lib.ts'
import { readDomainsFile } from '../../src/server/sites/domains-file.ts'
import { tempDataDir } from '../helpers/app.ts'

const ROOT = path.resolve(import.meta.dirname, '../..')
const deploy = (file: string) => path.join(ROOT, 'deploy', file)
const read = (file: string) => fs.readFileSync(deploy(file), 'utf8')

test('Caddy accepts the Caddyfile: on-demand TLS that asks /tls-check, and a proxy to the lander', () => {
  const caddy = process.env.CADDY_PATH ?? '/usr/bin/caddy'
  const run = spawnSync(caddy, ['adapt', '--config', deploy('Caddyfile'), '--adapter', 'caddyfile'], { encoding: 'utf8' })
  expect(run.status, run.stderr).toBe(0)
  const config = JSON.parse(run.stdout)
  expect(config.apps.tls.automation.on_demand.ask).toBe('http://lander:3000/tls-check')
  expect(config.apps.tls.automation.policies[0].on_demand).toBe(true)
  expect(JSON.stringify(config.apps.http)).toContain('"dial":"lander:3000"')
})

test('Caddy accepts the Caddyfile for several instances: least busy instance that answers /readyz', () => {
  const caddy = process.env.CADDY_PATH ?? '/usr/bin/caddy'
  const run = spawnSync(caddy, ['adapt', '--config', deploy('Caddyfile.instances'), '--adapter', 'caddyfile'], {
    encoding: 'utf8',
    env: { ...process.env, LANDER_UPSTREAMS: '10.0.0.11:3000 10.0.0.12:3000 10.0.0.13:3000' },
  })
  expect(run.status, run.stderr).toBe(0)
  const proxy = JSON.parse(run.stdout).apps.http.servers.srv0.routes[0].handle.find((h: { handler: string }) => h.handler === 'reverse_proxy')
  expect(proxy.upstreams).toEqual([{ dial: '10.0.0.11:3000' }, { dial: '10.0.0.12:3000' }, { dial: '10.0.0.13:3000' }])
  expect(proxy.health_checks.active.uri).toBe('/readyz')
  expect(proxy.load_balancing.selection_policy.policy).toBe('least_conn')
})

test("Caddy accepts the console's Caddyfile: TLS on the owner's host name, a proxy to the console on 127.0.0.1:3001", () => {
  const caddy = process.env.CADDY_PATH ?? '/usr/bin/caddy'
  const adapt = (file: string) =>
    spawnSync(caddy, ['adapt', '--config', file, '--adapter', 'caddyfile'], {
      encoding: 'utf8',
      env: { ...process.env, CONSOLE_HOST: 'konsole.example.de' },
    })
  const run = adapt(deploy('Caddyfile.console'))
  expect(run.status, run.stderr).toBe(0)
  const server = JSON.parse(run.stdout).apps.http.servers.srv0
  expect(server.listen).toEqual([':443'])
  expect(server.routes[0].match).toEqual([{ host: ['konsole.example.de'] }])
  expect(JSON.stringify(server.routes[0].handle)).toContain('"upstreams":[{"dial":"127.0.0.1:3001"}]')

  // Pasted into the main Caddyfile, as its comment says, the named site is served beside the catch-all.
  const dir = tempDataDir()
  try {
    const combined = path.join(dir, 'Caddyfile')
    fs.writeFileSync(combined, `${read('Caddyfile')}\n${read('Caddyfile.console')}`)
    const both = adapt(combined)
    expect(both.status, both.stderr).toBe(0)
    expect(both.stdout).toContain('"host":["konsole.example.de"]')
    expect(both.stdout).toContain('"dial":"127.0.0.1:3001"')
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

test('the compose file runs the lander behind Caddy, with the data directory on a volume', () => {
  const compose = parseYaml(read('compose.yaml'))
  expect(Object.keys(compose.services).sort()).toEqual(['caddy', 'lander'])
  const { lander, caddy } = compose.services
  expect(lander.build).toEqual({ context: '..', dockerfile: 'deploy/Dockerfile' })
  expect(lander.volumes).toContain('lander-data:/data')
  expect(lander.environment.DOMAINS_FILE).toBe('/config/domains.yaml')
  expect(lander.environment.TRUST_PROXY).toBe('true')
  expect(caddy.ports).toEqual(['80:80', '443:443'])
  expect(caddy.depends_on).toEqual(['lander'])
  expect(Object.keys(compose.volumes)).toContain('lander-data')
  // Every file it mounts is shipped.
  for (const mount of [...lander.volumes, ...caddy.volumes].filter((v: string) => v.startsWith('./'))) {
    expect(fs.existsSync(deploy(mount.split(':')[0]))).toBe(true)
  }
})

test('the example domains file is a valid domains file', () => {
  const domainsConfig = readDomainsFile(deploy('domains.example.yaml'))
  expect([...domainsConfig.names()]).toContain('example.de')
})

test('the Dockerfile builds in stages and runs as a non-root user on Node 24', () => {
  const dockerfile = read('Dockerfile')
  const stages = dockerfile.match(/^FROM .+$/gm) ?? []
  expect(stages.length).toBeGreaterThanOrEqual(2)
  for (const from of stages) expect(from).toMatch(/^FROM node:24/)
  expect(dockerfile).toMatch(/^USER node$/m)
  // Started as `npm start`, the bench and Lighthouse start it (scripts/server-lib.ts).
  expect(JSON.parse(/^CMD (.+)$/m.exec(dockerfile)![1]!)).toEqual(['node', ...SERVER_NODE_FLAGS, 'dist/server/main.js'])
  const env = /^ENV (.+)$/m.exec(dockerfile)![1]!.split(/\s+/)
  for (const [name, value] of Object.entries(SERVER_ENV)) expect(env).toContain(`${name}=${value}`)
})

test("the image's start command and health check work outside Docker", async () => {
  const dockerfile = read('Dockerfile')
  const [command, ...args] = JSON.parse(/^CMD (.+)$/m.exec(dockerfile)![1]!) as string[]
  const healthcheck = JSON.parse(/HEALTHCHECK .*CMD (\[.+\])$/m.exec(dockerfile)![1]!) as string[]
  const env = /^ENV (.+)$/m.exec(dockerfile)![1]!
  const imageEnv = Object.fromEntries(env.split(/\s+/).map((pair) => pair.split('=') as [string, string]))
  const dataDir = tempDataDir()
  // `node` on the PATH is the project's Node 24 here, as it is in the image.
  const child = spawn(command!, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH, ...imageEnv, HOST: '127.0.0.1', PORT: '3000', ADMIN_PORT: '0', DATA_DIR: dataDir },
    stdio: 'ignore',
  })
  try {
    const exitCode = async () => {
      const check = spawn(healthcheck[0]!, healthcheck.slice(1), { env: { PATH: process.env.PATH }, stdio: 'ignore' })
      return new Promise<number | null>((resolve) => check.on('exit', resolve))
    }
    await expect.poll(exitCode, { timeout: 15_000, interval: 200 }).toBe(0)
  } finally {
    child.kill('SIGTERM')
    await new Promise((resolve) => child.once('exit', resolve))
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
})

/** The unit's Key=Value lines (each key appears once in it). */
function unitSettings(unit: string) {
  const settings = new Map<string, string>()
  for (const line of unit.split('\n')) {
    const match = /^(\w+)=(.*)$/.exec(line)
    if (match) settings.set(match[1]!, match[2]!)
  }
  return settings
}

test('the systemd unit starts the server with the project Node, reloads with SIGHUP and stops with SIGTERM', () => {
  const unit = read('domain-lander.service')
  const settings = unitSettings(unit)
  expect(unit).toMatch(/^\[Unit\]$/m)
  expect(unit).toMatch(/^\[Service\]$/m)
  expect(unit).toMatch(/^\[Install\]$/m)
  expect(settings.get('ExecStart')).toBe(`/opt/domain-lander/node_modules/.bin/node ${SERVER_NODE_FLAGS.join(' ')} dist/server/main.js`)
  const environment = settings.get('Environment')!.split(/\s+/)
  for (const [name, value] of Object.entries(SERVER_ENV)) expect(environment).toContain(`${name}=${value}`)
  // Node's compile cache (docs/decisions/011) in a directory systemd makes writable for the service.
  expect(environment).toContain('NODE_COMPILE_CACHE=/var/cache/domain-lander')
  expect(settings.get('CacheDirectory')).toBe('domain-lander')
  expect(settings.get('WorkingDirectory')).toBe('/opt/domain-lander')
  expect(settings.get('ExecReload')).toBe('/bin/kill -HUP $MAINPID')
  expect(settings.get('KillSignal')).toBe('SIGTERM')
  expect(settings.get('User')).not.toBe('root')
  expect(settings.get('Environment')).toContain('DATA_DIR=/var/lib/domain-lander')
})

test('the systemd unit and the image keep DATA_DIR to the service user: 0700, and 0600 for every file in it', () => {
  const settings = unitSettings(read('domain-lander.service'))
  expect(settings.get('StateDirectory')).toBe('domain-lander')
  expect(settings.get('StateDirectoryMode')).toBe('0700')
  expect(settings.get('UMask')).toBe('0077')
  // A named volume starts with the mode of the image's directory.
  expect(read('Dockerfile')).toMatch(/^RUN mkdir -p \/data .*&& chmod 700 \/data$/m)
})
