// A value made on its first use. For Intl formatters above all: the first one a process makes loads ICU's data for
// its kind (tens of milliseconds), which a module made at load time paid at every start, whether or not the
// process ever wrote a date (docs/decisions/034).
export function lazy<T>(make: () => T): () => T {
  let value: T | undefined
  let made = false
  return () => {
    if (!made) {
      value = make()
      made = true
    }
    return value as T
  }
}
