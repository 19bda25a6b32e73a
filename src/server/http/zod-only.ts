// Fastify loads its JSON-schema compilers (ajv and fast-json-stringify, about a fifth of the server's bundled code)
// for every instance that does not name compilers of its own, even one that never declares a JSON schema. Requests
// here are checked with zod (one schema shared by form and API), so these compilers stand in: nothing of ajv is
// loaded, and a JSON schema on a route is refused when the route is added, with this message, rather than checked
// by a second validator beside zod (docs/decisions/034).
import type { FastifyServerOptions } from 'fastify'

function refuse({ method, url }: { method?: string; url?: string }): never {
  throw new Error(`${method ?? ''} ${url ?? ''}: this server checks requests with zod, not with JSON schemas; parse the request with its zod schema instead`)
}

const refuseEveryRoute = () => refuse

// Fastify's types describe ajv's compilers; at run time a compiler gets the route ({ schema, method, url, httpPart }).
export const zodOnly = {
  compilersFactory: { buildValidator: refuseEveryRoute, buildSerializer: refuseEveryRoute },
} as unknown as NonNullable<FastifyServerOptions['schemaController']>
