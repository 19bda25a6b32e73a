// The invoice as a PDF, drawn with React by @react-pdf/renderer from the frozen data alone (decision 038). Plain
// .ts with createElement: the CLI runs the TypeScript as it is, and Node strips types but does not compile JSX.
import { createRequire } from 'node:module'
import { Document, Font, Page, Text, View, renderToBuffer, StyleSheet } from '@react-pdf/renderer'
import { createElement as h, type ReactNode } from 'react'
import { decimalOf } from '../lib/money.ts'
import { remainingOf, sumOf, type InvoiceData } from './document.ts'
import { printable, type Glyphs } from './pdf-text.ts'
import { rateText } from './tax.ts'
import { LEGAL_NOTE_DE, LEGAL_NOTE_EN, WORDS, formatDate, formatMonth } from './texts.ts'

const require = createRequire(import.meta.url)
const FAMILY = 'Noto Sans'
let fontsRegistered = false

/** The fonts the link-preview image uses (decision 023): the same glyphs on every machine, ä and € included. */
function registerFonts() {
  if (fontsRegistered) return
  Font.register({
    family: FAMILY,
    fonts: [
      { src: require.resolve('@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf'), fontWeight: 400 },
      { src: require.resolve('@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf'), fontWeight: 700 },
    ],
  })
  // Words are never hyphenated: a hyphen inside an IBAN, a name or an amount would change what it says (a word too
  // wide for its column is broken by printable() instead, without a hyphen).
  Font.registerHyphenationCallback((word) => [word])
  fontsRegistered = true
}

/** The regular and the bold face as the renderer loaded them: what they can draw, and how wide. */
const faces = () =>
  Promise.all(
    [400, 700].map(async (fontWeight) => {
      await Font.load({ fontFamily: FAMILY, fontWeight })
      return Font.getFont({ fontFamily: FAMILY, fontWeight }).data as unknown as Glyphs
    }),
  )

/** The data with everything typed (the parties, the name, the reference) as the PDF prints it (pdf-text.ts). */
function shownData(data: InvoiceData, glyphs: readonly Glyphs[]): InvoiceData {
  const shown = <T extends object>(fields: T): T =>
    Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, typeof value === 'string' ? printable(value, glyphs) : value])) as T
  return {
    ...data,
    domain: printable(data.domain, glyphs),
    dealReference: printable(data.dealReference, glyphs),
    seller: shown(data.seller),
    buyer: shown(data.buyer),
  }
}

const styles = StyleSheet.create({
  page: { fontFamily: FAMILY, fontSize: 10, padding: 48, color: '#16202a', lineHeight: 1.4 },
  title: { fontSize: 18, fontWeight: 700, marginBottom: 16 },
  row: { flexDirection: 'row', justifyContent: 'space-between', marginBottom: 16 },
  column: { width: '48%' },
  label: { fontWeight: 700 },
  table: { marginTop: 12, borderTopWidth: 1, borderColor: '#4a5868' },
  line: { flexDirection: 'row', justifyContent: 'space-between', paddingVertical: 4 },
  total: { flexDirection: 'row', justifyContent: 'space-between', paddingVertical: 4, borderTopWidth: 1, borderColor: '#4a5868', fontWeight: 700 },
  note: { marginTop: 14 },
})

const line = (label: string, value: string, style = styles.line) => h(View, { style }, h(Text, null, label), h(Text, null, value))

function party(title: string, lines: (string | null)[]): ReactNode {
  return h(
    View,
    { style: styles.column },
    h(Text, { style: styles.label }, title),
    ...lines.filter((text): text is string => Boolean(text)).map((text, index) => h(Text, { key: index }, text)),
  )
}

/** Always with the minor digits ("1.000,00 €"), from the exact decimal string, never a float's rounding. */
function moneyText(minor: number, currency: string, language: InvoiceData['language']): string {
  const [whole = '0', fraction] = decimalOf(Math.abs(minor), currency).split('.')
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, language === 'de' ? '.' : ',')
  const number = `${minor < 0 ? '-' : ''}${grouped}${fraction === undefined ? '' : `${language === 'de' ? ',' : '.'}${fraction}`}`
  return language === 'de' ? `${number} ${currency}` : `${currency} ${number}`
}

