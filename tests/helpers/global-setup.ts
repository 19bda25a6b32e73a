// The page is rendered from the built client, so the tests need a fresh build; `npm test` has usually made it.
// One Chromium for the project's whole run: each browser test file connects to it and opens fresh contexts, where a
// launch per file cost about 2 s of CPU and a second of closing each (34 launches a run).
import type { TestProject } from 'vitest/node'
import { build } from '../../scripts/build-lib.ts'
import { launchChromiumServer } from './chromium-server.ts'

export default async function setup(project: TestProject) {
  const [, chromium] = await Promise.all([build(), launchChromiumServer()])
  project.provide('chromium', chromium.endpoint)
  return () => chromium.close()
}
