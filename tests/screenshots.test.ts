// The console's pictures in docs/ show the console as it is: each was committed with the console's code as it stands
// in HEAD (`npm run screenshots -- console` and `-- deals` take them anew; commit them with the code). Git's history is what knows
// which code a picture was taken from, so this needs a checkout with its history; without one it says why it cannot
// check. The code's tests do not show in a picture and do not count.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { expect, test } from 'vitest'

const root = path.resolve(import.meta.dirname, '..')
const git = (...args: string[]) => spawnSync('git', args, { cwd: root, encoding: 'utf8' })

const CONSOLE_CODE = ['src/console', ':(exclude)src/console/**/*.test.*']

function whyNoHistory(): string | undefined {
  const inside = git('rev-parse', '--is-inside-work-tree')
  if (inside.error || inside.stdout.trim() !== 'true') return 'not a git checkout'
  if (git('rev-parse', '--is-shallow-repository').stdout.trim() === 'true') return 'a shallow clone, without the commits of the pictures'
  return undefined
}
const noHistory = whyNoHistory()

test.skipIf(noHistory !== undefined)(
  `no picture of the console in docs/ is older than the console's code${noHistory ? ` (not checked: ${noHistory})` : ''}`,
  () => {
    const pictures = fs.readdirSync(path.join(root, 'docs')).filter((name) => /^console-.*\.png$/.test(name))
    expect(pictures.length).toBeGreaterThan(0)
    const stale = pictures.flatMap((name) => {
      // A picture not committed yet (new, or taken anew) is taken from the code as it is now.
      if (git('status', '--porcelain', '--', `docs/${name}`).stdout.trim() !== '') return []
      const taken = git('log', '-1', '--format=%H', '--', `docs/${name}`).stdout.trim()
      // The console's code then and now: equal trees mean the picture shows what the console shows.
      if (git('diff', '--quiet', taken, 'HEAD', '--', ...CONSOLE_CODE).status === 0) return []
      const since = git('log', '--format=%h %s', `${taken}..HEAD`, '--', ...CONSOLE_CODE).stdout.trim().split('\n')
      return [`docs/${name} (taken at ${taken.slice(0, 7)}; the console changed since in ${since.length} commit(s): ${since[0]?.slice(0, 80)} …)`]
    })
    expect(stale, 'take them anew (`npm run screenshots -- console`; console-sales: `-- deals`) and commit them with the code').toEqual([])
  },
)
