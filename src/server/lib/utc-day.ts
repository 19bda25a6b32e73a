// The UTC day of a time, as the page views count it and the console and CLI name it (YYYY-MM-DD).
export const dayOf = (time: number): string => new Date(time).toISOString().slice(0, 10)
