// The table inquiries, as far as the deal's use cases read it in their unit of work (decision 060): the buyer's
// inquiry, whose columns hold the invoice address. The inbox's queries are still the Store's (store/inbox.ts).
import { INQUIRY_COLUMNS, toInquiry } from '../inbox.ts'
import type { StoredInquiry } from '../inquiry-types.ts'
import type { Q } from './db.ts'

export async function getInquiry(q: Q, id: number): Promise<StoredInquiry | null> {
  const row = await q.selectFrom('inquiries as i').select(INQUIRY_COLUMNS).where('i.id', '=', id).executeTakeFirst()
  return row ? toInquiry(row) : null
}
