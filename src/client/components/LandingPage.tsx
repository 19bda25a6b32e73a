import { Fragment } from 'react'
import { nameLayout } from '../../shared/domain-name.ts'
import { priceText } from '../../shared/price-terms.ts'
import { textsOf } from '../../shared/texts.ts'
import type { PageProps } from '../page-props.ts'
import { ContactForm } from './ContactForm.tsx'
import { Footer } from './Footer.tsx'
import { Portfolio } from './Portfolio.tsx'
import { HowToBuy, Offer } from './Offer.tsx'

export function LandingPage(props: PageProps) {
  const text = textsOf(props.language)
  const name = nameLayout(props.host)
  // With price terms, a buy button or the steps of a purchase, wide screens set them beside the form.
  const sells = Boolean((props.listing && priceText(props.listing, props.language)) || props.buyUrl || props.howToBuy)
  return (
    <>
      <main className={sells ? 'page sells' : 'page'}>
        {/* The title's size step is a class of the header: a custom property the title inherits. */}
        <header className={`intro fit-${name.fit}`}>
          <h2 className="kicker">{text.interested}</h2>
          <h1 className="domain">
            {name.parts.map((part, index) => (
              <Fragment key={index}>
                {index > 0 && <wbr />}
                {part}
              </Fragment>
            ))}
          </h1>
          {/* A sold name is not for sale any more: the page says so instead. */}
          {props.saleStatus !== 'sold' && <p className="for-sale">{text.forSale(props.host)}</p>}
          {props.listing?.description && <p className="description">{props.listing.description}</p>}
          {props.saleStatus === 'reserved' && <p className="sale-status">{text.reserved}</p>}
          {props.saleStatus === 'sold' && <p className="sale-status">{text.sold}</p>}
        </header>
        <Offer listing={props.listing} buyUrl={props.buyUrl} {...(props.checkout && { checkout: props.checkout })} language={props.language} />
        {props.saleStatus !== 'sold' && (
          <section className="card" aria-labelledby="contact-heading">
            <h2 id="contact-heading">{text.writeUs}</h2>
            {props.saleStatus === 'reserved' && <p className="sale-note">{text.reservedBackup}</p>}
            <ContactForm
              token={props.token}
              hash={props.hash}
              outcome={props.outcome}
              values={props.values}
              offer={props.offer}
              verify={props.verify}
              language={props.language}
            />
            {props.legal?.privacyHref && (
              <p className="privacy-note">
                {text.privacyNote} <a href={props.legal.privacyHref}>{text.privacyNoteLink}</a>.
              </p>
            )}
          </section>
        )}
        {props.howToBuy && <HowToBuy steps={props.howToBuy.text} language={props.language} />}
        {props.portfolio && <Portfolio names={props.portfolio.names} language={props.language} />}
      </main>
      <Footer legal={props.legal} language={props.language} />
    </>
  )
}
