// The buyer's mails in French (buyer-words.ts, its shape in buyer-words-types.ts). Machine-written, not yet read by a native speaker (decision 048).
import type { BuyerMailWords } from './buyer-words-types.ts'

const HELLO = 'Bonjour,'
const REGARDS = 'Cordialement'

export const BUYER_WORDS_FR: BuyerMailWords = {
  confirm: {
    greeting: HELLO,
    subject: {
      notice: (domain) => `Votre demande concernant ${domain} nous est bien parvenue`,
      verify: (domain) => `Veuillez confirmer votre demande concernant ${domain}`,
    },
    lead: {
      notice: (domain) => `Votre demande concernant ${domain} nous est bien parvenue. Vous recevrez la réponse du propriétaire à cette adresse e-mail.`,
      verify: (domain) =>
        `Une demande a été envoyée avec cette adresse e-mail au moyen du formulaire de contact de ${domain}. Elle ne sera transmise au propriétaire qu’après votre confirmation\u00a0:`,
    },
    close: {
      notice: 'Si vous n’avez envoyé aucune demande, vous pouvez ignorer cet e-mail.',
      verify:
        'Le lien est valable 48\u00a0heures. Si vous n’avez envoyé aucune demande, ignorez simplement cet e-mail\u00a0: la demande sera alors supprimée au bout de 48\u00a0heures.',
    },
    linkPlaceholder: '[lien de confirmation]',
    signature: (domain) => `Envoyé automatiquement par le formulaire de contact de ${domain}.`,
  },
  replyPrefix: (domain) => `Re: Demande concernant ${domain}`,
  stepSubject: {
    'deal-paid': 'Paiement reçu',
    'deal-transferred': 'Transfert du nom de domaine',
    'deal-completed': 'Achat finalisé',
    'deal-cancelled': 'Achat annulé',
    'deal-payment-reminder': 'Rappel de paiement',
  },
  stepBody: {
    'deal-paid': (v) =>
      `${HELLO}\n\nVotre paiement de ${v.amount} pour ${v.domain} (numéro d’achat ${v.reference}) nous est bien parvenu. Merci beaucoup\u00a0!\n\nJe prépare maintenant le transfert du nom de domaine. Vous recevrez un e-mail dès que le code de transfert sera disponible. Votre page d’achat indique à tout moment où en est l’achat\u00a0:\n${v.link}\n\n${REGARDS}`,
    'deal-transferred': (v) =>
      `${HELLO}\n\nLe code de transfert pour ${v.domain} (numéro d’achat ${v.reference}) est disponible. Pour des raisons de sécurité, il ne figure pas dans cet e-mail\u00a0: vous le verrez sur votre page d’achat après y avoir saisi votre adresse e-mail\u00a0:\n${v.link}\n\nSaisissez le code auprès de votre registraire. Une fois le nom de domaine arrivé chez vous, veuillez le confirmer sur la page d’achat avec «\u00a0Nom de domaine reçu\u00a0»${v.completesAt ? `\u00a0; sans réponse de votre part, l’achat sera considéré comme finalisé le ${v.completesAt}` : ''}.\n\n${REGARDS}`,
    'deal-completed': (v) =>
      `${HELLO}\n\nL’achat de ${v.domain} (numéro d’achat ${v.reference}) est finalisé. Le nom de domaine vous appartient désormais. Merci beaucoup\u00a0!\n\n${v.link}\n\n${REGARDS}`,
    'deal-cancelled': (v) =>
      `${HELLO}\n\nL’achat de ${v.domain} (numéro d’achat ${v.reference}) a été annulé.${v.reason ? `\n\nMotif\u00a0: ${v.reason}` : ''}\n\n${v.link}\n\n${REGARDS}`,
    'deal-payment-reminder': (v) =>
      `${HELLO}\n\nPetit rappel\u00a0: le paiement de ${v.amount} pour ${v.domain} (numéro d’achat ${v.reference}) est toujours en attente. Veuillez régler d’ici le ${v.deadline ?? ''}. Les modalités figurent sur votre page d’achat\u00a0:\n${v.link}\n\nSi vous avez déjà payé, veuillez ne pas tenir compte de cet e-mail.\n\n${REGARDS}`,
  },
  templates: {
    counter: `${HELLO}

Je vous remercie de l’intérêt que vous portez à {domain}.

Je vous propose ce nom de domaine pour {betrag}. Cette offre est valable jusqu’au {frist}.

{notiz}

Si vous êtes d’accord, il vous suffit de répondre à cet e-mail.

${REGARDS}`,
    accept: `${HELLO}

Je vous remercie de votre offre\u00a0: je l’accepte et vous vends {domain}.
Montant convenu\u00a0: {betrag}

{notiz}

Vous trouverez toutes les étapes suivantes (paiement, transfert du nom de domaine) sur votre page d’achat personnelle\u00a0:
{link}

Pour toute question, il vous suffit de répondre à cet e-mail.

${REGARDS}`,
    decline: `${HELLO}

Je vous remercie de l’intérêt que vous portez à {domain}. Je ne suis malheureusement pas en mesure d’accepter votre offre.

{notiz}

${REGARDS}`,
    'checkout-accept': `${HELLO}

Je vous remercie de votre achat\u00a0: je le confirme et vous vends {domain} au prix fixe de {betrag}.

{notiz}

Vous trouverez toutes les étapes suivantes (paiement, transfert du nom de domaine) sur votre page d’achat personnelle\u00a0:
{link}

Pour toute question, il vous suffit de répondre à cet e-mail.

${REGARDS}`,
    'checkout-decline': `${HELLO}

Je vous remercie de l’intérêt que vous portez à {domain}. Je ne suis malheureusement pas en mesure de confirmer votre achat.

{notiz}

${REGARDS}`,
    sold: `${HELLO}

Je vous remercie de l’intérêt que vous portez à {domain}. Ce nom de domaine a entre-temps été vendu\u00a0; je ne peux donc malheureusement plus donner suite à votre demande.

${REGARDS}`,
  },
  subjects: {
    counter: 'Contre-proposition',
    accept: 'Offre acceptée',
    decline: 'Offre déclinée',
    'checkout-accept': 'Achat confirmé',
    'checkout-decline': 'Achat non confirmé',
    'sold-notice': 'Déjà vendu',
  },
  quoteLine: (date, domain) => `Le ${date}, vous avez écrit au sujet de ${domain}\u00a0:`,
  asAgreed: 'comme convenu',
  berlinTime: (formatted) => `${formatted} (heure de Berlin)`,
  linkInFirstMail: '(le lien figure dans notre premier e-mail)',
  downPayment: 'Acompte',
  rate: (number, count) => `Mensualité ${number} sur ${count}`,
  rateBody: {
    received: (v) =>
      `${HELLO}\n\nVotre paiement de ${v.amount} (${v.label}) pour ${v.domain} (numéro d’achat ${v.deal}) nous est bien parvenu. Merci beaucoup\u00a0!${v.next ? `\n\n${v.next}` : ''}\n\nVotre page d’achat indique à tout moment l’échéancier\u00a0:\n${v.link}\n\n${REGARDS}`,
    reminder: (v) =>
      `${HELLO}\n\nPetit rappel\u00a0: pour ${v.domain} (numéro d’achat ${v.deal}), l’échéance «\u00a0${v.label}\u00a0» de ${v.amount} arrive le ${v.due}. Veuillez effectuer le virement avec la référence ${v.reference}. Les coordonnées bancaires et le QR code figurent sur votre page d’achat\u00a0:\n${v.link}\n\nSi vous avez déjà payé, veuillez ne pas tenir compte de cet e-mail.\n\n${REGARDS}`,
    'overdue-buyer': (v) =>
      `${HELLO}\n\nPour ${v.domain} (numéro d’achat ${v.deal}), l’échéance «\u00a0${v.label}\u00a0» de ${v.amount} était due le ${v.due} et ne nous est pas encore parvenue. Veuillez effectuer le virement avec la référence ${v.reference}. Vous trouverez tous les détails sur votre page d’achat\u00a0:\n${v.link}\n\nSi vous avez déjà payé, veuillez ne pas tenir compte de cet e-mail.\n\n${REGARDS}`,
  },
  nextRate: (label, amount, due, reference) => `Prochaine échéance\u00a0: ${label}, ${amount} d’ici le ${due}, référence ${reference}.`,
  plan: ({ down, rates, rate, lastLess, atOnce }) =>
    `\n\nPaiement échelonné\u00a0: ${down ? `un acompte de ${down}, puis ` : ''}${rates} mensualités de ${rate}${lastLess ? ' (les dernières d’un centime de moins)' : ''}. Le nom de domaine est transféré ${atOnce ? 'immédiatement' : 'après la dernière mensualité'}.`,
}
