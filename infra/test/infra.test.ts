import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiConfigSchema, apiDocument } from '@ledger/api';
import { reconConfigSchema } from '@ledger/recon';
import { workerConfigSchema } from '@ledger/worker';
import { expect } from 'chai';
import { parseAllDocuments } from 'yaml';

/*
 * No container engine runs here, so the deployment files are held to the code by reading them:
 * every file parses, every Kubernetes object is valid against the API's schemas
 * (kubernetes-models), and each command, port, environment variable and health path they name
 * exists in the code (the config readers, the entry points, the operations listener) and in the
 * README. The compose file is linted by dclint (`pnpm --filter @ledger/infra lint`).
 */

const INFRA = fileURLToPath(new URL('..', import.meta.url));
const ROOT = join(INFRA, '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const README = read('README.md');
const INFRA_README = read('infra/README.md');

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- YAML documents are read as plain data
type Doc = any;

/** Every YAML file under infra/, by its path from the repository root. */
function yamlFiles(dir = INFRA): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'test' ? [] : yamlFiles(path);
    return /\.ya?ml$/.test(entry.name) ? [relative(ROOT, path)] : [];
  });
}

function documentsOf(path: string): Doc[] {
  const documents = parseAllDocuments(read(path), { merge: true });
  expect(Array.isArray(documents), `${path} is YAML`).to.equal(true);
  return (documents as Array<{ errors: unknown[]; toJS(): unknown }>).map((document) => {
    expect(document.errors, `${path} parses`).to.deep.equal([]);
    return document.toJS();
  });
}

const K8S_FILES = yamlFiles().filter((path) => path.startsWith('infra/k8s/'));
const K8S: Array<{ path: string; doc: Doc }> = K8S_FILES.flatMap((path) =>
  documentsOf(path).map((doc) => ({ path, doc })),
);
const COMPOSE: Doc = documentsOf('infra/compose.yaml')[0];
const WORKLOADS = K8S.filter(({ doc }) => doc.kind === 'Deployment');
const CONTAINERS: Doc[] = WORKLOADS.flatMap(({ doc }) => doc.spec.template.spec.containers);
const APP_SERVICES = Object.entries(COMPOSE.services as Record<string, Doc>).filter(
  ([, service]) => service.image === 'ledger-service:local',
);

/** Every variable a process reads: the keys of the three config readers' schemas. */
const READ_BY_PROCESSES = new Set(
  [apiConfigSchema, workerConfigSchema, reconConfigSchema].flatMap((schema) => Object.keys(schema.shape)),
);
/** The sandbox's own settings (its cli is the one place it reads them). */
const SANDBOX_CLI = read('packages/sandbox/src/cli.ts');
/** What the operations listener serves (and the api's document, for the api's own port). */
const OPS_SERVER = read('packages/ledger-core/src/runtime/ops-server.ts');
const HEALTH_PATHS = ['/health/live', '/health/ready'];
/** Who may reach the ops port: Prometheus's Pods (as the Prometheus Operator labels them) in the `monitoring` namespace. */
const SCRAPER = {
  namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } },
  podSelector: { matchLabels: { 'app.kubernetes.io/name': 'prometheus' } },
};

/** The variables of an env map or list (compose accepts both), and a workload's `env`. */
const namesOf = (env: Doc): string[] =>
  Array.isArray(env)
    ? env.map((item: Doc) => (typeof item === 'string' ? item.split('=')[0] : item.name))
    : Object.keys(env ?? {});

