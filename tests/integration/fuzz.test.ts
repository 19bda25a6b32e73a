// Property: whatever arrives at POST /api/contact, the answer is never a 5xx and the server stays up.
// `npm test` runs a short round; `npm run fuzz` runs FUZZ_RUNS (default 100,000) requests.
import fc from 'fast-check'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { issueToken } from '../../src/server/http/form-token.ts'
import { startApp, type TestApp } from '../helpers/app.ts'
import { VISITOR, fetchForm } from '../helpers/contact.ts'

const RUNS = Number(process.env.FUZZ_RUNS ?? 300)
let app: TestApp
let form: { token: string; hash: string }
let secret: string

beforeAll(async () => {
  app = await startApp({ SMTP_URL: 'smtp://127.0.0.1:9', LOG_LEVEL: 'silent' })
  form = await fetchForm(app.url)
  secret = await (await app.store()).secret()
})
afterAll(async () => {
  await app.close()
})

const FIELDS = ['name58fnlsd', 'name58fnlsdbee', 'themail3h6', 'themail3h6bee', 'message', 'token', 'hash']
const hostileKeys = fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', ...FIELDS)
const text = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 300 }),
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.constantFrom('\r\nBcc: x@example.org', '\u2028', '\u0000', '%0d%0a', '"', '<script>', 'a@b.de', ''),
  fc.nat({ max: 40_000 }).map((n) => 'x'.repeat(n)),
)
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    text,
    fc.double(),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(fc.oneof(hostileKeys, fc.string({ maxLength: 10 })), tie('value'), { maxKeys: 6 }),
  ),
})).value
/** A form that is nearly right: the real fields with some values replaced, removed or of the wrong type. */
const nearlyValid = fc
  .record(Object.fromEntries(FIELDS.map((field) => [field, fc.option(fc.oneof(text, json), { nil: undefined })])))
  .map((fields) => ({ token: form.token, hash: form.hash, ...fields }))
function freshToken() {
  const { token, signedIssueTime } = issueToken(secret, '127.0.0.1')
  return { token, hash: signedIssueTime }
}
/** A genuine submission with a fresh token, one field replaced: these get past parsing to validation, the token
 * check and the store, so the deeper code is fuzzed too. */
const oneFieldOff = fc
  .tuple(fc.constantFrom(...FIELDS, 'extra', '__proto__'), fc.oneof(text, json))
  .map(([field, value]) => () => ({ ...VISITOR, ...freshToken(), [field]: value }))
const deep = fc.nat({ max: 5000 }).map((depth) => '['.repeat(depth) + ']'.repeat(depth))

const body = fc.oneof(
  { arbitrary: oneFieldOff.map((make) => ({ toString: () => JSON.stringify(make()) })), weight: 5 },
  json.map((value) => JSON.stringify(value) ?? 'null'),
  nearlyValid.map((value) => JSON.stringify(value)),
  deep,
  fc.string({ unit: 'binary', maxLength: 2000 }),
  fc.uint8Array({ maxLength: 2000 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
  fc.constant('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}'),
)
const contentType = fc.oneof(
  { arbitrary: fc.constant('application/json'), weight: 6 },
  fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'application/json; charset=latin1',
    'application/json; charset=utf-16',
    'application/x-www-form-urlencoded',
    'application/x-www-form-urlencoded; charset=iso-8859-1',
    'text/plain',
    'multipart/form-data; boundary=x',
    'application/xml',
    '',
    'application/json; charset="',
    ';;;',
  ),
  fc.string({ maxLength: 40 }).filter((value) => /^[\x21-\x7e ]*$/.test(value)),
)

test('random, malformed and hostile requests never get a 5xx and the server stays up', async () => {
  const seen = new Map<number, number>()
  await fc.assert(
    fc.asyncProperty(body, contentType, fc.constantFrom('/api/contact', '/api/sendMail'), async (payload, type, path) => {
      const headers: Record<string, string> = { accept: 'application/json' }
      if (type) headers['content-type'] = type
      const response = await fetch(`${app.url}${path}`, { method: 'POST', headers, body: String(payload) })
      await response.arrayBuffer()
      seen.set(response.status, (seen.get(response.status) ?? 0) + 1)
      return response.status < 500
    }),
    { numRuns: RUNS },
  )
  expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  expect((await fetch(`${app.url}/healthz`)).status).toBe(200)
  // Printed so that a long run can be reported in figures.
  console.log(`fuzz: ${RUNS} requests, answers by status: ${JSON.stringify(Object.fromEntries(seen))}`)
}, 3_600_000)
