// The one checkout schema (decision 035): the page's form and the server's POST /kaufen read it. Name, e-mail,
// decoys, token and hash are the contact form's fields under the same names, so the same spam rules apply.
import * as z from 'zod/mini'
import { FIELD, LIMIT, isValidEmail } from './contact.ts'
import type { Language } from './language.ts'
import { textsOf } from './texts.ts'

export const CHECKOUT_PATH = '/kaufen'

export const CHECKOUT_FIELD = {
  name: FIELD.name,
  email: FIELD.email,
  company: 'company',
  street: 'street',
  postcode: 'postcode',
  city: 'city',
  country: 'country',
  vatId: 'vat_id',
  binding: 'binding',
  /** "instalments" when the buyer chose the domain's instalment plan (decision 042); absent or "once" otherwise. */
  payment: 'payment',
  /** The terms the form was shown with (server/checkout/route.ts): a POST at other terms binds nobody. */
  terms: 'terms',
  nameDecoy: FIELD.nameDecoy,
  emailDecoy: FIELD.emailDecoy,
  token: FIELD.token,
  hash: FIELD.hash,
} as const

export const CHECKOUT_LIMIT = { line: 200, postcode: 20, vatId: 20 } as const

/** ISO 3166-1 alpha-2, the codes in use today; the select shows their names in the page's language. */
export const COUNTRIES =
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'.split(
    ' ',
  )

// A one-line value: no control characters and no line separators (they could end a mail header or a CSV line).
const LINE_BREAKING = /[\p{Cc}\u2028\u2029]/u
const INVISIBLE = /^[\p{White_Space}\p{Cf}\p{Default_Ignorable_Code_Point}\u2800]*$/u

const line = (max: number) =>
  z.string().check(
    z.trim(),
    z.maxLength(max),
    z.refine((v) => !LINE_BREAKING.test(v)),
  )
const requiredLine = (max: number) => line(max).check(z.refine((v) => !INVISIBLE.test(v)))
const optionalLine = (max: number) => z.optional(line(max))

/**
 * The buyer's postal address for the invoice (§14 Abs. 4 UStG, decision 038): asked by the checkout, and on the deal
 * page of a deal that came from a negotiation. One shape, so both ask and check exactly the same.
 */
const addressShape = {
  [CHECKOUT_FIELD.name]: requiredLine(LIMIT.name),
  [CHECKOUT_FIELD.company]: optionalLine(CHECKOUT_LIMIT.line),
  [CHECKOUT_FIELD.street]: requiredLine(CHECKOUT_LIMIT.line),
  [CHECKOUT_FIELD.postcode]: requiredLine(CHECKOUT_LIMIT.postcode),
  [CHECKOUT_FIELD.city]: requiredLine(CHECKOUT_LIMIT.line),
  [CHECKOUT_FIELD.country]: z.string().check(z.refine((v) => COUNTRIES.includes(v))),
  [CHECKOUT_FIELD.vatId]: z.optional(z.string().check(z.trim(), z.regex(/^(?:[A-Za-z]{2}[A-Za-z0-9 .-]{2,18})?$/))),
}
const addressSchema = z.object(addressShape)

const checkoutSchema = z.object({
  ...addressShape,
  [CHECKOUT_FIELD.email]: z.string().check(z.trim(), z.refine(isValidEmail)),
  // A checkbox sends "on" when ticked and nothing otherwise: the purchase is binding only when it was ticked.
  [CHECKOUT_FIELD.binding]: z.literal('on'),
  [CHECKOUT_FIELD.payment]: z.optional(z.enum(['once', 'instalments'])),
  [CHECKOUT_FIELD.nameDecoy]: z.optional(z.string().check(z.maxLength(LIMIT.decoy))),
  [CHECKOUT_FIELD.emailDecoy]: z.optional(z.string().check(z.maxLength(LIMIT.decoy))),
  [CHECKOUT_FIELD.token]: z.string().check(z.regex(/^[A-Za-z0-9]{15}$/)),
  [CHECKOUT_FIELD.hash]: z.string().check(z.minLength(1), z.maxLength(LIMIT.hash)),
  [CHECKOUT_FIELD.terms]: z.optional(z.string().check(z.maxLength(LIMIT.hash))),
})

