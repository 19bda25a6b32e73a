// Liveness and readiness for a load balancer or a monitor.
import type { FastifyRequest } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { isDirectFromThisMachine } from '../http/client-address.ts'
import type { PublicApp } from '../decorations.ts'
import { RETRY } from '../mail/outbox.ts'

/** Mail that has been failing this long makes /readyz answer 503 (and the outbox log an error). */
const MAIL_FAILING_ALARM_MS = RETRY.alarmAfterMs

/** /readyz writes to the store at most this often; calls in between get the last result. */
const WRITE_PROBE_MS = 1000

const liveness = z.object({ status: z.literal('ok') })
/** The details (store, outbox) only for the owner (showDetails). */
const readiness = z.object({
  status: z.enum(['ok', 'unavailable', 'shutting down']),
  store: z.optional(z.enum(['writable', 'not writable'])),
  outbox: z.optional(
    z.nullable(
      z.object({
        pending: z.number(),
        failed: z.number(),
        oldestPendingAgeSeconds: z.nullable(z.number()),
        mailFailingForSeconds: z.number(),
      }),
    ),
  ),
})

interface HealthOptions {
  /** READYZ_DETAILS: /readyz tells anyone its details, not only a client on this machine. */
  readyzDetails: boolean
}

const healthRoutes = async (instance: PublicApp, options: HealthOptions) => {
  const app = instance.withTypeProvider<ZodTypeProvider>()
  const noStore = { 'cache-control': 'no-store' }

  // Process up and answering: nothing else is checked, so a busy disk never gets a healthy process restarted.
  app.get('/healthz', { schema: { response: { 200: liveness } } }, async (_request, reply) => reply.headers(noStore).send({ status: 'ok' }))

  // A monitor polling fast (or anyone on the internet) must not turn readiness into a write load on the store.
  let probe: { at: number; writable: Promise<boolean> } | undefined
  const storeWritable = (now: number) => {
    if (!probe || now - probe.at >= WRITE_PROBE_MS || now < probe.at) {
      const writable = instance.store.checkWritable(now).then(
        () => true,
        (error: unknown) => {
          app.log.warn({ err: error }, 'readyz: store not writable')
          return false
        },
      )
      probe = { at: now, writable }
    }
    return probe.writable
  }

  // The outbox's figures are for the owner: a monitor on this machine, or everyone with READYZ_DETAILS.
  const showDetails = (request: FastifyRequest) => options.readyzDetails || isDirectFromThisMachine(request)

  app.get('/readyz', { schema: { response: { 200: readiness, 503: readiness } } }, async (request, reply) => {
    const now = Date.now()
    const writable = await storeWritable(now)
    const outbox = await instance.store.outboxHealth().catch(() => null)
    const failingForMs = outbox?.failingSince != null ? now - outbox.failingSince : 0
    const mailFailing = failingForMs > MAIL_FAILING_ALARM_MS
    const ready = writable && outbox !== null && !mailFailing && !app.draining
    const status = app.draining ? 'shutting down' : ready ? 'ok' : 'unavailable'
    reply.code(ready ? 200 : 503).headers(noStore)
    if (!showDetails(request)) return reply.send({ status })
    return reply.send({
      status,
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

export default healthRoutes
