// The hints of the visitor statistics in German, each with the figures behind it (decision 049): the console's
// Übersicht and the weekly digest say the same.
import type { StatsHint, WholeAmount } from './stats-api.ts'

const integer = new Intl.NumberFormat('de-DE')
const wholeFormats = new Map<string, Intl.NumberFormat>()

const formatCount = (value: number) => integer.format(value)

/** Offers and prices, whole units ("2.400 €"). */
export function formatWhole(value: WholeAmount): string {
  let format = wholeFormats.get(value.currency)
  if (!format)
    wholeFormats.set(value.currency, (format = new Intl.NumberFormat('de-DE', { style: 'currency', currency: value.currency, maximumFractionDigits: 0 })))
  return format.format(value.amount)
}

export function hintText(hint: StatsHint): string {
  switch (hint.kind) {
    case 'no-inquiries':
      return `${hint.domain}: ${formatCount(hint.visitors)} Besucher (${formatCount(hint.visits)} Besuche, ${formatCount(hint.formTurns)} zum Formular) und keine Anfrage. Preis zu hoch oder Seite unklar?`
    case 'offers-near-price':
      return `${hint.domain}: höchstes von ${formatCount(hint.offers)} Angeboten ${formatWhole(hint.highestOffer)}, ${formatCount(hint.highestShare)} % des Preises ${formatWhole(hint.askingPrice)}. Ein Abschluss liegt nahe.`
    case 'no-visitors':
      return `${hint.domain}: kein Besucher in ${formatCount(hint.days)} Tagen. Bei der nächsten Verlängerung aufgeben?`
  }
}
