// The postal address for an invoice, as the checkout asks it and the deal page of a negotiated deal asks it again
// (decision 038): the same fields, names and limits as the one schema in shared/checkout.ts.
import { CHECKOUT_FIELD, CHECKOUT_LIMIT, COUNTRIES, type CheckoutVisibleField } from '../../shared/checkout.ts'
import type { Language } from '../../shared/language.ts'
import { textsOf } from '../../shared/texts.ts'

export interface FieldState {
  values?: Partial<Record<CheckoutVisibleField, string>>
  fieldErrors?: Partial<Record<CheckoutVisibleField, string>>
}

/** The countries by their names in the page's language, sorted as people of that language sort them. */
function countryOptions(language: Language) {
  const names = new Intl.DisplayNames([language], { type: 'region' })
  return COUNTRIES.map((code) => ({ code, name: names.of(code) ?? code })).sort((a, b) => a.name.localeCompare(b.name, language))
}

interface LineProps {
  /** Makes the ids unique on the page ("checkout", "address"). */
  form: string
  field: CheckoutVisibleField
  label: string
  state: FieldState
  type?: 'text' | 'email'
  autoComplete: string
  required?: boolean
  maxLength: number
}

export function Line({ form, field, label, state, type = 'text', ...attributes }: LineProps) {
  const id = `${form}-${field}`
  const error = state.fieldErrors?.[field]
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={field}
        type={type}
        defaultValue={state.values?.[field] ?? ''}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-hint` : undefined}
        {...attributes}
      />
      {error && (
        <p className="hint" id={`${id}-hint`}>
          {error}
        </p>
      )}
    </div>
  )
}

/** Company, street, postcode, city, country and VAT ID. */
export function AddressFields({ form, language, state }: { form: string; language: Language; state: FieldState }) {
  const text = textsOf(language)
  const countryError = state.fieldErrors?.[CHECKOUT_FIELD.country]
  const countryId = `${form}-country`
  return (
    <>
      <Line form={form} field={CHECKOUT_FIELD.company} label={text.checkoutCompany} state={state} autoComplete="organization" maxLength={CHECKOUT_LIMIT.line} />
      <Line
        form={form}
        field={CHECKOUT_FIELD.street}
        label={text.checkoutStreet}
        state={state}
        autoComplete="street-address"
        required
        maxLength={CHECKOUT_LIMIT.line}
      />
      <Line
        form={form}
        field={CHECKOUT_FIELD.postcode}
        label={text.checkoutPostcode}
        state={state}
        autoComplete="postal-code"
        required
        maxLength={CHECKOUT_LIMIT.postcode}
      />
      <Line
        form={form}
        field={CHECKOUT_FIELD.city}
        label={text.checkoutCity}
        state={state}
        autoComplete="address-level2"
        required
        maxLength={CHECKOUT_LIMIT.line}
      />
      <div className="field">
        <label htmlFor={countryId}>{text.checkoutCountry}</label>
        <select
          id={countryId}
          name={CHECKOUT_FIELD.country}
          required
          autoComplete="country"
          defaultValue={state.values?.[CHECKOUT_FIELD.country] ?? ''}
          aria-invalid={countryError ? true : undefined}
          aria-describedby={countryError ? `${countryId}-hint` : undefined}
        >
          <option value="">{text.checkoutChooseCountry}</option>
          {countryOptions(language).map(({ code, name }) => (
            <option key={code} value={code}>
              {name}
            </option>
          ))}
        </select>
        {countryError && (
          <p className="hint" id={`${countryId}-hint`}>
            {countryError}
          </p>
        )}
      </div>
      <Line form={form} field={CHECKOUT_FIELD.vatId} label={text.checkoutVatId} state={state} autoComplete="off" maxLength={CHECKOUT_LIMIT.vatId} />
    </>
  )
}
