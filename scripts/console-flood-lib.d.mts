export function residentMiB(pid: number): { rss: number; peak: number }
export function floodSignIn(options: {
  port: number
  connections: number
  bodyBytes: number
  holdMs: number
  parallel?: number
  onHeld?: () => unknown
}): Promise<{ counts: Record<string, number>; writtenMiB: number }>
export function consoleAnswers(port: number, timeoutMs?: number): Promise<number | string>
