import { describe, expect, test } from 'vitest'
import { localStem, mailboxOf, recipientKey, sameMailboxAs } from './mailbox.ts'

describe('the mailbox an address reaches', () => {
  test('full-width letters and dots, capitals, Unicode and punycode spell one mailbox', () => {
    for (const address of ['opfer@münchen.de', 'Opfer@MÜNCHEN.DE', 'opfer@xn--mnchen-3ya.de', 'opfer@ｍüｎｃｈｅｎ．ｄｅ', 'OPFER@XN--MNCHEN-3YA.DE']) {
      expect(mailboxOf(address)).toBe('opfer@xn--mnchen-3ya.de')
    }
    expect(mailboxOf('opfer@ｅｘａｍｐｌｅ.de')).toBe('opfer@example.de')
  })

  test('Gmail ignores dots and a +tag, and googlemail.com is gmail.com; other providers keep both', () => {
    for (const address of ['o.p.f.e.r@gmail.com', 'Opfer+werbung@GMAIL.com', 'op.fer+x@googlemail.com', 'opfer@ｇｍａｉｌ.com']) {
      expect(mailboxOf(address)).toBe('opfer@gmail.com')
    }
    expect(mailboxOf('o.pfer+x@example.de')).toBe('o.pfer+x@example.de')
    const opfer = sameMailboxAs('opfer@example.de')
    expect(opfer('Opfer@ＥＸＡＭＰＬＥ.de')).toBe(true)
    expect(opfer('opfer+x@example.de')).toBe(false)
    expect(opfer('o.pfer@example.de')).toBe(false)
  })

  test('a domain that is no valid internationalised name has no mailbox', () => {
    for (const domain of ['xn--a.de', 'exa_mple.de', '-x.de', 'a\u200cb.de', 'ab--cd.de', `${'a'.repeat(64)}.de`, 'a..de']) {
      expect(mailboxOf(`opfer@${domain}`), domain).toBeNull()
    }
    expect(mailboxOf('kein-at')).toBeNull()
    // Stored before the rule, such an address is still found by itself, in any case.
    expect(sameMailboxAs('alt@exa_mple.de')('ALT@EXA_MPLE.de')).toBe(true)
    expect(sameMailboxAs('alt@exa_mple.de')('alt@example.de')).toBe(false)
  })

  test('for counting confirmation mails, a +tag makes no other recipient at any provider', () => {
    expect(recipientKey('Victim+1@Example.DE')).toBe('victim@example.de')
    expect(recipientKey('victim@ｅｘａｍｐｌｅ.de')).toBe('victim@example.de')
    expect(recipientKey('v.i.c.t.i.m+2@googlemail.com')).toBe('victim@gmail.com')
    expect(recipientKey('other@example.de')).toBe('other@example.de')
    expect(recipientKey('+only@example.de')).toBe('+only@example.de')
  })

  test('every spelling of one mailbox has the same stem, the key of the store’s index', () => {
    const spellings = ['O.Pfer+x@gmail.com', 'opfer@googlemail.com', 'opfer@ｇｍａｉｌ.com', 'ＯＰＦＥＲ@gmail.com']
    expect(new Set(spellings.map(localStem))).toEqual(new Set(['opfer']))
  })
})
