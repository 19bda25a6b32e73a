// Every route declares its input and its JSON answer with zod (the schemas in src/shared serve form and API alike);
// fastify-type-provider-zod checks them and derives the handler's types from them (docs/decisions/051). Given as the
// instance's compilers factory rather than set afterwards: Fastify then never loads ajv or fast-json-stringify (about
// a fifth of the server's bundled code, decision 034), which it would build for an instance without compilers.
import type { FastifyServerOptions } from 'fastify'
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod'
import { z } from 'zod'

// Fastify's types describe ajv's factories; at run time a factory returns the compiler that gets each route's schema.
export const zodSchemas = {
  compilersFactory: { buildValidator: () => validatorCompiler, buildSerializer: () => serializerCompiler },
} as unknown as NonNullable<FastifyServerOptions['schemaController']>

/** The one error body (errors.ts). */
export const errorBody = z.object({ error: z.string(), fields: z.optional(z.record(z.string(), z.string())) })

/**
 * A page or file sent as a string or Buffer: Fastify hands such a payload to no serializer, so declaring it costs the
 * request nothing and its bytes stay the renderer's own.
 */
export const sentAsIs = z.unknown()

export const okBody = z.object({ ok: z.literal(true) })

/** A body that may be left out (or be null) where the route has nothing it must be told: read as {}. */
export const orEmpty = <T extends z.ZodType>(schema: T) => z.preprocess((value) => value ?? {}, schema)
