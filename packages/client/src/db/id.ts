/** A record id as the published SDK makes it: 16 random bytes as 32 lowercase hex characters. */
export function generateId(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.getRandomValues === 'function') {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  }
  const random = () => Math.random().toString(36).substring(2, 15);
  return `${Date.now().toString(36)}_${random()}_${random()}`;
}

/** The record itself when it has a truthy id, else a copy with a generated one. */
export function withId<T extends object>(record: T): T & { id: unknown } {
  const id = (record as { id?: unknown }).id;
  return id ? (record as T & { id: unknown }) : { ...record, id: generateId() };
}
