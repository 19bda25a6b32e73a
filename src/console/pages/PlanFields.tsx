// The instalment plan in the counter-offer's and the acceptance's form (decision 042): offered or not, 2–60 monthly
// rates, a down payment, and when the name moves, with the risk of moving it at once said where the choice is made.
import type { PlanOffer } from '../../shared/console-api.ts'

export interface PlanState {
  on: boolean
  rates: string
  downPayment: string
  transfer: 'after-last' | 'at-once'
}

export const planStateOf = (plan: { rates: number; downPayment: string; transfer: 'after-last' | 'at-once' } | null | undefined): PlanState =>
  plan
    ? { on: true, rates: String(plan.rates), downPayment: plan.downPayment, transfer: plan.transfer }
    : { on: false, rates: '12', downPayment: '', transfer: 'after-last' }

/** What the form sends: the plan, or null when none is offered. */
export const planOfferOf = (state: PlanState): PlanOffer | null =>
  state.on ? { rates: Number(state.rates), ...(state.downPayment.trim() && { downPayment: state.downPayment.trim() }), transfer: state.transfer } : null

export function PlanFields({ state, onChange, currency }: { state: PlanState; onChange: (state: PlanState) => void; currency: string }) {
  const set = (patch: Partial<PlanState>) => onChange({ ...state, ...patch })
  return (
    <fieldset className="plan-fields">
      <legend>Ratenzahlung</legend>
      <label className="checkbox">
        <input type="checkbox" checked={state.on} onChange={(event) => set({ on: event.target.checked })} /> Ratenzahlung anbieten
      </label>
      {state.on && (
        <>
          <div className="field-row">
            <div className="field">
              <label htmlFor="plan-rates">Monatsraten (2–60)</label>
              <input
                id="plan-rates"
                name="rates"
                type="number"
                min={2}
                max={60}
                required
                value={state.rates}
                onChange={(event) => set({ rates: event.target.value })}
              />
            </div>
            <div className="field">
              <label htmlFor="plan-down">Anzahlung ({currency}, optional)</label>
              <input
                id="plan-down"
                name="downPayment"
                inputMode="numeric"
                autoComplete="off"
                maxLength={30}
                value={state.downPayment}
                onChange={(event) => set({ downPayment: event.target.value })}
              />
            </div>
          </div>
          <div className="field" role="radiogroup" aria-label="Übertragung der Domain">
            <label className="checkbox">
              <input type="radio" name="plan-transfer" checked={state.transfer === 'after-last'} onChange={() => set({ transfer: 'after-last' })} /> Übertragung
              nach der letzten Rate (empfohlen)
            </label>
            <label className="checkbox">
              <input type="radio" name="plan-transfer" checked={state.transfer === 'at-once'} onChange={() => set({ transfer: 'at-once' })} /> Übertragung
              sofort
            </label>
            {state.transfer === 'at-once' && (
              <p className="warning" role="note">
                Risiko: Der Käufer hat die Domain, bevor er alles bezahlt hat. Zahlt er nicht weiter, müssen Sie Ihr Geld einfordern; die Domain
                zurückzubekommen ist schwer. Vereinbaren Sie schriftlich, dass die Domain bis zur letzten Rate Ihnen gehört und bei Verzug zurückzuübertragen
                ist (siehe Hilfe: Verkäufe).
              </p>
            )}
          </div>
          <p className="muted">
            Die Raten sind auf den Cent genau; jede hat ihren eigenen Verwendungszweck. Die erste ist fällig, wenn sonst die Zahlung fällig wäre, die weiteren
            monatlich.
          </p>
        </>
      )}
    </fieldset>
  )
}
