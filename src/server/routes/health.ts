// Liveness and readiness for a load balancer or a monitor.
import type { FastifyInstance } from 'fastify'
import { RETRY } from '../mail/outbox.ts'
import type { Store } from '../store/types.ts'

/** Mail that has been failing this long makes /readyz answer 503 (and the outbox log an error). */
export const MAIL_FAILING_ALARM_MS = RETRY.alarmAfterMs

export default async function healthRoutes(app: FastifyInstance, deps: { store: Store }) {
  const noStore = { 'cache-control': 'no-store' }

  // Process up and answering: nothing else is checked, so a busy disk never gets a healthy process restarted.
  app.get('/healthz', async (_request, reply) => reply.headers(noStore).send({ status: 'ok' }))

  app.get('/readyz', async (_request, reply) => {
    const now = Date.now()
    let writable = true
    try {
      await deps.store.checkWritable(now)
    } catch (error) {
      writable = false
      reply.log.warn({ err: error }, 'readyz: store not writable')
    }
    const outbox = await deps.store.outboxHealth().catch(() => null)
    const failingForMs = outbox?.failingSince != null ? now - outbox.failingSince : 0
    const mailFailing = failingForMs > MAIL_FAILING_ALARM_MS
    const ready = writable && outbox !== null && !mailFailing && !app.draining
    return reply
      .code(ready ? 200 : 503)
      .headers(noStore)
      .send({
        status: app.draining ? 'shutting down' : ready ? 'ok' : 'unavailable',
        store: writable ? 'writable' : 'not writable',
        outbox: outbox && {
          pending: outbox.pending,
          failed: outbox.failed,
          oldestPendingAgeSeconds: outbox.oldestPendingAt === null ? null : Math.round((now - outbox.oldestPendingAt) / 1000),
          mailFailingForSeconds: Math.round(failingForMs / 1000),
        },
      })
  })
}
