// Builds deploy/Dockerfile with podman and runs the image, where no image registry is reachable: the base image the
// Dockerfile names (node:24-bookworm-slim) is made here from Debian's packages (debootstrap) and npm's `node` and
// `npm` packages, and kept in podman's storage for the next run.
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

const ROOT = path.resolve(import.meta.dirname, '../..')
const PODMAN = process.env.PODMAN_PATH ?? 'podman'
const DEBOOTSTRAP = process.env.DEBOOTSTRAP_PATH ?? 'debootstrap'
const RUNC = process.env.RUNC_PATH ?? 'runc'

/** The name the Dockerfile's FROM lines resolve to (a short name means docker.io/library). */
const BASE_IMAGE = 'docker.io/library/node:24-bookworm-slim'
/** The image built from deploy/Dockerfile. */
export const APP_IMAGE = 'localhost/domain-lander:test'
/** The npm the base image carries, as the official image carries the one released with its Node. */
const NPM_VERSION = '11.19.1'
const NODE_VERSION = JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules/node/package.json'), 'utf8')).version as string
/** Written on the base image: a different Node or npm in node_modules makes it again. */
const BASE_LABEL = `node-${NODE_VERSION}-npm-${NPM_VERSION}-bookworm`

/**
 * crun (podman's default) refuses these machines' hybrid cgroups, and setting rlimits in a container is not
 * permitted here: a configuration of the tests' own (CONTAINERS_CONF) instead of changing /etc/containers.
 */
function containersConf(): string {
  const file = path.join(os.tmpdir(), 'domain-lander-podman', 'containers.conf')
  fs.mkdirSync(path.dirname(file), { recursive: true })
  fs.writeFileSync(file, '[containers]\ndefault_ulimits = []\n\n[engine]\nruntime = "runc"\n')
  return file
}

const podmanEnv = () => ({ ...process.env, CONTAINERS_CONF: containersConf() })

/** Why podman cannot run here (not installed, or `podman info` fails), or null when it can. */
export function podmanProblem(): string | null {
  const info = spawnSync(PODMAN, ['--runtime', RUNC, 'info', '--format', '{{.Host.OCIRuntime.Name}}'], { encoding: 'utf8', env: podmanEnv() })
  if (info.error) return `podman is not installed (apt-get install podman runc debootstrap, or set PODMAN_PATH)`
  if (info.status !== 0) return `podman cannot run here: ${info.stderr.trim().split('\n').at(-1)}`
  return null
}

export interface Run {
  code: number
  stdout: string
  stderr: string
}

/** Runs a command to its end (asynchronously: the test's SMTP server keeps answering meanwhile). */
function run(command: string, args: string[], options: { cwd?: string; timeoutMs?: number; env?: Record<string, string> } = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd ?? ROOT, env: { ...podmanEnv(), ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    // A deadline that bounds the command (a podman that hangs): it never decides when the command is done.
    const timer = options.timeoutMs ? setTimeout(() => child.kill('SIGTERM'), options.timeoutMs) : undefined
    child.once('error', reject)
    child.once('close', (code, signal) => {
      clearTimeout(timer)
      resolve({ code: code ?? (signal ? 128 : 1), stdout, stderr })
    })
  })
}

/** `podman ARGS` with the runtime these machines need; whatever it printed, and its exit code. */
export const podman = (args: string[], timeoutMs = 120_000) => run(PODMAN, ['--runtime', RUNC, ...args], { timeoutMs })

/** `podman ARGS`, which must succeed: its output. */
export async function podmanOk(args: string[], timeoutMs?: number): Promise<string> {
  const result = await podman(args, timeoutMs)
  if (result.code !== 0) throw new Error(`podman ${args.join(' ')} failed (${result.code}):\n${result.stderr || result.stdout}`)
  return result.stdout
}

/** The Debian mirror apt uses here (deb822 or one-line sources), else Debian's own. */
function debianMirror(): string {
  const files = [
    '/etc/apt/sources.list',
    ...(fs.existsSync('/etc/apt/sources.list.d') ? fs.readdirSync('/etc/apt/sources.list.d').map((f) => `/etc/apt/sources.list.d/${f}`) : []),
  ]
  for (const file of files.filter((f) => fs.existsSync(f) && fs.statSync(f).isFile())) {
    const text = fs.readFileSync(file, 'utf8')
    const mirror = /^URIs:\s*(\S+\/debian)\/?\s*$/m.exec(text)?.[1] ?? /^deb\s+(?:\[[^\]]*\]\s+)?(\S+\/debian)\/?\s+bookworm\b/m.exec(text)?.[1]
    if (mirror) return mirror
  }
  return 'http://deb.debian.org/debian'
}

