// Issued mails are never changed (issue 38): every buyer mail kind, in every language, with fixed values, says byte
// for byte what it said before the mail words became one table per language. The expected texts were written once by
// tests/helpers/buyer-mails.ts from the code before that change.
import { expect, test } from 'vitest'
import { renderBuyerMails } from '../../../tests/helpers/buyer-mails.ts'
import expected from './buyer-mails.expected.json' with { type: 'json' }

test('every buyer mail says byte for byte what it said before, in every language', () => {
  const rendered = renderBuyerMails()
  expect(Object.keys(rendered)).toEqual(Object.keys(expected))
  for (const [name, text] of Object.entries(expected)) expect(rendered[name], name).toBe(text)
})
