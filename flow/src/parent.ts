import type { StepName } from './api';

/**
 * In an iframe (`?embed=1`, the web component), the page tells its parent what happens:
 * `{source: 'verification-flow', type, detail}` posted to the parent's origin (from
 * document.referrer), or to any origin when that is unknown — so a message holds nothing but step
 * names, statuses, the flow's id and an error kind.
 */
export type ParentMessage =
  | { type: 'step'; detail: { step: StepName; status: string } }
  | { type: 'complete'; detail: { flowId: string; status: string } }
  | { type: 'error'; detail: { error: string } }
  | { type: 'resize'; detail: { height: number } };

export const MESSAGE_SOURCE = 'verification-flow';

export function parentOrigin(referrer: string = document.referrer): string {
  try {
    return referrer ? new URL(referrer).origin : '*';
  } catch {
    return '*';
  }
}

export function tellParent(message: ParentMessage): void {
  if (window.parent === window) return;
  window.parent.postMessage({ source: MESSAGE_SOURCE, ...message }, parentOrigin());
}
