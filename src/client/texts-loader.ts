// The page's table of texts in the browser: German and English come with the page's script (texts.ts); each other
// language is a chunk of its own, fetched beside React only by a page in that language (decision 048).
import type { Language } from '../shared/language.ts'
import { addTexts, type Texts } from '../shared/texts.ts'

const CHUNKS: Record<Exclude<Language, 'de' | 'en'>, () => Promise<Texts>> = {
  fr: () => import('../shared/texts-fr.ts').then((module) => module.FR),
  es: () => import('../shared/texts-es.ts').then((module) => module.ES),
  it: () => import('../shared/texts-it.ts').then((module) => module.IT),
  nl: () => import('../shared/texts-nl.ts').then((module) => module.NL),
  pl: () => import('../shared/texts-pl.ts').then((module) => module.PL),
}

/** Resolves once textsOf(language) has the table. */
export async function loadTexts(language: Language): Promise<void> {
  if (language === 'de' || language === 'en') return
  addTexts(language, await CHUNKS[language]())
}
