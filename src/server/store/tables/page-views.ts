// The table page_views (decision 060): the page views counted in memory and added up per domain and UTC day (the
// statistics read them with the visits since decision 049, tables/inquiries.ts dailyStats).
import type { Q } from './db.ts'

/** Multi-row inserts stay far below both databases' limits on bound parameters. */
const PAGE_VIEW_CHUNK = 1000

/** Adds the counts to the day's rows; run in one transaction, so that a failure adds none of them. */
export async function addPageViews(q: Q, rows: readonly { domain: string; day: string; views: number }[]): Promise<void> {
  for (let start = 0; start < rows.length; start += PAGE_VIEW_CHUNK) {
    await q
      .insertInto('page_views')
      .values(rows.slice(start, start + PAGE_VIEW_CHUNK))
      .onConflict((oc) => oc.columns(['domain', 'day']).doUpdateSet((eb) => ({ views: eb('page_views.views', '+', eb.ref('excluded.views')) })))
      .execute()
  }
}
