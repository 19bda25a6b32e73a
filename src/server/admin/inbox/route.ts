// The console's JSON API under /api/ (the inbox, an inquiry, replies, the owner's actions, export, the outbox, the
// overview); its pages' state is pages.ts. The admin app registers this behind the session check and the same-origin
// rule.
import { Readable } from 'node:stream'
import type { FastifyRequest } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { inboxPageSchema, inquiryDetailSchema, outboxPageSchema, overviewSchema } from '../../../shared/console-api.ts'
import { HttpError } from '../../http/errors.ts'
import { okBody, sentAsIs } from '../../http/zod-schemas.ts'
import { notifyUrlsFor } from '../../notify/routing.ts'
import { dayOf } from '../../lib/utc-day.ts'
import { auditAs, inquirySubject, numberedSubject } from '../audit/record.ts'
import { CONSOLE_TEXT } from '../texts.ts'
import { inboxDataOf } from './data.ts'
import { actionBody, exportQuery, idParams, inboxQuerySchema, outboxQuery, overviewQuery, replyBody } from './query.ts'
import type { ConsoleApp } from '../decorations.ts'

const detail = { params: idParams, response: { 200: inquiryDetailSchema } }
const resend = { params: idParams, response: { 200: okBody } }
const noticeNumber = numberedSubject('Domain-Benachrichtigung')

/** The audit row's action is the one the body names; a body the schema refuses writes none. */
function actionOf(request: FastifyRequest) {
  const parsed = actionBody.safeParse(request.body)
  return parsed.success ? parsed.data.action : undefined
}

export default async function inboxRoutes(instance: ConsoleApp) {
  const app = instance.withTypeProvider<ZodTypeProvider>()
  const { store, outbox, log } = instance
  const data = inboxDataOf(instance)

  app.get(
    '/api/inbox',
    { schema: { querystring: inboxQuerySchema, response: { 200: inboxPageSchema } } },
    async (request) => (await data.inbox(request.query)).data,
  )
  app.get('/api/inquiries/:id', { schema: detail }, async (request) => data.detail(request.params.id))

  app.post('/api/inquiries/:id/reply', { schema: { ...detail, body: replyBody }, config: auditAs('reply', inquirySubject) }, async (request) => {
    const { id } = request.params
    const { body } = request.body
    const inquiry = await store.getInquiry(id)
    if (!inquiry) throw new HttpError(404, CONSOLE_TEXT.inquiry.notFound)
    const replyId = await store.addReply({ inquiryId: id, body, to: inquiry.email, replyTo: data.mailTo(inquiry.domain), createdAt: Date.now() })
    if (replyId === null) throw new HttpError(404, CONSOLE_TEXT.inquiry.notFound)
    outbox.kick()
    log.info({ inquiry: id, reply: replyId }, 'reply queued')
    return data.detail(id)
  })

  app.post('/api/inquiries/:id/action', { schema: { ...detail, body: actionBody }, config: auditAs(actionOf, inquirySubject) }, async (request) => {
    const { id } = request.params
    const { action } = request.body
    const inquiry = await store.getInquiry(id)
    if (!inquiry) throw new HttpError(404, CONSOLE_TEXT.inquiry.notFound)
    let changed: boolean
    switch (action) {
      case 'archive':
      case 'unarchive':
        changed = await store.setArchived(id, action === 'archive')
        break
      case 'spam':
        changed = await store.markSpam(id)
        break
      case 'not-spam':
        changed = await store.markNotSpam(
          id,
          data.settingsOf(inquiry.domain).mailTo ?? null,
          Date.now(),
          notifyUrlsFor(data.settingsOf(inquiry.domain), instance.config),
        )
        if (changed) outbox.kick()
        break
    }
    if (!changed) throw new HttpError(409, CONSOLE_TEXT.inquiry.actionRefused)
    log.info({ inquiry: id, action }, 'inquiry changed in the console')
    return data.detail(id)
  })

  app.delete('/api/inquiries/:id', { schema: resend, config: auditAs('erase', inquirySubject) }, async (request) => {
    const { id } = request.params
    if (!(await store.deleteInquiry(id))) throw new HttpError(404, CONSOLE_TEXT.inquiry.notFound)
    log.info({ inquiry: id }, 'inquiry erased in the console')
    return { ok: true } as const
  })

  // The file is a stream, which no serializer sees.
  app.get('/api/export', { schema: { querystring: exportQuery, response: { 200: sentAsIs } } }, async (request, reply) => {
    const { format } = request.query
    const batches = data.exportBatches(request.query)
    // Parsed before the first byte goes out, so that a bad filter still gets a 400.
    const first = await batches.next()
    async function* rest() {
      if (!first.done) yield first.value
      yield* batches
    }
    const name = `anfragen-${dayOf(Date.now())}.${format}`
    return reply
      .type(format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8')
      .header('content-disposition', `attachment; filename="${name}"`)
      .send(Readable.from(rest()))
  })

  app.get('/api/outbox', { schema: { querystring: outboxQuery, response: { 200: outboxPageSchema } } }, async (request) => data.outbox(request.query))
  app.post('/api/outbox/:id/resend', { schema: resend, config: auditAs('resend', numberedSubject('Postausgang')) }, async (request) => {
    const { id } = request.params
    if (!(await store.resendMail(id, Date.now()))) throw new HttpError(409, CONSOLE_TEXT.outbox.mailGone)
    outbox.kick()
    log.info({ outbox: id }, 'mail queued again from the console')
    return { ok: true } as const
  })

  app.post('/api/outbox/dns/:id/resend', { schema: resend, config: auditAs('resend', numberedSubject('DNS-Update')) }, async (request) => {
    const { id } = request.params
    if (!(await store.resendDnsUpdate(id, Date.now()))) throw new HttpError(409, CONSOLE_TEXT.outbox.dnsUpdateGone)
    instance.dnsUpdates?.kick()
    log.info({ dnsUpdate: id }, 'DNS update queued again from the console')
    return { ok: true } as const
  })

  app.post('/api/outbox/domain-notices/:id/resend', { schema: resend, config: auditAs('resend', noticeNumber) }, async (request) => {
    const { id } = request.params
    if (!(await store.resendDomainNotice(id, Date.now()))) throw new HttpError(409, CONSOLE_TEXT.outbox.domainNoticeGone)
    instance.domainNotices?.kick()
    log.info({ domainNotice: id }, 'domain notification queued again from the console')
    return { ok: true } as const
  })

  app.get('/api/overview', { schema: { querystring: overviewQuery, response: { 200: overviewSchema } } }, async (request) => data.overview(request.query))
}
