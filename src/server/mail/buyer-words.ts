// The words of every mail a buyer gets in one of the languages decision 048 added (French, Spanish, Italian, Dutch,
// Polish): one table per language (buyer-words-fr.ts, …), so that whoever checks a translation reads one file. The
// German and English texts stay where they were written (confirm-mail.ts, deal-step-mail.ts, deal-mail.ts, the deal
// steps); each of those places takes the others from here.
import type { Language } from '../../shared/language.ts'
import { BUYER_WORDS_ES } from './buyer-words-es.ts'
import { BUYER_WORDS_FR } from './buyer-words-fr.ts'
import { BUYER_WORDS_IT } from './buyer-words-it.ts'
import { BUYER_WORDS_NL } from './buyer-words-nl.ts'
import { BUYER_WORDS_PL } from './buyer-words-pl.ts'
import type { AddedLanguage, BuyerMailWords } from './buyer-words-types.ts'

export const BUYER_WORDS: Record<AddedLanguage, BuyerMailWords> = {
  fr: BUYER_WORDS_FR,
  es: BUYER_WORDS_ES,
  it: BUYER_WORDS_IT,
  nl: BUYER_WORDS_NL,
  pl: BUYER_WORDS_PL,
}

export const isAddedLanguage = (language: Language): language is AddedLanguage => Object.hasOwn(BUYER_WORDS, language)
