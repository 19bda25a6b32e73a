// The buyer's mails in Spanish (buyer-words.ts, its shape in buyer-words-types.ts). Machine-written, not yet read by a native speaker (decision 048).
import type { BuyerMailWords } from './buyer-words-types.ts'

const HELLO = 'Buenos días:'
const REGARDS = 'Atentamente'

export const BUYER_WORDS_ES: BuyerMailWords = {
  confirm: {
    greeting: HELLO,
    subject: {
      notice: (domain) => `Hemos recibido su consulta sobre ${domain}`,
      verify: (domain) => `Confirme su consulta sobre ${domain}`,
    },
    lead: {
      notice: (domain) => `Hemos recibido su consulta sobre ${domain}. Recibirá la respuesta del propietario en esta dirección de correo electrónico.`,
      verify: (domain) =>
        `Se ha enviado una consulta con esta dirección de correo electrónico a través del formulario de contacto de ${domain}. Solo llegará al propietario cuando usted la confirme:`,
    },
    close: {
      notice: 'Si usted no ha enviado ninguna consulta, puede ignorar este correo electrónico.',
      verify: 'El enlace es válido durante 48 horas. Si usted no ha enviado ninguna consulta, ignore este correo: la consulta se eliminará pasadas 48 horas.',
    },
    linkPlaceholder: '[enlace de confirmación]',
    signature: (domain) => `Enviado automáticamente a través del formulario de contacto de ${domain}.`,
  },
  replyPrefix: (domain) => `Re: Consulta sobre ${domain}`,
  stepSubject: {
    'deal-paid': 'Pago recibido',
    'deal-transferred': 'Transferencia del dominio',
    'deal-completed': 'Compra completada',
    'deal-cancelled': 'Compra cancelada',
    'deal-payment-reminder': 'Recordatorio de pago',
  },
  stepBody: {
    'deal-paid': (v) =>
      `${HELLO}\n\nHemos recibido su pago de ${v.amount} por ${v.domain} (número de compra ${v.reference}). ¡Muchas gracias!\n\nA continuación prepararé la transferencia del dominio. Recibirá un correo electrónico en cuanto el código de transferencia esté disponible. En su página de compra puede consultar en todo momento el estado:\n${v.link}\n\n${REGARDS}`,
    'deal-transferred': (v) =>
      `${HELLO}\n\nEl código de transferencia de ${v.domain} (número de compra ${v.reference}) ya está disponible. Por motivos de seguridad no figura en este correo: lo verá en su página de compra después de introducir allí su dirección de correo electrónico:\n${v.link}\n\nIntroduzca el código en su registrador. Cuando haya recibido el dominio, confírmelo en la página de compra con «Dominio recibido»${v.completesAt ? `; si no recibimos respuesta, la compra se considerará completada el ${v.completesAt}` : ''}.\n\n${REGARDS}`,
    'deal-completed': (v) =>
      `${HELLO}\n\nLa compra de ${v.domain} (número de compra ${v.reference}) se ha completado. El dominio ya es suyo. ¡Muchas gracias!\n\n${v.link}\n\n${REGARDS}`,
    'deal-cancelled': (v) =>
      `${HELLO}\n\nLa compra de ${v.domain} (número de compra ${v.reference}) se ha cancelado.${v.reason ? `\n\nMotivo: ${v.reason}` : ''}\n\n${v.link}\n\n${REGARDS}`,
    'deal-payment-reminder': (v) =>
      `${HELLO}\n\nLe recordamos amablemente que el pago de ${v.amount} por ${v.domain} (número de compra ${v.reference}) sigue pendiente. Le rogamos que lo realice antes del ${v.deadline ?? ''}. En su página de compra se indica cómo hacerlo:\n${v.link}\n\nSi ya ha realizado el pago, no tenga en cuenta este correo.\n\n${REGARDS}`,
  },
  templates: {
    counter: `${HELLO}

Muchas gracias por su interés en {domain}.

Le ofrezco el dominio por {betrag}. Esta oferta es válida hasta el {frist}.

{notiz}

Si está de acuerdo, basta con que responda a este correo.

${REGARDS}`,
    accept: `${HELLO}

Muchas gracias por su oferta: la acepto y le vendo {domain}.
Importe acordado: {betrag}

{notiz}

Todo lo demás (el pago y la transferencia del dominio) lo encontrará en su página de compra personal:
{link}

Si tiene alguna pregunta, basta con que responda a este correo.

${REGARDS}`,
    decline: `${HELLO}

Muchas gracias por su interés en {domain}. Lamentablemente, no puedo aceptar su oferta.

{notiz}

${REGARDS}`,
    'checkout-accept': `${HELLO}

Muchas gracias por su compra: se la confirmo y le vendo {domain} al precio fijo de {betrag}.

{notiz}

Todo lo demás (el pago y la transferencia del dominio) lo encontrará en su página de compra personal:
{link}

Si tiene alguna pregunta, basta con que responda a este correo.

${REGARDS}`,
    'checkout-decline': `${HELLO}

Muchas gracias por su interés en {domain}. Lamentablemente, no puedo confirmar su compra.

{notiz}

${REGARDS}`,
    sold: `${HELLO}

Muchas gracias por su interés en {domain}. El dominio ya se ha vendido, por lo que lamentablemente no puedo atender su consulta.

${REGARDS}`,
  },
  subjects: {
    counter: 'Contraoferta',
    accept: 'Oferta aceptada',
    decline: 'Oferta rechazada',
    'checkout-accept': 'Compra confirmada',
    'checkout-decline': 'Compra no confirmada',
    'sold-notice': 'Ya vendido',
  },
  quoteLine: (date, domain) => `El ${date}, usted escribió sobre ${domain}:`,
  asAgreed: 'según lo acordado',
  berlinTime: (formatted) => `${formatted} (hora de Berlín)`,
  linkInFirstMail: '(el enlace figura en nuestro primer correo)',
  downPayment: 'Pago inicial',
  rate: (number, count) => `Cuota ${number} de ${count}`,
  rateBody: {
    received: (v) =>
      `${HELLO}\n\nHemos recibido su pago de ${v.amount} (${v.label}) por ${v.domain} (número de compra ${v.deal}). ¡Muchas gracias!${v.next ? `\n\n${v.next}` : ''}\n\nEn su página de compra puede consultar en todo momento el plan de pagos:\n${v.link}\n\n${REGARDS}`,
    reminder: (v) =>
      `${HELLO}\n\nLe recordamos amablemente que el ${v.due} vence el pago «${v.label}» de ${v.domain} (número de compra ${v.deal}), por ${v.amount}. Le rogamos que realice la transferencia con la referencia ${v.reference}. Los datos bancarios y el código QR figuran en su página de compra:\n${v.link}\n\nSi ya ha realizado el pago, no tenga en cuenta este correo.\n\n${REGARDS}`,
    'overdue-buyer': (v) =>
      `${HELLO}\n\nEl ${v.due} vencía el pago «${v.label}» de ${v.domain} (número de compra ${v.deal}), por ${v.amount}, y todavía no lo hemos recibido. Le rogamos que realice la transferencia con la referencia ${v.reference}. Encontrará todos los detalles en su página de compra:\n${v.link}\n\nSi ya ha realizado el pago, no tenga en cuenta este correo.\n\n${REGARDS}`,
  },
  nextRate: (label, amount, due, reference) => `Próximo vencimiento: ${label}, ${amount} antes del ${due}, referencia ${reference}.`,
  plan: ({ down, rates, rate, lastLess, atOnce }) =>
    `\n\nPago a plazos: ${down ? `un pago inicial de ${down} y, después, ` : ''}${rates} cuotas mensuales de ${rate}${lastLess ? ' (las últimas, un céntimo menos)' : ''}. El dominio se transfiere ${atOnce ? 'de inmediato' : 'tras la última cuota'}.`,
}
