const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/** Text made safe for HTML, in element content and in quoted attribute values. */
export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => ENTITIES[c]!)

/**
 * Only &, < and >: for formats that know no other entities and would show `&quot;` as typed (Slack's message
 * text, where < and & make links and mentions).
 */
export const escapeAngles = (value: string) => value.replace(/[&<>]/g, (c) => ENTITIES[c]!)
