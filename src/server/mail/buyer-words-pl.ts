// The buyer's mails in Polish (buyer-words.ts, its shape in buyer-words-types.ts). Machine-written, not yet read by a native speaker (decision 048).
import type { BuyerMailWords } from './buyer-words-types.ts'

const HELLO = 'Dzień dobry,'
const REGARDS = 'Z poważaniem'

export const BUYER_WORDS_PL: BuyerMailWords = {
  confirm: {
    greeting: HELLO,
    subject: {
      notice: (domain) => `Otrzymaliśmy zapytanie dotyczące domeny ${domain}`,
      verify: (domain) => `Prosimy potwierdzić zapytanie dotyczące domeny ${domain}`,
    },
    lead: {
      notice: (domain) => `otrzymaliśmy Państwa zapytanie dotyczące domeny ${domain}. Odpowiedź właściciela przyjdzie na ten adres e-mail.`,
      verify: (domain) =>
        `za pomocą formularza kontaktowego ${domain} wysłano zapytanie z tym adresem e-mail. Trafi ono do właściciela dopiero po potwierdzeniu:`,
    },
    close: {
      notice: 'Jeśli nie wysyłali Państwo żadnego zapytania, prosimy zignorować tę wiadomość.',
      verify:
        'Link jest ważny 48 godzin. Jeśli nie wysyłali Państwo żadnego zapytania, prosimy zignorować tę wiadomość: zapytanie zostanie wtedy usunięte po 48 godzinach.',
    },
    linkPlaceholder: '[link potwierdzający]',
    signature: (domain) => `Wiadomość wysłana automatycznie przez formularz kontaktowy ${domain}.`,
  },
  replyPrefix: (domain) => `Re: Zapytanie dotyczące domeny ${domain}`,
  stepSubject: {
    'deal-paid': 'Płatność otrzymana',
    'deal-transferred': 'Przeniesienie domeny',
    'deal-completed': 'Zakup zakończony',
    'deal-cancelled': 'Zakup anulowany',
    'deal-payment-reminder': 'Przypomnienie o płatności',
  },
  stepBody: {
    'deal-paid': (v) =>
      `${HELLO}\n\notrzymaliśmy płatność w wysokości ${v.amount} za domenę ${v.domain} (numer zakupu ${v.reference}). Dziękujemy!\n\nTeraz przygotuję przeniesienie domeny. Gdy kod transferu będzie gotowy, otrzymają Państwo wiadomość e-mail. Aktualny stan zakupu jest zawsze widoczny na stronie zakupu:\n${v.link}\n\n${REGARDS}`,
    'deal-transferred': (v) =>
      `${HELLO}\n\nkod transferu domeny ${v.domain} (numer zakupu ${v.reference}) jest gotowy. Ze względów bezpieczeństwa nie ma go w tej wiadomości: zobaczą go Państwo na stronie zakupu po wpisaniu tam swojego adresu e-mail:\n${v.link}\n\nKod należy podać u swojego rejestratora. Gdy domena zostanie przeniesiona, prosimy potwierdzić to na stronie zakupu przyciskiem „Domena otrzymana”${v.completesAt ? `; bez odpowiedzi zakup zostanie uznany za zakończony ${v.completesAt}` : ''}.\n\n${REGARDS}`,
    'deal-completed': (v) =>
      `${HELLO}\n\nzakup domeny ${v.domain} (numer zakupu ${v.reference}) został zakończony. Domena należy teraz do Państwa. Dziękujemy!\n\n${v.link}\n\n${REGARDS}`,
    'deal-cancelled': (v) =>
      `${HELLO}\n\nzakup domeny ${v.domain} (numer zakupu ${v.reference}) został anulowany.${v.reason ? `\n\nUzasadnienie: ${v.reason}` : ''}\n\n${v.link}\n\n${REGARDS}`,
    'deal-payment-reminder': (v) =>
      `${HELLO}\n\nuprzejmie przypominamy, że płatność w wysokości ${v.amount} za domenę ${v.domain} (numer zakupu ${v.reference}) jest nadal nieuregulowana. Prosimy o zapłatę do ${v.deadline ?? ''}. Sposób płatności podano na stronie zakupu:\n${v.link}\n\nJeśli płatność została już dokonana, prosimy potraktować tę wiadomość jako nieaktualną.\n\n${REGARDS}`,
  },
  templates: {
    counter: `${HELLO}

dziękuję za zainteresowanie domeną {domain}.

Mogę zaproponować Państwu tę domenę za {betrag}. Oferta jest ważna do {frist}.

{notiz}

Jeśli propozycja jest dla Państwa do przyjęcia, wystarczy odpowiedzieć na tę wiadomość.

${REGARDS}`,
    accept: `${HELLO}

dziękuję za ofertę: przyjmuję ją i sprzedaję Państwu domenę {domain}.
Uzgodniona kwota: {betrag}

{notiz}

Wszystkie dalsze kroki (płatność, przeniesienie domeny) znajdą Państwo na swojej osobistej stronie zakupu:
{link}

W razie pytań wystarczy odpowiedzieć na tę wiadomość.

${REGARDS}`,
    decline: `${HELLO}

dziękuję za zainteresowanie domeną {domain}. Niestety nie mogę przyjąć Państwa oferty.

{notiz}

${REGARDS}`,
    'checkout-accept': `${HELLO}

dziękuję za zakup: potwierdzam go i sprzedaję Państwu domenę {domain} po stałej cenie {betrag}.

{notiz}

Wszystkie dalsze kroki (płatność, przeniesienie domeny) znajdą Państwo na swojej osobistej stronie zakupu:
{link}

W razie pytań wystarczy odpowiedzieć na tę wiadomość.

${REGARDS}`,
    'checkout-decline': `${HELLO}

dziękuję za zainteresowanie domeną {domain}. Niestety nie mogę potwierdzić Państwa zakupu.

{notiz}

${REGARDS}`,
    sold: `${HELLO}

dziękuję za zainteresowanie domeną {domain}. Domena została już sprzedana, dlatego niestety nie mogę uwzględnić Państwa zapytania.

${REGARDS}`,
  },
  subjects: {
    counter: 'Kontroferta',
    accept: 'Oferta przyjęta',
    decline: 'Oferta odrzucona',
    'checkout-accept': 'Zakup potwierdzony',
    'checkout-decline': 'Zakup niepotwierdzony',
    'sold-notice': 'Domena już sprzedana',
  },
  quoteLine: (date, domain) => `${date} napisali Państwo w sprawie domeny ${domain}:`,
  asAgreed: 'zgodnie z ustaleniami',
  berlinTime: (formatted) => `${formatted} (czasu berlińskiego)`,
  linkInFirstMail: '(link znajduje się w naszej pierwszej wiadomości)',
  downPayment: 'Zaliczka',
  rate: (number, count) => `Rata ${number} z ${count}`,
  rateBody: {
    received: (v) =>
      `${HELLO}\n\notrzymaliśmy płatność w wysokości ${v.amount} (${v.label}) za domenę ${v.domain} (numer zakupu ${v.deal}). Dziękujemy!${v.next ? `\n\n${v.next}` : ''}\n\nHarmonogram płatności jest zawsze widoczny na stronie zakupu:\n${v.link}\n\n${REGARDS}`,
    reminder: (v) =>
      `${HELLO}\n\nuprzejmie przypominamy, że ${v.due} upływa termin płatności „${v.label}” w wysokości ${v.amount} za domenę ${v.domain} (numer zakupu ${v.deal}). Prosimy o przelew z tytułem ${v.reference}. Dane do przelewu i kod QR znajdują się na stronie zakupu:\n${v.link}\n\nJeśli płatność została już dokonana, prosimy potraktować tę wiadomość jako nieaktualną.\n\n${REGARDS}`,
    'overdue-buyer': (v) =>
      `${HELLO}\n\n${v.due} upłynął termin płatności „${v.label}” w wysokości ${v.amount} za domenę ${v.domain} (numer zakupu ${v.deal}), a płatność jeszcze do nas nie dotarła. Prosimy o przelew z tytułem ${v.reference}. Wszystkie szczegóły znajdują się na stronie zakupu:\n${v.link}\n\nJeśli płatność została już dokonana, prosimy potraktować tę wiadomość jako nieaktualną.\n\n${REGARDS}`,
  },
  nextRate: (label, amount, due, reference) => `Następna płatność: ${label}, ${amount} do ${due}, tytuł przelewu ${reference}.`,
  plan: ({ down, rates, rate, lastLess, atOnce }) =>
    `\n\nPłatność w ratach: ${down ? `zaliczka ${down}, a następnie ` : ''}raty miesięczne (${rates}) po ${rate}${lastLess ? ' (ostatnie o jeden grosz niższe)' : ''}. Domena zostanie przeniesiona ${atOnce ? 'od razu' : 'po ostatniej racie'}.`,
}
