// The console's negotiation: Gegenangebot, Annehmen, Ablehnen on an inquiry, and the page "Vorlagen" where the owner
// edits the mail of each step. Registered by the admin app behind the session check and the same-origin rule.
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import {
  CONSOLE_PATHS,
  NOTE_MAX,
  inquiryDetailSchema,
  templatesPageSchema,
  type DealTemplateKind,
  type InquiryDetail,
  type TemplatesPage,
} from '../../../shared/console-api.ts'
import { MAX_RATES, MIN_RATES } from '../../deal/instalments.ts'
import { MAX_COUNTER_DAYS, takeDealStep, type DealOutcome, type DealRequest, type PlanRequest } from '../../deal/actions.ts'
import { HttpError } from '../../http/errors.ts'
import { orEmpty, sentAsIs } from '../../http/zod-schemas.ts'
import { DEAL_LABEL, DEFAULT_TEMPLATES, PLACEHOLDERS, TEMPLATE_KINDS, TEMPLATE_MAX, templateLanguage, templateProblem } from '../../mail/deal-mail.ts'
import { auditAs, inquirySubject, templateSubject } from '../audit/record.ts'
import { inboxDataOf } from '../inbox/data.ts'
import { sendPage } from '../render.ts'
import type { ConsoleApp } from '../decorations.ts'
import { CONSOLE_TEXT } from '../texts.ts'

const idParams = z.object({ id: z.coerce.number().int().positive() })
const kindParams = z.object({ kind: z.enum(TEMPLATE_KINDS as [DealTemplateKind, ...DealTemplateKind[]]) })
const note = z.string().max(NOTE_MAX, `höchstens ${NOTE_MAX} Zeichen`).optional()
/** An instalment plan (decision 042): 2–60 monthly rates, a down payment in whole units as typed, when the name moves. */
const planBody = z.object({
  rates: z.number().int().min(MIN_RATES, `mindestens ${MIN_RATES} Raten`).max(MAX_RATES, `höchstens ${MAX_RATES} Raten`),
  downPayment: z.string().max(30).optional(),
  transfer: z.enum(['after-last', 'at-once']).optional(),
})
const counterBody = z.object({
  amount: z.union([z.string().max(30), z.number().int().transform(String)], { error: 'Bitte einen Betrag angeben.' }),
  days: z.number().int().min(1).max(MAX_COUNTER_DAYS, `höchstens ${MAX_COUNTER_DAYS} Tage`).optional(),
  note,
  plan: planBody.optional(),
})
const noteBody = z.object({ note, confirmExpired: z.boolean().optional(), plan: planBody.nullable().optional() }).default({})
const templateBody = z.object({ text: z.string().max(TEMPLATE_MAX * 2) })

const planOf = (plan: z.infer<typeof planBody>): PlanRequest => ({
  rates: plan.rates,
  ...(plan.downPayment !== undefined && { downPayment: plan.downPayment }),
  ...(plan.transfer !== undefined && { transfer: plan.transfer }),
})

const T = CONSOLE_TEXT.negotiation

/** The store's refusals as the owner reads them: never a 500 for something the owner can change. */
function refusal(outcome: Exclude<DealOutcome, { status: 'queued' }>): HttpError {
  switch (outcome.status) {
    case 'not-found':
      return new HttpError(404, CONSOLE_TEXT.inquiry.notFound)
    case 'spam':
      return new HttpError(409, T.spam)
    case 'unconfirmed':
      return new HttpError(409, T.unconfirmed)
    case 'counter-expired':
      return new HttpError(409, T.counterExpired(outcome.expiredAt))
    case 'bad-amount':
      return new HttpError(400, T.badAmount(outcome.currency))
    case 'bad-days':
      return new HttpError(400, T.badDays)
    case 'note-too-long':
      return new HttpError(400, T.noteTooLong)
    case 'deal-in-progress':
      return new HttpError(409, T.dealInProgress(outcome.dealId))
    case 'domain-deal-open':
      return new HttpError(409, T.domainDealOpen(outcome.dealId))
    case 'sold':
      return new HttpError(409, T.sold(outcome.dealId))
    case 'checkout-counter':
      return new HttpError(409, T.checkoutCounter)
    case 'bad-plan':
      return new HttpError(400, outcome.problem === 'rates' ? T.badRates : outcome.problem === 'down-payment-amount' ? T.badDownPayment : T.downPaymentTooHigh)
  }
}

