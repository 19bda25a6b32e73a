// The languages a page speaks (the domains file's `language`; decisions 025 and 048): German, as the page always did,
// English, and French, Spanish, Italian, Dutch and Polish for buyers abroad. The texts of each are in texts-*.ts.

/** Every language a page can speak, German first: the order the console and the docs list them in. */
export const LANGUAGES = ['de', 'en', 'fr', 'es', 'it', 'nl', 'pl'] as const

export type Language = (typeof LANGUAGES)[number]

export const isLanguage = (value: unknown): value is Language => (LANGUAGES as readonly unknown[]).includes(value)

/**
 * How numbers, prices and dates are written on a page of the language: German (4.900 €), English as most English
 * readers abroad write them (€4,900), the others as in the country most of their speakers live in.
 */
export const LOCALE: Record<Language, string> = { de: 'de-DE', en: 'en-US', fr: 'fr-FR', es: 'es-ES', it: 'it-IT', nl: 'nl-NL', pl: 'pl-PL' }

/** The language a buyer wrote in, as the owner's (German) mail and console name it. */
export const LANGUAGE_NAME: Record<Language, string> = {
  de: 'Deutsch',
  en: 'Englisch',
  fr: 'Französisch',
  es: 'Spanisch',
  it: 'Italienisch',
  nl: 'Niederländisch',
  pl: 'Polnisch',
}
