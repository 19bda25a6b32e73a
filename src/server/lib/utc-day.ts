/** UTC day of a time, YYYY-MM-DD. */
export const dayOf = (time: number) => new Date(time).toISOString().slice(0, 10)
