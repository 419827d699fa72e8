/**
 * Every event a webhook may subscribe to, with what it tells the receiver: the verification events
 * (the spec's Events table), then risk's and notify's. Receivers get the dotted name (`event` of
 * the signed body); the graph names them in SCREAMING_CASE (`identity.manual_review` →
 * IDENTITY_MANUAL_REVIEW). A capability that adds a webhook event names it in its module's
 * `webhookEvents` and describes it here (a test compares this table with every service's events);
 * the REST adapter validates subscriptions against it.
 */
export const WEBHOOK_EVENT_DESCRIPTIONS = {
  'document.verified': 'An identity document passed its checks',
  'document.rejected': 'An identity document failed its checks',
  'liveness.passed': 'A liveness check found a live person',
  'liveness.failed': 'A liveness check did not find a live person',
  'identity.verified': 'An identity verification was verified',
  'identity.rejected': 'An identity verification was rejected',
  'identity.manual_review': 'An identity verification needs a reviewer’s decision',
  'phone.verified': 'A phone number was verified',
  'phone.failed': 'A phone number could not be verified',
  'email.verified': 'An e-mail address was verified',
  'email.failed': 'An e-mail address could not be verified',
  'address.verified': 'An address was verified',
  'address.rejected': 'An address was rejected',
  'address.manual_review': 'An address needs a reviewer’s decision',
  'aml.clear': 'An AML screening found no match on the lists',
  'aml.flagged': 'An AML screening found potential matches on the lists',
  'aml.batch_complete': 'Every subject of an AML batch was screened',
  'watchlist.alert': 'A monitored person matched a list entry (a new alert)',
  'watchlist.clear': 'A monitored person no longer matches the list entry of an alert',
  'business.verified': 'A business was verified',
  'business.rejected': 'A business was rejected',
  'business.manual_review': 'A business verification needs a reviewer’s decision',
  'dedup.unique': 'A duplicate check found no other account of the person',
  'dedup.match': 'A duplicate check found another account of the person',
  'mobile_money.verified': 'A mobile money account was verified',
  'mobile_money.failed': 'A mobile money account could not be verified',
  'verification.completed': 'A verification reached its final decision',
  'cognitive_kyc.approved': 'An AI identity check (or its reviewer) approved the person',
  'cognitive_kyc.rejected': 'An AI identity check (or its reviewer) rejected the person',
  'cognitive_kyc.manual_review': 'An AI identity check needs a reviewer’s decision',
  'user.erased': 'Every service erased a user’s personal data (eraseUser)',
  'verification_flow.opened': 'A person opened a hosted verification flow’s link',
  'evaluation.allow': 'A transaction was evaluated and may go ahead',
  'evaluation.review': 'A transaction was evaluated and needs a review',
  'evaluation.block': 'A transaction was evaluated and is blocked',
  'notification.dispatched': 'A notification was handed to its channels',
  'notification.updated': 'The delivery status of a notification changed',
  'batch.completed': 'Every notification of a batch was processed',
} as const;

export type WebhookEventName = keyof typeof WEBHOOK_EVENT_DESCRIPTIONS;

/** Every webhook event, in the order of the table (the spec's). */
export const WEBHOOK_EVENTS = Object.keys(WEBHOOK_EVENT_DESCRIPTIONS) as WebhookEventName[];
