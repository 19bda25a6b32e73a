// Starting the production server: what the owner sees in the log, and what a wrong setting does.
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import readline from 'node:readline'
import { expect, test } from 'vitest'
import { tempDataDir } from '../helpers/app.ts'
import { startServerProcess } from '../helpers/server.ts'

const ROOT = path.resolve(import.meta.dirname, '../..')
const MAIN = path.join(ROOT, 'dist/server/main.js')

/** util-linux's `script` runs a command on a pseudo-terminal, as a person who starts the server in a shell does. */
const ON_A_TERMINAL = '/usr/bin/script'

/**
 * An older Node: the system's (Node 20 here, what `node` names outside npm), or where there is none, this Node
 * made to say it is version 20 before the script runs.
 */
const OLD_NODE = (() => {
  const system = spawnSync('/usr/bin/node', ['--version'], { encoding: 'utf8' })
  if (system.status === 0 && Number(/^v(\d+)/.exec(system.stdout)?.[1]) < 24) return { path: '/usr/bin/node', args: [] }
  const pretend = "Object.defineProperty(process, 'versions', { value: { ...process.versions, node: '20.0.0' } })"
  return { path: process.execPath, args: ['--import', `data:text/javascript,${encodeURIComponent(pretend)}`] }
})()

test('the start-up log names the URL to open and, without SMTP_URL, where the mails are written', async () => {
  const server = await startServerProcess({})
  try {
    const log = server.output.join('\n')
    expect(log).toContain(`domain-lander is ready: open ${server.url}/`)
    expect(log).toContain(`every inquiry is written as an .eml file to ${server.dataDir}/mail`)
  } finally {
    expect(await server.stop()).toBe(0)
    server.cleanup()
  }
})

test.each([
  ['PORT', { PORT: 'dreitausend' }],
  ['SMTP_URL', { SMTP_URL: 'http://mail.example.de' }],
  ['MAIL_TO', { SMTP_URL: 'smtp://mail.example.de:587', MAIL_TO: '' }],
  ['CONTACT_RATE_LIMIT', { CONTACT_RATE_LIMIT: 'viele' }],
  ['ADMIN_PORT', { ADMIN_PORT: 'an' }],
])('a wrong %s stops the server with a message naming it', async (variable, env) => {
  await expect(startServerProcess(env)).rejects.toThrow(new RegExp(`exited \\(1\\)[\\s\\S]*Invalid configuration:\\n  ${variable}: `))
})

test('a wrong LOG_FORMAT stops the server with a message naming it', async () => {
  await expect(startServerProcess({ LOG_FORMAT: 'bunt' })).rejects.toThrow(
    /exited \(1\)[\s\S]*Invalid configuration:\n {2}LOG_FORMAT: must be json .* or pretty/,
  )
})

/** What a start that was refused printed (stdout and stderr), or a failure when it started after all. */
async function refusal(env: Record<string, string>): Promise<string> {
  const error = await startServerProcess(env).then(
    async (server) => {
      await server.stop()
      server.cleanup()
      return new Error('the server started')
    },
    (error: Error) => error,
  )
  const found = /^server exited \(1\) before it was ready:\n([\s\S]*)$/.exec(error.message)
  if (!found) throw error
  return found[1]!
}

test('the start-up log says where the console is', async () => {
  const server = await startServerProcess({})
  try {
    expect(server.adminUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(server.output.join('\n')).toContain(
      `domain-lander is ready: open ${server.url}/ (mail goes to files in ${server.dataDir}/mail); console: ${server.adminUrl}/`,
    )
  } finally {
    expect(await server.stop()).toBe(0)
    server.cleanup()
  }
})

test('a SIGTERM as soon as the public port listens ends the server with 0, whether its console was built yet or not', async () => {
  const dataDir = tempDataDir()
  let exited!: Promise<number | string>
  try {
    const started = await startServerProcess(
      { DATA_DIR: dataDir },
      {
        onSpawn: (child) => {
          exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)))
          let sent = false
          readline.createInterface({ input: child.stdout! }).on('line', (line) => {
            // The console is built after the first answer or a moment after this line (decision 053).
            if (!sent && line.includes('Server listening at')) sent = child.kill('SIGTERM')
          })
        },
      },
    ).catch((error: Error) => error)
    expect(await exited).toBe(0)
    if (started instanceof Error) expect(started.message).toMatch(/^server exited \(0\) before it was ready/)
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
})

