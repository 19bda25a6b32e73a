import { describe, expect, it } from 'vitest'
import { FIELD, type ContactPayload } from '../../shared/contact.ts'
import { spamReason } from './spam.ts'

const filled = (decoys: Partial<Record<typeof FIELD.nameDecoy | typeof FIELD.emailDecoy, string | undefined>>) =>
  ({
    [FIELD.name]: 'Erika',
    [FIELD.email]: 'erika@example.org',
    [FIELD.message]: 'Hallo',
    [FIELD.nameDecoy]: '',
    [FIELD.emailDecoy]: '',
    ...decoys,
  }) as ContactPayload

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