async function templatesPage(app: Pick<ConsoleApp, 'store'>): Promise<TemplatesPage> {
  const stored = await app.store.dealTemplates()
  return {
    templates: TEMPLATE_KINDS.map((kind) => ({
      kind,
      label: DEAL_LABEL[kind],
      language: templateLanguage(kind),
      text: stored[kind] ?? DEFAULT_TEMPLATES[kind],
      isDefault: stored[kind] === undefined,
      defaultText: DEFAULT_TEMPLATES[kind],
      placeholders: [...PLACEHOLDERS[kind]],
    })),
  }
}

export default async function dealRoutes(instance: ConsoleApp) {
  const app = instance.withTypeProvider<ZodTypeProvider>()
  const { store, outbox, log, config, domains, secret, renderer } = instance
  const data = inboxDataOf(instance)
  const step = { params: idParams, response: { 200: inquiryDetailSchema } }
  const template = { params: kindParams, response: { 200: templatesPageSchema } }

  async function take(id: number, request: DealRequest): Promise<InquiryDetail> {
    const outcome = await takeDealStep({ store, config, secret, domains: domains.current() }, id, request, Date.now())
    if (outcome.status !== 'queued') throw refusal(outcome)
    outbox.kick()
    log.info({ inquiry: id, reply: outcome.replyId, step: request.kind, ...(outcome.deal && { deal: outcome.deal.id }) }, 'negotiation step queued')
    return data.detail(id)
  }

  app.post('/api/inquiries/:id/counter', { schema: { ...step, body: counterBody }, config: auditAs('counter', inquirySubject) }, async (request) => {
    const { id } = request.params
    const { body } = request
    return take(id, {
      kind: 'counter',
      amount: body.amount,
      ...(body.days !== undefined && { days: body.days }),
      ...(body.note !== undefined && { note: body.note }),
      ...(body.plan && { plan: planOf(body.plan) }),
    })
  })
  app.post('/api/inquiries/:id/accept', { schema: { ...step, body: orEmpty(noteBody) }, config: auditAs('accept', inquirySubject) }, async (request) => {
    const { id } = request.params
    const { body } = request
    return take(id, {
      kind: 'accept',
      ...(body.note !== undefined && { note: body.note }),
      confirmExpired: body.confirmExpired === true,
      ...(body.plan !== undefined && { plan: body.plan === null ? null : planOf(body.plan) }),
    })
  })
  app.post('/api/inquiries/:id/decline', { schema: { ...step, body: orEmpty(noteBody) }, config: auditAs('decline', inquirySubject) }, async (request) => {
    const { id } = request.params
    const { body } = request
    return take(id, { kind: 'decline', ...(body.note !== undefined && { note: body.note }) })
  })

  app.get('/api/templates', { schema: { response: template.response } }, async () => templatesPage(instance))
  app.post('/api/templates/:kind', { schema: { ...template, body: templateBody }, config: auditAs('template', templateSubject) }, async (request) => {
    const { kind } = request.params
    const { text } = request.body
    const problem = templateProblem(kind, text)
    if (problem) throw new HttpError(400, problem)
    await store.setDealTemplate(kind, text.replace(/\r\n?/g, '\n'))
    log.info({ template: kind }, 'mail template changed in the console')
    return templatesPage(instance)
  })
  app.delete('/api/templates/:kind', { schema: template, config: auditAs('template', templateSubject) }, async (request) => {
    const { kind } = request.params
    await store.setDealTemplate(kind, null)
    log.info({ template: kind }, 'mail template back to the default')
    return templatesPage(instance)
  })

  app.get(CONSOLE_PATHS.templates, { schema: { response: { 200: sentAsIs } } }, async (_request, reply) =>
    sendPage(reply, renderer, { page: 'templates', data: await templatesPage(instance) }),
  )
}
