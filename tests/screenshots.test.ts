// The console's pictures in docs/ show the console as it is: `npm run screenshots` records, for each picture, a hash of
// the console's code it was taken from (docs/console-pictures.json, scripts/console-code.ts), and the code must still
// hash the same. By content, not by git history: a picture taken anew that came out byte for byte the same is still
// current, and a shallow clone checks as well as a full one. The console's tests do not show in a picture and do not
// count.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { expect, test } from 'vitest'
import { PICTURES_FILE, consoleCodeHash, readPictures, recordPictures } from '../scripts/console-code.ts'

const root = path.resolve(import.meta.dirname, '..')

test('every picture of the console in docs/ was taken from the console’s code as it is now', () => {
  const pictures = fs.readdirSync(path.join(root, 'docs')).filter((name) => /^console-.*\.png$/.test(name))
  expect(pictures.length).toBeGreaterThan(0)
  const recorded = readPictures(root)
  const code = consoleCodeHash(root)
  const stale = pictures.filter((name) => recorded[name] !== code)
  expect(
    stale,
    `take them anew (\`npm run screenshots -- console\`; console-sales: \`-- deals\`; console-overview: \`-- overview\`) and commit them with ${PICTURES_FILE}`,
  ).toEqual([])
  // No record of a picture that is not there.
  expect(Object.keys(recorded).filter((name) => !pictures.includes(name))).toEqual([])
})

test('the record follows the console’s code: a change to a page makes its pictures stale, a change to a test or its fixtures does not', () => {
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'console-code-'))
  try {
    fs.cpSync(path.join(root, 'src/console'), path.join(copy, 'src/console'), { recursive: true })
    fs.mkdirSync(path.join(copy, 'docs'))
    recordPictures(copy, ['console-inbox.png'])
    const taken = readPictures(copy)['console-inbox.png']
    expect(taken).toBe(consoleCodeHash(copy))
    const test = fs.readdirSync(path.join(copy, 'src/console/pages')).find((name) => name.endsWith('.test.tsx'))!
    fs.appendFileSync(path.join(copy, 'src/console/pages', test), '\n// a test changes nothing in a picture\n')
    expect(consoleCodeHash(copy)).toBe(taken)
    fs.appendFileSync(path.join(copy, 'src/console/render.fixtures.ts'), '\n// nor do the fixtures of the tests\n')
    expect(consoleCodeHash(copy)).toBe(taken)
    fs.appendFileSync(path.join(copy, 'src/console/pages/Inbox.tsx'), '\n// the page changed\n')
    expect(consoleCodeHash(copy)).not.toBe(taken)
  } finally {
    fs.rmSync(copy, { recursive: true, force: true })
  }
})
