import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { configSchema, loadConfig } from '../platform/config.js';
import { SERVICE_KEYS } from '../cli/stack.js';
import { riskV8Flags } from '../cli/risk-process.js';
import { npmStartCommand } from './support/npm-start.js';
import { importNative } from './support/native-import.js';
import { typeProblems, type TypedObject } from './support/kubernetes-types.js';

/**
 * The Kubernetes manifests (deploy/kubernetes/), validated offline: nothing here can run a cluster.
 * Each object against the Kubernetes OpenAPI schemas that `kubernetes-models` ships (and the
 * Prometheus Operator's CRD schemas), then what a schema cannot see: the references between the
 * objects, the environment against platform/config.ts, the Secret's keys, the image's layout.
 */
const ROOT = 'deploy/kubernetes';
const SECRET = 'afri-verify-secrets';
/** The keys of the Secret the manifests reference (docs/operations.md says how to create it). */
const SECRET_KEYS = [
  'DATABASE_URL',
  'ADMIN_SECRET',
  'INTERNAL_SECRET',
  'ENCRYPTION_MASTER_KEY',
  'ENCRYPTION_PREVIOUS_MASTER_KEYS',
  'METRICS_TOKEN',
];
/** The `service` label of each Deployment's metrics. */
const METRICS_SERVICE: Record<string, string> = { rest: 'rest-adapter' };

type K8sObject = { apiVersion: string; kind: string; metadata: { name: string; labels?: Record<string, string> }; spec?: any; data?: any };
interface Loaded {
  file: string;
  object: K8sObject;
}

const yamlFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? yamlFiles(path.join(dir, e.name)) : e.name.endsWith('.yaml') ? [path.join(dir, e.name)] : [],
  );
const files = yamlFiles(ROOT);
const kustomizations = files.filter((f) => path.basename(f) === 'kustomization.yaml');
const objects: Loaded[] = files
  .filter((f) => !kustomizations.includes(f))
  .flatMap((file) => YAML.parseAllDocuments(readFileSync(file, 'utf8')).map((doc) => ({ file, doc })))
  .map(({ file, doc }) => {
    if (doc.errors.length) throw new Error(`${file}: ${doc.errors[0].message}`);
    return { file, object: doc.toJS() as K8sObject };
  });
const base = objects.filter((o) => o.file.startsWith(`${ROOT}/base/`)).map((o) => o.object);
const ofKind = (kind: string) => base.filter((o) => o.kind === kind);
const deployments = ofKind('Deployment');
const containerOf = (d: K8sObject) => d.spec.template.spec.containers[0];
const envOf = (container: any): Array<{ name: string; value?: string; valueFrom?: any }> => container.env ?? [];
const configMap = (name: string) => ofKind('ConfigMap').find((c) => c.metadata.name === name);
const matches = (selector: Record<string, string>, labels: Record<string, string> = {}) =>
  Object.entries(selector).every(([k, v]) => labels[k] === v);
const bytes = (quantity: string) => {
  const [, n, unit] = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi)?$/.exec(quantity) ?? [];
  const units: Record<string, number> = { Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3 };
  return Number(n) * (unit ? units[unit] : 1);
};
const millicores = (quantity: string) => (quantity.endsWith('m') ? Number(quantity.slice(0, -1)) : Number(quantity) * 1000);

/** The module of an object's kind, in `kubernetes-models` or the Prometheus Operator's models (none for CloudNativePG). */
function modulePathOf(object: K8sObject): string | null {
  const [group, version] = object.apiVersion.includes('/') ? object.apiVersion.split('/') : ['', object.apiVersion];
  if (group === 'monitoring.coreos.com') return `@kubernetes-models/prometheus-operator/monitoring.coreos.com/${version}/${object.kind}`;
  if (group === 'postgresql.cnpg.io') return null;
  return `kubernetes-models/${group ? `${group}/` : ''}${version}/${object.kind}`;
}

/** The model class of an object's kind, validating against its schema. */
async function modelOf(object: K8sObject): Promise<{ validate(): void } | null> {
  const modulePath = modulePathOf(object);
  if (!modulePath) return null;
  const module = await importNative<Record<string, new (data: unknown) => { validate(): void }>>(modulePath);
  return new module[object.kind](object);
}

