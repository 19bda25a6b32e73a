// The deal page (/kauf/…), its instalment plan and its billing address in Polish (deal-texts.ts). Machine-written, not
// yet read by a native speaker (decision 048).
import type { DealPageWords } from './deal-words.ts'

export const DEAL_PL: DealPageWords = {
  deal: {
    title: (domain) => `Zakup domeny ${domain}`,
    notFoundTitle: 'Nie znaleziono strony',
    notFound: 'Taka strona zakupu nie istnieje. Prosimy sprawdzić link w wiadomości e-mail.',
    intro: (domain) => `Tutaj w każdej chwili widać, na jakim etapie jest zakup domeny ${domain} i jaki jest następny krok.`,
    amount: 'Uzgodniona kwota',
    reference: 'Numer zakupu',
    seller: 'Sprzedający',
    contact: 'Kontakt',
    contactText: (address) => `Wystarczy odpowiedzieć na naszą wiadomość albo napisać na adres ${address}.`,
    contactReply: 'Wystarczy odpowiedzieć na naszą wiadomość.',
    steps: { payment: 'Płatność', transfer: 'Przeniesienie', done: 'Zakończono' },
    stepState: { done: 'gotowe', current: 'bieżący krok', todo: 'następny' },
    deadline: (date) => `do ${date}`,
    overdue: (date) => `termin upłynął ${date}`,
    now: 'Co należy teraz zrobić',
    todo: {
      awaiting_payment:
        'Prosimy zapłacić uzgodnioną kwotę w jeden z podanych niżej sposobów, podając numer zakupu. Gdy płatność wpłynie, sprzedający potwierdzi ją tutaj i e-mailem.',
      paid: 'Płatność wpłynęła. Sprzedający przygotowuje teraz przeniesienie domeny; gdy kod transferu będzie gotowy, otrzymają Państwo wiadomość e-mail.',
      transferred:
        'Domena jest przenoszona. Prosimy odebrać poniżej kod transferu i podać go u swojego rejestratora. Gdy domena zostanie przeniesiona, prosimy potwierdzić to przyciskiem „Domena otrzymana”.',
      completed: 'Zakup został zakończony. Domena należy teraz do Państwa. Dziękujemy!',
      cancelled: 'Ten zakup został anulowany.',
    },
    cancelledBy: { owner: 'Sprzedający anulował zakup.', buyer: 'Anulowali Państwo zakup.' },
    reason: 'Uzasadnienie',
    payTitle: 'Jak zapłacić',
    payBank: 'Przelew bankowy (SEPA)',
    holder: 'Właściciel rachunku',
    iban: 'IBAN',
    bic: 'BIC',
    purpose: 'Tytuł przelewu',
    qrLabel: 'Kod QR EPC dla aplikacji bankowej',
    qrHelp: 'Prosimy zeskanować kod w aplikacji bankowej: odbiorca, IBAN, kwota i tytuł przelewu zostaną wtedy uzupełnione automatycznie.',
    payLink: 'Płatność online',
    payLinkButton: 'Przejdź do płatności',
    escrow: 'Depozyt (escrow)',
    escrowText: (name) =>
      `Płacą Państwo serwisowi depozytowemu ${name}. Przekaże on kwotę sprzedającemu dopiero wtedy, gdy domena zostanie do Państwa przeniesiona.`,
    escrowButton: (name) => `Przejdź do ${name}`,
    noPayment: 'Sprzedający prześle dane do płatności e-mailem.',
    cancelTitle: 'Anulowanie zakupu',
    cancelText: 'Dopóki płatność nie została dokonana, mogą Państwo anulować zakup tutaj.',
    cancelButton: 'Anuluj zakup',
    codeTitle: 'Kod transferu',
    codeText: 'Dla bezpieczeństwa: prosimy podać adres e-mail, na który wysyłamy wiadomości. Wtedy kod zostanie wyświetlony.',
    codeEmail: 'Adres e-mail',
    codeButton: 'Pokaż kod',
    codeShown: 'Kod transferu (AuthInfo)',
    codeWrongEmail: 'Ten adres e-mail nie pasuje do tego zakupu.',
    transferNote: 'Uwaga sprzedającego',
    invoicesTitle: (count) => (count === 1 ? 'Faktura' : 'Faktury'),
    invoiceLink: (kind, number) => `${{ invoice: 'Faktura', advance: 'Faktura zaliczkowa', cancellation: 'Faktura korygująca' }[kind]} ${number} (PDF)`,
    receivedTitle: 'Domena otrzymana?',
    receivedText: (date) =>
      date
        ? `Gdy domena zostanie przeniesiona, prosimy to potwierdzić. Bez odpowiedzi zakup zostanie uznany za zakończony ${date}.`
        : 'Gdy domena zostanie przeniesiona, prosimy to potwierdzić.',
    receivedButton: 'Domena otrzymana',
    sold: 'sprzedana',
    rateLimited: 'Zbyt wiele prób. Prosimy odczekać godzinę i spróbować ponownie.',
    crossSite: 'To żądanie nie pochodzi z tej strony.',
  },
  plan: {
    title: 'Harmonogram płatności',
    intro: (rates, transfer) =>
      `Płacą Państwo w ratach miesięcznych (liczba rat: ${rates}), każda z własnym tytułem przelewu. ${transfer === 'at-once' ? 'Domena zostanie przeniesiona jeszcze przed ostatnią ratą.' : 'Domena zostanie przeniesiona po ostatniej racie.'}`,
    rate: 'Płatność',
    due: 'Termin',
    amount: 'Kwota',
    reference: 'Tytuł przelewu',
    state: 'Status',
    states: { paid: (date) => `zapłacono ${date}`, next: 'następna do zapłaty', open: 'do zapłaty', overdue: 'zaległa' },
    paid: (amount) => `Zapłacono: ${amount}`,
    open: (amount) => `Pozostało: ${amount}`,
    payThis: 'Zapłać tę ratę',
    paying: (label, due) => `Za: ${label}, termin ${due}:`,
    allPaid: 'Wszystkie raty zostały zapłacone. Dziękujemy!',
  },
  invoiceAddress: {
    title: 'Dane do faktury',
    intro:
      'Do wystawienia faktury potrzebujemy imienia i nazwiska oraz adresu (wymaga tego niemieckie prawo podatkowe). Fakturę otrzymają Państwo wraz z potwierdzeniem płatności; do tego czasu można tu zmienić te dane.',
    saved: 'Dane do faktury zostały zapisane. Można je tu zmieniać do czasu wystawienia faktury.',
    invalid: 'Prosimy sprawdzić zaznaczone pola.',
    submit: 'Zapisz dane do faktury',
  },
}
