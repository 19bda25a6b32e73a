// What the console answers when it refuses something, in its German (docs/console.md): one table, keyed by what
// happened, so that the same refusal reads the same on every page and a wording is changed in one place. The routes
// name a key; the status stays with the route. The public page's words are per language in src/shared/texts-*.ts.
import { NOTE_MAX } from '../../shared/console-api.ts'
import { DEAL_STATE_LABEL, type DealState } from '../../shared/deal-api.ts'
import { IMPORT_MAX_BYTES } from '../../shared/import-api.ts'
import { MAX_COUNTER_DAYS } from '../deal/actions.ts'
import { MAX_RATES, MIN_RATES } from '../deal/instalments.ts'
import { TRANSFER_CODE_MAX } from '../deal/seal.ts'
import { MAX_DEADLINE_DAYS, REASON_MAX } from '../deal/steps.ts'
import { formatDeadline } from '../mail/deal-mail.ts'
import { CAMT_MAX_BYTES } from '../payments/camt.ts'

export const CONSOLE_TEXT = {
  /** Signing in (session/). */
  session: {
    signIn: 'Bitte anmelden.',
    wrongPassword: 'Das Passwort ist falsch.',
    setup: 'Für die Konsole ist noch kein Passwort gesetzt. Setzen Sie es auf dem Server mit: npx domain-lander set-password',
    tooManyFailures: 'Zu viele falsche Passwörter. Bitte versuchen Sie es später erneut.',
    tooManyCodes: 'Zu viele falsche Codes. Melden Sie sich mit einem Passkey oder einem Wiederherstellungscode an oder versuchen Sie es später erneut.',
    tooManyPasskeyFailures: 'Zu viele abgelehnte Passkeys von dieser Adresse. Bitte versuchen Sie es später erneut.',
    wrongCode: 'Der Code ist falsch oder wurde schon benutzt.',
    passkeyRefused: 'Der Passkey wurde nicht angenommen. Bitte erneut versuchen.',
  },
  /** Passkeys, the second factor and the sessions page (security/). */
  security: {
    challengeGone: 'Die Anfrage ist abgelaufen oder wurde schon benutzt. Bitte erneut „Passkey hinzufügen“.',
    passkeyRefused: 'Der Passkey wurde nicht angenommen.',
    passkeyExists: 'Diesen Passkey gibt es schon.',
    passkeyNotFound: 'Diesen Passkey gibt es nicht (mehr).',
    secondFactorOn: 'Der zweite Faktor ist schon eingeschaltet.',
    secondFactorNotStarted: 'Bitte zuerst „Zweiten Faktor einrichten“.',
    setupCodeWrong: 'Der Code stimmt nicht. Bitte den aktuellen Code aus der App eingeben.',
    setupRestarted: 'Die Einrichtung wurde inzwischen neu begonnen. Bitte erneut einrichten.',
    secondFactorOff: 'Der zweite Faktor ist nicht eingeschaltet.',
    codeWrong: 'Der Code ist falsch oder wurde schon benutzt.',
    sessionNotFound: 'Diese Sitzung gibt es nicht (mehr).',
  },
  /** The inbox, an inquiry and the owner's actions on it (inbox/). */
  inquiry: {
    notFound: 'Diese Anfrage gibt es nicht (mehr).',
    actionRefused: 'Das geht bei dieser Anfrage nicht (Spam zuerst als „Kein Spam" markieren).',
    badCursor: 'cursor: ungültig',
    badDomain: 'domain: kein Domainname',
  },
  /** The outbox's "Erneut senden". */
  outbox: {
    mailGone: 'Diese Mail wird gerade gesendet oder ist nicht mehr da.',
    dnsUpdateGone: 'Dieses DNS-Update wird gerade gesendet oder ist nicht mehr da.',
    domainNoticeGone: 'Diese Benachrichtigung wird gerade gesendet oder ist nicht mehr da.',
  },
  /** Gegenangebot, Annehmen, Ablehnen (deal/). */
  negotiation: {
    spam: 'Eine Spam-Anfrage wird nicht beantwortet (zuerst als „Kein Spam“ markieren).',
    unconfirmed: 'Die Anfrage ist noch nicht bestätigt: Ihre Adresse ist nicht geprüft.',
    counterExpired: (expiredAt: number) => `Das Gegenangebot ist am ${formatDeadline(expiredAt)} abgelaufen. Zum Annehmen bitte bestätigen.`,
    badAmount: (currency: string) => `Betrag: bitte einen ganzen Betrag in ${currency} angeben, z. B. 4.900.`,
    badDays: `Gültigkeit: 1 bis ${MAX_COUNTER_DAYS} Tage.`,
    noteTooLong: `Notiz: höchstens ${NOTE_MAX} Zeichen.`,
    dealInProgress: (dealId: number) => `Zu dieser Anfrage läuft ein Verkauf (Nr. ${dealId}). Brechen Sie ihn zuerst ab (Verkäufe).`,
    domainDealOpen: (dealId: number) =>
      `Diese Domain wird gerade verkauft (Verkauf Nr. ${dealId}): ein Verkauf je Domain zur Zeit. Brechen Sie ihn zuerst ab (Verkäufe).`,
    sold: (dealId: number) => `Diese Domain ist verkauft (Verkauf Nr. ${dealId}): Es wird nichts mehr angenommen.`,
    checkoutCounter: 'Ein Kauf zum Festpreis wird bestätigt oder abgelehnt, nicht mit einem Gegenangebot beantwortet.',
    badRates: `Ratenzahlung: ${MIN_RATES} bis ${MAX_RATES} Monatsraten.`,
    badDownPayment: 'Anzahlung: bitte einen ganzen Betrag angeben, z. B. 500, oder leer lassen.',
    downPaymentTooHigh: 'Anzahlung: Sie muss kleiner sein als der Betrag und für jede Rate mindestens einen Cent übrig lassen.',
  },
  /** The owner's steps on a deal and its invoice (sales/). */
  sale: {
    notFound: 'Diesen Kauf gibt es nicht (mehr).',
    wrongState: (state: DealState) => `Das geht im Zustand „${DEAL_STATE_LABEL[state]}“ nicht.`,
    badTransferCode: `Bitte einen Transfer-Code (höchstens ${TRANSFER_CODE_MAX} Zeichen, ohne Steuerzeichen) oder eine Notiz angeben.`,
    reasonTooLong: `Höchstens ${REASON_MAX} Zeichen.`,
    deadlinePast: 'Die neue Frist liegt in der Vergangenheit: Bitte ein Datum ab heute angeben.',
    deadlineTooFar: `Die neue Frist liegt zu weit in der Zukunft (höchstens ${MAX_DEADLINE_DAYS} Tage).`,
    badDeadline: 'Frist: bitte ein Datum als JJJJ-MM-TT angeben, z. B. 2026-12-31.',
    rateAlreadyPaid: 'Diese Rate ist bereits als erhalten markiert.',
    invoiceNotYet: (state: DealState) => `Eine Rechnung gibt es erst, wenn die Zahlung erhalten ist (Zustand „${DEAL_STATE_LABEL[state]}“).`,
    invoicesOff: 'Rechnungen sind aus: Dafür fehlen die Angaben des Verkäufers (SELLER_*, docs/deals.md).',
    noBillingAddress: 'Der Käufer hat noch keine Rechnungsanschrift angegeben. Er kann sie auf seiner Kaufseite eintragen.',
    invoiced: 'Für diesen Kauf ist schon eine Rechnung ausgestellt.',
    invoiceNotFound: 'Diese Rechnung gibt es nicht.',
  },
  /** The page "Domains" (domains/). */
  domains: {
    noFile: 'Der Server hat keine Domains-Datei (DOMAINS_FILE). Legen Sie eine an, setzen Sie DOMAINS_FILE und starten Sie den Server neu.',
    badRequest: 'Die Änderung ist unvollständig oder ungültig.',
    changed: 'Die Domains-Datei wurde seit der Vorschau geändert (hier oder auf einem anderen Server). Bitte die Vorschau neu laden.',
    busy: 'Ein Import oder eine andere Änderung schreibt gerade die Domains-Datei. Bitte gleich erneut versuchen.',
    refused: (why: string) => `Der Server würde die Domains-Datei nach dieser Änderung nicht laden; es wurde nichts geschrieben. Grund: ${why}`,
    write: 'Die Domains-Datei kann nicht geschrieben werden; sie bleibt, wie sie war. Der Grund steht im Log des Servers.',
    problems: 'Die Änderung hat Fehler; es wurde nichts geschrieben.',
    fileExists: (file: string) => `Die Datei gibt es schon: ${file}`,
    hasFile: (file: string) => `Der Server hat schon eine Domains-Datei: ${file}`,
    badName: 'Bitte einen Domainnamen wie beispiel.de angeben.',
  },
  /** The page "Import" (import/). */
  import: {
    noFile: 'Der Server hat keine Domains-Datei (DOMAINS_FILE): es gibt nichts, in das importiert werden kann.',
    badRequest: 'Bitte eine CSV- oder JSON-Datei wählen.',
    tooLarge: `Die Datei ist größer als ${IMPORT_MAX_BYTES / 1024 / 1024} MB. Größere Listen importiert npx domain-lander import auf dem Server.`,
    changed: 'Die Domains-Datei wurde seit der Vorschau geändert. Bitte die Vorschau neu laden.',
    busy: 'Ein anderer Import schreibt gerade die Domains-Datei. Bitte gleich die Vorschau neu laden.',
    running: 'Es läuft schon ein Import. Bitte warten, bis er fertig ist.',
    refused: (why: string) => `Der Server würde die Domains-Datei nach diesem Import nicht laden; es wurde nichts geschrieben. Grund: ${why}`,
    write: 'Die Domains-Datei kann nicht geschrieben werden; sie bleibt, wie sie war. Der Grund steht im Log des Servers.',
    errors: 'Die Liste hat Fehler; es wurde nichts geschrieben.',
  },
  /** The page "Kontoauszug importieren" (payments/). */
  payments: {
    badRequest: 'Bitte eine CAMT.053-Datei (XML) wählen.',
    tooLarge: `Die Datei ist größer als ${CAMT_MAX_BYTES / 1024 / 1024} MB. Bitte einen kürzeren Zeitraum exportieren.`,
    /** After the reader's own sentence on what is wrong with the file. */
    nothingApplied: (problem: string) => `${problem} Es wurde nichts übernommen.`,
  },
  /** Datenschutz (privacy/). */
  privacy: {
    askForAddress: 'Bitte eine E-Mail-Adresse eingeben.',
  },
  /** The page "Protokoll" (audit/). */
  audit: {
    badSubject: 'Betreff: eine Anfrage (A12), ein Verkauf (V3) oder ein Domainname',
  },
  /** A query that no page of the console sends (domain-checks/). */
  badQuery: 'Die Anfrage ist ungültig.',
} as const
