// The page is rendered from the built client, so the tests need a fresh build; `npm test` has usually made it.
import { build } from '../../scripts/build-lib.ts'

export default async function setup() {
  await build()
}
