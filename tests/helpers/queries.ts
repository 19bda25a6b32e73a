// The statements a store ran (openTestStore's onQuery), cut into its transactions and what ran outside them: what
// the query-counting tests (decision 060) assert on.
export function transactionsOf(statements: readonly string[]) {
  const transactions: string[][] = []
  const outside: string[] = []
  let current: string[] | null = null
  for (const statement of statements) {
    if (/^begin/i.test(statement)) current = []
    else if (/^(commit|rollback)/i.test(statement)) {
      if (current) transactions.push(current)
      current = null
    } else (current ?? outside).push(statement)
  }
  return { transactions, outside }
}

/** How many of these statements read `table` (a join of it included). */
export const readsOf = (table: string, statements: readonly string[]) =>
  statements.filter((statement) => new RegExp(`^select\\b[\\s\\S]*\\b(from|join) "${table}"`, 'i').test(statement)).length
