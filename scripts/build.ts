import { build } from './build-lib.ts'

await build({ force: true })
