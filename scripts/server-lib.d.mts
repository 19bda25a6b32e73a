import type { ChildProcess } from 'node:child_process'

export const SERVER_NODE_FLAGS: string[]
export const SERVER_ENV: Record<string, string>
export const SERVER_MAIN: string
export function freePort(): Promise<number>
export function startServer(port: number, env: Record<string, string>): Promise<{ child: ChildProcess; stop(): Promise<void> }>
