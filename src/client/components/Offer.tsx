import { CHECKOUT_PATH } from '../../shared/checkout.ts'
import { priceText } from '../../shared/price-terms.ts'
import type { Language } from '../../shared/language.ts'
import { textsOf } from '../../shared/texts.ts'
import type { PageProps } from '../page-props.ts'

/** The price terms and the buy button: what a buyer looks for first, so it comes right after the name. */
export function Offer({ listing, buyUrl, checkout, language }: Pick<PageProps, 'listing' | 'buyUrl' | 'checkout' | 'language'>) {
  const text = textsOf(language)
  const price = listing && priceText(listing, language)
  if (!price && !buyUrl) return null
  return (
    <div className="offer">
      {price && (
        <p className="price">
          {price.terms ? (
            <>
              <span className="terms">{price.terms.label}</span> {price.terms.amount}
            </>
          ) : (
            price.line
          )}
        </p>
      )}
      {price?.vat && <p className="vat">{price.vat}</p>}
      {buyUrl && (
        <>
          {/* The same tab, and the address exactly as the owner wrote it: nothing added, no window.opener. */}
          <a className="buy" href={buyUrl}>
            {text.buyNow}
          </a>
          <p className="buy-via">{text.buyVia(new URL(buyUrl).hostname)}</p>
        </>
      )}
      {checkout && !buyUrl && (
        <a className="buy" href={CHECKOUT_PATH}>
          {text.buyNow}
        </a>
      )}
    </div>
  )
}

/**
 * "So läuft der Kauf ab": one step per line of the text (the owner's own, as written, or the page language's
 * standard steps), numbered when there are several.
 */
export function HowToBuy({ steps: own, language }: { steps: string | undefined; language: Language }) {
  const steps = (own ?? textsOf(language).howToBuy)
    .split('\n')
    .map((step) => step.trim())
    .filter(Boolean)
  return (
    <section className="how-to-buy" aria-labelledby="how-to-buy-heading">
      <h2 id="how-to-buy-heading">{textsOf(language).howToBuyTitle}</h2>
      {steps.length > 1 ? (
        <ol>
          {steps.map((step, index) => (
            <li key={index}>{step}</li>
          ))}
        </ol>
      ) : (
        <p>{steps[0]}</p>
      )}
    </section>
  )
}
