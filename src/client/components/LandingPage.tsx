import { TEXT } from '../../shared/texts.ts'
import type { PageProps } from '../page-props.ts'
import { ContactForm } from './ContactForm.tsx'
import { Footer } from './Footer.tsx'
import { Portfolio } from './Portfolio.tsx'

export function LandingPage(props: PageProps) {
  return (
    <>
      <main className="page">
        <header className="intro">
          <h2 className="kicker">{TEXT.interested}</h2>
          <h1 className="domain">{props.host}</h1>
          <p className="for-sale">{TEXT.forSale(props.host)}</p>
          {props.listing?.price && <p className="price">{TEXT.price(props.listing.price)}</p>}
          {props.listing?.description && <p className="description">{props.listing.description}</p>}
          {props.saleStatus === 'reserved' && <p className="sale-status">{TEXT.reserved}</p>}
          {props.saleStatus === 'sold' && <p className="sale-status">{TEXT.sold}</p>}
        </header>
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
        {props.portfolio && <Portfolio names={props.portfolio.names} />}
      </main>
      <Footer legal={props.legal} />
    </>
  )
}
