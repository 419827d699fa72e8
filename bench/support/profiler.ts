import { Session } from 'node:inspector/promises';

/**
 * A CPU profile of this process from now until `stop()` (the inspector's sampling profiler, every
 * 200 µs): what a bench writes to a `.cpuprofile` file for Chrome's DevTools or a script to read.
 */
export async function startProfiler(): Promise<{ stop(): Promise<object> }> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  return {
    async stop() {
      const { profile } = await session.post('Profiler.stop');
      session.disconnect();
      return profile;
    },
  };
}
