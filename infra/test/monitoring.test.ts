import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { parse } from 'yaml';

/*
 * The optional monitoring pair (compose profile `monitoring`: infra/monitoring/) cannot be started
 * here (no container engine), so it is held to the code by reading it: the alert rules are the
 * runbooks', every metric they alert on is on the dashboard, every metric the dashboard draws is
 * one the processes export, and every scrape target is a process's operations port, in compose
 * and in the quickstart (packages/quickstart/ports.json).
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- YAML and JSON documents are read as plain data
type Doc = any;

const COMPOSE: Doc = parse(read('infra/compose.yaml'), { merge: true });
const ALERTS: Doc = parse(read('infra/monitoring/alerts.yml'));
const DASHBOARD: Doc = JSON.parse(read('infra/monitoring/grafana/ledger.json'));
const QUICKSTART_PORTS: Doc = JSON.parse(read('packages/quickstart/ports.json'));

const RULES: Doc[] = ALERTS.groups.flatMap((group: Doc) => group.rules);
const DASHBOARD_EXPRS: string[] = DASHBOARD.panels.flatMap((panel: Doc) => panel.targets.map((t: Doc) => t.expr));
/** The metric names a PromQL expression reads (label names and functions are lower-case words too, but not `ledger_…`). */
const metricsOf = (expr: string) => [...expr.matchAll(/\b(ledger_[a-z_]+|up)\b(?=\s*[{[)])/g)].map((m) => m[1]!);
/** The metrics the processes export (runtime/metrics.ts), with a histogram's series. */
const EXPORTED = new Set(
  [...read('packages/ledger-core/src/runtime/metrics.ts').matchAll(/name: '(ledger_[a-z_]+)'/g)].flatMap((m) => [
    m[1]!,
    `${m[1]}_bucket`,
    `${m[1]}_count`,
    `${m[1]}_sum`,
  ]),
);
const targetsOf = (path: string): string[] =>
  parse(read(path)).scrape_configs.flatMap((job: Doc) => job.static_configs.flatMap((c: Doc) => c.targets));

describe('infra: the monitoring profile (Prometheus and Grafana)', () => {
  it('loads the alert rules docs/runbooks/README.md states, unchanged', () => {
    const block = /```yaml\n([\s\S]*?)```/.exec(read('docs/runbooks/README.md'));
    expect(block, 'the runbooks give their rules as YAML').to.not.equal(null);
    expect(ALERTS).to.deep.equal(parse(block![1]!));
    expect(RULES.map((rule) => rule.alert)).to.deep.equal([
      'LedgerReconFail',
      'LedgerQueueBackingUp',
      'LedgerJobFailing',
      'LedgerUpstreamDown',
    ]);
  });

  it('draws every metric an alert fires on, and only metrics the processes export', () => {
    const drawn = new Set(DASHBOARD_EXPRS.flatMap(metricsOf));
    for (const rule of RULES) {
      const metrics = metricsOf(rule.expr);
      expect(metrics, `${rule.alert} names a metric`).to.not.deep.equal([]);
      for (const metric of metrics) expect([...drawn], `${rule.alert}: ${metric} on the dashboard`).to.include(metric);
    }
    for (const metric of drawn)
      if (metric !== 'up') expect(EXPORTED.has(metric), `${metric} is exported`).to.equal(true);
  });

  it('reads the dashboard from the provisioned Prometheus data source', () => {
    const source = parse(read('infra/monitoring/grafana/datasources.yml')).datasources[0];
    expect(source.url).to.equal(`http://prometheus:${COMPOSE.services.prometheus.ports[0].split(':').at(-1)}`);
    for (const panel of DASHBOARD.panels) {
      for (const target of [panel, ...panel.targets]) expect(target.datasource.uid, panel.title).to.equal(source.uid);
    }
  });

  it('scrapes every compose process on its OPS_PORT, and nothing else', () => {
    const processes = Object.entries(COMPOSE.services as Record<string, Doc>).filter(
      ([, service]) => service.environment?.OPS_PORT !== undefined,
    );
    expect(processes).to.have.length(6);
    expect(targetsOf('infra/monitoring/prometheus.yml')).to.have.members(
      processes.map(([name, service]) => `${name}:${service.environment.OPS_PORT}`),
    );
  });

  it('scrapes every quickstart process on its operations port (packages/quickstart/ports.json)', () => {
    const ports = ['ENTITY_UAE', 'ENTITY_IND_IFSC'].flatMap((book) => Object.values(QUICKSTART_PORTS[book].ops));
    expect(ports).to.have.length(6);
    expect(targetsOf('infra/monitoring/prometheus-quickstart.yml')).to.have.members(
      ports.map((port) => `127.0.0.1:${String(port)}`),
    );
  });

  it('runs both only under the monitoring profile, each file they mount present and the rules file loaded', () => {
    for (const name of ['prometheus', 'grafana']) {
      const service = COMPOSE.services[name];
      expect(service.profiles, name).to.deep.equal(['monitoring']);
      for (const volume of service.volumes as string[]) {
        const [source, target] = volume.split(':');
        if (source!.startsWith('./')) expect(existsSync(join(ROOT, 'infra', source!)), volume).to.equal(true);
        if (name === 'prometheus' && source!.endsWith('alerts.yml')) {
          for (const path of ['prometheus.yml', 'prometheus-quickstart.yml']) {
            expect(parse(read(`infra/monitoring/${path}`)).rule_files, path).to.deep.equal([target]);
          }
        }
      }
    }
    const mounts = (COMPOSE.services.grafana.volumes as string[]).map((v) => v.split(':'));
    const dashboardsDir = parse(read('infra/monitoring/grafana/dashboards.yml')).providers[0].options.path;
    expect(mounts.find(([source]) => basename(source!) === 'ledger.json')![1]).to.equal(`${dashboardsDir}/ledger.json`);
  });
});
