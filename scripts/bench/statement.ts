// `npm run bench -- --statement`: GET / while the console reads bank statements of the largest size taken (5 MB,
// CAMT_MAX_BYTES; decision 040). The production server with a console; GET / (10 connections, --seconds N each,
// default 10) first idle, then while the console's preview of a 5 MB statement is posted again and again, one after
// the other, as the console sends it (the file's bytes, application/xml; `--json-body` as JSON text, the console's
// way before and still taken): p50 and p99 of both, in microseconds from every answer's time (autocannon's own
// percentiles are whole milliseconds, and idle p99 is about 1), their ratio, how many previews were read and how long
// each took, and the server's peak RSS; per phase, the CPU time of the server's threads and how long its main thread
// waited for a processor. The previews are posted from a thread of their own (statement-previews.ts). The issue's
// target: p99 during the previews within 3x idle. `--json` for JSON.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Worker } from 'node:worker_threads'
import { CAMT_MAX_BYTES } from '../../src/server/payments/camt.ts'
import { CONSOLE_HEADER } from '../../src/shared/console-api.ts'
import { camtStatementOfSize } from '../../tests/helpers/camt.ts'
import { build, root } from '../build-lib.ts'
import { freePort, startServer } from '../server-lib.ts'
import type { PreviewsInput, PreviewsMessage } from './statement-previews.ts'
import { argsOf, load, memoryMiB, ratio, reporter, setOwnerPassword, signIn, sleep } from './harness.ts'

const PASSWORD = 'bench-statement-password-0123'
const HOST = 'beispiel.de'

const CPU_PREVIEWS = 5

/** CPU time of a process's main thread (its thread id is the process id), in ns: /proc's schedstat, Linux only. */
function threadCpuNs(pid: number): number {
  return Number(fs.readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[0])
}

/** Time a process's main thread spent waiting for a processor while it could run (schedstat's second field), in ns. */
function threadWaitNs(pid: number): number {
  return Number(fs.readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[1])
}

async function getLatency(url: string, duration: number) {
  const result = await load({ url, connections: 10, duration, headers: { host: HOST } }, { microseconds: true })
  const non2xx = Object.entries(result.statusCodes).reduce((sum, [code, count]) => sum + (code.startsWith('2') ? 0 : count), 0)
  return { requestsPerSecond: result.requestsPerSecond, p50Us: result.p50Us, p99Us: result.p99Us, non2xx }
}

/** CPU time of every thread of a process by its name (V8Worker: V8's helpers, garbage collection among them), in ns. */
function threadsCpuNs(pid: number): Map<string, number> {
  const byName = new Map<string, number>()
  for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      const name = task === String(pid) ? 'main' : fs.readFileSync(`/proc/${pid}/task/${task}/comm`, 'utf8').trim()
      const ns = Number(fs.readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0])
      byName.set(name, (byName.get(name) ?? 0) + ns)
    } catch {
      // The thread ended in between.
    }
  }
  return byName
}

/**
 * GET / measured while the server's threads' CPU time and its main thread's wait for a processor are counted (ms per
 * second of the run): where GET / gets slower, these say whether the main thread had work or waited for a CPU.
 */
async function measured(pid: number, url: string, seconds: number) {
  const [threads, wait, started] = [threadsCpuNs(pid), threadWaitNs(pid), performance.now()]
  const figures = await getLatency(url, seconds)
  const perSecond = (ns: number) => Math.round(ns / 1e6 / ((performance.now() - started) / 1000))
  const after = threadsCpuNs(pid)
  const cpuOf = (name: string) => perSecond((after.get(name) ?? 0) - (threads.get(name) ?? 0))
  const others = [...after.keys()].filter((name) => name !== 'main' && name !== 'V8Worker')
  return {
    ...figures,
    mainThreadCpuMsPerSecond: cpuOf('main'),
    mainThreadWaitMsPerSecond: perSecond(threadWaitNs(pid) - wait),
    v8HelpersCpuMsPerSecond: cpuOf('V8Worker'),
    otherThreadsCpuMsPerSecond: others.reduce((sum, name) => sum + cpuOf(name), 0),
  }
}

