// The console's page "Datenschutz": what is stored about one e-mail address (Auskunft, GDPR Art. 15) and erasing it
// (Löschen, Art. 17). Both are POSTs: the address stays out of URLs, logs and the browser's history, and the admin
// app's same-origin rule and console header apply to both. The session guard answers first.
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { PRIVACY_PATH } from '../../../shared/privacy-api.ts'
import { HttpError } from '../../http/errors.ts'
import { erasePerson } from '../../privacy/erase.ts'
import { accessReport, erasedReport, looksLikeAddress } from '../../privacy/report.ts'
import { noteAudit } from '../audit/record.ts'
import type { ConsoleDeps } from '../deps.ts'
import { sendPage, type ConsoleRenderer } from '../render.ts'

const body = z.object({ email: z.string().trim().refine(looksLikeAddress, 'Bitte eine E-Mail-Adresse eingeben.') })

function emailOf(value: unknown): string {
  const result = body.safeParse(value)
  if (!result.success) throw new HttpError(400, result.error.issues.map((issue) => issue.message).join('; '))
  return result.data.email
}

export default async function privacyRoutes(app: FastifyInstance, deps: ConsoleDeps & { renderer: ConsoleRenderer }) {
  const { store, config, log, renderer } = deps

  app.get(PRIVACY_PATH, async (_request, reply) => sendPage(reply, renderer, { page: 'privacy' }))

  app.post('/api/privacy/access', async (request) => {
    const email = emailOf(request.body)
    return accessReport(email, await store.personData(email))
  })

  app.post('/api/privacy/erase', async (request) => {
    const email = emailOf(request.body)
    const erased = erasedReport(await erasePerson(store, config.dataDir, email))
    // Counts and ids only: the address itself must not live on in the log.
    log.info({ inquiries: erased.inquiries.map(({ id }) => id), replies: erased.replies.length, mailFiles: erased.mailFiles }, 'person erased in the console')
    // Neither the address nor the ids: the row outlives what it erased, and must not lead back to the person.
    noteAudit(request, { detail: `${erased.inquiries.length} ${erased.inquiries.length === 1 ? 'Anfrage' : 'Anfragen'}` })
    return erased
  })
}
