// The owner's mail templates of the negotiation and the deal (docs/negotiation.md), rows of the table meta: every
// instance on one database uses the same.
import { DEAL_TEMPLATE_KINDS, type DealTemplateKind } from '../../../shared/console-api.ts'
import type { Q } from './db.ts'

/** Every template's key in `meta`: this and its kind (DEAL_TEMPLATE_KINDS; the German negotiation's kept their names from before). */
const TEMPLATE_PREFIX = 'template:'

/** The owner's edited templates (absent: the default text). */
export async function dealTemplates(q: Q): Promise<Partial<Record<DealTemplateKind, string>>> {
  const rows = await q
    .selectFrom('meta')
    .select(['key', 'value'])
    .where(
      'key',
      'in',
      DEAL_TEMPLATE_KINDS.map((kind) => `${TEMPLATE_PREFIX}${kind}`),
    )
    .execute()
  return Object.fromEntries(rows.map((row) => [row.key.slice(TEMPLATE_PREFIX.length), row.value]))
}

/** Stores the owner's template, or goes back to the default with null. */
export async function setDealTemplate(q: Q, kind: DealTemplateKind, text: string | null): Promise<void> {
  const key = `${TEMPLATE_PREFIX}${kind}`
  if (text === null) {
    await q.deleteFrom('meta').where('key', '=', key).execute()
    return
  }
  await q
    .insertInto('meta')
    .values({ key, value: text })
    .onConflict((oc) => oc.column('key').doUpdateSet((eb) => ({ value: eb.ref('excluded.value') })))
    .execute()
}
