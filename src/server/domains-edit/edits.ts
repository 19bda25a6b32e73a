// The edits a request may ask for, checked before anything reads the domains file; the types are the shared ones
// (shared/domains-api.ts, which the console's code imports without zod). The values are those of the domains file's
// schema (sites/settings.ts), which checks the whole result again.
import { z } from 'zod'
import { MAX_EDITS, type DomainEdit, type FieldChanges } from '../../shared/domains-api.ts'
import { LANGUAGES } from '../../shared/language.ts'

const wholeAmount = z.number().int().nonnegative().max(1_000_000_000)

const fieldChangesSchema = z
  .object({
    price: wholeAmount.nullable(),
    priceType: z.enum(['fixed', 'negotiable', 'on-request']).nullable(),
    minOffer: wholeAmount.nullable(),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/)
      .nullable(),
    status: z.enum(['available', 'reserved', 'sold']).nullable(),
    language: z.enum([...LANGUAGES, 'auto']).nullable(),
    listed: z.boolean().nullable(),
    description: z.string().max(500).nullable(),
  })
  .partial()
  .strict() satisfies z.ZodType<FieldChanges>

/** A name as typed: the planner normalises it and refuses anything that is no domain name. */
const nameSchema = z.string().min(1).max(300)

const domainEditSchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('set'), name: nameSchema, changes: fieldChangesSchema }).strict(),
  z.object({ op: z.literal('add'), name: nameSchema, changes: fieldChangesSchema }).strict(),
  z.object({ op: z.literal('remove'), name: nameSchema }).strict(),
  z.object({ op: z.literal('scale'), names: z.array(nameSchema).min(1).max(MAX_EDITS), percent: z.number().min(-99).max(1000) }).strict(),
]) satisfies z.ZodType<DomainEdit>

export const domainEditsSchema = z.array(domainEditSchema).min(1).max(MAX_EDITS)
export { fieldChangesSchema }
