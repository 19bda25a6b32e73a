// The console's page "Datenschutz": what is stored about one e-mail address (Auskunft, GDPR Art. 15) and erasing it
// (Löschen, Art. 17). Both are POSTs: the address stays out of URLs, logs and the browser's history, and the admin
// app's same-origin rule and console header apply to both. The session guard answers first.
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { PRIVACY_PATH, accessReportSchema, erasedReportSchema } from '../../../shared/privacy-api.ts'
import { sentAsIs } from '../../http/zod-schemas.ts'
import { erasePerson } from '../../privacy/erase.ts'
import { accessReport, erasedReport, looksLikeAddress } from '../../privacy/report.ts'
import { noteAudit, type AuditConfig } from '../audit/record.ts'
import { sendPage } from '../render.ts'
import type { ConsoleApp } from '../decorations.ts'
import { CONSOLE_TEXT } from '../texts.ts'

const ASK_FOR_ADDRESS = CONSOLE_TEXT.privacy.askForAddress
const body = z.object({ email: z.string().trim().refine(looksLikeAddress, ASK_FOR_ADDRESS) })

export default async function privacyRoutes(instance: ConsoleApp) {
  const app = instance.withTypeProvider<ZodTypeProvider>()
  const { store, config, log, renderer } = instance

  app.get(PRIVACY_PATH, { schema: { response: { 200: sentAsIs } } }, async (_request, reply) => sendPage(reply, renderer, { page: 'privacy' }))

  const askFor = <T extends z.core.$ZodType>(answer: T, audit: AuditConfig) => ({
    schema: { body, response: { 200: answer } },
    config: { badInput: ASK_FOR_ADDRESS, audit },
  })
  app.post('/api/privacy/access', askFor(accessReportSchema, null), async (request) => {
    const { email } = request.body
    return accessReport(email, await store.personData(email))
  })

  app.post('/api/privacy/erase', askFor(erasedReportSchema, 'forget'), async (request) => {
    const { email } = request.body
    const erased = erasedReport(await erasePerson(store, config.dataDir, email))
    // Counts and ids only: the address itself must not live on in the log.
    log.info({ inquiries: erased.inquiries.map(({ id }) => id), replies: erased.replies.length, mailFiles: erased.mailFiles }, 'person erased in the console')
    // Neither the address nor the ids: the row outlives what it erased, and must not lead back to the person.
    noteAudit(request, { detail: `${erased.inquiries.length} ${erased.inquiries.length === 1 ? 'Anfrage' : 'Anfragen'}` })
    return erased
  })
}
