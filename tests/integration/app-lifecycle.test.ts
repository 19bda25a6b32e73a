// The order in which the app's workers stop, which follows the order their plugins are registered in (decision 061).
import { afterEach, expect, it } from 'vitest'
import { buildTestApp, type InProcessApp } from '../helpers/app.ts'

let app: InProcessApp | undefined
afterEach(async () => {
  await app?.close()
  app = undefined
})

/** Records when `method` of `target` is called, then calls it as it was. */
function record<T extends object>(stops: string[], name: string, target: T, method: keyof T & string): void {
  const original = target[method] as (...args: unknown[]) => unknown
  Object.assign(target, { [method]: (...args: unknown[]) => (stops.push(name), original.apply(target, args)) })
}

it('closing the app closes the console first, stops the jobs before the outbox and closes the store last', async () => {
  app = await buildTestApp()
  const { app: publicApp, admin } = app
  if (!admin) throw new Error('the test app has its console')
  const stops: string[] = []
  record(stops, 'console', admin, 'close')
  record(stops, 'jobs', publicApp.jobs, 'stop')
  record(stops, 'outbox', publicApp.outbox, 'stop')
  record(stops, 'store', publicApp.store, 'close')
  await publicApp.close()
  expect(stops).toEqual(['console', 'jobs', 'outbox', 'store'])
})
