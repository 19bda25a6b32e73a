// A CAMT.053 (.08) statement of credit transfers, as a German bank exports it: one booked entry per payment, each with
// the bank's own reference (the idempotency key) and the buyer's remittance text.
export interface CamtCredit {
  /** The bank's reference of the booking (AcctSvcrRef). */
  bankRef: string
  /** "333.34" */
  amount: string
  remittance: string
  currency?: string
  bookedOn?: string
}

const escape = (text: string) => text.replace(/[<>&]/g, (char) => `&#${char.charCodeAt(0)};`)

export function camtStatement(credits: readonly CamtCredit[], account = 'DE89370400440532013000'): string {
  const entries = credits
    .map(
      (credit) => `
      <Ntry>
        <Amt Ccy="${credit.currency ?? 'EUR'}">${credit.amount}</Amt>
        <CdtDbtInd>CRDT</CdtDbtInd>
        <Sts><Cd>BOOK</Cd></Sts>
        <BookgDt><Dt>${credit.bookedOn ?? '2026-11-20'}</Dt></BookgDt>
        <ValDt><Dt>${credit.bookedOn ?? '2026-11-20'}</Dt></ValDt>
        <AcctSvcrRef>${escape(credit.bankRef)}</AcctSvcrRef>
        <BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>RCDT</Cd><SubFmlyCd>ESCT</SubFmlyCd></Fmly></Domn></BkTxCd>
        <NtryDtls>
          <TxDtls>
            <Refs><EndToEndId>NOTPROVIDED</EndToEndId></Refs>
            <Amt Ccy="${credit.currency ?? 'EUR'}">${credit.amount}</Amt>
            <CdtDbtInd>CRDT</CdtDbtInd>
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
