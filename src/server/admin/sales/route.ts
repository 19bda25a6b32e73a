// The console's deals (docs/deals.md): the page "Verkäufe" and the owner's steps on a deal: Zahlung erhalten,
// Übertragen (the transfer code, sealed at once), Abschließen, Abbrechen (with a reason mailed to the buyer).
// Registered by the admin app behind the session check and the same-origin rule.
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { AuditAction } from '../../../shared/audit-api.ts'
import { CONSOLE_PATHS } from '../../../shared/console-api.ts'
import {
  DEAL_STATES,
  dealInvoicesSchema,
  dealSummarySchema,
  openDealSchema,
  salesPageSchema,
  type DealState,
  type DealSummary,
  type SalesPage,
} from '../../../shared/deal-api.ts'
import { dealSummary } from '../../deal/summary.ts'
import { TRANSFER_CODE_MAX } from '../../deal/seal.ts'
import { endOfBerlinDay } from '../../deal/due-date.ts'
import {
  cancelDeal,
  changeDeadlines,
  completeDeal,
  markPaid,
  MAX_DEADLINE_DAYS,
  REASON_MAX,
  recordTransfer,
  type DealStepContext,
  type DeadlineInput,
  type StepOutcome,
} from '../../deal/steps.ts'
import { markRatePaid, waitForRate, type RateOutcome } from '../../deal/rates.ts'
import { HttpError } from '../../http/errors.ts'
import { orEmpty, sentAsIs } from '../../http/zod-schemas.ts'
import { invoiceFile } from '../../invoice/files.ts'
import { dealInvoices, issueMissingInvoice, type IssueOutcome } from '../../invoice/console.ts'
import { auditAs, dealSubject } from '../audit/record.ts'
import { sendPage } from '../render.ts'
import type { ConsoleApp } from '../decorations.ts'
import { CONSOLE_TEXT } from '../texts.ts'

const idParams = z.object({ id: z.coerce.number().int().positive() })
const listQuery = z.object({ status: z.enum(DEAL_STATES as [DealState, ...DealState[]]).optional() })
const transferBody = z.object({
  code: z.string().max(TRANSFER_CODE_MAX, `Transfer-Code: höchstens ${TRANSFER_CODE_MAX} Zeichen`).optional(),
  note: z.string().max(REASON_MAX, `Notiz: höchstens ${REASON_MAX} Zeichen`).optional(),
  notifyOthers: z.boolean().optional(),
})
const completeBody = z.object({ notifyOthers: z.boolean().optional() }).default({})
const day = z.string().max(20).optional()
const deadlineBody = z
  .object({
    payment: day,
    transfer: day,
    days: z.number().int().min(1, 'mindestens 1 Tag').max(MAX_DEADLINE_DAYS, `höchstens ${MAX_DEADLINE_DAYS} Tage`).optional(),
  })
  .refine(
    (body) => [body.payment, body.transfer, body.days].filter((value) => value !== undefined).length === 1,
    'bitte genau eine neue Frist angeben (Zahlung, Übertragung oder Tage)',
  )
const rateParams = z.object({ id: z.coerce.number().int().positive(), number: z.coerce.number().int().min(0).max(60) })
const cancelBody = z.object({ reason: z.string().max(REASON_MAX, `Begründung: höchstens ${REASON_MAX} Zeichen`).optional() }).default({})

const T = CONSOLE_TEXT.sale

/** Each step's row in the audit trail names the deal, its inquiry and its domain. */
const dealRow = (action: AuditAction) => auditAs(action, dealSubject)

/** The steps' refusals as the owner reads them: never a 500 for something the owner can change. */
function refusal(outcome: Exclude<RateOutcome, { status: 'done' }>): HttpError {
  switch (outcome.status) {
    case 'not-found':
      return new HttpError(404, T.notFound)
    case 'wrong-state':
      return new HttpError(409, T.wrongState(outcome.current))
    case 'bad-code':
      return new HttpError(400, T.badTransferCode)
    case 'reason-too-long':
      return new HttpError(400, T.reasonTooLong)
    case 'past-date':
      return new HttpError(400, T.deadlinePast)
    case 'too-far':
      return new HttpError(400, T.deadlineTooFar)
    case 'already-paid':
      return new HttpError(409, T.rateAlreadyPaid)
  }
}

