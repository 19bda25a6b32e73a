// The test project "postgres" runs the store's tests against a real PostgreSQL server started here.
import type { TestProject } from 'vitest/node'
import { startPostgresServer } from './postgres.ts'

export default async function setup(project: TestProject) {
  const server = await startPostgresServer()
  project.provide('pgAdminUrl', server.adminUrl)
  return () => server.stop()
}
