// Until the owner has set a password the console shows nothing but how to set one.
export function Setup() {
  return (
    <main className="main narrow">
      <h1>Konsole einrichten</h1>
      <p>Es ist noch kein Passwort gesetzt. Setze es auf dem Server mit:</p>
      <pre className="command">
        <code>npx domain-lander set-password</code>
      </pre>
      <p>
        Für Skripte liest <code>--stdin</code> das Passwort aus einer Zeile der Standardeingabe:
      </p>
      <pre className="command">
        <code>npx domain-lander set-password --stdin</code>
      </pre>
      <p>Danach diese Seite neu laden.</p>
    </main>
  )
}
