// The unauthenticated flood of the console's sign-in (issue 12/19, break 6): many connections on loopback, each
// sending a sign-in with a large declared body and then all of it but the last byte, so that a server that reads
// bodies before it refuses them holds every one in memory. Used by scripts/bench/console-flood.ts (the full-scale figure
// in docs/reliability.md) and tests/integration/console-flood.test.ts (a bounded one).
import fs from 'node:fs'
import net from 'node:net'

/** The process's resident set and its peak so far, in MiB, from /proc (Linux). */
export function residentMiB(pid: number): { rss: number; peak: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
  const kib = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? Number.NaN)
  return { rss: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 }
}

const CHUNK = 16 * 1024

/**
 * Opens `connections` connections to 127.0.0.1:`port` (at most `parallel` connecting at once), each posting
 * `bodyBytes` declared bytes to /api/session and sending all but the last one, with backpressure (the attacker keeps
 * nothing queued). Resolves after `holdMs` (the connections are then closed) with what each connection saw: the
 * status of an answer, or how it ended without one.
 */
export async function floodSignIn({
  port,
  connections,
  bodyBytes,
  holdMs,
  parallel = 200,
  onHeld,
}: {
  port: number
  connections: number
  bodyBytes: number
  holdMs: number
  parallel?: number
  onHeld?: () => unknown
}): Promise<{ counts: Record<string, number>; writtenMiB: number }> {
  const origin = `http://127.0.0.1:${port}`
  const head =
    `POST /api/session HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: ${origin}\r\nX-Domain-Lander-Console: 1\r\n` +
    `Content-Type: application/json\r\nContent-Length: ${bodyBytes}\r\n\r\n`
  const prefix = '{"password":"'
  const chunk = Buffer.alloc(CHUNK, 'a')
  const sockets = new Set<net.Socket>()
  /** status (e.g. "413"), or "closed" (no answer), "reset", "refused", "open" (still held at the end) */
  const outcomes: string[] = []
  let started = 0
  /** Handed to the sockets, whether or not the server read it. */
  let sentBytes = 0

  const one = () =>
    new Promise<void>((resolve) => {
      const socket = net.connect(port, '127.0.0.1')
      sockets.add(socket)
      let outcome = 'open'
      let left = bodyBytes - 1
      const settle = (value: string) => {
        if (outcome === 'open') outcome = value
      }
      const pump = () => {
        while (left > 0) {
          const part = left === bodyBytes - 1 ? Buffer.from(prefix) : chunk.subarray(0, Math.min(CHUNK, left))
          left -= part.length
          sentBytes += part.length
          if (!socket.write(part)) return void socket.once('drain', pump)
        }
      }
      socket.once('connect', () => {
        socket.write(head)
        pump()
        resolve()
      })
      socket.once('data', (data) => settle(data.toString('latin1', 9, 12)))
      socket.on('error', (error: NodeJS.ErrnoException) => settle(error.code === 'ECONNREFUSED' ? 'refused' : 'reset'))
      socket.once('close', () => {
        settle('closed')
        outcomes.push(outcome)
        sockets.delete(socket)
        resolve()
      })
    })

  // Connect in waves: the listen backlog (511) would otherwise drop SYNs and stretch the run by the kernel's retries.
  const waves: Promise<void[]>[] = []
  while (started < connections) {
    const wave = Math.min(parallel, connections - started)
    started += wave
    waves.push(Promise.all(Array.from({ length: wave }, one)))
    await waves.at(-1)
  }
  await onHeld?.()
  await new Promise((resolve) => setTimeout(resolve, holdMs))
  for (const socket of sockets) {
    outcomes.push('open')
    socket.removeAllListeners('close')
    socket.destroy()
  }
  const counts: Record<string, number> = {}
  for (const outcome of outcomes) counts[outcome] = (counts[outcome] ?? 0) + 1
  return { counts, writtenMiB: sentBytes / 1024 / 1024 }
}

/** One ordinary request to the console (the sign-in page): its status, or the error's code, within `timeoutMs`. */
export async function consoleAnswers(port: number, timeoutMs = 5000): Promise<number | string> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/anmelden`, { signal: AbortSignal.timeout(timeoutMs) })
    await response.arrayBuffer()
    return response.status
  } catch (error) {
    const failure = error as Error & { cause?: { code?: string } }
    return failure.cause?.code ?? failure.name
  }
}
