/** Consent forms remembered at once; far more than a minute's worth of allowed sign-in traffic. */
const MAX_USED_FORMS = 20_000;

/**
 * The consent forms already answered, each remembered until its seal
 * expires (after that, the seal alone refuses it): a sealed form is good for
 * one answer, so replaying it cannot pile up pending sign-ins.
 */
export function createUsedForms(now: () => number, max = MAX_USED_FORMS) {
  const used = new Map<string, number>();
  return {
    /** `claimed` the first time a form is answered, `used` after; `full` when too many are in flight to remember one more. */
    claim(formId: string, expiresAt: number): "claimed" | "used" | "full" {
      const t = now();
      for (const [id, until] of used) if (until <= t) used.delete(id);
      if (used.has(formId)) return "used";
      if (used.size >= max) return "full";
      used.set(formId, expiresAt);
      return "claimed";
    },
  };
}

export type UsedForms = ReturnType<typeof createUsedForms>;
