import { expect, test } from 'vitest'
import { hashPassword, passwordProblem, verifyPassword } from './password.ts'

test('a new password needs 12 characters and must not be a common one, whatever its case', () => {
  expect(passwordProblem('elf-zeichen')).toBe('the password must be at least 12 characters long')
  for (const common of ['passwort1234', 'PASSWORT1234', '123456789012', 'QwertzUiop12']) {
    expect(passwordProblem(common), common).toBe('this password is one of the most common ones: choose another')
  }
  expect(passwordProblem('Kanzlei-Rheinblick-2026')).toBeNull()
})

test('the hash names scrypt and its parameters, and only the same password matches it', async () => {
  const hash = await hashPassword('Kanzlei-Rheinblick-2026')
  expect(hash).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/)
  expect(await hashPassword('Kanzlei-Rheinblick-2026')).not.toBe(hash)
  expect(await verifyPassword('Kanzlei-Rheinblick-2026', hash)).toBe(true)
  expect(await verifyPassword('kanzlei-rheinblick-2026', hash)).toBe(false)
  expect(await verifyPassword('', hash)).toBe(false)
})

test('without a hash, or with a damaged one, nothing matches', async () => {
  expect(await verifyPassword('', null)).toBe(false)
  expect(await verifyPassword('Kanzlei-Rheinblick-2026', 'scrypt$banana')).toBe(false)
  // Parameters that would take gigabytes are not even tried.
  expect(await verifyPassword('x', 'scrypt$1073741824$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).toBe(false)
})
