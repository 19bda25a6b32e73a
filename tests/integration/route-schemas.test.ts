// Every route of both apps (the public one and the console) declares its schema: what it takes (params, query,
// body) and what it answers, so that validation, the handler's types and the documented contract come from one
// place (docs/decisions/051). The routes are read as Fastify adds them, by an onRoute hook this test puts on every
// instance before buildApp adds anything to it.
import type { FastifyInstance, RouteOptions } from 'fastify'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startApp, type TestApp } from '../helpers/app.ts'

const added = vi.hoisted(() => new Map<unknown, RouteOptions[]>())

vi.mock('fastify', async (importOriginal) => {
  const fastify = await importOriginal<typeof import('fastify')>()
  const withRouteList = ((options?: object) => {
    const instance = (fastify.default as unknown as (options?: object) => FastifyInstance)(options)
    const routes: RouteOptions[] = []
    added.set(instance, routes)
    instance.addHook('onRoute', (route) => void routes.push(route))
    return instance
  }) as unknown as typeof fastify.default
  return { ...fastify, default: withRouteList }
})

const CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/**
 * Routes that change something but declare no body, each for a reason. A new route that changes something must
 * declare its body, or be added here with its reason.
 */
const NO_BODY_SCHEMA: Record<string, string> = {
  // Forms posted by a browser, with or without script: their own code checks the fields, so that a wrong one is
  // answered with the page and its hints in the visitor's language, not a JSON error.
  'POST /bestaetigen': 'the confirmation form: one field, the signed link token, checked by checkConfirmToken',
  'POST /kaufen': "the checkout form: checked field by field by the checkout's own schema, answered with the page",
  'POST /kauf/:token': "the buyer's deal page form: its `action` field names the step, any other value shows the page again",
  // Everything these need is in the path or the session.
  'POST /api/session/passkey/options': 'takes nothing: the challenge is made for whoever asks',
  'DELETE /api/session': 'signs out the session of the cookie',
  'DELETE /api/inquiries/:id': 'the inquiry is named by the path',
  'POST /api/outbox/:id/resend': 'the mail is named by the path',
  'POST /api/outbox/dns/:id/resend': 'the update is named by the path',
  'POST /api/outbox/domain-notices/:id/resend': 'the notice is named by the path',
  'DELETE /api/templates/:kind': 'the template is named by the path',
  'POST /api/deals/:id/paid': 'the deal is named by the path; the day is the day it is marked',
  'POST /api/deals/:id/rates/:number/paid': 'the rate is named by the path',
  'POST /api/deals/:id/rates/:number/wait': 'the rate is named by the path',
  'POST /api/deals/:id/invoice': 'the deal is named by the path; the invoice follows from its state',
  'POST /api/passkeys/options': 'takes nothing: the challenge is made for the signed-in owner',
  'DELETE /api/passkeys/:id': 'the passkey is named by the path',
  'POST /api/second-factor/setup': 'takes nothing: a new secret is drawn',
  'DELETE /api/sessions/:ref': 'the session is named by the path',
  'DELETE /api/sessions': 'ends every session but this one',
}

type Part = 'params' | 'querystring' | 'body' | 'response'
const has = (route: RouteOptions, part: Part) => route.schema !== undefined && (route.schema as Record<string, unknown>)[part] !== undefined

/** The parts a route must declare: its answer always, its params where the path has some, a body where it changes something (but see NO_BODY_SCHEMA). */
function missingParts(route: RouteOptions): Part[] {
  const wanted: Part[] = ['response']
  if (route.url.includes(':')) wanted.push('params')
  const changing = ([] as string[]).concat(route.method).filter((method) => CHANGING.has(method))
  if (changing.some((method) => NO_BODY_SCHEMA[`${method} ${route.url}`] === undefined)) wanted.push('body')
  return wanted.filter((part) => !has(route, part))
}

/** @fastify/static's routes (one per file of the build, and the console's /assets/*) take nothing but the file's path. */
const isStaticFile = (route: RouteOptions) => route.schema !== undefined && Object.keys(route.schema).join() === 'hide'

function withoutSchema(app: FastifyInstance): string[] {
  const routes = added.get(app) ?? []
  return routes
    .filter((route) => !isStaticFile(route))
    .flatMap((route) => {
      const missing = missingParts(route)
      const methods = ([] as string[]).concat(route.method)
      return missing.length === 0 ? [] : methods.map((method) => `${method} ${route.url} (no ${missing.join(', ')})`)
    })
}

describe('the schemas of the routes', () => {
  let app: TestApp
  beforeAll(async () => {
    app = await startApp()
  })
  afterAll(() => app?.close())

  it('lists the routes of both apps as Fastify added them', () => {
    const urls = (instance: FastifyInstance) => (added.get(instance) ?? []).map((route) => `${String(route.method)} ${route.url}`)
    expect(urls(app.app)).toEqual(expect.arrayContaining(['GET /', 'POST /api/contact', 'GET /readyz']))
    expect(urls(app.app.admin!)).toEqual(expect.arrayContaining(['GET /api/inbox', 'POST /api/inquiries/:id/reply', 'DELETE /api/session']))
  })

  it('every route of the public app declares its schema', () => {
    expect(withoutSchema(app.app)).toEqual([])
  })

  it('every route of the console declares its schema', () => {
    expect(withoutSchema(app.app.admin!)).toEqual([])
  })

  it('every route said to take no body schema exists and changes something, and declares none', () => {
    const routes = [...(added.get(app.app) ?? []), ...(added.get(app.app.admin!) ?? [])]
    const changing = new Map(
      routes.flatMap((route) =>
        ([] as string[])
          .concat(route.method)
          .filter((method) => CHANGING.has(method))
          .map((method): [string, RouteOptions] => [`${method} ${route.url}`, route]),
      ),
    )
    for (const name of Object.keys(NO_BODY_SCHEMA)) {
      expect(changing.has(name), name).toBe(true)
      expect(has(changing.get(name)!, 'body'), `${name} has a body schema: take it off the list`).toBe(false)
    }
  })
})
