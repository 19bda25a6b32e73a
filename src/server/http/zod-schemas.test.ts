import Fastify from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { TEXT } from '../../shared/texts.ts'
import { sendFailure } from './errors.ts'
import { zodSchemas } from './zod-schemas.ts'

function appWithRoute() {
  const app = Fastify({ schemaController: zodSchemas })
  app.setErrorHandler((error, request, reply) => sendFailure(request, reply, error))
  app.withTypeProvider<ZodTypeProvider>().post(
    '/things/:id',
    {
      schema: {
        params: z.object({ id: z.coerce.number().int().positive() }),
        body: z.object({ name: z.string().max(5, 'höchstens 5 Zeichen') }),
        response: { 200: z.object({ id: z.number(), name: z.string() }) },
      },
    },
    async (request) =>
      request.body.name === 'leak' ? { id: request.params.id, name: 'x', secret: 'never sent' } : { id: request.params.id, name: request.body.name },
  )
  app
    .withTypeProvider<ZodTypeProvider>()
    .get('/broken', { schema: { response: { 200: z.object({ ok: z.literal(true) }) } } }, async () => ({ ok: false }) as never)
  return app
}

describe('a Fastify instance that checks routes with their zod schemas', () => {
  let app: ReturnType<typeof appWithRoute>
  beforeEach(() => {
    app = appWithRoute()
  })
  afterEach(() => app.close())

  it('hands the handler the values the schema parsed (params coerced to a number)', async () => {
    const res = await app.inject({ method: 'POST', url: '/things/7', payload: { name: 'Anna' } })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ id: 7, name: 'Anna' })
  })

  it('answers a request its schema refuses with the one error body, naming the field in the schema’s words', async () => {
    const res = await app.inject({ method: 'POST', url: '/things/7', payload: { name: 'too long' } })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ error: 'name: höchstens 5 Zeichen' })
  })

  it('checks the params before the body and calls a missing body the whole input', async () => {
    expect((await app.inject({ method: 'POST', url: '/things/0', payload: { name: 'x' } })).json().error).toMatch(/^id: /)
    const res = await app.inject({ method: 'POST', url: '/things/7' })
    expect(res.statusCode).toBe(400)
    expect(res.json().error).toMatch(/^Eingabe: /)
  })

  it('sends only what the response schema names', async () => {
    expect((await app.inject({ method: 'POST', url: '/things/7', payload: { name: 'leak' } })).json()).toEqual({ id: 7, name: 'x' })
  })

  it('answers an answer that breaks its response schema with a 500 that hides why', async () => {
    const res = await app.inject('/broken')
    expect(res.statusCode).toBe(500)
    expect(res.json()).toEqual({ error: TEXT.internal })
  })
})
