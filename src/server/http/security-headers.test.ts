import Fastify from 'fastify'
import { expect, test } from 'vitest'
import { addSecurityHeaders, cspTemplate } from './security-headers.ts'

const directives = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'sha256-abc='"],
  frameAncestors: ["'none'"],
}

test('the policy gets the nonce at the end of script-src; styles are allowed by their hash alone', () => {
  expect(cspTemplate(directives)('S')).toBe("default-src 'self';script-src 'self' 'nonce-S';style-src 'self' 'sha256-abc=';frame-ancestors 'none'")
})

test('every answer, also a 404 and an error, carries the headers and a nonce of its own', async () => {
  const app = Fastify()
  addSecurityHeaders(app, directives)
  app.get('/', async (_request, reply) => reply.send(reply.cspNonce))
  app.get('/fails', async () => {
    throw new Error('broken')
  })
  await app.ready()
  try {
    const [first, second, missing, failed] = await Promise.all([app.inject('/'), app.inject('/'), app.inject('/nothing'), app.inject('/fails')])
    expect(failed.statusCode).toBe(500)
    expect(first.body).toMatch(/^[0-9a-f]{32}$/)
    expect(first.body).not.toBe(second.body)
    expect(first.headers['content-security-policy']).toContain(`'nonce-${first.body}'`)
    for (const response of [first, missing, failed]) {
      expect(response.headers).toMatchObject({
        'cross-origin-resource-policy': 'same-origin',
        'referrer-policy': 'strict-origin-when-cross-origin',
        'x-content-type-options': 'nosniff',
        'x-dns-prefetch-control': 'off',
        'x-download-options': 'noopen',
        'x-frame-options': 'SAMEORIGIN',
        'x-permitted-cross-domain-policies': 'none',
        'x-xss-protection': '0',
      })
      expect(response.headers['content-security-policy']).toMatch(/^default-src 'self';script-src 'self' 'nonce-[0-9a-f]{32}';style-src 'self' 'sha256-abc=';/)
      expect(response.headers['strict-transport-security']).toBeUndefined()
    }
  } finally {
    await app.close()
  }
})
