// `npm run lighthouse`: Lighthouse (mobile) on the production server with the local Chromium, printing the four
// category scores and every audit that did not pass. On plain http on localhost the two https audits cannot pass;
// behind Caddy (deploy/) the page is served over https.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'
import { build } from './build-lib.mjs'
import { freePort, startServer } from './server-lib.mjs'
import { ensureTool } from './system-tools.mjs'

const HOST = 'example.de'
await build()
const chromium = ensureTool('chromium')
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'domain-lander-lighthouse-'))
const port = await freePort()
const server = await startServer(port, { DATA_DIR: dataDir })
let chrome
try {
  chrome = await chromeLauncher.launch({
    chromePath: chromium,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', `--host-resolver-rules=MAP ${HOST} 127.0.0.1`],
  })
  const url = `http://${HOST}:${port}/`
  const { lhr } = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error' }, {
    extends: 'lighthouse:default',
    settings: { onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'], formFactor: 'mobile' },
  })
  const scores = Object.fromEntries(Object.values(lhr.categories).map((category) => [category.title, Math.round(category.score * 100)]))
  const failed = Object.values(lhr.audits)
    .filter((audit) => audit.score !== null && audit.score < 1 && ['binary', 'numeric', 'metricSavings'].includes(audit.scoreDisplayMode))
    .map((audit) => ({ audit: audit.id, score: audit.score, value: audit.displayValue ?? '' }))
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify({ url, scores, failed }, null, 2))
  } else {
    console.log(`Lighthouse (mobile) for ${url}`)
    console.table(scores)
    if (failed.length) console.table(failed)
  }
} finally {
  await chrome?.kill()
  await server.stop()
  fs.rmSync(dataDir, { recursive: true, force: true })
}
