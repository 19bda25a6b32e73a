// The buyer's mails in Dutch (buyer-words.ts, its shape in buyer-words-types.ts). Machine-written, not yet read by a native speaker (decision 048).
import type { BuyerMailWords } from './buyer-words-types.ts'

const HELLO = 'Goedendag,'
const REGARDS = 'Met vriendelijke groet'

export const BUYER_WORDS_NL: BuyerMailWords = {
  confirm: {
    greeting: HELLO,
    subject: {
      notice: (domain) => `Uw aanvraag over ${domain} is ontvangen`,
      verify: (domain) => `Bevestig uw aanvraag over ${domain}`,
    },
    lead: {
      notice: (domain) => `Uw aanvraag over ${domain} is ontvangen. Het antwoord van de eigenaar ontvangt u op dit e-mailadres.`,
      verify: (domain) =>
        `Via het contactformulier van ${domain} is een aanvraag met dit e-mailadres verstuurd. Die komt pas bij de eigenaar terecht als u hem bevestigt:`,
    },
    close: {
      notice: 'Hebt u geen aanvraag verstuurd? Dan kunt u deze e-mail negeren.',
      verify: 'De link is 48 uur geldig. Hebt u geen aanvraag verstuurd? Negeer deze e-mail dan: de aanvraag wordt na 48 uur verwijderd.',
    },
    linkPlaceholder: '[bevestigingslink]',
    signature: (domain) => `Automatisch verzonden via het contactformulier van ${domain}.`,
  },
  replyPrefix: (domain) => `Re: Aanvraag over ${domain}`,
  stepSubject: {
    'deal-paid': 'Betaling ontvangen',
    'deal-transferred': 'Verhuizing van de domeinnaam',
    'deal-completed': 'Aankoop afgerond',
    'deal-cancelled': 'Aankoop geannuleerd',
    'deal-payment-reminder': 'Betalingsherinnering',
  },
  stepBody: {
    'deal-paid': (v) =>
      `${HELLO}\n\nUw betaling van ${v.amount} voor ${v.domain} (aankoopnummer ${v.reference}) is ontvangen. Hartelijk dank!\n\nIk bereid nu de verhuizing van de domeinnaam voor. U ontvangt een e-mail zodra de verhuiscode klaarstaat. Op uw aankooppagina ziet u altijd hoe het ervoor staat:\n${v.link}\n\n${REGARDS}`,
    'deal-transferred': (v) =>
      `${HELLO}\n\nDe verhuiscode voor ${v.domain} (aankoopnummer ${v.reference}) staat klaar. Om veiligheidsredenen staat hij niet in deze e-mail: u ziet hem op uw aankooppagina nadat u daar uw e-mailadres hebt ingevuld:\n${v.link}\n\nVoer de code in bij uw registrar. Is de domeinnaam bij u aangekomen, bevestig dat dan op de aankooppagina met ‘Domeinnaam ontvangen’${v.completesAt ? `; zonder reactie geldt de aankoop op ${v.completesAt} als afgerond` : ''}.\n\n${REGARDS}`,
    'deal-completed': (v) =>
      `${HELLO}\n\nDe aankoop van ${v.domain} (aankoopnummer ${v.reference}) is afgerond. De domeinnaam is nu van u. Hartelijk dank!\n\n${v.link}\n\n${REGARDS}`,
    'deal-cancelled': (v) =>
      `${HELLO}\n\nDe aankoop van ${v.domain} (aankoopnummer ${v.reference}) is geannuleerd.${v.reason ? `\n\nReden: ${v.reason}` : ''}\n\n${v.link}\n\n${REGARDS}`,
    'deal-payment-reminder': (v) =>
      `${HELLO}\n\nEen vriendelijke herinnering: de betaling van ${v.amount} voor ${v.domain} (aankoopnummer ${v.reference}) staat nog open. Wilt u uiterlijk ${v.deadline ?? ''} betalen? Hoe dat gaat, staat op uw aankooppagina:\n${v.link}\n\nHebt u al betaald? Dan kunt u deze e-mail als niet verzonden beschouwen.\n\n${REGARDS}`,
  },
  templates: {
    counter: `${HELLO}

Hartelijk dank voor uw interesse in {domain}.

Ik bied u de domeinnaam aan voor {betrag}. Dit aanbod is geldig tot {frist}.

{notiz}

Gaat u akkoord? Beantwoord dan gewoon deze e-mail.

${REGARDS}`,
    accept: `${HELLO}

Hartelijk dank voor uw bod: ik neem het aan en verkoop u {domain}.
Afgesproken bedrag: {betrag}

{notiz}

Al het verdere (betaling, verhuizing van de domeinnaam) vindt u op uw persoonlijke aankooppagina:
{link}

Hebt u vragen? Beantwoord dan gewoon deze e-mail.

${REGARDS}`,
    decline: `${HELLO}

Hartelijk dank voor uw interesse in {domain}. Helaas kan ik uw bod niet aannemen.

{notiz}

${REGARDS}`,
    'checkout-accept': `${HELLO}

Hartelijk dank voor uw aankoop: ik bevestig die en verkoop u {domain} voor de vaste prijs van {betrag}.

{notiz}

Al het verdere (betaling, verhuizing van de domeinnaam) vindt u op uw persoonlijke aankooppagina:
{link}

Hebt u vragen? Beantwoord dan gewoon deze e-mail.

${REGARDS}`,
    'checkout-decline': `${HELLO}

Hartelijk dank voor uw interesse in {domain}. Helaas kan ik uw aankoop niet bevestigen.

{notiz}

${REGARDS}`,
    sold: `${HELLO}

Hartelijk dank voor uw interesse in {domain}. De domeinnaam is inmiddels verkocht; ik kan uw aanvraag daarom helaas niet meer in behandeling nemen.

${REGARDS}`,
  },
  subjects: {
    counter: 'Tegenbod',
    accept: 'Bod aangenomen',
    decline: 'Bod afgewezen',
    'checkout-accept': 'Aankoop bevestigd',
    'checkout-decline': 'Aankoop niet bevestigd',
    'sold-notice': 'Al verkocht',
  },
  quoteLine: (date, domain) => `Op ${date} schreef u over ${domain}:`,
  asAgreed: 'zoals afgesproken',
  berlinTime: (formatted) => `${formatted} (tijd in Berlijn)`,
  linkInFirstMail: '(de link staat in onze eerste e-mail)',
  downPayment: 'Aanbetaling',
  rate: (number, count) => `Termijn ${number} van ${count}`,
  rateBody: {
    received: (v) =>
      `${HELLO}\n\nUw betaling van ${v.amount} (${v.label}) voor ${v.domain} (aankoopnummer ${v.deal}) is ontvangen. Hartelijk dank!${v.next ? `\n\n${v.next}` : ''}\n\nOp uw aankooppagina ziet u altijd het betalingsschema:\n${v.link}\n\n${REGARDS}`,
    reminder: (v) =>
      `${HELLO}\n\nEen vriendelijke herinnering: voor ${v.domain} (aankoopnummer ${v.deal}) vervalt op ${v.due} de betaling ‘${v.label}’ van ${v.amount}. Wilt u die overmaken met het betalingskenmerk ${v.reference}? De bankgegevens en de QR-code staan op uw aankooppagina:\n${v.link}\n\nHebt u al betaald? Dan kunt u deze e-mail als niet verzonden beschouwen.\n\n${REGARDS}`,
    'overdue-buyer': (v) =>
      `${HELLO}\n\nVoor ${v.domain} (aankoopnummer ${v.deal}) verviel op ${v.due} de betaling ‘${v.label}’ van ${v.amount}; wij hebben die nog niet ontvangen. Wilt u die overmaken met het betalingskenmerk ${v.reference}? Alle verdere informatie staat op uw aankooppagina:\n${v.link}\n\nHebt u al betaald? Dan kunt u deze e-mail als niet verzonden beschouwen.\n\n${REGARDS}`,
  },
  nextRate: (label, amount, due, reference) => `Volgende betaling: ${label}, ${amount} uiterlijk ${due}, betalingskenmerk ${reference}.`,
  plan: ({ down, rates, rate, lastLess, atOnce }) =>
    `\n\nBetaling in termijnen: ${down ? `een aanbetaling van ${down}, daarna ` : ''}${rates} maandelijkse termijnen van ${rate}${lastLess ? ' (de laatste een cent minder)' : ''}. De domeinnaam wordt ${atOnce ? 'direct' : 'na de laatste termijn'} overgedragen.`,
}
