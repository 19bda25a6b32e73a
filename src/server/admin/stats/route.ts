// GET /api/overview.csv?days=N&sep=,|; — the Übersicht's figures per name as CSV (decision 049); behind the session
// like every console route.
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { OVERVIEW_DAYS } from '../../../shared/console-api.ts'
import { STATS_CSV_PATH } from '../../../shared/stats-api.ts'
import { CSV_SEPARATORS } from '../../export/csv.ts'
import { dayOf } from '../../lib/utc-day.ts'
import { statsCsv } from '../../visits/csv.ts'
import { visitorStats } from '../../visits/report.ts'
import { sentAsIs } from '../../http/zod-schemas.ts'
import type { ConsoleApp } from '../decorations.ts'

const statsCsvQuery = z.object({
  days: z.coerce
    .number()
    .pipe(z.union(OVERVIEW_DAYS.map((days) => z.literal(days))))
    .default(30),
  sep: z.enum(CSV_SEPARATORS).default(','),
})

export default async function statsRoutes(app: ConsoleApp) {
  // The CSV is a string, which no serializer sees.
  app
    .withTypeProvider<ZodTypeProvider>()
    .get(STATS_CSV_PATH, { schema: { querystring: statsCsvQuery, response: { 200: sentAsIs } } }, async (request, reply) => {
      const { days, sep } = request.query
      const stats = await visitorStats(app, { days })
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="uebersicht-${days}-tage-${dayOf(Date.now())}.csv"`)
        .send(statsCsv(stats, sep))
    })
}
