// Run in every test file of the project "postgres": its databases go when its tests are done.
import { afterAll } from 'vitest'
import { dropTestDatabases } from './postgres.ts'

afterAll(dropTestDatabases)
