// Programs the tests need from the system: Chromium (browser tests), Caddy (the shipped Caddyfile is checked),
// PostgreSQL (the store's tests run against a real server too), openssl (a test certificate), zbarimg (the deal
// page's EPC QR code is read back by a real decoder), poppler's pdftotext and pdfdetach and libxml2's xmllint (the
// invoices are read back and their E-Rechnung validated), Knot DNS's knotd and kdig (the DNS updates go to a real
// authoritative server).
// Each is found where it usually is; if missing, Debian's package is installed when running as root with apt,
// otherwise the run stops with a one-line instruction.
import { execFileSync, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

function fromPlaywrightCache(): string[] {
  const cache = process.env.PLAYWRIGHT_BROWSERS_PATH || path.join(os.homedir(), '.cache', 'ms-playwright')
  if (!fs.existsSync(cache)) return []
  return fs
    .readdirSync(cache)
    .filter((dir) => dir.startsWith('chromium'))
    .sort()
    .reverse()
    .flatMap((dir) => ['chrome-linux64/chrome', 'chrome-linux/chrome'].map((sub) => path.join(cache, dir, sub)))
}

interface Tool {
  /** The variable that names the binary (the tests read it). */
  env: string
  candidates: () => (string | undefined)[]
  aptPackage: string
}

const TOOLS = {
  chromium: {
    env: 'CHROMIUM_PATH',
    candidates: () => [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', ...fromPlaywrightCache()],
    aptPackage: 'chromium',
  },
  caddy: {
    env: 'CADDY_PATH',
    candidates: () => [process.env.CADDY_PATH, '/usr/bin/caddy', '/usr/local/bin/caddy'],
    aptPackage: 'caddy',
  },
  // Debian keeps the server's programs out of PATH, one directory per major version.
  postgres: {
    env: 'POSTGRES_PATH',
    candidates: () => [
      process.env.POSTGRES_PATH,
      ...(fs.existsSync('/usr/lib/postgresql')
        ? fs
            .readdirSync('/usr/lib/postgresql')
            .sort((a, b) => Number(b) - Number(a))
            .map((v) => `/usr/lib/postgresql/${v}/bin/postgres`)
        : []),
    ],
    aptPackage: 'postgresql',
  },
  // Makes the test certificate of the HTTPS checkout the browser tests are sent to (tests/helpers/receiver.ts).
  openssl: {
    env: 'OPENSSL_PATH',
    candidates: () => [process.env.OPENSSL_PATH, '/usr/bin/openssl', '/usr/local/bin/openssl'],
    aptPackage: 'openssl',
  },
  // Reads the deal page's EPC QR code ("GiroCode") back as a banking app would (tests/helpers/qr.ts).
  zbarimg: {
    env: 'ZBARIMG_PATH',
    candidates: () => [process.env.ZBARIMG_PATH, '/usr/bin/zbarimg', '/usr/local/bin/zbarimg'],
    aptPackage: 'zbar-tools',
  },
  // Reads an invoice's PDF back as text, and takes the E-Rechnung's XML out of it (pdfdetach, the same package):
  // tests/helpers/invoice.ts.
  pdftotext: {
    env: 'PDFTOTEXT_PATH',
    candidates: () => [process.env.PDFTOTEXT_PATH, '/usr/bin/pdftotext', '/usr/local/bin/pdftotext'],
    aptPackage: 'poppler-utils',
  },
  // Checks the E-Rechnung's XML against the CII schema (XSD) of EN 16931 (tests/helpers/invoice.ts).
  xmllint: {
    env: 'XMLLINT_PATH',
    candidates: () => [process.env.XMLLINT_PATH, '/usr/bin/xmllint', '/usr/local/bin/xmllint'],
    aptPackage: 'libxml2-utils',
  },
  // An authoritative DNS server that takes RFC 2136 updates signed with TSIG, and its query tool, to read the zone
  // back (tests/helpers/knot.ts).
  knotd: {
    env: 'KNOTD_PATH',
    candidates: () => [process.env.KNOTD_PATH, '/usr/sbin/knotd', '/usr/local/sbin/knotd'],
    aptPackage: 'knot',
  },
  kdig: {
    env: 'KDIG_PATH',
    candidates: () => [process.env.KDIG_PATH, '/usr/bin/kdig', '/usr/local/bin/kdig'],
    aptPackage: 'knot-dnsutils',
  },
  // Podman builds and runs deploy/Dockerfile (tests/integration/image.test.ts) on runc, since crun refuses these
  // machines' hybrid cgroups; debootstrap makes the base image the Dockerfile names from Debian's packages.
  podman: {
    env: 'PODMAN_PATH',
    candidates: () => [process.env.PODMAN_PATH, '/usr/bin/podman', '/usr/local/bin/podman'],
    aptPackage: 'podman',
  },
  runc: {
    env: 'RUNC_PATH',
    candidates: () => [process.env.RUNC_PATH, '/usr/bin/runc', '/usr/sbin/runc', '/usr/local/bin/runc'],
    aptPackage: 'runc',
  },
  debootstrap: {
    env: 'DEBOOTSTRAP_PATH',
    candidates: () => [process.env.DEBOOTSTRAP_PATH, '/usr/sbin/debootstrap', '/usr/bin/debootstrap'],
    aptPackage: 'debootstrap',
  },
  'podman-compose': {
    env: 'PODMAN_COMPOSE_PATH',
    candidates: () => [process.env.PODMAN_COMPOSE_PATH, '/usr/bin/podman-compose', '/usr/local/bin/podman-compose'],
    aptPackage: 'podman-compose',
  },
} satisfies Record<string, Tool>

export type ToolName = keyof typeof TOOLS

const find = (tool: Tool) => tool.candidates().find((candidate) => candidate && fs.existsSync(candidate))

let aptUpdated = false

/**
 * The path of the tool's binary; installs it with apt if it can, else exits with an instruction (or, when optional,
 * returns undefined: the tests that need it say why they skip).
 */
export function ensureTool(name: ToolName, options?: { optional?: false }): string
export function ensureTool(name: ToolName, options: { optional: boolean }): string | undefined
export function ensureTool(name: ToolName, { optional = false }: { optional?: boolean } = {}): string | undefined {
  const tool: Tool = TOOLS[name]
  const found = find(tool)
  if (found) return found
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0
  const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0
  if (isRoot && hasApt) {
    console.log(`${name} not found: installing Debian's ${tool.aptPackage} package for the tests ...`)
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
    if (!aptUpdated) execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env })
    aptUpdated = true
    execFileSync('apt-get', ['install', '-y', '-qq', tool.aptPackage], { stdio: 'inherit', env })
    const installed = find(tool)
    if (installed) return installed
  }
  if (optional) return undefined
  console.error(`The tests need ${name}: install it (sudo apt-get install -y ${tool.aptPackage}) or set ${tool.env} to its binary.`)
  process.exit(1)
}
