/**
 * What every capability holding personal data offers the privacy capability of its service
 * (issue 16), through its service: everything it holds about a user, and their erasure.
 */
export interface ErasedUser {
  userId: string;
  /** What kept records carry instead of the user id (`erased:<uuid>`, the same in every service). */
  pseudonym: string;
}

export interface PersonalDataHolder {
  /** Every record held about the user, as clients read them (files as links; face descriptions and secrets never). */
  exportUser(userId: string): Promise<unknown[]>;
  /**
   * Removes the user's personal data, or the records that are nothing but personal data; records
   * the operator must keep (decisions, statuses, timestamps) stay with the pseudonym instead of the
   * user id. Idempotent. Returns how many records it changed.
   */
  eraseUser(user: ErasedUser): Promise<number>;
}

/** JSON as clients read it: dates as ISO strings, without the tenant columns. */
export function exported<T extends object>(record: T, hidden: readonly string[] = []): Record<string, unknown> {
  const visible = Object.fromEntries(
    Object.entries(record).filter(([key]) => key !== 'organizationId' && key !== 'environment' && !hidden.includes(key)),
  );
  return JSON.parse(JSON.stringify(visible)) as Record<string, unknown>;
}

/** Whether a record's user id is an erasure's pseudonym: work finishing after the erasure must not write personal data back. */
export const isErasedUserId = (userId: string): boolean => userId.startsWith('erased:');
