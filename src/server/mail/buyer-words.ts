// The words of every mail a buyer gets, one table per language (buyer-words-de.ts, buyer-words-fr.ts, …), so that
// whoever checks a translation reads one file and every mail looks its words up in one place. The owner's mails are
// not here: they are German whatever the buyer's language (deal-step-mail.ts, deal/rates.ts).
import type { Language } from '../../shared/language.ts'
import { BUYER_WORDS_DE } from './buyer-words-de.ts'
import { BUYER_WORDS_EN } from './buyer-words-en.ts'
import { BUYER_WORDS_ES } from './buyer-words-es.ts'
import { BUYER_WORDS_FR } from './buyer-words-fr.ts'
import { BUYER_WORDS_IT } from './buyer-words-it.ts'
import { BUYER_WORDS_NL } from './buyer-words-nl.ts'
import { BUYER_WORDS_PL } from './buyer-words-pl.ts'
import type { BuyerMailWords } from './buyer-words-types.ts'

export const BUYER_WORDS: Record<Language, BuyerMailWords> = {
  de: BUYER_WORDS_DE,
  en: BUYER_WORDS_EN,
  fr: BUYER_WORDS_FR,
  es: BUYER_WORDS_ES,
  it: BUYER_WORDS_IT,
  nl: BUYER_WORDS_NL,
  pl: BUYER_WORDS_PL,
}