export type CheckoutPayload = z.infer<typeof checkoutSchema>

/** The fields a buyer fills in and is told about. */
export const CHECKOUT_VISIBLE = [
  CHECKOUT_FIELD.name,
  CHECKOUT_FIELD.email,
  CHECKOUT_FIELD.company,
  CHECKOUT_FIELD.street,
  CHECKOUT_FIELD.postcode,
  CHECKOUT_FIELD.city,
  CHECKOUT_FIELD.country,
  CHECKOUT_FIELD.vatId,
  CHECKOUT_FIELD.binding,
] as const
export type CheckoutVisibleField = (typeof CHECKOUT_VISIBLE)[number]
export type CheckoutFieldErrors = Partial<Record<CheckoutVisibleField, string>>

type AddressPayload = z.infer<typeof addressSchema>
/** The address's fields, as the deal page asks them. */
export const ADDRESS_VISIBLE = [
  CHECKOUT_FIELD.name,
  CHECKOUT_FIELD.company,
  CHECKOUT_FIELD.street,
  CHECKOUT_FIELD.postcode,
  CHECKOUT_FIELD.city,
  CHECKOUT_FIELD.country,
  CHECKOUT_FIELD.vatId,
] as const
type AddressField = (typeof ADDRESS_VISIBLE)[number]
export type AddressCheck = { status: 'valid'; data: AddressPayload } | { status: 'invalid'; fieldErrors: Partial<Record<AddressField, string>> }

export type CheckoutCheck = { status: 'valid'; data: CheckoutPayload } | { status: 'invalid'; fieldErrors: CheckoutFieldErrors }

/** Each wrong visible field's hint in the page's language, once per field. */
function hintsOf(issues: readonly { path: readonly PropertyKey[] }[], language: Language): CheckoutFieldErrors {
  const text = textsOf(language)
  const hints: Record<CheckoutVisibleField, string> = {
    [CHECKOUT_FIELD.name]: text.hintName,
    [CHECKOUT_FIELD.email]: text.hintEmail,
    [CHECKOUT_FIELD.company]: text.checkoutHintCompany,
    [CHECKOUT_FIELD.street]: text.checkoutHintStreet,
    [CHECKOUT_FIELD.postcode]: text.checkoutHintPostcode,
    [CHECKOUT_FIELD.city]: text.checkoutHintCity,
    [CHECKOUT_FIELD.country]: text.checkoutHintCountry,
    [CHECKOUT_FIELD.vatId]: text.checkoutHintVatId,
    [CHECKOUT_FIELD.binding]: text.checkoutHintBinding,
  }
  const fieldErrors: CheckoutFieldErrors = {}
  for (const issue of issues) {
    const key = issue.path[0]
    if ((CHECKOUT_VISIBLE as readonly unknown[]).includes(key)) fieldErrors[key as CheckoutVisibleField] ??= hints[key as CheckoutVisibleField]
  }
  return fieldErrors
}

/** Checks a checkout; each wrong visible field gets the hint of its own in the page's language. */
export function checkCheckout(input: unknown, language: Language = 'de'): CheckoutCheck {
  const result = checkoutSchema.safeParse(input)
  if (result.success) return { status: 'valid', data: { ...result.data, [CHECKOUT_FIELD.vatId]: result.data[CHECKOUT_FIELD.vatId]?.toUpperCase() } }
  return { status: 'invalid', fieldErrors: hintsOf(result.error.issues, language) }
}

/** Checks the invoice address a negotiated deal's buyer gives on the deal page: the checkout's rules, field by field. */
export function checkAddress(input: unknown, language: Language = 'de'): AddressCheck {
  const result = addressSchema.safeParse(input)
  if (result.success) return { status: 'valid', data: { ...result.data, [CHECKOUT_FIELD.vatId]: result.data[CHECKOUT_FIELD.vatId]?.toUpperCase() } }
  return { status: 'invalid', fieldErrors: hintsOf(result.error.issues, language) }
}
