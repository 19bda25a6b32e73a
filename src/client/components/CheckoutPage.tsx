// GET /kaufen: the checkout at the fixed price (decision 035). Rendered on the server only: no script, a plain form
// posted to the same path and answered with a redirect (or this page again, with the hints, when something is wrong).
import { CHECKOUT_FIELD, CHECKOUT_LIMIT, CHECKOUT_PATH, COUNTRIES, type CheckoutVisibleField } from '../../shared/checkout.ts'
import { LIMIT } from '../../shared/contact.ts'
import { TEXTS } from '../../shared/texts.ts'
import type { CheckoutPageProps } from '../page-props.ts'
import { Footer } from './Footer.tsx'

/** The countries by their names in the page's language, sorted as people of that language sort them. */
function countryOptions(language: CheckoutPageProps['language']) {
  const names = new Intl.DisplayNames([language], { type: 'region' })
  return COUNTRIES.map((code) => ({ code, name: names.of(code) ?? code })).sort((a, b) => a.name.localeCompare(b.name, language))
}

interface LineProps {
  field: CheckoutVisibleField
  label: string
  props: CheckoutPageProps
  type?: 'text' | 'email'
  autoComplete: string
  required?: boolean
  maxLength: number
}

function Line({ field, label, props, type = 'text', ...attributes }: LineProps) {
  const id = `checkout-${field}`
  const error = props.fieldErrors?.[field]
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} name={field} type={type} defaultValue={props.values?.[field] ?? ''} aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-hint` : undefined} {...attributes} />
      {error && (
        <p className="hint" id={`${id}-hint`}>
          {error}
        </p>
      )}
    </div>
  )
}

function Decoy({ name, label, type }: { name: string; label: string; type: 'text' | 'email' }) {
  return (
    <div className="ohnobee" hidden aria-hidden="true">
      <label>
        {label}
        <input name={name} className="ohnobee" type={type} tabIndex={10} autoComplete="off" defaultValue="" />
      </label>
    </div>
  )
}

export function CheckoutPage(props: CheckoutPageProps) {
  const text = TEXTS[props.language]
  const priceShown = props.vat ? `${props.price} ${props.vat}` : props.price
  const countryError = props.fieldErrors?.[CHECKOUT_FIELD.country]
  const bindingError = props.fieldErrors?.[CHECKOUT_FIELD.binding]
  return (
    <>
      <main className="page checkout">
        <h1>{text.checkoutTitle(props.host)}</h1>
        <p className="checkout-intro">{text.checkoutIntro(props.host, priceShown)}</p>
        {props.error && (
          <p className="status status-failed" role="alert">
            {props.error}
          </p>
        )}
        <form className="contact checkout-form" method="post" action={CHECKOUT_PATH}>
          <Line field={CHECKOUT_FIELD.name} label={text.labelName} props={props} autoComplete="name" required maxLength={LIMIT.name} />
          <Decoy name={CHECKOUT_FIELD.nameDecoy} label={text.labelName} type="text" />
          <Line field={CHECKOUT_FIELD.email} label={text.labelEmail} props={props} type="email" autoComplete="email" required maxLength={LIMIT.email} />
          <Decoy name={CHECKOUT_FIELD.emailDecoy} label={text.labelEmail} type="email" />
          <Line field={CHECKOUT_FIELD.company} label={text.checkoutCompany} props={props} autoComplete="organization" maxLength={CHECKOUT_LIMIT.line} />
          <Line field={CHECKOUT_FIELD.street} label={text.checkoutStreet} props={props} autoComplete="street-address" required maxLength={CHECKOUT_LIMIT.line} />
          <Line field={CHECKOUT_FIELD.postcode} label={text.checkoutPostcode} props={props} autoComplete="postal-code" required maxLength={CHECKOUT_LIMIT.postcode} />
          <Line field={CHECKOUT_FIELD.city} label={text.checkoutCity} props={props} autoComplete="address-level2" required maxLength={CHECKOUT_LIMIT.line} />
          <div className="field">
            <label htmlFor="checkout-country">{text.checkoutCountry}</label>
            <select id="checkout-country" name={CHECKOUT_FIELD.country} required autoComplete="country" defaultValue={props.values?.[CHECKOUT_FIELD.country] ?? ''} aria-invalid={countryError ? true : undefined} aria-describedby={countryError ? 'checkout-country-hint' : undefined}>
              <option value="">{text.checkoutChooseCountry}</option>
              {countryOptions(props.language).map(({ code, name }) => (
                <option key={code} value={code}>
                  {name}
                </option>
              ))}
            </select>
            {countryError && (
              <p className="hint" id="checkout-country-hint">
                {countryError}
              </p>
            )}
          </div>
          <Line field={CHECKOUT_FIELD.vatId} label={text.checkoutVatId} props={props} autoComplete="off" maxLength={CHECKOUT_LIMIT.vatId} />
          {props.instalments && (
            <fieldset className="field checkout-payment">
              <legend>{text.checkoutPayment}</legend>
              <label>
                <input type="radio" name={CHECKOUT_FIELD.payment} value="once" defaultChecked={!props.instalments.chosen} /> {text.checkoutPayOnce(priceShown)}
              </label>
              <label>
                <input type="radio" name={CHECKOUT_FIELD.payment} value="instalments" defaultChecked={props.instalments.chosen} />{' '}
                {text.checkoutPayInstalments(String(props.instalments.rates), props.instalments.rate)}
              </label>
            </fieldset>
          )}
          <div className="field checkout-binding">
            <label>
              <input type="checkbox" name={CHECKOUT_FIELD.binding} value="on" required defaultChecked={props.values?.[CHECKOUT_FIELD.binding] === 'on'} aria-invalid={bindingError ? true : undefined} aria-describedby={bindingError ? 'checkout-binding-hint' : undefined} />{' '}
              {text.checkoutBinding(priceShown)}
            </label>
            {bindingError && (
              <p className="hint" id="checkout-binding-hint">
                {bindingError}
              </p>
            )}
          </div>
          <input type="hidden" name={CHECKOUT_FIELD.token} value={props.token} />
          <input type="hidden" name={CHECKOUT_FIELD.hash} value={props.hash} />
          <p className="note">{text.checkoutNext}</p>
          <div className="actions">
            <button type="submit">{text.checkoutSubmit}</button>
          </div>
        </form>
      </main>
      <Footer legal={props.legal} language={props.language} />
    </>
  )
}
