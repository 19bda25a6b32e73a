// GET /kauf/…: the buyer's page of one deal. Rendered on the server only: it has no script, and every step the buyer
// takes is a plain form posted back to this page (same origin, rate-limited).
import { DEAL_TEXTS, PLAN_TEXTS } from '../../shared/deal-texts.ts'
import type { DealPageProps } from '../page-props.ts'
import { INVOICE_ADDRESS_TEXTS } from '../../shared/invoice-address-texts.ts'
import { CHECKOUT_FIELD } from '../../shared/checkout.ts'
import { LIMIT } from '../../shared/contact.ts'
import { textsOf } from '../../shared/texts.ts'
import { AddressFields, Line } from './AddressFields.tsx'
import { Footer } from './Footer.tsx'

/** A step the buyer takes by a plain POST; `quiet` for one that undoes (cancelling), so it never looks like the way on. */
function ActionForm({ action, name, label, quiet, children }: { action: string; name: string; label: string; quiet?: boolean; children?: React.ReactNode }) {
  return (
    <form method="post" action={action} className="deal-form">
      <input type="hidden" name="action" value={name} />
      {children}
      <button type="submit" className={quiet ? 'deal-quiet' : undefined}>
        {label}
      </button>
    </form>
  )
}

/** The invoice address of a negotiated deal (decision 038): the checkout's fields, posted back to this page. */
function InvoiceAddress({
  action,
  language,
  form,
}: {
  action: string
  language: DealPageProps['language']
  form: NonNullable<DealPageProps['invoiceAddress']>
}) {
  const words = INVOICE_ADDRESS_TEXTS[language]
  return (
    <section aria-labelledby="deal-address" className="deal-address">
      <h2 id="deal-address">{words.title}</h2>
      {form.fieldErrors ? (
        <p className="deal-error" role="alert">
          {words.invalid}
        </p>
      ) : (
        <p>{form.saved ? words.saved : words.intro}</p>
      )}
      <ActionForm action={action} name="address" label={words.submit}>
        <Line form="address" field={CHECKOUT_FIELD.name} label={textsOf(language).labelName} state={form} autoComplete="name" required maxLength={LIMIT.name} />
        <AddressFields form="address" language={language} state={form} />
      </ActionForm>
    </section>
  )
}

