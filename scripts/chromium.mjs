// Finds a Chromium for the browser tests: CHROMIUM_PATH, Debian's /usr/bin/chromium, or Playwright's cache.
// If there is none, installs Debian's package when running as root with apt; otherwise says what to do.
import { execFileSync, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

function fromPlaywrightCache() {
  const cache = process.env.PLAYWRIGHT_BROWSERS_PATH || path.join(os.homedir(), '.cache', 'ms-playwright')
  if (!fs.existsSync(cache)) return undefined
  for (const dir of fs.readdirSync(cache).filter((d) => d.startsWith('chromium')).sort().reverse()) {
    for (const sub of ['chrome-linux64/chrome', 'chrome-linux/chrome', 'chrome-headless-shell-linux64/chrome-headless-shell']) {
      const candidate = path.join(cache, dir, sub)
      if (fs.existsSync(candidate)) return candidate
    }
  }
  return undefined
}

export function findChromium() {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', fromPlaywrightCache()]
  return candidates.find((candidate) => candidate && fs.existsSync(candidate))
}

export function ensureChromium() {
  const found = findChromium()
  if (found) return found
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0
  const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0
  if (isRoot && hasApt) {
    console.log('Chromium not found: installing Debian\'s chromium package for the browser tests ...')
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env })
    execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env })
    const installed = findChromium()
    if (installed) return installed
  }
  console.error('Browser tests need Chromium: install it (sudo apt-get install -y chromium) or set CHROMIUM_PATH to its binary.')
  process.exit(1)
}
