import { expect, test } from 'vitest'
import { redactCapabilityLinks } from './capability-links.ts'

const ID = 'a1B2c3D4e5F6g7H8i9J0kL'
const MAC = 'Zz9_Yy8-Xx7Ww6Vv5Uu4Tt'

test('a deal link loses its whole token, however it is spelled, and keeps what follows it', () => {
  for (const [text, redacted] of [
    [`/kauf/${ID}.${MAC}`, '/kauf/[redacted]'],
    [`https://fest.de/kauf/${ID}.${MAC}/rechnung/7?x=1`, 'https://fest.de/kauf/[redacted]/rechnung/7?x=1'],
    [`/kauf/${ID}%2E${MAC}`, '/kauf/[redacted]'],
    [`/KAUF/${ID}.${MAC}`, '/KAUF/[redacted]'],
    [`/kauf%2F${ID}.${MAC}`, '/kauf%2F[redacted]'],
    [`Route GET:/kauf/${ID}.${MAC} not found`, 'Route GET:/kauf/[redacted] not found'],
  ]) {
    expect(redactCapabilityLinks(text!)).toBe(redacted)
  }
})

test('a confirmation link loses its query', () => {
  expect(redactCapabilityLinks('https://pruefen.de/bestaetigen?t=1a.lx2k.abc_DEF-123 weiter')).toBe('https://pruefen.de/bestaetigen?[redacted] weiter')
  expect(redactCapabilityLinks('/bestaetigen/?x=1&t=abc')).toBe('/bestaetigen/?[redacted]')
})

test('a JSON line stays JSON, whatever the link holds', () => {
  const line = JSON.stringify({ url: `/kauf/${ID}"\\${MAC}`, other: `/bestaetigen?t="x\\"` })
  const redacted = redactCapabilityLinks(line)
  expect(JSON.parse(redacted)).toEqual({ url: `/kauf/[redacted]"\\${MAC}`, other: '/bestaetigen?[redacted]"x\\"' })
})

test('a line without a link is left as it is', () => {
  const line = '{"msg":"request completed","req":{"url":"/kaufen"}}'
  expect(redactCapabilityLinks(line)).toBe(line)
})