/** The keys a YAML file lists in comments (`# NAME_OF_IT: <value>`): the optional settings it documents. */
const commentedKeys = (path: string) =>
  [...read(path).matchAll(/^\s*#\s*([A-Z][A-Z0-9]*_[A-Z0-9_]+):/gm)].map((m) => m[1]!);

/** The entry point a `node <file>` command runs, as the source it is built from. */
function sourceOf(command: string[]): string {
  expect(command[0], `${command.join(' ')} runs node`).to.equal('node');
  const built = command[1]!;
  const match = /^(apps\/[a-z]+|packages\/[a-z-]+)\/dist\/(.+)\.js$/.exec(built);
  expect(match, `${built} is a built entry point`).to.not.equal(null);
  return `${match![1]}/src/${match![2]}.ts`;
}

describe('infra: the deployment files', () => {
  it('every YAML file under infra/ parses', () => {
    const files = yamlFiles();
    expect(files).to.include.members([
      'infra/compose.yaml',
      'infra/k8s/base/api.yaml',
      'infra/k8s/secret.template.yaml',
    ]);
    for (const path of files) documentsOf(path);
  });

  it('every Kubernetes object is valid against the Kubernetes API schema (kubernetes-models)', async () => {
    for (const { path, doc } of K8S) {
      if (doc.kind === 'Kustomization') {
        for (const resource of doc.resources as string[])
          expect(existsSync(join(ROOT, path, '..', resource)), `${path}: ${resource}`).to.equal(true);
        continue;
      }
      const group = doc.apiVersion.includes('/') ? doc.apiVersion : `v1`;
      const models = (await import(`kubernetes-models/${group}`)) as Record<
        string,
        new (data: unknown) => { validate(): void }
      >;
      const Model = models[doc.kind];
      expect(Model, `${path}: a model of ${doc.apiVersion} ${doc.kind}`).to.be.a('function');
      expect(() => new Model!(doc).validate(), `${path}: ${doc.kind} ${doc.metadata?.name}`).not.to.throw();
    }
  });

  it('the base has the api, worker and recon with probes on the health paths, an HPA for the api and the worker, and a PDB for each', () => {
    const byKind = (kind: string) => K8S.filter(({ doc }) => doc.kind === kind).map(({ doc }) => doc);
    expect(byKind('Deployment').map((d) => d.metadata.name)).to.have.members([
      'ledger-api',
      'ledger-worker',
      'ledger-recon',
    ]);
    expect(byKind('HorizontalPodAutoscaler').map((h) => h.spec.scaleTargetRef.name)).to.have.members([
      'ledger-api',
      'ledger-worker',
    ]);
    expect(
      byKind('PodDisruptionBudget').map((p) => p.spec.selector.matchLabels['app.kubernetes.io/component']),
    ).to.have.members(['api', 'worker', 'recon']);
    for (const container of CONTAINERS) {
      expect(container.livenessProbe?.httpGet?.path, `${container.name} liveness`).to.equal('/health/live');
      expect(container.readinessProbe?.httpGet?.path, `${container.name} readiness`).to.equal('/health/ready');
      expect(container.startupProbe?.httpGet?.path, `${container.name} startup`).to.equal('/health/live');
    }
  });

  it('each command runs an entry point the code has, and the README names it', () => {
    const dockerfile = read('infra/docker/Dockerfile');
    const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(dockerfile)![1]!) as string[];
    const commands: string[][] = [
      cmd,
      ...CONTAINERS.map((c) => c.command as string[]),
      ...APP_SERVICES.map(([, s]) => s.command as string[]),
    ];
    for (const command of commands) {
      const source = sourceOf(command);
      expect(existsSync(join(ROOT, source)), `${command.join(' ')}: ${source}`).to.equal(true);
      // The image carries what is run.
      expect(dockerfile, `the image copies ${command[1]}`).to.include(command[1]!.replace(/\/[^/]+\.js$/, ''));
    }
    for (const name of ['api', 'worker', 'recon']) expect(INFRA_README).to.include(`node apps/${name}/dist/main.js`);
  });

  it('each port: the api listens on its PORT, every process serves OPS_PORT, and the probes and Service name declared ports', () => {
    for (const container of CONTAINERS) {
      const env = Object.fromEntries((container.env as Doc[]).map((e) => [e.name, e.value]));
      const ports = Object.fromEntries((container.ports as Doc[]).map((p) => [p.name, p.containerPort]));
      expect(ports.ops, `${container.name} ops port`).to.equal(Number(env.OPS_PORT));
      if (container.name === 'api') expect(ports.http).to.equal(Number(env.PORT));
      for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe'])
        expect(ports, `${container.name} ${probe}`).to.have.property(container[probe].httpGet.port);
    }
    const service = K8S.find(({ doc }) => doc.kind === 'Service')!.doc;
    const api = CONTAINERS.find((c) => c.name === 'api');
    for (const port of service.spec.ports as Doc[])
      expect((api.ports as Doc[]).map((p) => p.name)).to.include(port.targetPort);
    for (const [name, service] of APP_SERVICES) {
      if (name === 'sandbox') continue;
      expect(service.healthcheck.test.join(' '), name).to.include(
        `127.0.0.1:${String(service.environment.OPS_PORT)}/health/ready`,
      );
      for (const published of (service.ports ?? []) as string[])
        expect(published.split(':').pop(), `${name} publishes its PORT`).to.equal(service.environment.PORT);
    }
    for (const port of ['8080', '9464']) expect(INFRA_README, `infra/README.md names port ${port}`).to.include(port);
  });

  it('the operations port, which has no token, admits only the scraper: every container binds OPS_HOST 0.0.0.0 for the kubelet and Prometheus, and a NetworkPolicy lets only Prometheus pods of the monitoring namespace reach it', () => {
    const envOf = (container: Doc) => Object.fromEntries((container.env as Doc[]).map((e) => [e.name, e.value]));
    for (const container of CONTAINERS) expect(envOf(container).OPS_HOST, container.name).to.equal('0.0.0.0');
    const policies = K8S.filter(({ doc }) => doc.kind === 'NetworkPolicy').map(({ doc }) => doc);
    const ledgerPods = (policy: Doc) => policy.spec.podSelector.matchLabels?.['app.kubernetes.io/name'] === 'ledger';
    const guarding = policies.filter((policy) => ledgerPods(policy) && policy.spec.policyTypes.includes('Ingress'));
    expect(guarding, 'a NetworkPolicy isolates every ledger Pod for ingress').to.have.length(1);
    const rules = guarding[0].spec.ingress as Doc[];
    const opensOps = (rule: Doc) =>
      rule.ports === undefined || (rule.ports as Doc[]).some((p) => p.port === 'ops' || p.port === 9464);
    const opsRules = rules.filter(opensOps);
    expect(opsRules, 'one rule opens the ops port').to.have.length(1);
    expect(opsRules[0].from).to.deep.equal([SCRAPER]);
    // Everything else the policy admits is the api's own port, which its token protects.
    for (const rule of rules.filter((rule) => !opensOps(rule)))
      expect(rule.ports).to.deep.equal([{ port: 'http', protocol: 'TCP' }]);
    for (const label of Object.entries({
      ...SCRAPER.namespaceSelector.matchLabels,
      ...SCRAPER.podSelector.matchLabels,
    }).flat())
      expect(INFRA_README, `infra/README.md names the scraper's label ${label}`).to.include(label);
  });

  it('each environment variable is read by a process (its config reader) and described in the README', () => {
    const named = new Set<string>();
    for (const { path, doc } of K8S) {
      if (doc.kind === 'ConfigMap') for (const key of Object.keys(doc.data)) named.add(key);
      if (doc.kind === 'Secret') for (const key of Object.keys(doc.stringData)) named.add(key);
      if (['ConfigMap', 'Secret'].includes(doc.kind)) for (const key of commentedKeys(path)) named.add(key);
    }
    for (const container of CONTAINERS) for (const name of namesOf(container.env)) named.add(name);
    for (const [name, service] of APP_SERVICES) {
      for (const variable of namesOf(service.environment)) {
        if (name === 'sandbox') expect(SANDBOX_CLI, `the sandbox reads ${variable}`).to.include(`'${variable}'`);
        else named.add(variable);
      }
    }
    expect(named.size).to.be.above(20);
    for (const variable of named) {
      expect(READ_BY_PROCESSES.has(variable), `${variable} is read by a config reader`).to.equal(true);
      expect(README, `README describes ${variable}`).to.match(
        new RegExp(`\`${variable}\`|\`${variable.replace(/_[A-Z]+$/, '_<SOURCE>')}\``),
      );
    }
  });

  it('each health path is served by the operations listener and the api, and the READMEs name it', () => {
    const paths = new Set<string>();
    for (const container of CONTAINERS)
      for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) paths.add(container[probe].httpGet.path);
    for (const [name, service] of APP_SERVICES)
      if (name !== 'sandbox') paths.add(/\/health\/[a-z]+/.exec(service.healthcheck.test.join(' '))![0]);
    expect([...paths].sort()).to.deep.equal(HEALTH_PATHS);
    for (const path of paths) {
      expect(OPS_SERVER, `the operations listener serves ${path}`).to.include(`'${path}'`);
      expect(apiDocument.paths, `the api's document has ${path}`).to.have.property(path);
      expect(INFRA_README).to.include(path);
      expect(README).to.include(path);
    }
    expect(OPS_SERVER).to.include("'/metrics'");
  });
});
