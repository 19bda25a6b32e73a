// A Vitest reporter that names the ten slowest test files at the end of `npm test`: the suite's time is spent in a
// few files, and naming them on every run keeps the budget in docs/development.md honest. A file's time is its
// tests and hooks together (a beforeAll that starts servers counts), per project (`sqlite-unit`: a unit file on
// SQLite): a file run on both stores stands twice.
import path from 'node:path'
import type { Reporter, TestModule } from 'vitest/node'

export default class SlowestFiles implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>) {
    const slowest = modules
      .map((module) => ({ file: path.relative(process.cwd(), module.moduleId), store: module.project.name, seconds: module.diagnostic().duration / 1000 }))
      .sort((a, b) => b.seconds - a.seconds)
      .slice(0, 10)
    if (slowest.length < 2) return
    console.log('\nslowest files:')
    for (const { file, store, seconds } of slowest) console.log(`${seconds.toFixed(1).padStart(8)} s  ${store.padEnd(13)} ${file}`)
  }
}
