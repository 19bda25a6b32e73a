import Fastify from 'fastify'
import { describe, expect, test } from 'vitest'
import { addSecurityHeaders, cspTemplate, cspValue, pagePolicy } from './security-headers.ts'

const directives = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'sha256-abc='"],
  frameAncestors: ["'none'"],
}

const FIXED = {
  'cross-origin-resource-policy': 'same-origin',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
}

test('the policy gets the nonce at the end of script-src; styles are allowed by their hash alone', () => {
  expect(cspTemplate(directives)('S')).toBe("default-src 'self';script-src 'self' 'nonce-S';style-src 'self' 'sha256-abc=';frame-ancestors 'none'")
  expect(cspValue(directives)).toBe("default-src 'self';script-src 'self';style-src 'self' 'sha256-abc=';frame-ancestors 'none'")
})

test("the page's policy takes the inline style's and the inline scripts' hashes into their directives", () => {
  const policy = pagePolicy(["'sha256-css='"], ["'sha256-js='"])
  expect(policy.scriptSrc).toEqual(["'self'", "'sha256-js='"])
  expect(policy.styleSrc).toEqual(["'self'", "'sha256-css='"])
  expect(pagePolicy().scriptSrc).toEqual(["'self'"])
})

/** An app with the headers, a route that answers its nonce, one that fails, and none for 404s. */
async function appWith(nonce: boolean) {
  const app = Fastify()
  addSecurityHeaders(app, directives, { nonce })
  app.get('/', async (_request, reply) => reply.send(reply.cspNonce ?? 'none'))
  app.get('/fails', async () => {
    throw new Error('broken')
  })
  await app.ready()
  const [first, second, missing, failed] = await Promise.all([app.inject('/'), app.inject('/'), app.inject('/nothing'), app.inject('/fails')])
  await app.close()
  expect(failed.statusCode).toBe(500)
  expect(missing.statusCode).toBe(404)
  return { first, second, missing, failed }
}

describe('with a nonce per answer (the console)', () => {
  test('every answer, also a 404 and an error, carries the headers and a nonce of its own', async () => {
    const { first, second, missing, failed } = await appWith(true)
    expect(first.body).toMatch(/^[0-9a-f]{32}$/)
    expect(first.body).not.toBe(second.body)
    expect(first.headers['content-security-policy']).toContain(`'nonce-${first.body}'`)
    for (const response of [first, missing, failed]) {
      expect(response.headers).toMatchObject(FIXED)
      expect(response.headers['content-security-policy']).toMatch(/^default-src 'self';script-src 'self' 'nonce-[0-9a-f]{32}';style-src 'self' 'sha256-abc=';/)
      expect(response.headers['strict-transport-security']).toBeUndefined()
    }
  })
})

describe('without (the public page)', () => {
  test('every answer, also a 404 and an error, carries the headers and the one policy, with no nonce', async () => {
    const { first, second, missing, failed } = await appWith(false)
    expect(first.body).toBe('none')
    for (const response of [first, second, missing, failed]) {
      expect(response.headers).toMatchObject(FIXED)
      expect(response.headers['content-security-policy']).toBe(cspValue(directives))
      expect(response.headers['strict-transport-security']).toBeUndefined()
    }
  })
})
