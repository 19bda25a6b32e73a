// The form's script: the client build's entry "client" (vite.config.ts), fetched by the page's loader when the visitor
// first turns to the form (decision 013), served as it is or pre-compressed.
import path from 'node:path'

const FORM_SCRIPT = /^client-[\w-]+\.js(?:\.br|\.gz)?$/

export const isFormScript = (filePath: string) => FORM_SCRIPT.test(path.basename(filePath)) && path.basename(path.dirname(filePath)) === 'assets'
