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
  it('measures from the end of the second the page was served in: 4 s of filling always pass a 3 s minimum', () => {
    // Served at 0.999 s, so the issue time is 1 s; sent 4 s later.
    expect(spamReason(filled({}), 1_000, 4_999, 3)).toBeNull()
    // Served at 0.001 s and sent 3.5 s later: counted as 2.5 s, a little shorter than it was, never longer.
    expect(spamReason(filled({}), 1_000, 3_501, 3)).toBe('too-fast')
  })
  it('with no minimum, takes a form sent within the second it was served (a fill time below 0)', () => {
    expect(spamReason(filled({}), 1_000, 400, 0)).toBeNull()
  })
})
