import express from 'express';
import type { AddressInfo } from 'node:net';
import { Registry } from 'prom-client';
import { RouteMetrics, UNMATCHED_ROUTE } from './http.js';

describe('REST route metrics', () => {
  it('count requests by route template (with and without /v1 as one), method and status; unknown paths as one value', async () => {
    const metrics = new RouteMetrics();
    const app = express();
    app.use(metrics.middleware);
    app.get(['/things/:id', '/v1/things/:id'], (req, res) => void res.status(req.params.id === 'missing' ? 404 : 200).json({}));
    app.post(['/things', '/v1/things'], async () => {
      throw new Error('boom');
    });
    app.use((_req: express.Request, res: express.Response) => void res.status(404).end());
    app.use((_err: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => void res.status(500).end());
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      for (const path of ['/things/1', '/v1/things/2', '/things/missing', '/no/such/path/42', '/another/7'])
        await (await fetch(base + path)).text();
      await (await fetch(`${base}/v1/things`, { method: 'POST' })).text();
    } finally {
      server.close();
    }
    const registry = new Registry();
    for (const m of metrics.metrics) registry.registerMetric(m);
    const text = await registry.metrics();
    expect(text).toContain('rest_requests_total{route="/things/:id",method="GET",status="200"} 2');
    expect(text).toContain('rest_requests_total{route="/things/:id",method="GET",status="404"} 1');
    expect(text).toContain('rest_requests_total{route="/things",method="POST",status="500"} 1');
    expect(text).toContain(`rest_requests_total{route="${UNMATCHED_ROUTE}",method="GET",status="404"} 2`);
    expect(text).toContain('rest_request_duration_seconds_count{route="/things/:id",method="GET"} 3');
    expect(text).not.toMatch(/route="\/(no|another|v1)/);
  });
});
