import { closeReceivers } from './https-receiver.js';

// a failed test still closes what it opened: receivers do not outlive their test
afterEach(closeReceivers);
