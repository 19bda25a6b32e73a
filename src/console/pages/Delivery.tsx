import { MAIL_LABEL, type MailDelivery } from '../../shared/console-api.ts'
import { formatAttempts } from '../format.ts'

/** A mail's delivery state: status, attempts, last error, Message-ID. */
export function Delivery({ mail }: { mail: MailDelivery | null }) {
  if (!mail) return <span className="badge mail-none">nicht gesendet</span>
  return (
    <span className="delivery">
      <span className={`badge mail-${mail.status}`}>{MAIL_LABEL[mail.status]}</span> · {formatAttempts(mail.attempts)}
      {mail.lastError && <span className="last-error"> · Letzter Fehler: {mail.lastError}</span>}
      <span className="message-id">
        {' '}
        · Message-ID <code>{mail.messageId}</code>
      </span>
    </span>
  )
}
