import { LoadedResources } from './loaded-resources.js';

describe('loaded resources', () => {
  it('loads each key once for every holder of the registry, and closes each once', async () => {
    const resources = new LoadedResources();
    const closed: string[] = [];
    let loads = 0;
    const model = () =>
      resources.get(
        'ocr:eng',
        () => ({ id: ++loads }),
        async (m) => void closed.push(`ocr:eng#${m.id}`),
      );
    expect(model()).toBe(model());
    resources.get(
      'vision',
      () => 'pool',
      async () => void closed.push('vision'),
    );
    expect(loads).toBe(1);
    await resources.close();
    expect(closed.sort()).toEqual(['ocr:eng#1', 'vision']);
    // closed resources are loaded afresh when asked again
    expect(model()).toEqual({ id: 2 });
  });
});