describe('the Kubernetes manifests (deploy/kubernetes)', () => {
  it('are found, one object per document', () => {
    expect(deployments.map((d) => d.metadata.name).sort()).toEqual([...SERVICE_KEYS].sort());
    expect(objects.length).toBeGreaterThan(20);
  });

  it('validate against the Kubernetes schemas (kubernetes-models) and the Prometheus Operator’s', async () => {
    const failures: string[] = [];
    for (const { file, object } of objects) {
      const model = await modelOf(object);
      if (!model) continue;
      try {
        model.validate();
      } catch (error) {
        failures.push(`${file} ${object.kind}/${object.metadata.name}: ${(error as Error).message}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('hold no field the Kubernetes API does not have (TypeScript’s excess-property check on kubernetes-models’ types)', () => {
    const typed: TypedObject[] = objects.flatMap(({ file, object }) => {
      const module = modulePathOf(object);
      return module ? [{ label: `${file} ${object.kind}/${object.metadata.name}`, module, type: `I${object.kind}`, object }] : [];
    });
    expect(typed.length).toBeGreaterThan(20);
    expect(typeProblems(typed)).toEqual([]);
    // the check itself: a misspelt field, and a wrong type, are named
    const misspelt = structuredClone(deployments[0]);
    containerOf(misspelt).readinesProbe = containerOf(misspelt).readinessProbe;
    const wrongType = structuredClone(deployments[0]);
    containerOf(wrongType).ports[0].containerPort = 'http';
    const problems = typeProblems(
      [misspelt, wrongType].map((object, i) => ({
        label: `broken ${i}`,
        module: 'kubernetes-models/apps/v1/Deployment',
        type: 'IDeployment',
        object,
      })),
    );
    expect(problems).toEqual([expect.stringMatching(/^broken 0: .*readinesProbe/), expect.stringMatching(/^broken 1: .*'number'/)]);
  });

  it('would refuse a broken object (the validation is not a formality)', async () => {
    const broken = structuredClone(deployments[0]);
    containerOf(broken).resources.requests.memory = 'lots';
    await expect(modelOf(broken).then((m) => m!.validate())).rejects.toThrow(/memory/);
    const noSelector = structuredClone(deployments[0]);
    delete noSelector.spec.selector;
    await expect(modelOf(noSelector).then((m) => m!.validate())).rejects.toThrow(/selector/);
  });

  it('the CloudNativePG example has no schema here: it is checked for its shape only', () => {
    const cluster = objects.find((o) => o.object.kind === 'Cluster')!.object;
    expect(cluster.apiVersion).toBe('postgresql.cnpg.io/v1');
    expect(cluster.spec.instances).toBeGreaterThanOrEqual(1);
    expect(cluster.spec.bootstrap.initdb).toMatchObject({ database: expect.any(String), owner: expect.any(String) });
    expect(Number(cluster.spec.postgresql.parameters.max_connections)).toBeGreaterThan(0);
  });

  it('list every file of theirs in a kustomization, and only files that exist', () => {
    for (const file of kustomizations) {
      const k = YAML.parse(readFileSync(file, 'utf8')) as { resources: string[] };
      for (const resource of k.resources) expect([file, existsSync(path.join(path.dirname(file), resource))]).toEqual([file, true]);
    }
    const listed = (YAML.parse(readFileSync(`${ROOT}/base/kustomization.yaml`, 'utf8')) as { resources: string[] }).resources;
    expect(
      readdirSync(`${ROOT}/base`)
        .filter((f) => f !== 'kustomization.yaml')
        .sort(),
    ).toEqual([...listed].sort());
  });

  it('run each service from the one image, as `npm run start:<service>` and the Dockerfile run it', () => {
    const dockerfile = readFileSync('Dockerfile', 'utf8');
    expect(dockerfile).toMatch(/^WORKDIR \/app$/m);
    expect(dockerfile).toMatch(/^COPY --from=build \/app\/dist \.\/dist$/m);
    expect(dockerfile).toMatch(/^USER node$/m); // uid 1000 in the node images: runAsUser below
    const scripts = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;
    const overlay = YAML.parse(readFileSync(`${ROOT}/overlays/example/kustomization.yaml`, 'utf8')) as { images: Array<{ name: string }> };
    for (const d of deployments) {
      const container = containerOf(d);
      expect(container.image).toBe('afri-verify-platform');
      expect(overlay.images.map((i) => i.name)).toContain(container.image);
      const command = container.command as string[];
      const name = d.metadata.name;
      // the script's command, with the memory flags npm start gives its processes
      expect(command.filter((a) => !a.startsWith('--')).join(' ')).toBe(scripts[`start:${name}`]);
      // the API services with npm start's V8 flags (the risk service with its own: below)
      if (name !== 'risk')
        expect(command.filter((a) => a.startsWith('--'))).toEqual(npmStartCommand().args.filter((a) => a.startsWith('--')));
      expect(
        existsSync(
          command
            .at(-2)!
            .replace(/^dist\//, '')
            .replace(/\.js$/, '.ts'),
        ),
      ).toBe(true);
      expect(d.spec.template.spec.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
    }
    const job = ofKind('Job')[0];
    expect(containerOf(job).command.join(' ')).toBe(scripts.migrate);
    expect(containerOf(job).image).toBe('afri-verify-platform');
  });

  it('probe readiness on /ready and liveness on /health, on the port the service listens on', () => {
    for (const d of deployments) {
      const container = containerOf(d);
      const port = container.ports.find((p: { name: string }) => p.name === 'http').containerPort;
      const portVar = `${d.metadata.name === 'rest' ? 'REST' : d.metadata.name.toUpperCase()}_PORT`;
      expect([d.metadata.name, envOf(container).find((e) => e.name === portVar)?.value]).toEqual([d.metadata.name, String(port)]);
      expect(container.readinessProbe.httpGet).toEqual({ path: '/ready', port: 'http' });
      expect(container.livenessProbe.httpGet).toEqual({ path: '/health', port: 'http' });
      expect(container.startupProbe.httpGet.path).toBe('/health');
      expect(d.spec.template.metadata.annotations).toMatchObject({ 'prometheus.io/port': String(port), 'prometheus.io/path': '/metrics' });
    }
  });

  it('give a stopping pod longer than the services take to drain (cli/shutdown.ts)', () => {
    const drainMs = Number(
      /setTimeout\(\(\) => process\.exit\(1\), ([\d_]+)\)/.exec(readFileSync('cli/shutdown.ts', 'utf8'))?.[1].replace(/_/g, ''),
    );
    expect(drainMs).toBeGreaterThan(0);
    for (const d of deployments) {
      const preStop = Number(containerOf(d).lifecycle.preStop.exec.command[1]);
      expect(d.spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(drainMs / 1000 + preStop);
    }
  });

  it('select their pods: Services, autoscalers and disruption budgets each reach one Deployment', () => {
    const podsOf = (selector: Record<string, string>) => deployments.filter((d) => matches(selector, d.spec.template.metadata.labels));
    for (const d of deployments) expect(matches(d.spec.selector.matchLabels, d.spec.template.metadata.labels)).toBe(true);
    for (const s of ofKind('Service')) {
      const [target] = podsOf(s.spec.selector);
      expect([s.metadata.name, podsOf(s.spec.selector).length]).toEqual([s.metadata.name, 1]);
      const portNames = containerOf(target).ports.map((p: { name: string }) => p.name);
      for (const port of s.spec.ports) expect(portNames).toContain(port.targetPort);
    }
    const hpas = ofKind('HorizontalPodAutoscaler');
    const pdbs = ofKind('PodDisruptionBudget');
    for (const d of deployments) {
      const hpa = hpas.find((h) => h.spec.scaleTargetRef.kind === 'Deployment' && h.spec.scaleTargetRef.name === d.metadata.name);
      expect([d.metadata.name, Boolean(hpa)]).toEqual([d.metadata.name, true]);
      const pdb = pdbs.filter((p) => podsOf(p.spec.selector.matchLabels).includes(d));
      expect([d.metadata.name, pdb.length]).toEqual([d.metadata.name, 1]);
      // a budget of one pod needs two so that a node can drain
      expect(hpa!.spec.minReplicas).toBeGreaterThan(pdb[0].spec.minAvailable);
      expect(hpa!.spec.maxReplicas).toBeGreaterThanOrEqual(hpa!.spec.minReplicas);
    }
    expect(hpas).toHaveLength(deployments.length);
    const claims = ofKind('PersistentVolumeClaim').map((c) => c.metadata.name);
    for (const d of deployments) {
      for (const v of d.spec.template.spec.volumes ?? [])
        if (v.persistentVolumeClaim) expect(claims).toContain(v.persistentVolumeClaim.claimName);
    }
  });

  it('set only variables platform/config.ts knows, with values it accepts, and the ones each service needs', () => {
    const known = new Set(Object.keys(configSchema.shape));
    const sample: Record<string, string> = {
      DATABASE_URL: 'postgres://platform:secret@db:5432/platform',
      ADMIN_SECRET: 'a'.repeat(32),
      INTERNAL_SECRET: 'b'.repeat(32),
      ENCRYPTION_MASTER_KEY: Buffer.alloc(32, 1).toString('base64'),
      ENCRYPTION_PREVIOUS_MASTER_KEYS: Buffer.alloc(32, 2).toString('base64'),
      METRICS_TOKEN: 'c'.repeat(32),
    };
    for (const workload of [...deployments, ...ofKind('Job')]) {
      const container = containerOf(workload);
      const env = envOf(container);
      const fromConfigMaps = (container.envFrom ?? []).map((e: { configMapRef: { name: string } }) => {
        const map = configMap(e.configMapRef.name);
        expect([workload.metadata.name, e.configMapRef.name, Boolean(map)]).toEqual([workload.metadata.name, e.configMapRef.name, true]);
        return map!.data as Record<string, string>;
      });
      // a variable the downward API fills (the pod's address) is only a part of another one's value
      const helpers = env.filter((e) => e.valueFrom?.fieldRef).map((e) => e.name);
      for (const helper of helpers) expect(env.some((e) => e.value?.includes(`$(${helper})`))).toBe(true);
      const names = [...fromConfigMaps.flatMap((m: Record<string, string>) => Object.keys(m)), ...env.map((e) => e.name)];
      expect(names.filter((n) => !known.has(n as never) && !helpers.includes(n))).toEqual([]);
      // what the process would read, secrets as valid samples: the configuration loads
      const values: Record<string, string> = Object.assign({}, ...fromConfigMaps);
      for (const e of env) {
        if (e.valueFrom?.secretKeyRef) values[e.name] = sample[e.valueFrom.secretKeyRef.key];
        else if (e.valueFrom?.fieldRef) values[e.name] = '10.0.0.7';
        else values[e.name] = e.value!.replace(/\$\((\w+)\)/g, (_, v: string) => values[v]);
      }
      expect(() => loadConfig(values)).not.toThrow();
      const secrets = env.filter((e) => e.valueFrom?.secretKeyRef).map((e) => e.name);
      const name = workload.metadata.name;
      const needs =
        name === 'rest'
          ? []
          : name === 'afri-verify-migrate'
            ? ['DATABASE_URL']
            : name === 'gateway'
              ? ['DATABASE_URL', 'INTERNAL_SECRET', 'ADMIN_SECRET']
              : ['DATABASE_URL', 'INTERNAL_SECRET', 'ENCRYPTION_MASTER_KEY'];
      expect([name, needs.filter((n) => !secrets.includes(n))]).toEqual([name, []]);
      if (name === 'rest') expect(secrets).not.toContain('DATABASE_URL');
      if (SERVICE_KEYS.includes(name as never)) expect(secrets).toContain('METRICS_TOKEN');
    }
    // nothing secret sits in a ConfigMap
    for (const map of ofKind('ConfigMap')) expect(Object.keys(map.data).filter((k) => SECRET_KEYS.includes(k))).toEqual([]);
  });

  it('take secrets by reference from one Secret, each under its variable’s name', () => {
    const refs = [...deployments, ...ofKind('Job')].flatMap((w) =>
      envOf(containerOf(w))
        .filter((e) => e.valueFrom?.secretKeyRef)
        .map((e) => ({ env: e.name, ...e.valueFrom.secretKeyRef })),
    );
    expect(refs.length).toBeGreaterThan(10);
    for (const ref of refs) {
      expect(ref).toMatchObject({ name: SECRET, key: ref.env });
      expect(SECRET_KEYS).toContain(ref.key);
      // only the rotation's previous keys may be absent
      expect(Boolean(ref.optional)).toBe(ref.key === 'ENCRYPTION_PREVIOUS_MASTER_KEYS');
    }
    expect(objects.filter((o) => o.object.kind === 'Secret')).toEqual([]);
    const monitor = objects.find((o) => o.object.kind === 'ServiceMonitor')!.object;
    for (const endpoint of monitor.spec.endpoints) {
      expect(endpoint.authorization.credentials).toEqual({ name: SECRET, key: 'METRICS_TOKEN' });
      expect(endpoint.path).toBe('/metrics');
      for (const s of ofKind('Service')) expect(s.spec.ports.map((p: { name: string }) => p.name)).toContain(endpoint.port);
    }
    for (const s of ofKind('Service')) expect(matches(monitor.spec.selector.matchLabels, s.metadata.labels)).toBe(true);
  });

  it('request and limit resources sensibly, and the memory alert reads each limit', () => {
    const rules = readFileSync('deploy/observability/prometheus-rules.yaml', 'utf8');
    for (const d of deployments) {
      const { requests, limits } = containerOf(d).resources;
      expect(bytes(requests.memory)).toBeLessThanOrEqual(bytes(limits.memory));
      expect(millicores(requests.cpu)).toBeLessThanOrEqual(millicores(limits.cpu));
      const service = METRICS_SERVICE[d.metadata.name] ?? d.metadata.name;
      const threshold = new RegExp(`process_resident_memory_bytes\\{service="${service}"\\}\\) > 0\\.9 \\* (\\d+)`).exec(rules)?.[1];
      expect([d.metadata.name, Number(threshold)]).toEqual([d.metadata.name, bytes(limits.memory)]);
    }
    // the risk process runs with npm start's V8 flags for it, its heap capped under its container's limit
    const risk = containerOf(deployments.find((d) => d.metadata.name === 'risk')!);
    expect(risk.command.filter((a: string) => a.startsWith('--'))).toEqual(riskV8Flags(configSchema.parse({}).RISK_HEAP_MB));
    const heapMb = Number(/--max-old-space-size=(\d+)/.exec(risk.command.join(' '))?.[1]);
    expect(heapMb * 1024 ** 2).toBeLessThan(bytes(risk.resources.limits.memory));
  });
});
