// The buyer's mails in Italian (buyer-words.ts, its shape in buyer-words-types.ts). Machine-written, not yet read by a native speaker (decision 048).
import type { BuyerMailWords } from './buyer-words-types.ts'

const HELLO = 'Buongiorno,'
const REGARDS = 'Cordiali saluti'

export const BUYER_WORDS_IT: BuyerMailWords = {
  confirm: {
    greeting: HELLO,
    subject: {
      notice: (domain) => `Abbiamo ricevuto la Sua richiesta relativa a ${domain}`,
      verify: (domain) => `Confermi la Sua richiesta relativa a ${domain}`,
    },
    lead: {
      notice: (domain) => `abbiamo ricevuto la Sua richiesta relativa a ${domain}. Riceverà la risposta del titolare a questo indirizzo e-mail.`,
      verify: (domain) =>
        `tramite il modulo di contatto di ${domain} è stata inviata una richiesta con questo indirizzo e-mail. Verrà inoltrata al titolare solo dopo la Sua conferma:`,
    },
    close: {
      notice: 'Se non ha inviato alcuna richiesta, può ignorare questa e-mail.',
      verify: 'Il link è valido 48 ore. Se non ha inviato alcuna richiesta, ignori semplicemente questa e-mail: la richiesta verrà cancellata dopo 48 ore.',
    },
    linkPlaceholder: '[link di conferma]',
    signature: (domain) => `Inviato automaticamente dal modulo di contatto di ${domain}.`,
  },
  replyPrefix: (domain) => `Re: Richiesta relativa a ${domain}`,
  stepSubject: {
    'deal-paid': 'Pagamento ricevuto',
    'deal-transferred': 'Trasferimento del dominio',
    'deal-completed': 'Acquisto concluso',
    'deal-cancelled': 'Acquisto annullato',
    'deal-payment-reminder': 'Promemoria di pagamento',
  },
  stepBody: {
    'deal-paid': (v) =>
      `${HELLO}\n\nabbiamo ricevuto il Suo pagamento di ${v.amount} per ${v.domain} (numero d’acquisto ${v.reference}). Grazie mille!\n\nOra preparerò il trasferimento del dominio. Riceverà un’e-mail non appena il codice di trasferimento sarà disponibile. Sulla Sua pagina di acquisto può vedere in ogni momento a che punto siamo:\n${v.link}\n\n${REGARDS}`,
    'deal-transferred': (v) =>
      `${HELLO}\n\nil codice di trasferimento per ${v.domain} (numero d’acquisto ${v.reference}) è disponibile. Per motivi di sicurezza non è riportato in questa e-mail: lo vedrà sulla Sua pagina di acquisto dopo avervi inserito il Suo indirizzo e-mail:\n${v.link}\n\nInserisca il codice presso il Suo registrar. Quando il dominio sarà arrivato, La preghiamo di confermarlo sulla pagina di acquisto con «Dominio ricevuto»${v.completesAt ? `; in assenza di riscontro, l’acquisto si considererà concluso il ${v.completesAt}` : ''}.\n\n${REGARDS}`,
    'deal-completed': (v) =>
      `${HELLO}\n\nl’acquisto di ${v.domain} (numero d’acquisto ${v.reference}) è concluso. Il dominio ora è Suo. Grazie mille!\n\n${v.link}\n\n${REGARDS}`,
    'deal-cancelled': (v) =>
      `${HELLO}\n\nl’acquisto di ${v.domain} (numero d’acquisto ${v.reference}) è stato annullato.${v.reason ? `\n\nMotivazione: ${v.reason}` : ''}\n\n${v.link}\n\n${REGARDS}`,
    'deal-payment-reminder': (v) =>
      `${HELLO}\n\nLe ricordiamo gentilmente che il pagamento di ${v.amount} per ${v.domain} (numero d’acquisto ${v.reference}) è ancora in sospeso. La preghiamo di effettuarlo entro il ${v.deadline ?? ''}. Le modalità sono indicate sulla Sua pagina di acquisto:\n${v.link}\n\nSe ha già pagato, La preghiamo di non tenere conto di questa e-mail.\n\n${REGARDS}`,
  },
  templates: {
    counter: `${HELLO}

La ringrazio per l’interesse dimostrato per {domain}.

Le offro il dominio per {betrag}. L’offerta è valida fino al {frist}.

{notiz}

Se è d’accordo, Le basta rispondere a questa e-mail.

${REGARDS}`,
    accept: `${HELLO}

La ringrazio per la Sua offerta: la accetto e Le vendo {domain}.
Importo concordato: {betrag}

{notiz}

Tutto il resto (pagamento, trasferimento del dominio) lo trova sulla Sua pagina di acquisto personale:
{link}

Per qualsiasi domanda, Le basta rispondere a questa e-mail.

${REGARDS}`,
    decline: `${HELLO}

La ringrazio per l’interesse dimostrato per {domain}. Purtroppo non posso accettare la Sua offerta.

{notiz}

${REGARDS}`,
    'checkout-accept': `${HELLO}

La ringrazio per il Suo acquisto: lo confermo e Le vendo {domain} al prezzo fisso di {betrag}.

{notiz}

Tutto il resto (pagamento, trasferimento del dominio) lo trova sulla Sua pagina di acquisto personale:
{link}

Per qualsiasi domanda, Le basta rispondere a questa e-mail.

${REGARDS}`,
    'checkout-decline': `${HELLO}

La ringrazio per l’interesse dimostrato per {domain}. Purtroppo non posso confermare il Suo acquisto.

{notiz}

${REGARDS}`,
    sold: `${HELLO}

La ringrazio per l’interesse dimostrato per {domain}. Nel frattempo il dominio è stato venduto, perciò purtroppo non posso più dare seguito alla Sua richiesta.

${REGARDS}`,
  },
  subjects: {
    counter: 'Controfferta',
    accept: 'Offerta accettata',
    decline: 'Offerta rifiutata',
    'checkout-accept': 'Acquisto confermato',
    'checkout-decline': 'Acquisto non confermato',
    'sold-notice': 'Già venduto',
  },
  quoteLine: (date, domain) => `Il ${date} ha scritto a proposito di ${domain}:`,
  asAgreed: 'come concordato',
  berlinTime: (formatted) => `${formatted} (ora di Berlino)`,
  linkInFirstMail: '(il link si trova nella nostra prima e-mail)',
  downPayment: 'Acconto',
  rate: (number, count) => `Rata ${number} di ${count}`,
  rateBody: {
    received: (v) =>
      `${HELLO}\n\nabbiamo ricevuto il Suo pagamento di ${v.amount} (${v.label}) per ${v.domain} (numero d’acquisto ${v.deal}). Grazie mille!${v.next ? `\n\n${v.next}` : ''}\n\nSulla Sua pagina di acquisto può consultare in ogni momento il piano di pagamento:\n${v.link}\n\n${REGARDS}`,
    reminder: (v) =>
      `${HELLO}\n\nLe ricordiamo gentilmente che per ${v.domain} (numero d’acquisto ${v.deal}) il ${v.due} scade il pagamento «${v.label}» di ${v.amount}. La preghiamo di effettuare il bonifico con la causale ${v.reference}. Le coordinate bancarie e il codice QR sono riportati sulla Sua pagina di acquisto:\n${v.link}\n\nSe ha già pagato, La preghiamo di non tenere conto di questa e-mail.\n\n${REGARDS}`,
    'overdue-buyer': (v) =>
      `${HELLO}\n\nper ${v.domain} (numero d’acquisto ${v.deal}) il ${v.due} è scaduto il pagamento «${v.label}» di ${v.amount}, che non abbiamo ancora ricevuto. La preghiamo di effettuare il bonifico con la causale ${v.reference}. Tutti i dettagli sono sulla Sua pagina di acquisto:\n${v.link}\n\nSe ha già pagato, La preghiamo di non tenere conto di questa e-mail.\n\n${REGARDS}`,
  },
  nextRate: (label, amount, due, reference) => `Prossima scadenza: ${label}, ${amount} entro il ${due}, causale ${reference}.`,
  plan: ({ down, rates, rate, lastLess, atOnce }) =>
    `\n\nPagamento rateale: ${down ? `un acconto di ${down}, poi ` : ''}${rates} rate mensili da ${rate}${lastLess ? ' (le ultime di un centesimo in meno)' : ''}. Il dominio viene trasferito ${atOnce ? 'subito' : 'dopo l’ultima rata'}.`,
}