function InvoicePdf({ data }: { data: InvoiceData }): ReactNode {
  const { language, seller, buyer, amounts, currency } = data
  const words = WORDS[language]
  const money = (minor: number) => moneyText(minor, currency, language)
  const legal = [LEGAL_NOTE_DE[data.taxCase], language === 'en' ? LEGAL_NOTE_EN[data.taxCase] : null]
  const decimal = language === 'de' ? ',' : '.'
  const title = titleOf(data)
  const paid = data.kind !== 'cancellation' && (!data.instalments || data.instalments.every((rate) => rate.paidAt !== null))
  return h(
    Document,
    {
      title: `${title} ${data.number}`,
      author: seller.name,
      creator: 'domain-lander',
      producer: 'domain-lander',
      language: language === 'de' ? 'de-DE' : 'en-GB',
      creationDate: new Date(data.issuedAt),
      modificationDate: new Date(data.issuedAt),
    },
    h(
      Page,
      { size: 'A4', style: styles.page },
      h(Text, { style: styles.title }, title),
      h(
        View,
        { style: styles.row },
        party(words.seller, [
          seller.name,
          seller.street,
          `${seller.postcode} ${seller.city}`,
          seller.country,
          seller.taxNumber && `${words.taxNumber}: ${seller.taxNumber}`,
          seller.vatId && `${words.vatId}: ${seller.vatId}`,
        ]),
        party(words.buyer, [
          buyer.company,
          buyer.name,
          buyer.street,
          `${buyer.postcode} ${buyer.city}`,
          buyer.country,
          buyer.vatId && `${words.buyerVatId}: ${buyer.vatId}`,
        ]),
      ),
      line(words.number, data.number),
      line(words.date, formatDate(data.issuedAt, language)),
      line(words.reference, data.dealReference),
      data.cancels ? h(Text, { style: styles.note }, words.cancels(data.cancels.number, formatDate(data.cancels.issuedAt, language))) : null,
      h(
        View,
        { style: styles.table },
        line(data.advance ? words.advanceItem(data.advance.rate, data.advance.count, data.domain) : words.item(data.domain), money(amounts.net)),
        h(Text, null, supplyText(data)),
        data.instalments
          ? null
          : h(Text, null, data.advance ? words.advancePaid(formatDate(data.paidAt, language)) : words.paid(formatDate(data.paidAt, language))),
        line(words.net, money(amounts.net)),
        line(words.vat(rateText(amounts.rateBasisPoints, decimal)), money(amounts.vat)),
        line(words.gross, money(amounts.gross), styles.total),
      ),
      data.deductions ? deductionsOf(data, money) : null,
      ...legal.filter((note): note is string => note !== null).map((note, index) => h(Text, { key: `legal-${index}`, style: styles.note }, note)),
      data.advance ? h(Text, { style: styles.note }, words.advanceNote) : null,
      data.instalments ? scheduleOf(data, money) : null,
      paid ? h(Text, { style: styles.note }, words.paidNote) : null,
      data.kind === 'invoice' && data.instalments?.some((rate) => rate.paidAt === null) ? h(Text, { style: styles.note }, words.planNote) : null,
      seller.iban
        ? h(
            Text,
            { style: styles.note },
            `${words.bank}: ${[seller.bankName, `IBAN ${seller.iban}`, seller.bic && `BIC ${seller.bic}`].filter(Boolean).join(', ')}`,
          )
        : null,
    ),
  )
}

/** "Rechnung", "Anzahlungsrechnung", "Schlussrechnung" (one that deducts advance payments) or "Stornorechnung". */
function titleOf(data: InvoiceData): string {
  const words = WORDS[data.language]
  if (data.kind === 'cancellation') return words.cancellation
  if (data.kind === 'advance') return words.advanceInvoice
  return data.deductions ? words.finalInvoice : words.invoice
}

/** The time of the supply: expected (an Anzahlungsrechnung), the day of the transfer (a final invoice), or by when. */
function supplyText(data: InvoiceData): string {
  const words = WORDS[data.language]
  const [month, day] = [formatMonth(data.supplyBy, data.language), formatDate(data.supplyBy, data.language)]
  if (data.advance) return words.advanceSupply(month, day)
  return data.deductions ? words.supplied(day) : words.supply(month, day)
}

/** The final invoice's deductions: each Anzahlungsrechnung with its number, date and amounts, their sum, what remains. */
function deductionsOf(data: InvoiceData, money: (minor: number) => string): ReactNode {
  const words = WORDS[data.language]
  const amountsText = (a: { net: number; vat: number; gross: number }) => words.deductionAmounts(money(a.net), money(a.vat), money(a.gross))
  const deductions = data.deductions ?? []
  const remaining = remainingOf(data)
  return h(
    View,
    { style: styles.table },
    h(Text, { style: styles.label }, words.deductionsTitle),
    ...deductions.map((deduction) =>
      h(
        View,
        { key: deduction.number, style: styles.line },
        h(
          Text,
          null,
          `${words.deduction(deduction.number, formatDate(deduction.issuedAt, data.language), words.rateOf(deduction.rate, deduction.count))}: ${amountsText(deduction.amounts)}`,
        ),
      ),
    ),
    h(View, { style: styles.line }, h(Text, null, `${words.deducted}: ${amountsText(sumOf(deductions.map((deduction) => deduction.amounts)))}`)),
    h(View, { style: styles.total }, h(Text, null, `${words.remaining}: ${amountsText(remaining)}`)),
  )
}

/** The plan's payments, each with its due day and whether it was received when the invoice was issued. */
function scheduleOf(data: InvoiceData, money: (minor: number) => string): ReactNode {
  const words = WORDS[data.language]
  return h(
    View,
    { style: styles.table },
    h(Text, { style: styles.label }, words.schedule),
    ...(data.instalments ?? []).map((rate) =>
      line(
        `${words.rate(rate.number)}, ${words.due(formatDate(rate.dueAt, data.language))}, ${rate.paidAt === null ? words.rateOpen : words.ratePaid(formatDate(rate.paidAt, data.language))}`,
        money(rate.amount),
      ),
    ),
  )
}

/** The PDF's bytes. */
export async function renderInvoicePdf(data: InvoiceData): Promise<Buffer> {
  registerFonts()
  return renderToBuffer(h(InvoicePdf, { data: shownData(data, await faces()) }) as Parameters<typeof renderToBuffer>[0])
}