async function mustRun(command: string, args: string[], options: { cwd?: string; timeoutMs?: number } = {}) {
  const result = await run(command, args, { timeoutMs: 900_000, ...options })
  if (result.code !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.code}):\n${(result.stderr || result.stdout).slice(-4000)}`)
  return result.stdout
}

/**
 * The stand-in for node:24-bookworm-slim, unless podman has it already: Debian bookworm (minbase), Node in
 * /usr/local/bin from npm's `node` package (the binary node_modules/.bin/node is), npm in /usr/local/lib/node_modules
 * from npm's `npm` package, and the user `node` (uid and gid 1000), as in the official image.
 */
export async function ensureBaseImage(): Promise<void> {
  const exists = await podman(['image', 'exists', BASE_IMAGE])
  if (exists.code === 0) {
    const label = (await podmanOk(['image', 'inspect', '--format', '{{index .Labels "domain-lander.base"}}', BASE_IMAGE])).trim()
    if (label === BASE_LABEL) return
  }
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'domain-lander-base-'))
  try {
    const rootfs = path.join(work, 'rootfs')
    await mustRun(DEBOOTSTRAP, ['--variant=minbase', 'bookworm', rootfs, debianMirror()])
    const node = fs.realpathSync(path.join(ROOT, 'node_modules/node/bin/node'))
    fs.copyFileSync(node, path.join(rootfs, 'usr/local/bin/node'))
    fs.chmodSync(path.join(rootfs, 'usr/local/bin/node'), 0o755)
    const tarball = (await mustRun('npm', ['pack', `npm@${NPM_VERSION}`, '--silent', '--pack-destination', work], { cwd: work })).trim().split('\n').at(-1)!
    const npmDir = path.join(rootfs, 'usr/local/lib/node_modules/npm')
    fs.mkdirSync(npmDir, { recursive: true })
    await mustRun('tar', ['-xzf', path.join(work, tarball), '-C', npmDir, '--strip-components=1', '--no-same-owner'])
    fs.symlinkSync('../lib/node_modules/npm/bin/npm-cli.js', path.join(rootfs, 'usr/local/bin/npm'))
    fs.symlinkSync('../lib/node_modules/npm/bin/npx-cli.js', path.join(rootfs, 'usr/local/bin/npx'))
    await mustRun('chroot', [rootfs, 'groupadd', '--gid', '1000', 'node'])
    await mustRun('chroot', [rootfs, 'useradd', '--uid', '1000', '--gid', 'node', '--shell', '/bin/bash', '--create-home', 'node'])
    // What the official slim image also leaves out: apt's downloaded lists and packages.
    for (const dir of ['var/lib/apt/lists', 'var/cache/apt/archives']) {
      for (const entry of fs.readdirSync(path.join(rootfs, dir))) {
        if (entry !== 'partial' && entry !== 'lock') fs.rmSync(path.join(rootfs, dir, entry), { recursive: true, force: true })
      }
    }
    const archive = path.join(work, 'rootfs.tar')
    await mustRun('tar', ['--numeric-owner', '-cf', archive, '-C', rootfs, '.'])
    await podmanOk(
      [
        'import',
        '--change',
        `LABEL domain-lander.base=${BASE_LABEL}`,
        '--change',
        `ENV NODE_VERSION=${NODE_VERSION}`,
        '--change',
        'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
        '--change',
        'CMD ["node"]',
        archive,
        BASE_IMAGE,
      ],
      600_000,
    )
  } finally {
    fs.rmSync(work, { recursive: true, force: true })
  }
}

/**
 * Builds deploy/Dockerfile from the checkout, never pulling (nothing to pull from here), in Docker's format (OCI
 * images have no HEALTHCHECK), on the host's network for `npm ci`. Podman's layer cache makes a second build quick.
 */
export function buildAppImage(): Promise<void> {
  built ??= podmanOk(['build', ...BUILD_ARGS(), '--file', 'deploy/Dockerfile', '--tag', APP_IMAGE, '.'], 900_000).then(() => {})
  return built
}

/** Once per test file: even a build that changes nothing hashes node_modules again. */
let built: Promise<void> | undefined

const BUILD_ARGS = () => ['--pull=never', '--format', 'docker', '--network', 'host', ...hostCertificates()]

/**
 * The certificates the host's npm trusts, for the build's `npm ci` only: where the registry is reached through a
 * TLS-inspecting proxy, npm in the image would refuse its certificate. Mounted for the RUN steps (npm's global
 * configuration in /usr/local/etc/npmrc names the file), so nothing of it ends up in the image.
 */
function hostCertificates(): string[] {
  const configured = spawnSync('npm', ['config', 'get', 'cafile'], { encoding: 'utf8' }).stdout?.trim()
  const bundle = [configured, process.env.SSL_CERT_FILE, '/etc/ssl/certs/ca-certificates.crt'].find(
    (file) => file && file !== 'null' && file !== 'undefined' && fs.existsSync(file),
  )
  if (!bundle) return []
  const npmrc = path.join(os.tmpdir(), 'domain-lander-podman', 'npmrc')
  fs.mkdirSync(path.dirname(npmrc), { recursive: true })
  fs.writeFileSync(npmrc, 'cafile=/usr/local/etc/host-certificates.crt\n')
  return ['--volume', `${bundle}:/usr/local/etc/host-certificates.crt:ro`, '--volume', `${npmrc}:/usr/local/etc/npmrc:ro`]
}

const PODMAN_COMPOSE = process.env.PODMAN_COMPOSE_PATH ?? 'podman-compose'

/** Why podman-compose cannot run here (not installed), or null when it can. */
export function composeProblem(): string | null {
  const version = spawnSync(PODMAN_COMPOSE, ['--version'], { encoding: 'utf8', env: podmanEnv() })
  if (version.error) return 'podman-compose is not installed (apt-get install podman-compose, or set PODMAN_COMPOSE_PATH)'
  return version.status === 0 ? null : `podman-compose cannot run here: ${version.stderr.trim().split('\n').at(-1)}`
}

/**
 * `podman-compose -p PROJECT -f deploy/compose.yaml ARGS` with `env` as the shell's environment (what the compose
 * file interpolates); builds as buildAppImage does, so the build section is the compose file's own.
 */
export async function compose(project: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  const result = await run(
    PODMAN_COMPOSE,
    [
      '--podman-path',
      PODMAN,
      '--podman-args',
      `--runtime ${RUNC}`,
      '--podman-build-args',
      BUILD_ARGS().join(' '),
      '-p',
      project,
      '-f',
      'deploy/compose.yaml',
      ...args,
    ],
    { timeoutMs: 900_000, env },
  )
  if (result.code !== 0) throw new Error(`podman-compose ${args.join(' ')} failed (${result.code}):\n${(result.stderr || result.stdout).slice(-4000)}`)
  return result.stdout
}

/** A name of this test run's own for containers and volumes (several runs may share the machine). */
export const uniqueName = (what: string) => `domain-lander-test-${what}-${process.pid}-${Date.now().toString(36)}`

/** Removes containers and volumes the test made, whatever state they are in. */
export async function removeContainers(names: string[], volumes: string[] = []): Promise<void> {
  for (const name of names) await podman(['rm', '--force', '--time', '0', name])
  for (const volume of volumes) await podman(['volume', 'rm', '--force', volume])
}

/** The container's log (stdout and stderr) so far. */
export async function containerLogs(name: string): Promise<string> {
  const result = await podman(['logs', name])
  return `${result.stdout}${result.stderr}`
}

/** `podman inspect` of a container: its state, health and configuration. */
export async function inspectContainer(name: string) {
  const [info] = JSON.parse(await podmanOk(['container', 'inspect', name])) as [
    {
      State: { Status: string; Running: boolean; ExitCode: number; Health?: { Status: string }; Healthcheck?: { Status: string } }
      Config: { Healthcheck?: { Test: string[]; Interval: number; Timeout: number }; StopSignal?: string | number; User: string }
    },
  ]
  return info
}
