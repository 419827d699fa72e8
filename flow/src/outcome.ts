import type { StepName, StepStatus } from './api';
import type { Outcome } from './storage';

/** The flow's outcome from its steps': every step passed → VERIFIED; one failed → REJECTED; else (a review pending) PENDING. */
export function flowOutcome(steps: StepName[], statuses: Partial<Record<StepName, StepStatus>>): Outcome {
  const all = steps.map((step) => statuses[step] ?? 'NOT_STARTED');
  if (all.every((s) => s === 'PASSED')) return 'VERIFIED';
  if (all.some((s) => s === 'FAILED')) return 'REJECTED';
  return 'PENDING';
}

/** The integrator's redirect URL with the flow's id and outcome added (`flowId`, `status`). */
export function redirectTarget(redirectUrl: string, flowId: string, outcome: Outcome): string | null {
  try {
    const url = new URL(redirectUrl);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
    url.searchParams.set('flowId', flowId);
    url.searchParams.set('status', outcome);
    return url.href;
  } catch {
    return null;
  }
}
