// The buyer's mails in English (buyer-words.ts, its shape in buyer-words-types.ts), as decision 025 wrote them.
import type { BuyerMailWords } from './buyer-words-types.ts'

const HELLO = 'Hello,'
const REGARDS = 'Kind regards'

export const BUYER_WORDS_EN: BuyerMailWords = {
  confirm: {
    greeting: HELLO,
    subject: {
      notice: (domain) => `Your inquiry about ${domain} has arrived`,
      verify: (domain) => `Please confirm your inquiry about ${domain}`,
    },
    lead: {
      notice: (domain) => `Your inquiry about ${domain} has arrived. The owner's answer will come to this email address.`,
      verify: (domain) => `An inquiry was sent with this email address through the contact form of ${domain}. It only reaches the owner once you confirm it:`,
    },
    close: {
      notice: 'If you did not send an inquiry, you can ignore this email.',
      verify: 'The link is valid for 48 hours. If you did not send an inquiry, just ignore this email: the inquiry will then be deleted after 48 hours.',
    },
    linkPlaceholder: '[confirmation link]',
    signature: (domain) => `Sent automatically by the contact form of ${domain}.`,
  },
  replyPrefix: (domain) => `Re: Inquiry about ${domain}`,
  stepSubject: {
    'deal-paid': 'Payment received',
    'deal-transferred': 'Transfer of the domain',
    'deal-completed': 'Purchase completed',
    'deal-cancelled': 'Purchase cancelled',
    'deal-payment-reminder': 'Payment reminder',
  },
  stepBody: {
    'deal-paid': (v) =>
      `${HELLO}\n\nyour payment of ${v.amount} for ${v.domain} (purchase number ${v.reference}) has arrived. Thank you!\n\nNext I will prepare the transfer of the domain. You will get an email as soon as the transfer code is ready. Your purchase page always shows where things stand:\n${v.link}\n\n${REGARDS}`,
    'deal-transferred': (v) =>
      `${HELLO}\n\nthe transfer code for ${v.domain} (purchase number ${v.reference}) is ready. For your security it is not in this email: you see it on your purchase page after entering your email address there:\n${v.link}\n\nEnter the code at your registrar. Once the domain has arrived, please confirm with “Domain received” on the purchase page${v.completesAt ? `; without an answer the purchase counts as completed on ${v.completesAt}` : ''}.\n\n${REGARDS}`,
    'deal-completed': (v) =>
      `${HELLO}\n\nthe purchase of ${v.domain} (purchase number ${v.reference}) is complete. The domain is yours now. Thank you!\n\n${v.link}\n\n${REGARDS}`,
    'deal-cancelled': (v) =>
      `${HELLO}\n\nthe purchase of ${v.domain} (purchase number ${v.reference}) was cancelled.${v.reason ? `\n\nReason: ${v.reason}` : ''}\n\n${v.link}\n\n${REGARDS}`,
    'deal-payment-reminder': (v) =>
      `${HELLO}\n\na friendly reminder: the payment of ${v.amount} for ${v.domain} (purchase number ${v.reference}) is still open. Please pay by ${v.deadline ?? ''}. Your purchase page says how:\n${v.link}\n\nIf you have paid already, please disregard this email.\n\n${REGARDS}`,
  },
  templates: {
    counter: `${HELLO}

thank you for your interest in {domain}.

I can offer you the domain for {betrag}. This offer is valid until {frist}.

{notiz}

If you agree, just reply to this email.

${REGARDS}`,
    accept: `${HELLO}

thank you for your offer: I accept it and sell you {domain}.
Agreed amount: {betrag}

{notiz}

Everything else (payment, the transfer of the domain) is on your personal purchase page:
{link}

If you have any questions, just reply to this email.

${REGARDS}`,
    decline: `${HELLO}

thank you for your interest in {domain}. Unfortunately I cannot accept your offer.

{notiz}

${REGARDS}`,
    'checkout-accept': `${HELLO}

thank you for your purchase: I confirm it and sell you {domain} at the fixed price of {betrag}.

{notiz}

Everything else (payment, the transfer of the domain) is on your personal purchase page:
{link}

If you have any questions, just reply to this email.

${REGARDS}`,
    'checkout-decline': `${HELLO}

thank you for your interest in {domain}. Unfortunately I cannot confirm your purchase.

{notiz}

${REGARDS}`,
    sold: `${HELLO}

thank you for your interest in {domain}. The domain has been sold in the meantime, so unfortunately I can no longer consider your inquiry.

${REGARDS}`,
  },
  subjects: {
    counter: 'Counter-offer',
    accept: 'Offer accepted',
    decline: 'Offer declined',
    'checkout-accept': 'Purchase confirmed',
    'checkout-decline': 'Purchase declined',
    'sold-notice': 'Already sold',
  },
  quoteLine: (date, domain) => `On ${date} you wrote about ${domain}:`,
  asAgreed: 'as agreed',
  // The page's numbers are American (LOCALE), the mails' dates British: "8 November 2026 at 13:00".
  timeLocale: 'en-GB',
  berlinTime: (formatted) => `${formatted} (Berlin time)`,
  linkInFirstMail: '(the link is in our first email)',
  downPayment: 'Down payment',
  rate: (number, count) => `Rate ${number} of ${count}`,
  rateBody: {
    received: (v) =>
      `${HELLO}\n\nyour payment of ${v.amount} (${v.label}) for ${v.domain} (purchase number ${v.deal}) has arrived. Thank you!${v.next ? `\n\n${v.next}` : ''}\n\nYour purchase page always shows the payment plan:\n${v.link}\n\n${REGARDS}`,
    reminder: (v) =>
      `${HELLO}\n\na friendly reminder: ${v.label} for ${v.domain} (purchase number ${v.deal}), ${v.amount}, is due on ${v.due}. Please transfer it with the reference ${v.reference}. The bank details and the QR code are on your purchase page:\n${v.link}\n\nIf you have paid already, please disregard this email.\n\n${REGARDS}`,
    'overdue-buyer': (v) =>
      `${HELLO}\n\n${v.label} for ${v.domain} (purchase number ${v.deal}), ${v.amount}, was due on ${v.due} and has not arrived yet. Please transfer it with the reference ${v.reference}. Your purchase page has everything else:\n${v.link}\n\nIf you have paid already, please disregard this email.\n\n${REGARDS}`,
  },
  nextRate: (label, amount, due, reference) => `Next due: ${label}, ${amount} by ${due}, reference ${reference}.`,
  plan: ({ down, rates, rate, lastLess, atOnce }) =>
    `\n\nPayment by instalments: ${down ? `a down payment of ${down}, then ` : ''}${rates} monthly rates of ${rate}${lastLess ? ' (the last ones a cent less)' : ''}. The domain is transferred ${atOnce ? 'at once' : 'after the last rate'}.`,
}
