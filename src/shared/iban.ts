// The IBAN's own check (ISO 13616, ISO 7064 mod 97-10): a typo in the owner's file would send the buyer's money to
// nobody, or to someone else. Checked when the domains file loads.

/** The IBAN without spaces, in capitals. */
export const normalIban = (text: string) => text.replace(/\s+/g, '').toUpperCase()

/** Whether the (normalised) IBAN is well-formed and its check digits hold. */
export function isValidIban(iban: string): boolean {
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false
  const moved = `${iban.slice(4)}${iban.slice(0, 4)}`
  let rest = 0
  for (const char of moved) {
    const value = char >= 'A' ? char.charCodeAt(0) - 55 : Number(char)
    // Letters are two digits; the remainder stays small enough for exact integer arithmetic.
    rest = value >= 10 ? (rest * 100 + value) % 97 : (rest * 10 + value) % 97
  }
  return rest === 1
}

/** "DE89 3704 0044 0532 0130 00": in groups of four, as printed on a bank statement. */
export const groupedIban = (iban: string) => iban.replace(/(.{4})(?=.)/g, '$1 ')
