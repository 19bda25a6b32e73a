// French, Spanish, Italian, Dutch and Polish pages (decision 048): the language the buyer wrote in may be any of them.
import type { SchemaDb, StepContext } from '../migration-step.ts'
import { widenCheck } from './common.ts'

export async function up(db: SchemaDb, { dialect }: StepContext) {
  await widenCheck(db, dialect, 'inquiries', 'language', ['de', 'en', 'fr', 'es', 'it', 'nl', 'pl'], 'de')
}
