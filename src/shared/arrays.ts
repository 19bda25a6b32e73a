// Arrays of any length. `target.push(...items)` and `Math.max(...items)` pass every item as an argument of one
// call, and V8 puts the arguments on the stack: past about 100,000 items that is "Maximum call stack size exceeded"
// (an import of 80,000 names, a report of 150,000 problems). These loop instead.

/** Appends every item of `items` to `target`, in order. */
export function appendAll<T>(target: T[], items: Iterable<T>): T[] {
  for (const item of items) target.push(item)
  return target
}

/** The largest of `start` and every number of `values`. */
export function maxOf(start: number, values: Iterable<number>): number {
  let max = start
  for (const value of values) if (value > max) max = value
  return max
}