export async function benchStatement(argv: string[]): Promise<void> {
  const args = argsOf(argv)
  const seconds = args.number('--seconds', 10)
  const { log, report } = reporter(args.asJson)
  await build()
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'domain-lander-bench-statement-'))
  try {
    fs.writeFileSync(path.join(dir, 'domains.yaml'), `domains:\n  ${HOST}:\n    price: 4900\n`)
    const [port, adminPort] = [await freePort(), await freePort()]
    const env = { DATA_DIR: path.join(dir, 'data'), DOMAINS_FILE: path.join(dir, 'domains.yaml'), ADMIN_PORT: String(adminPort), MAIL_TO: 'owner@example.org' }
    fs.mkdirSync(env.DATA_DIR, { mode: 0o700 })
    setOwnerPassword(root, env, PASSWORD)
    const text = camtStatementOfSize(CAMT_MAX_BYTES)
    const asJson = args.has('--json-body')
    const body = asJson ? JSON.stringify({ text }) : Buffer.from(text)
    const server = await startServer(port, env)
    const pid = server.child.pid!
    try {
      const admin = `http://127.0.0.1:${adminPort}`
      // The console listens once the public page has answered (decision 053).
      for (
        const deadline = Date.now() + 20_000;
        !(await fetch(`${admin}/anmeldung`).then(
          () => true,
          () => false,
        ));
        await sleep(20)
      ) {
        if (Date.now() > deadline) throw new Error('the console did not start')
      }
      const cookie = await signIn(admin, PASSWORD)
      const url = `http://127.0.0.1:${port}/`
      log('warming up, then GET / idle')
      await getLatency(url, 2)
      const idle = await measured(pid, url, seconds)

      log(
        `GET / while the console previews a ${(Buffer.byteLength(text) / 2 ** 20).toFixed(1)} MiB statement again and again, sent ${asJson ? 'as JSON' : 'as the file'}`,
      )
      const preview = async () => {
        const response = await fetch(`${admin}/api/payments/preview`, {
          method: 'POST',
          headers: { [CONSOLE_HEADER]: '1', origin: admin, 'content-type': asJson ? 'application/json' : 'application/xml', cookie },
          body,
        })
        const answer = (await response.json()) as { counts?: { unmatched: number } }
        if (response.status !== 200 || !answer.counts) throw new Error(`the preview answered ${response.status}`)
      }
      let peak = 0
      const sampler = setInterval(() => (peak = Math.max(peak, memoryMiB(pid, 'VmRSS') ?? 0)), 20)
      const previews: number[] = []
      // In a thread of its own: here, its 5 MB sends and 700 KB answers would delay autocannon's own event loop and be
      // counted as the server's slow answers.
      const worker = new Worker(new URL('./statement-previews.ts', import.meta.url), {
        workerData: {
          url: `${admin}/api/payments/preview`,
          origin: admin,
          cookie,
          contentType: asJson ? 'application/json' : 'application/xml',
          body: typeof body === 'string' ? body : new Uint8Array(body),
        } satisfies PreviewsInput,
      })
      const previewing = new Promise<void>((resolve, reject) => {
        worker.on('message', (message: PreviewsMessage) => {
          if ('previewMs' in message) previews.push(message.previewMs)
          else if ('stopped' in message) resolve()
          else reject(new Error(message.failed))
        })
        worker.once('error', reject)
      })
      // The first preview under way before measuring: GET / is measured only while statements are read.
      await sleep(200)
      const during = await measured(pid, url, seconds)
      worker.postMessage('stop')
      await previewing
      await worker.terminate()
      clearInterval(sampler)
      // What a preview costs the thread that answers every request (the part the code decides; the rest is the
      // worker's, at nice 19): its CPU time from the kernel's per-thread account, for previews without other load.
      log(`the server's main thread's CPU time for ${CPU_PREVIEWS} previews without load`)
      const cpuBefore = threadCpuNs(pid)
      for (let i = 0; i < CPU_PREVIEWS; i++) await preview()
      const mainThreadCpuMsPerPreview = +((threadCpuNs(pid) - cpuBefore) / CPU_PREVIEWS / 1e6).toFixed(1)
      report(
        {
          statementMiB: +(Buffer.byteLength(text) / 2 ** 20).toFixed(2),
          sentAs: asJson ? 'json' : 'file',
          entries: (text.match(/<Ntry>/g) ?? []).length,
          getIdle: idle,
          getDuringPreviews: during,
          p99Ratio: ratio(during.p99Us, idle.p99Us),
          previews: previews.length,
          previewSecondsMedian: +(previews.sort((a, b) => a - b)[Math.floor(previews.length / 2)]! / 1000).toFixed(2),
          serverPeakRssMiB: Math.round(peak),
          mainThreadCpuMsPerPreview,
        },
        print,
      )
    } finally {
      await server.stop()
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

interface Results {
  statementMiB: number
  sentAs: 'json' | 'file'
  entries: number
  getIdle: Awaited<ReturnType<typeof measured>>
  getDuringPreviews: Awaited<ReturnType<typeof measured>>
  p99Ratio: number
  previews: number
  previewSecondsMedian: number
  serverPeakRssMiB: number
  mainThreadCpuMsPerPreview: number
}

function print(results: Results) {
  console.log(
    `statement ${results.statementMiB} MiB (sent as ${results.sentAs === 'json' ? 'JSON' : 'the file'}), ${results.entries} bookings: ${results.previews} previews, median ${results.previewSecondsMedian} s each; server peak RSS ${results.serverPeakRssMiB} MiB`,
  )
  const row = (r: Results['getIdle']) => ({
    'req/s': r.requestsPerSecond,
    'p50 µs': r.p50Us,
    'p99 µs': r.p99Us,
    'not 2xx': r.non2xx,
    'main thread CPU ms/s': r.mainThreadCpuMsPerSecond,
    'waited for a CPU ms/s': r.mainThreadWaitMsPerSecond,
    'V8 helpers CPU ms/s': r.v8HelpersCpuMsPerSecond,
    'other threads CPU ms/s': r.otherThreadsCpuMsPerSecond,
  })
  console.table({ 'GET / idle': row(results.getIdle), 'GET / during previews': row(results.getDuringPreviews) })
  console.log(`p99 during / idle: ${results.p99Ratio}`)
  console.log(`the server's main thread per preview (no other load): ${results.mainThreadCpuMsPerPreview} ms of CPU`)
}
