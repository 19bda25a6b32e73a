import Fastify from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { zodOnly } from './zod-only.ts'

describe('a Fastify instance that checks with zod only', () => {
  const app = Fastify({ schemaController: zodOnly })
  afterEach(() => app.close())

  it('serves routes without a JSON schema as usual', async () => {
    app.get('/plain', async () => ({ ok: true }))
    expect((await app.inject('/plain')).json()).toEqual({ ok: true })
  })

  it('refuses a route that declares a JSON schema, naming the route and what to do instead', async () => {
    const withSchema = Fastify({ schemaController: zodOnly })
    withSchema.post('/typed', { schema: { body: { type: 'object' } } }, async () => 'never')
    await expect(withSchema.ready()).rejects.toThrow(/POST \/typed: this server checks requests with zod/)
  })
})
