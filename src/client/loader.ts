/// <reference types="vite/client" />
// The only script of the first load, inline in the page (vite.config.ts). The page works without script: React and
// the form's script (entry-client.tsx) are fetched when the visitor turns to the form, not before
// (docs/decisions/013). A "Senden" pressed before they have arrived is held and sent again once the form is
// hydrated, so it shows exactly what a hydrated form shows.
// Sent by the form once React has hydrated it (ContactForm.tsx). Written out in both places on purpose: a module
// shared with entry-client.tsx would become a chunk the inline loader imports.
const HYDRATED_EVENT = 'lander:hydrated'
// The built entry-client.tsx: the build puts its file name here (vite.config.ts). `npm run dev` serves the source
// (the build drops this branch: DEV is false there).
const CLIENT_ENTRY = import.meta.env.DEV ? '/entry-client.tsx' : '__LANDER_CLIENT_ENTRY__'

const form = document.querySelector<HTMLFormElement>('form.contact')
if (form) {
  let hydrated = false
  let loading: Promise<unknown> | undefined
  let held: { submitter: HTMLElement | null } | undefined
  const load = () =>
    (loading ??= import(/* @vite-ignore */ CLIENT_ENTRY).catch(() => {
      // No script after all (offline, blocked): the browser's own check and the server's answer take over.
      form.noValidate = false
      if (held) form.requestSubmit(held.submitter)
      held = undefined
      hydrated = true
    }))
  for (const type of ['focusin', 'pointerdown', 'touchstart']) form.addEventListener(type, load, { once: true, passive: true })
  // From now on the form's own check answers an empty or wrong field, as it does once hydrated, not the browser's.
  form.noValidate = true
  form.addEventListener(
    'submit',
    (event) => {
      if (hydrated) return
      event.preventDefault()
      event.stopPropagation()
      held = { submitter: event.submitter }
      void load()
    },
    true,
  )
  form.addEventListener(
    HYDRATED_EVENT,
    () => {
      hydrated = true
      if (held) form.requestSubmit(held.submitter)
      held = undefined
    },
    { once: true },
  )
}
