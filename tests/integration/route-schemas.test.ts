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

type Part = 'params' | 'querystring' | 'body' | 'response'
const has = (route: RouteOptions, part: Part) => route.schema !== undefined && (route.schema as Record<string, unknown>)[part] !== undefined

/** The parts a route must declare: its answer always, its params where the path has some, a body where it changes something. */
function missingParts(route: RouteOptions): Part[] {
  const wanted: Part[] = ['response']
  if (route.url.includes(':')) wanted.push('params')
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
})
