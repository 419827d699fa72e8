import { Lifecycle } from '../../../../platform/lifecycle.js';

export const FLOW_STATUSES = ['CREATED', 'OPENED'] as const;
export type FlowStatus = (typeof FLOW_STATUSES)[number];

export type FlowTrigger = 'created' | 'opened';

/**
 * The link's table: created, then opened once (the page's session token is minted then). Whether the
 * person finished, and whether the link is past its time, is read from the checks and the clock
 * (flow.steps.ts), never stored twice.
 */
export const FLOW_LIFECYCLE = new Lifecycle<FlowStatus, FlowTrigger>('a verification flow', FLOW_STATUSES, [
  { from: [null], trigger: 'created', to: 'CREATED', event: 'verification_flow.created' },
  { from: ['CREATED'], trigger: 'opened', to: 'OPENED', event: 'verification_flow.opened' },
]);