function invoiceRefusal(outcome: Exclude<IssueOutcome, { status: 'done' }>): HttpError {
  switch (outcome.status) {
    case 'not-found':
      return refusal(outcome)
    case 'wrong-state':
      return new HttpError(409, T.invoiceNotYet(outcome.current))
    case 'off':
      return new HttpError(409, T.invoicesOff)
    case 'no-address':
      return new HttpError(409, T.noBillingAddress)
    case 'invoiced':
      return new HttpError(409, T.invoiced)
  }
}

/** The new deadline as the store takes it: a day (YYYY-MM-DD, its end in Berlin) or days from now. */
function deadlineOf(body: z.infer<typeof deadlineBody>): DeadlineInput {
  if (body.days !== undefined) return { days: body.days }
  const [field, text] = body.payment !== undefined ? (['paymentDueAt', body.payment] as const) : (['transferDueAt', body.transfer!] as const)
  const at = endOfBerlinDay(text)
  if (at === null) throw new HttpError(400, T.badDeadline)
  return { [field]: at }
}

export default async function salesRoutes(instance: ConsoleApp) {
  const app = instance.withTypeProvider<ZodTypeProvider>()
  const { store, outbox, log, config, domains, renderer } = instance
  const context = (): DealStepContext => ({ store, config, domains: domains.current() })
  const step = { params: idParams, response: { 200: dealSummarySchema } }
  const rateStep = { params: rateParams, response: { 200: dealSummarySchema } }
  const invoices = { params: idParams, response: { 200: dealInvoicesSchema } }
  const summary = (deal: Parameters<typeof dealSummary>[0]) => dealSummary(deal, config, Date.now())

  async function salesPage(status?: DealState): Promise<SalesPage> {
    const deals = await store.listDeals(status ? { status } : {})
    if (!config.invoice) return { deals: deals.map(summary) }
    const invoices = await Promise.all(deals.map(async (deal) => [deal.id, await dealInvoices({ store, config }, deal)] as const))
    return { deals: deals.map(summary), invoices: Object.fromEntries(invoices) }
  }

  async function take(id: number, step: string, run: (context: DealStepContext, now: number) => Promise<StepOutcome | RateOutcome>): Promise<DealSummary> {
    const outcome = await run(context(), Date.now())
    if (outcome.status !== 'done') throw refusal(outcome)
    outbox.kick()
    // Never the code, nor the reason: what the owner typed stays in the store and the buyer's mail.
    const soldNotices = 'soldNotices' in outcome ? outcome.soldNotices : undefined
    log.info({ deal: id, step, status: outcome.deal.status, ...(soldNotices !== undefined && { soldNotices }) }, 'deal step taken in the console')
    if (outcome.deal.status === 'completed') instance.onDealCompleted(outcome.deal.domain)
    return { ...summary(outcome.deal), ...(soldNotices !== undefined && { soldNotices }) }
  }

  app.get('/api/deals', { schema: { querystring: listQuery, response: { 200: salesPageSchema } } }, async (request) => salesPage(request.query.status))
  app.get('/api/deals/:id', { schema: step }, async (request) => {
    const deal = await store.getDeal(request.params.id)
    if (!deal) throw refusal({ status: 'not-found' })
    return summary(deal)
  })
  app.get('/api/inquiries/:id/deal', { schema: { params: idParams, response: { 200: openDealSchema } } }, async (request) => {
    const deal = await store.openDealOf(request.params.id)
    return { deal: deal && summary(deal) }
  })
  app.post('/api/deals/:id/paid', { schema: step, config: dealRow('deal-paid') }, async (request) => {
    const { id } = request.params
    return take(id, 'paid', (context, now) => markPaid(context, id, now))
  })
  app.post('/api/deals/:id/transfer', { schema: { ...step, body: orEmpty(transferBody) }, config: dealRow('deal-transfer') }, async (request) => {
    const { id } = request.params
    const { body } = request
    return take(id, 'transfer', (context, now) =>
      recordTransfer(
        context,
        id,
        {
          ...(body.code !== undefined && { code: body.code }),
          ...(body.note !== undefined && { note: body.note }),
          notifyOthers: body.notifyOthers === true,
        },
        now,
      ),
    )
  })
  app.post('/api/deals/:id/complete', { schema: { ...step, body: orEmpty(completeBody) }, config: dealRow('deal-complete') }, async (request) => {
    const { id } = request.params
    const { notifyOthers } = request.body
    return take(id, 'complete', (context, now) => completeDeal(context, id, 'owner', now, notifyOthers === true))
  })
  app.post('/api/deals/:id/deadline', { schema: { ...step, body: orEmpty(deadlineBody) }, config: dealRow('deal-deadline') }, async (request) => {
    const { id } = request.params
    const deadline = deadlineOf(request.body)
    return take(id, 'deadline', (context, now) => changeDeadlines(context, id, deadline, now))
  })
  // An instalment plan's rates (decision 042): one marked received (the buyer mailed; the last one is the deal's
  // payment), or the owner's decision to wait for an overdue one.
  app.post('/api/deals/:id/rates/:number/paid', { schema: rateStep, config: dealRow('deal-rate-paid') }, async (request) => {
    const { id, number } = request.params
    return take(id, 'rate-paid', (context, now) => markRatePaid(context, id, number, 'owner', now))
  })
  app.post('/api/deals/:id/rates/:number/wait', { schema: rateStep, config: dealRow('deal-rate-wait') }, async (request) => {
    const { id, number } = request.params
    return take(id, 'rate-wait', (context, now) => waitForRate(context, id, number, now))
  })
  app.post('/api/deals/:id/cancel', { schema: { ...step, body: orEmpty(cancelBody) }, config: dealRow('deal-cancel') }, async (request) => {
    const { id } = request.params
    const { reason } = request.body
    return take(id, 'cancel', (context, now) => cancelDeal(context, id, 'owner', reason ?? '', now))
  })

  // Invoices (decision 038): a deal's list, and each PDF as it was issued (drawn once, the same bytes ever after).
  app.get('/api/deals/:id/invoices', { schema: invoices }, async (request) => {
    const deal = await store.getDeal(request.params.id)
    if (!deal) throw refusal({ status: 'not-found' })
    return dealInvoices({ store, config }, deal)
  })
  // "Rechnung ausstellen": the invoice a paid deal lacks (its buyer gave the address after the payment).
  app.post('/api/deals/:id/invoice', { schema: invoices, config: dealRow('deal-invoice') }, async (request) => {
    const { id } = request.params
    const outcome = await issueMissingInvoice({ store, config }, id, Date.now())
    if (outcome.status !== 'done') throw invoiceRefusal(outcome)
    log.info({ deal: id, invoice: outcome.invoiceId }, 'invoice issued in the console')
    const deal = await store.getDeal(id)
    if (!deal) throw refusal({ status: 'not-found' })
    return dealInvoices({ store, config }, deal)
  })
  // The PDF is a Buffer, which no serializer sees.
  app.get('/api/invoices/:id', { schema: { params: idParams, response: { 200: sentAsIs } } }, async (request, reply) => {
    const file = await invoiceFile(store, request.params.id)
    if (!file) throw new HttpError(404, T.invoiceNotFound)
    return reply
      .type('application/pdf')
      .header('content-disposition', `attachment; filename="${file.filename}"`)
      .header('x-content-sha256', file.sha256)
      .send(file.pdf)
  })

  app.get(CONSOLE_PATHS.sales, { schema: { response: { 200: sentAsIs } } }, async (_request, reply) =>
    sendPage(reply, renderer, { page: 'sales', data: await salesPage() }),
  )
}
