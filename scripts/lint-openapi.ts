/**
 * Lints the OpenAPI document the service serves with Redocly's recommended rules (redocly.yaml):
 * builds the app on an empty database, writes /v1/openapi.json to a temporary file and runs
 * `redocly lint` on it. Part of `npm test`; needs no network. Any problem, a warning included,
 * fails.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildApp } from '../src/app.js';
import { openServiceStore } from '../src/service-store.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The document as GET /v1/openapi.json answers it. */
export async function servedOpenApiDocument(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'fxrates-openapi-'));
  try {
    const store = await openServiceStore(join(dir, 'empty.duckdb'));
    try {
      const app = await buildApp({ store });
      try {
        const response = await app.inject('/v1/openapi.json');
        if (response.statusCode !== 200)
          throw new Error(`/v1/openapi.json answered ${response.statusCode}`);
        return response.body;
      } finally {
        await app.close();
      }
    } finally {
      await store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface LintResult {
  /** Every problem the recommended rules report, warnings included: none passes. */
  problems: string[];
  /** What to print. */
  report: string;
}

interface RedoclyReport {
  totals: { errors: number; warnings: number };
  problems: {
    ruleId: string;
    severity: string;
    message: string;
    location: { pointer: string }[];
  }[];
}

/** `redocly lint` with redocly.yaml on `document`, offline. */
export function lintOpenApi(document: string): LintResult {
  const dir = mkdtempSync(join(tmpdir(), 'fxrates-openapi-'));
  try {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, document);
    const require = createRequire(import.meta.url);
    const manifest = require.resolve('@redocly/cli/package.json');
    const { bin } = JSON.parse(readFileSync(manifest, 'utf8')) as { bin: { redocly: string } };
    const config = join(ROOT, 'redocly.yaml');
    const result = spawnSync(
      process.execPath,
      [join(dirname(manifest), bin.redocly), 'lint', '--config', config, '--format=json', file],
      {
        cwd: dir,
        encoding: 'utf8',
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      },
    );
    let report: RedoclyReport;
    try {
      report = JSON.parse(result.stdout) as RedoclyReport;
    } catch {
      const output = `${result.stdout}${result.stderr}`.trim();
      return { problems: [output || 'redocly lint failed'], report: output };
    }
    // Redocly exits 0 on warnings; the document should have none, so they count too.
    const problems = report.problems.map(
      (p) =>
        `${p.severity} ${p.ruleId}: ${p.message} (${p.location.map((l) => l.pointer).join(', ')})`,
    );
    const summary =
      problems.length === 0
        ? '/v1/openapi.json: no problems with the recommended rules of redocly lint'
        : `/v1/openapi.json: ${report.totals.errors} errors, ${report.totals.warnings} warnings`;
    return { problems, report: [...problems, summary].join('\n') + '\n' };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = lintOpenApi(await servedOpenApiDocument());
  process.stdout.write(result.report);
  process.exitCode = result.problems.length === 0 ? 0 : 1;
}
