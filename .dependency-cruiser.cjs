/**
 * The house's boundaries (`npm run lint`, docs/architecture.md "Layout"): imports go one way,
 * capabilities → platform; a service never reaches into another; no file reaches itself.
 * Tests and benchmarks may reach anything.
 */
const TESTS = '(^test/|^bench/|\\.test\\.ts$)';
/** A capability's REST routes, beside its module (the service's name is group 1). */
const REST_ROUTES = '^subgraphs/([^/]+)/src/[^/]+/[^/]+\\.rest\\.ts$';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'no file reaches itself through its imports (type-only imports included)',
      from: {},
      to: { circular: true },
    },
    {
      name: 'platform-is-the-floor',
      severity: 'error',
      comment: 'platform/ holds what every capability uses and imports nothing of them',
      from: { path: '^platform/', pathNot: TESTS },
      to: { path: '^(cli|gateway|rest-adapter|screening|subgraphs|bench|test)/' },
    },
    {
      name: 'screening-and-gateway-on-platform-only',
      severity: 'error',
      comment: 'the matching engine and the gateway build on platform/ alone',
      from: { path: '^(screening|gateway)/', pathNot: TESTS },
      to: { path: '^(cli|rest-adapter|subgraphs|bench|test)/' },
    },
    {
      name: 'gateway-and-screening-apart',
      severity: 'error',
      from: { path: '^gateway/', pathNot: TESTS },
      to: { path: '^screening/' },
    },
    {
      name: 'rest-adapter-speaks-graphql',
      severity: 'error',
      comment: "the REST adapter calls GraphQL operations; of the services it reads only the capabilities' route tables",
      from: { path: '^rest-adapter/', pathNot: TESTS },
      to: { path: '^(cli|gateway|subgraphs|screening|bench|test)/', pathNot: REST_ROUTES },
    },
    {
      name: 'rest-routes-are-data',
      severity: 'error',
      comment:
        "a capability's REST routes (`<capability>.rest.ts`) are paths, fields and GraphQL text: they load no service code, " +
        'only platform/, another route table of their service, or the webhook event table',
      from: { path: REST_ROUTES },
      to: {
        pathNot: ['^platform/', '^subgraphs/$1/src/[^/]+/[^/]+\\.rest\\.ts$', '^subgraphs/verification/src/webhooks/webhook-catalog\\.ts$'],
        dependencyTypesNot: ['core', 'npm'],
      },
    },
    {
      name: 'services-apart',
      severity: 'error',
      comment: 'a subgraph service never imports another (they talk through the graph), nor the layers above it',
      from: { path: '^subgraphs/([^/]+)/', pathNot: TESTS },
      to: { path: '^(subgraphs/|cli/|gateway/|rest-adapter/|bench/|test/)', pathNot: '^subgraphs/$1/' },
    },
    {
      name: 'a-capability-enters-through-its-service',
      severity: 'error',
      comment: "a capability's module is listed by its service's index.ts, nowhere else",
      from: { pathNot: ['^subgraphs/[^/]+/src/index\\.ts$', TESTS] },
      to: { path: '\\.module\\.ts$' },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|node_modules|console|flow)/' },
  },
};
