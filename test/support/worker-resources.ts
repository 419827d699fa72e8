import { LoadedResources } from '../../platform/loaded-resources.js';

/**
 * The models every test stack of a jest worker shares (face models and OCR engines load once per
 * worker, not once per suite): test/support/stack.ts loads this module from the build, so Node
 * keeps one copy for the worker's whole life.
 */
export const workerResources = new LoadedResources();
