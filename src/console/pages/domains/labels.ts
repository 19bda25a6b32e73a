// The words the page "Domains" shows for the domains file's values, shared by its table, its forms and its preview.
import type { EditableField, EntryFields } from '../../../shared/domains-api.ts'
import { LANGUAGE_NAME } from '../../../shared/language.ts'
import { formatNumber } from '../../format.ts'

export const PRICE_TYPE = { fixed: 'Festpreis', negotiable: 'Verhandlungsbasis', 'on-request': 'Preis auf Anfrage' } as const
export const STATUS = { available: 'verfügbar', reserved: 'reserviert', sold: 'verkauft' } as const
export const LANGUAGE = { ...LANGUAGE_NAME, auto: 'nach Browser' } as const
export const AS_DEFAULT = 'wie Vorgabe'
export const UNCHANGED = 'unverändert'
export const FIELD: Record<EditableField, string> = {
  price: 'Preis',
  priceType: 'Preisart',
  minOffer: 'Mindestgebot',
  currency: 'Währung',
  status: 'Status',
  language: 'Sprache',
  listed: 'Gelistet',
  description: 'Beschreibung',
}

export const amount = (value: number | null, currency?: string) => (value === null ? '–' : `${formatNumber(value)}${currency ? ` ${currency}` : ''}`)

export function shown(field: EditableField, value: EntryFields[EditableField]): string {
  if (value === null) return '–'
  if (field === 'price' || field === 'minOffer') return formatNumber(value as number)
  if (field === 'priceType') return PRICE_TYPE[value as keyof typeof PRICE_TYPE] ?? String(value)
  if (field === 'status') return STATUS[value as keyof typeof STATUS] ?? String(value)
  if (field === 'language') return LANGUAGE[value as keyof typeof LANGUAGE] ?? String(value)
  if (field === 'listed') return value ? 'ja' : 'nein'
  return String(value)
}
