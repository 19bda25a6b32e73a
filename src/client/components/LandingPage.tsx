import { Fragment } from 'react'
import { nameLayout } from '../../shared/domain-name.ts'
import { priceText } from '../../shared/price-terms.ts'
import { TEXT } from '../../shared/texts.ts'
import type { PageProps } from '../page-props.ts'
import { ContactForm } from './ContactForm.tsx'
import { Footer } from './Footer.tsx'
import { Portfolio } from './Portfolio.tsx'
import { HowToBuy, Offer } from './Offer.tsx'

export function LandingPage(props: PageProps) {
  const name = nameLayout(props.host)
  // With price terms, a buy button or the steps of a purchase, wide screens set them beside the form.
  const sells = Boolean((props.listing && priceText(props.listing)) || props.buyUrl || props.howToBuy)
  return (
    <>
      <main className={sells ? 'page sells' : 'page'}>
        {/* The title's size step is a class of the header: a custom property the title inherits. */}
        <header className={`intro fit-${name.fit}`}>
          <h2 className="kicker">{TEXT.interested}</h2>
          <h1 className="domain">
            {name.parts.map((part, index) => (
              <Fragment key={index}>
                {index > 0 && <wbr />}
                {part}
              </Fragment>
            ))}
          </h1>
          {/* A sold name is not for sale any more: the page says so instead. */}
          {props.saleStatus !== 'sold' && <p className="for-sale">{TEXT.forSale(props.host)}</p>}
          {props.listing?.description && <p className="description">{props.listing.description}</p>}
          {props.saleStatus === 'reserved' && <p className="sale-status">{TEXT.reserved}</p>}
          {props.saleStatus === 'sold' && <p className="sale-status">{TEXT.sold}</p>}
        </header>
        <Offer listing={props.listing} buyUrl={props.buyUrl} />
        {props.saleStatus !== 'sold' && (
          <section className="card" aria-labelledby="contact-heading">
            <h2 id="contact-heading">{TEXT.writeUs}</h2>
            {props.saleStatus === 'reserved' && <p className="sale-note">{TEXT.reservedBackup}</p>}
            <ContactForm token={props.token} hash={props.hash} outcome={props.outcome} values={props.values} offer={props.offer} verify={props.verify} />
            {props.legal?.privacyHref && (
              <p className="privacy-note">
                {TEXT.privacyNote} <a href={props.legal.privacyHref}>{TEXT.privacyNoteLink}</a>.
              </p>
            )}
          </section>
        )}
        {props.howToBuy && <HowToBuy text={props.howToBuy.text ?? TEXT.howToBuy} />}
        {props.portfolio && <Portfolio names={props.portfolio.names} />}
      </main>
      <Footer legal={props.legal} />
    </>
  )
}
