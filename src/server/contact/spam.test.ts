import { describe, expect, it } from 'vitest'
import { FIELD, type ContactPayload } from '../../shared/contact.ts'
import { isCrossSite, spamReason } from './spam.ts'

const filled = (decoys: Partial<Record<typeof FIELD.nameDecoy | typeof FIELD.emailDecoy, string | undefined>>) =>
  ({ [FIELD.name]: 'Erika', [FIELD.email]: 'erika@example.org', [FIELD.message]: 'Hallo', [FIELD.nameDecoy]: '', [FIELD.emailDecoy]: '', ...decoys }) as ContactPayload

describe('spam rules', () => {
  it('accepts a form whose decoys are empty and that took longer than the minimum to fill', () => {
    expect(spamReason(filled({}), 0, 5_000, 3)).toBeNull()
  })
  it('marks a form without its decoys: it is not the form we served', () => {
    expect(spamReason(filled({ [FIELD.nameDecoy]: undefined }), 0, 5_000, 3)).toBe('decoy-missing')
  })
  it('marks a form whose decoys were filled', () => {
    expect(spamReason(filled({ [FIELD.emailDecoy]: 'bot@example.org' }), 0, 5_000, 3)).toBe('decoy-filled')
  })
  it('marks a form sent faster than a person fills it', () => {
    expect(spamReason(filled({}), 0, 2_999, 3)).toBe('too-fast')
  })
})

describe('the cross-site check', () => {
  it('lets a same-origin post and a client that sends neither header through', () => {
    expect(isCrossSite({ host: 'example.de', origin: 'https://example.de', 'sec-fetch-site': 'same-origin' })).toBe(false)
    expect(isCrossSite({ host: 'example.de' })).toBe(false)
  })
  it('refuses what the browser says came from another site, or from a sibling subdomain', () => {
    expect(isCrossSite({ host: 'example.de', 'sec-fetch-site': 'cross-site' })).toBe(true)
    expect(isCrossSite({ host: 'example.de', 'sec-fetch-site': 'same-site' })).toBe(true)
  })
  it('refuses an Origin of another host, an opaque one and garbage', () => {
    expect(isCrossSite({ host: 'example.de', origin: 'https://evil.example' })).toBe(true)
    expect(isCrossSite({ host: 'example.de', origin: 'null' })).toBe(true)
    expect(isCrossSite({ host: 'example.de', origin: '::' })).toBe(true)
  })
})
