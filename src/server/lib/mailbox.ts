// The mailbox an address reaches, as the mail really goes (decision 030). nodemailer sends to the domain's ASCII
// form after UTS #46 (full-width letters and dots, case, Unicode or punycode all end at one name), so whatever counts
// or finds mail by address must look at that form, not at the characters typed. Gmail also ignores dots and a "+tag"
// in the local part and takes googlemail.com for gmail.com (its own help pages say so); other providers differ, so
// those rules apply to Gmail only, except in the count of confirmation mails, where too high a count is harmless.
import { toASCII } from './uts46.ts'

// As for Host headers (sites/host.ts), plus the DNS lengths: a name a mail server can resolve.
const UTS46 = { checkBidi: true, checkHyphens: true, checkJoiners: true, useSTD3ASCIIRules: true, verifyDNSLength: true } as const
const GMAIL = new Set(['gmail.com', 'googlemail.com'])

const untagged = (local: string) => {
  const plus = local.indexOf('+')
  return plus > 0 ? local.slice(0, plus) : local
}

/**
 * "local@domain" in the one spelling every spelling of the same mailbox has: NFKC, the domain in ASCII (IDNA), all in
 * lower case; for Gmail without dots and "+tag" in the local part, on gmail.com. Null when the domain is no valid
 * internationalised name (such an address is refused by the form).
 */
export function mailboxOf(address: string): string | null {
  const value = address.normalize('NFKC')
  const at = value.lastIndexOf('@')
  if (at < 1) return null
  const domain = toASCII(value.slice(at + 1), UTS46)
  if (!domain) return null
  const local = value.slice(0, at).toLowerCase()
  return GMAIL.has(domain) ? `${untagged(local).replaceAll('.', '')}@gmail.com` : `${local}@${domain}`
}

/**
 * Whether an address reaches the mailbox `address` reaches (mailboxOf), for looking through many; addresses without
 * a mailbox are compared as typed, in lower case.
 */
export function sameMailboxAs(address: string): (other: string) => boolean {
  const plain = (value: string) => value.normalize('NFKC').toLowerCase()
  const box = mailboxOf(address)
  return (other) => {
    const otherBox = mailboxOf(other)
    return box !== null && otherBox !== null ? box === otherBox : plain(address) === plain(other)
  }
}

/**
 * The recipient of a confirmation mail, for counting (decision 021): its mailbox, and without a "+tag" at any
 * provider. Where tags are not sub-addresses, "a+b@x" and "a@x" are counted as one: only ever a count too high.
 */
export function recipientKey(address: string): string {
  const box = mailboxOf(address) ?? address.normalize('NFKC').toLowerCase()
  const at = box.lastIndexOf('@')
  return `${untagged(box.slice(0, at))}@${box.slice(at + 1)}`
}

/**
 * What the store's index on inquiries holds for an address (store/privacy.ts): the local part up to its first "+",
 * without dots, in lower case. Every spelling of one mailbox has the same stem; many mailboxes share one, and
 * sameMailboxAs picks among the rows the index finds. Written as the SQL expressions of the index compute it.
 */
export function localStem(address: string): string {
  const value = address.normalize('NFKC')
  const at = value.indexOf('@')
  const local = at < 0 ? value : value.slice(0, at)
  const plus = local.indexOf('+')
  return (plus < 0 ? local : local.slice(0, plus)).replaceAll('.', '').toLowerCase()
}