/** The instalment plan (decision 042): a table of every payment; an open one links to its own bank details and QR code. */
function PlanSection({ plan, language }: { plan: NonNullable<DealPageProps['plan']>; language: DealPageProps['language'] }) {
  const words = PLAN_TEXTS[language]
  return (
    <section aria-labelledby="deal-plan" className="deal-plan">
      <h2 id="deal-plan">{words.title}</h2>
      <p>{words.intro(plan.rates, plan.transfer)}</p>
      <p>
        {words.paid(plan.paid)} · {words.open(plan.open)}
      </p>
      <table className="deal-schedule">
        <thead>
          <tr>
            <th scope="col">{words.rate}</th>
            <th scope="col">{words.due}</th>
            <th scope="col">{words.amount}</th>
            <th scope="col">{words.reference}</th>
            <th scope="col">{words.state}</th>
          </tr>
        </thead>
        <tbody>
          {plan.schedule.map((rate) => (
            <tr key={rate.number} className={`deal-rate deal-rate-${rate.state}`} aria-current={plan.paying?.reference === rate.reference ? 'true' : undefined}>
              <th scope="row">{rate.label}</th>
              <td>{rate.due}</td>
              <td>{rate.amount}</td>
              <td>{rate.reference}</td>
              <td>
                {rate.state === 'paid' ? (
                  words.states.paid(rate.paidOn ?? '')
                ) : (
                  <>
                    {words.states[rate.state]} <a href={rate.href}>{words.payThis}</a>
                  </>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {!plan.paying && <p>{words.allPaid}</p>}
    </section>
  )
}

export function DealPage(props: DealPageProps) {
  const text = DEAL_TEXTS[props.language]
  const { payment, code } = props
  return (
    <>
      <main className="page deal">
        <h1>{text.title(props.domain)}</h1>
        <p>{text.intro(props.domain)}</p>
        {props.status === 'completed' && <p className="deal-sold">{`${props.domain}: ${text.sold}`}</p>}
        <dl className="deal-facts">
          <dt>{text.amount}</dt>
          <dd>
            {props.amount}
            {props.vat && ` ${props.vat}`}
          </dd>
          <dt>{text.reference}</dt>
          <dd>{props.reference}</dd>
          {props.seller && (
            <>
              <dt>{text.seller}</dt>
              <dd>{props.seller}</dd>
            </>
          )}
        </dl>

        <ol className="deal-steps">
          {props.steps.map((step) => (
            <li key={step.key} className={`deal-step deal-step-${step.state}`} aria-current={step.state === 'current' ? 'step' : undefined}>
              <strong>{text.steps[step.key]}</strong> <span className="deal-step-state">({text.stepState[step.state]})</span>
              {step.deadline && (
                <span className={step.overdue ? 'deal-deadline deal-overdue' : 'deal-deadline'}>
                  {step.overdue ? text.overdue(step.deadline) : text.deadline(step.deadline)}
                </span>
              )}
            </li>
          ))}
        </ol>

        <section aria-labelledby="deal-now">
          <h2 id="deal-now">{text.now}</h2>
          <p>{text.todo[props.status]}</p>
          {props.cancelled && (
            <p>
              {text.cancelledBy[props.cancelled.by]}
              {props.cancelled.reason && (
                <>
                  <br />
                  {`${text.reason}: `}
                  <span className="deal-user-text">{props.cancelled.reason}</span>
                </>
              )}
            </p>
          )}
        </section>

        {props.plan && <PlanSection plan={props.plan} language={props.language} />}

        {payment && (
          <section aria-labelledby="deal-pay" className="deal-payment">
            <h2 id="deal-pay">{text.payTitle}</h2>
            {props.plan?.paying && <p>{PLAN_TEXTS[props.language].paying(props.plan.paying.label, props.plan.paying.due)}</p>}
            {payment.bank && (
              <div className="deal-bank">
                <h3>{text.payBank}</h3>
                <dl className="deal-facts">
                  <dt>{text.holder}</dt>
                  <dd>{payment.bank.holder}</dd>
                  <dt>{text.iban}</dt>
                  <dd className="deal-iban">{payment.bank.iban}</dd>
                  {payment.bank.bic && (
                    <>
                      <dt>{text.bic}</dt>
                      <dd>{payment.bank.bic}</dd>
                    </>
                  )}
                  <dt>{text.amount}</dt>
                  <dd>{payment.bank.amount}</dd>
                  <dt>{text.purpose}</dt>
                  <dd>{props.plan?.paying?.reference ?? props.reference}</dd>
                </dl>
                {payment.bank.qrSvg && (
                  <figure className="deal-qr">
                    {/* Our own SVG of one path, made from the payment data on the server (deal/girocode.ts). */}
                    <div dangerouslySetInnerHTML={{ __html: payment.bank.qrSvg }} />
                    <figcaption>{text.qrHelp}</figcaption>
                  </figure>
                )}
              </div>
            )}
            {payment.link && (
              <div>
                <h3>{text.payLink}</h3>
                <p>
                  <a className="button" href={payment.link} rel="noopener noreferrer">
                    {text.payLinkButton}
                  </a>
                </p>
              </div>
            )}
            {payment.escrow && (
              <div>
                <h3>{text.escrow}</h3>
                <p>{text.escrowText(payment.escrow.name)}</p>
                <p>
                  <a className="button" href={payment.escrow.url} rel="noopener noreferrer">
                    {text.escrowButton(payment.escrow.name)}
                  </a>
                </p>
              </div>
            )}
            {!payment.bank && !payment.link && !payment.escrow && <p>{text.noPayment}</p>}
          </section>
        )}

        {code && (
          <section aria-labelledby="deal-code">
            <h2 id="deal-code">{text.codeTitle}</h2>
            {code.shown !== undefined ? (
              <p>
                {`${text.codeShown}: `}
                <code className="deal-code">{code.shown}</code>
              </p>
            ) : (
              <ActionForm action={props.action} name="reveal" label={text.codeButton}>
                <p>{text.codeText}</p>
                {code.wrongEmail && (
                  <p className="deal-error" role="alert">
                    {text.codeWrongEmail}
                  </p>
                )}
                <label htmlFor="deal-email">{text.codeEmail}</label>
                <input id="deal-email" type="email" name="email" required maxLength={254} autoComplete="email" defaultValue={code.email ?? ''} />
              </ActionForm>
            )}
          </section>
        )}

        {props.transferNote && (
          <p>
            {`${text.transferNote}: `}
            <span className="deal-user-text">{props.transferNote}</span>
          </p>
        )}

        {props.status === 'transferred' && (
          <section aria-labelledby="deal-received">
            <h2 id="deal-received">{text.receivedTitle}</h2>
            <p>{text.receivedText(props.completesAt ?? null)}</p>
            <ActionForm action={props.action} name="received" label={text.receivedButton} />
          </section>
        )}

        {props.canCancel && (
          <section aria-labelledby="deal-cancel">
            <h2 id="deal-cancel">{text.cancelTitle}</h2>
            <ActionForm action={props.action} name="cancel" label={text.cancelButton} quiet>
              <p>{text.cancelText}</p>
            </ActionForm>
          </section>
        )}

        {props.invoiceAddress && <InvoiceAddress action={props.action} language={props.language} form={props.invoiceAddress} />}

        {props.invoices && props.invoices.length > 0 && (
          <section aria-labelledby="deal-invoices">
            <h2 id="deal-invoices">{text.invoicesTitle(props.invoices.length)}</h2>
            <ul>
              {props.invoices.map((invoice) => (
                <li key={invoice.href}>
                  <a href={invoice.href} download>
                    {invoice.label}
                  </a>
                </li>
              ))}
            </ul>
          </section>
        )}

        <section aria-labelledby="deal-contact">
          <h2 id="deal-contact">{text.contact}</h2>
          <p>{props.contact ? text.contactText(props.contact) : text.contactReply}</p>
        </section>
      </main>
      <Footer legal={props.legal} language={props.language} />
    </>
  )
}
