import { LoadedResources } from '../../platform/loaded-resources.js';

/**
 * The models every test stack of a jest worker shares (face models and OCR engines load once per
 * worker, not once per suite): test/support/stack.ts loads this module from the build, so Node
 * keeps one copy for the worker's whole life. Only in jest's worker processes (forked, so they have
 * `process.send`), which jest ends itself when the run is over; a run in band (one file) leaves
 * each stack its own models, closed when it stops, so that the process can exit.
 */
export const workerResources = typeof process.send === 'function' ? new LoadedResources() : undefined;
