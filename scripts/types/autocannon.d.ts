// autocannon ships no types: the part of its API the benches use (https://github.com/mcollina/autocannon#api).
declare module 'autocannon' {
  export interface Request {
    method?: string
    path?: string
    headers?: Record<string, string>
    body?: string
  }
  export interface Options {
    url: string
    connections?: number
    duration?: number
    overallRate?: number
    method?: string
    headers?: Record<string, string>
    body?: string
    requests?: { setupRequest?: (request: Request) => Request }[]
  }
  export interface Result {
    requests: { average: number; total: number }
    latency: { p50: number; p99: number }
    statusCodeStats: Record<string, { count: number }>
    duration: number
    errors: number
    timeouts: number
  }
  /** The run: a promise of its result, and an emitter of each answer ("response": client, status, bytes, ms as a fraction). */
  export interface Instance extends PromiseLike<Result> {
    on(event: 'response', listener: (client: unknown, statusCode: number, bytes: number, responseTimeMs: number) => void): this
  }
  export default function autocannon(options: Options): Instance
}
