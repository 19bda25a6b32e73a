// Waiting for a child process to say something in its log (a server's "ready" line), never for a time.
import type { ChildProcess } from 'node:child_process'

/**
 * Resolves with what `decide` makes of the child's log once it settles the wait: looked at on each piece the child
 * writes to stderr and when it ends (`ended`; after 'close' its last words are in the log). `decide` returns
 * undefined while it cannot tell, or an Error to reject with. `deadlineMs` bounds a child that hangs; it never decides
 * when the child is ready. `log` is kept by the caller's own listener, added before this one.
 */
export function whenLogSays<T>(
  child: ChildProcess,
  log: () => string,
  decide: (text: string, ended: boolean) => T | Error | undefined,
  deadline: { ms: number; message: string },
): Promise<T> {
  return new Promise((resolve, reject) => {
    const settle = (outcome: T | Error) => {
      clearTimeout(timer)
      child.stderr!.off('data', onLog)
      child.off('close', onEnd)
      if (outcome instanceof Error) reject(outcome)
      else resolve(outcome)
    }
    const look = (ended: boolean) => {
      const outcome = decide(log(), ended)
      if (outcome !== undefined) settle(outcome)
      else if (ended) settle(new Error(`${deadline.message} (it ended):\n${log()}`))
    }
    const onLog = () => look(false)
    const onEnd = () => look(true)
    const timer = setTimeout(() => settle(new Error(`${deadline.message} within ${deadline.ms / 1000} s:\n${log()}`)), deadline.ms)
    child.stderr!.on('data', onLog)
    child.on('close', onEnd)
    look(false)
  })
}
