// `npm run dev` (Vite's middleware, HMR, the page from the sources) against `npm start` (the build, the strict CSP).
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import readline from 'node:readline'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { tempDataDir } from '../helpers/app.ts'
import { startServerProcess } from '../helpers/server.ts'
import { freePort } from '../../scripts/server-lib.ts'

const ROOT = path.resolve(import.meta.dirname, '../..')

describe('npm run dev', () => {
  let url: string
  let stop: () => Promise<void>

  beforeAll(async () => {
    const dataDir = tempDataDir()
    const port = await freePort()
    // Its own process group: npm, the shell, node --watch and the server are ended together.
    const child = spawn('npm', ['run', '--silent', 'dev'], {
      cwd: ROOT,
      env: { ...process.env, PORT: String(port), ADMIN_PORT: '0', DATA_DIR: dataDir, LOG_FORMAT: 'json', MIN_FILL_SECONDS: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    })
    const exited = new Promise((resolve) => child.once('exit', resolve))
    stop = async () => {
      process.kill(-child.pid!, 'SIGTERM')
      await exited
      fs.rmSync(dataDir, { recursive: true, force: true })
    }
    const output: string[] = []
    const ready = new Promise<string>((resolve, reject) => {
      for (const stream of [child.stdout, child.stderr]) {
        readline.createInterface({ input: stream }).on('line', (line) => {
          output.push(line)
          if (line.includes('domain-lander is ready')) resolve(line)
        })
      }
      void exited.then((code) => reject(new Error(`npm run dev exited (${code}):\n${output.join('\n')}`)))
    })
    expect(await ready).toContain(`"url":"http://127.0.0.1:${port}/"`)
    url = `http://127.0.0.1:${port}`
  }, 60_000)
  afterAll(() => stop?.())

  test("serves the page with the form, rendered from the sources, with Vite's HMR client and React refresh", async () => {
    const response = await fetch(`${url}/`)
    expect(response.status).toBe(200)
    const html = await response.text()
    expect(html).toContain('<form class="contact"')
    // The page carries no nonce in dev either: one would switch the policy's 'unsafe-inline' off.
    expect(html).not.toMatch(/\snonce=/)
    expect(html).toMatch(/<script [^>]*src="\/@vite\/client"/)
    expect(html).toContain('/@react-refresh')
    // Relaxed for the HMR client and React refresh, only here.
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self' 'unsafe-inline' 'unsafe-eval'")
  })

  test("Vite serves its client and the page's modules from the sources", async () => {
    for (const module of ['/@vite/client', '/loader.ts', '/entry-client.tsx']) {
      const response = await fetch(`${url}${module}`)
      expect(response.status, module).toBe(200)
      expect(response.headers.get('content-type'), module).toMatch(/javascript/)
    }
    // The loader asks for the source entry, not the build's placeholder.
    expect(await (await fetch(`${url}/loader.ts`)).text()).toContain('/entry-client.tsx')
  })
})

test('the production page has no Vite client and keeps its strict policy', async () => {
  const server = await startServerProcess({})
  try {
    const response = await fetch(`${server.url}/`)
    const html = await response.text()
    expect(html).toContain('<form class="contact"')
    expect(html).not.toMatch(/@vite|@react-refresh|entry-client\.tsx|__LANDER_CLIENT_ENTRY__/)
    const csp = response.headers.get('content-security-policy')!
    // One fixed policy, the inline loader allowed by its hash (issue 37): no nonce.
    expect(csp).toMatch(/script-src 'self' 'sha256-[^';]+';/)
    expect(csp).not.toContain("'nonce-")
    expect(html).not.toMatch(/\snonce=/)
    expect(csp).toMatch(/style-src 'self' 'sha256-[^';]+';/)
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|ws:/)
  } finally {
    await server.stop()
    server.cleanup()
  }
})
