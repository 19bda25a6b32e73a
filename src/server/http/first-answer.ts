// Waits for a server's first answer: what may wait until the first visitor has been served (serve.ts builds the
// console then) waits here, or for `ms` when no request comes.
import type http from 'node:http'

export function firstAnswer(server: http.Server, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer)
      server.off('request', onRequest)
      resolve()
    }
    const onRequest = (_request: http.IncomingMessage, response: http.ServerResponse) => response.once('close', done)
    const timer = setTimeout(done, ms)
    server.on('request', onRequest)
  })
}