test('an ADMIN_PORT that another program listens on stops the server with one line naming ADMIN_PORT', async () => {
  const other = net.createServer()
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve))
  const { port } = other.address() as net.AddressInfo
  try {
    // The public port listened first: its log line comes before.
    const output = (await refusal({ ADMIN_PORT: String(port) })).split('\n')
    expect(output.filter((line) => !line.startsWith('{"level":30,'))).toEqual([
      `domain-lander: ADMIN_PORT ${port} is already in use on 127.0.0.1: stop the program that listens there, or set ADMIN_PORT to a free port`,
    ])
  } finally {
    other.close()
  }
})

test('a broken domains file stops the server with its message alone, without a stack trace', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lander-domains-'))
  const file = path.join(dir, 'domains.yaml')
  fs.writeFileSync(file, 'domains: [\n')
  try {
    const output = await refusal({ DOMAINS_FILE: file })
    expect(output).toMatch(new RegExp(`^domain-lander: ${file}: `))
    expect(output).not.toContain('DomainsFileError')
    expect(output).not.toMatch(/^\s+at /m)
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

test('a PORT that another program listens on stops the server with one line naming PORT', async () => {
  const other = net.createServer()
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve))
  const { port } = other.address() as net.AddressInfo
  try {
    // The scheduler's jobs may have run (and said so at info) before the port was tried.
    const output = (await refusal({ PORT: String(port) })).split('\n')
    expect(output.filter((line) => !line.startsWith('{"level":30,'))).toEqual([
      `domain-lander: PORT ${port} is already in use on 127.0.0.1: stop the program that listens there, or set PORT to a free port`,
    ])
  } finally {
    other.close()
  }
})

test('LOG_FORMAT=pretty writes readable lines instead of JSON', async () => {
  const server = await startServerProcess({ LOG_FORMAT: 'pretty' })
  try {
    expect(server.output).toContainEqual(
      expect.stringMatching(new RegExp(`^\\[[\\d:]+\\] INFO \\(\\d+\\): domain-lander is ready: open ${server.url.replace('127.0.0.1', '127\\.0\\.0\\.1')}/ `)),
    )
    expect(server.output.filter((line) => line.startsWith('{'))).toEqual([])
  } finally {
    expect(await server.stop()).toBe(0)
    server.cleanup()
  }
})

test('on a terminal the server writes readable lines unless LOG_FORMAT=json', async () => {
  const run = (env: Record<string, string>) => {
    const dataDir = tempDataDir()
    const child = spawn(ON_A_TERMINAL, ['-qec', `exec "${process.execPath}" "${MAIN}"`, '/dev/null'], {
      env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', ADMIN_PORT: '0', DATA_DIR: dataDir, ...env },
      stdio: ['pipe', 'pipe', 'inherit'],
      detached: true,
    })
    let output = ''
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()))
    const exited = new Promise((resolve) => child.once('exit', resolve))
    return {
      // Colours and the terminal's line ends left out.
      text: () => output.replace(/\x1b\[[\d;]*m/g, '').replaceAll('\r', ''),
      async stop() {
        process.kill(-child.pid!, 'SIGTERM')
        await exited
        fs.rmSync(dataDir, { recursive: true, force: true })
      },
    }
  }
  const terminal = run({})
  const json = run({ LOG_FORMAT: 'json' })
  try {
    await expect.poll(() => terminal.text()).toMatch(/^\[[\d:]+\] INFO \(\d+\): domain-lander is ready: open http:\/\/127\.0\.0\.1:\d+\/ /m)
    expect(terminal.text()).not.toMatch(/^\{/m)
    await expect.poll(() => json.text()).toMatch(/^\{"level":30,.*"msg":"domain-lander is ready: open http:\/\/127\.0\.0\.1:\d+\/ /m)
  } finally {
    await Promise.all([terminal.stop(), json.stop()])
  }
})

test.each([
  ['scripts/start.mjs', '`npm start`'],
  ['bin/domain-lander.mjs', '`npx domain-lander`'],
])('%s on an older Node says in one line that Node 24 is needed and how to get it', (script, command) => {
  const run = spawnSync(OLD_NODE.path, [...OLD_NODE.args, path.join(ROOT, script)], { encoding: 'utf8', cwd: ROOT })
  expect(run.status).toBe(1)
  expect(run.stdout).toBe('')
  const lines = run.stderr.trimEnd().split('\n')
  expect(lines).toHaveLength(1)
  expect(lines[0]).toContain('needs Node 24 or newer')
  expect(lines[0]).toContain(command)
})
