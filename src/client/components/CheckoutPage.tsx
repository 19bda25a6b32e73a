// GET /kaufen: the checkout at the fixed price (decision 035). Rendered on the server only: no script, a plain form
// posted to the same path and answered with a redirect (or this page again, with the hints, when something is wrong).
import { CHECKOUT_FIELD, CHECKOUT_PATH } from '../../shared/checkout.ts'
import { LIMIT } from '../../shared/contact.ts'
import { textsOf } from '../../shared/texts.ts'
import type { CheckoutPageProps } from '../page-props.ts'
import { AddressFields, Line } from './AddressFields.tsx'
import { Footer } from './Footer.tsx'

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
  const text = textsOf(props.language)
  const priceShown = props.vat ? `${props.price} ${props.vat}` : props.price
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
          <Line form="checkout" field={CHECKOUT_FIELD.name} label={text.labelName} state={props} autoComplete="name" required maxLength={LIMIT.name} />
          <Decoy name={CHECKOUT_FIELD.nameDecoy} label={text.labelName} type="text" />
          <Line
            form="checkout"
            field={CHECKOUT_FIELD.email}
            label={text.labelEmail}
            state={props}
            type="email"
            autoComplete="email"
            required
            maxLength={LIMIT.email}
          />
          <Decoy name={CHECKOUT_FIELD.emailDecoy} label={text.labelEmail} type="email" />
          <AddressFields form="checkout" language={props.language} state={props} />
          {props.instalments && (
            <fieldset className="field checkout-payment">
              <legend>{text.checkoutPayment}</legend>
              <label>
                <input type="radio" name={CHECKOUT_FIELD.payment} value="once" defaultChecked={!props.instalments.chosen} /> {text.checkoutPayOnce(priceShown)}
              </label>
              <label>
                <input type="radio" name={CHECKOUT_FIELD.payment} value="instalments" defaultChecked={props.instalments.chosen} />{' '}
                {text.checkoutPayInstalments(
                  String(props.instalments.rates),
                  props.instalments.rate,
                  props.instalments.downPayment,
                  props.instalments.atOnce ? 'at-once' : '',
                )}
              </label>
            </fieldset>
          )}
          <div className="field checkout-binding">
            <label>
              <input
                type="checkbox"
                name={CHECKOUT_FIELD.binding}
                value="on"
                required
                defaultChecked={props.values?.[CHECKOUT_FIELD.binding] === 'on'}
                aria-invalid={bindingError ? true : undefined}
                aria-describedby={bindingError ? 'checkout-binding-hint' : undefined}
              />{' '}
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
          <input type="hidden" name={CHECKOUT_FIELD.terms} value={props.terms} />
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
