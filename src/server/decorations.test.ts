// Each app's type carries its own decorations and what both share, never the other app's (decision 061): the
// `@ts-expect-error` lines below fail `npm run typecheck` the day one of them type-checks again.
import { describe, expect, it } from 'vitest'
import type { ConsoleApp } from './admin/decorations.ts'
import type { PublicApp } from './decorations.ts'

describe('the apps’ types', () => {
  it('give a public route what both apps share and its own, but nothing of the console', () => {
    const publicRoutes = async (app: PublicApp) => {
      void [app.store, app.outbox, app.domains, app.sites, app.view, app.jobs]
      // @ts-expect-error the console's renderer is undefined on the public app
      void app.renderer
      // @ts-expect-error so is its zod-typed instance's
      void app.withTypeProvider().onDealCompleted
    }
    expect(publicRoutes).toBeTypeOf('function')
  })

  it('give a console route nothing of the public app', () => {
    const consoleRoutes = async (app: ConsoleApp) => {
      void [app.store, app.renderer, app.onDealCompleted]
      // @ts-expect-error the public app's page view is undefined on the console
      void app.view
    }
    expect(consoleRoutes).toBeTypeOf('function')
  })

  it('let an app register only the route plugins written for it', () => {
    const consoleRoutes = async (app: ConsoleApp) => void app.renderer
    const publicRoutes = async (app: PublicApp) => void app.sites
    const onThePublicApp = (app: PublicApp) => {
      void app.register(publicRoutes)
      // @ts-expect-error a console route on the public app would read decorations it does not have
      void app.register(consoleRoutes)
    }
    expect(onThePublicApp).toBeTypeOf('function')
  })
})
