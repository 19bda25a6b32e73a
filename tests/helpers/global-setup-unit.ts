// The unit files need the build (a page is rendered from the built client) but no Chromium: none of them drives a
// browser, so their project does not start one (tests/helpers/global-setup.ts does, for the projects that do).
import { build } from '../../scripts/build-lib.ts'

export default async function setup() {
  await build()
}
