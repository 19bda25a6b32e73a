// A CAMT.053 (.08) statement of credit transfers, as a German bank exports it: one booked entry per payment, each with
// the bank's own reference (the idempotency key) and the buyer's remittance text; or money leaving (a debit), or the
// bank taking a booking back (a reversal).
export interface CamtCredit {
  /** The bank's reference of the booking (AcctSvcrRef). */
  bankRef: string
  /** "333.34" */
  amount: string
  remittance: string
  currency?: string
  bookedOn?: string
  /** Money leaving the account (DBIT) instead of coming in. */
  debit?: boolean
  /** RvslInd: the booking reverses an earlier one. */
  reversal?: boolean
}

const escape = (text: string) => text.replace(/[<>&]/g, (char) => `&#${char.charCodeAt(0)};`)

export function camtStatement(credits: readonly CamtCredit[], account = 'DE89370400440532013000'): string {
  const entries = credits
    .map(
      (credit) => `
      <Ntry>
        <Amt Ccy="${credit.currency ?? 'EUR'}">${credit.amount}</Amt>
        <CdtDbtInd>${credit.debit ? 'DBIT' : 'CRDT'}</CdtDbtInd>${credit.reversal ? '\n        <RvslInd>true</RvslInd>' : ''}
        <Sts><Cd>BOOK</Cd></Sts>
        <BookgDt><Dt>${credit.bookedOn ?? '2026-11-20'}</Dt></BookgDt>
        <ValDt><Dt>${credit.bookedOn ?? '2026-11-20'}</Dt></ValDt>
        <AcctSvcrRef>${escape(credit.bankRef)}</AcctSvcrRef>
        <BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>RCDT</Cd><SubFmlyCd>ESCT</SubFmlyCd></Fmly></Domn></BkTxCd>
        <NtryDtls>
          <TxDtls>
            <Refs><EndToEndId>NOTPROVIDED</EndToEndId></Refs>
            <Amt Ccy="${credit.currency ?? 'EUR'}">${credit.amount}</Amt>
            <CdtDbtInd>${credit.debit ? 'DBIT' : 'CRDT'}</CdtDbtInd>
            <RltdPties><Dbtr><Pty><Nm>Erika Mustermann</Nm></Pty></Dbtr></RltdPties>
            <RmtInf><Ustrd>${escape(credit.remittance)}</Ustrd></RmtInf>
          </TxDtls>
        </NtryDtls>
      </Ntry>`,
    )
    .join('')
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08">
  <BkToCstmrStmt>
    <GrpHdr><MsgId>TEST-${credits
      .map((credit) => credit.bankRef)
      .join('-')
      .slice(0, 30)}</MsgId><CreDtTm>2026-11-20T20:00:00Z</CreDtTm></GrpHdr>
    <Stmt>
      <Id>TEST-1</Id>
      <Acct><Id><IBAN>${account}</IBAN></Id><Ccy>EUR</Ccy></Acct>${entries}
    </Stmt>
  </BkToCstmrStmt>
</Document>
`
}

/** A statement of as many payments as fit in `bytes` (UTF-8), each with its own bank reference and a deal's reference. */
export function camtStatementOfSize(bytes: number): string {
  const credit = (i: number): CamtCredit => ({
    bankRef: `BULK-${String(i).padStart(7, '0')}`,
    amount: '12.34',
    remittance: `Zahlung ${String(i).padStart(7, '0')} DL-2026-${String((i % 9000) + 1).padStart(4, '0')}`,
  })
  const empty = Buffer.byteLength(camtStatement([]))
  const each = Buffer.byteLength(camtStatement([credit(0)])) - empty
  // The message id grows with the first references, by a few bytes.
  return camtStatement(Array.from({ length: Math.max(0, Math.floor((bytes - empty - 64) / each)) }, (_, i) => credit(i)))
}
