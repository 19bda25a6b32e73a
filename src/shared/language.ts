// The languages a page speaks (the domains file's `language`; docs/decisions/025): German, as the page always did,
// and English for buyers abroad. The texts of each are in texts.ts (TEXTS).

export type Language = 'de' | 'en'

/**
 * How numbers and prices are written on a page of the language: German (4.900 €), and for English pages as most
 * English readers abroad write them (€4,900).
 */
export const LOCALE: Record<Language, string> = { de: 'de-DE', en: 'en-US' }

/** The language a buyer wrote in, as the owner's (German) mail and console name it. */
export const LANGUAGE_NAME: Record<Language, string> = { de: 'Deutsch', en: 'Englisch' }
