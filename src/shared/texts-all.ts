// Every language's table, for the server (and the server's renderer): it answers in all of them. The browser loads
// only its page's table (client/texts-loader.ts), so that a German page does not pay for French (decision 048).
// Importing this module also makes each table available to textsOf(), which the shared checks use.
import type { Language } from './language.ts'
import { addTexts, TEXT, type Texts } from './texts.ts'
import { EN } from './texts-en.ts'
import { ES } from './texts-es.ts'
import { FR } from './texts-fr.ts'
import { IT } from './texts-it.ts'
import { NL } from './texts-nl.ts'
import { PL } from './texts-pl.ts'

/** Every text in each language a page can speak: the page's `language` picks the table. */
export const TEXTS: Record<Language, Texts> = { de: TEXT, en: EN, fr: FR, es: ES, it: IT, nl: NL, pl: PL }

for (const [language, table] of Object.entries(TEXTS) as [Language, Texts][]) addTexts(language, table)
