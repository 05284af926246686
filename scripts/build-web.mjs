// Builds the web page (src/web) into static assets: dist/web/index.html and dist/web/assets/
// with content-hashed names, so that the service can let browsers keep them for a year.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const source = join(root, 'src', 'web');
const output = resolve(process.argv[2] ?? join(root, 'dist', 'web'));

async function bundle(entry, loader) {
  const result = await build({
    entryPoints: [join(source, entry)],
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['es2022'],
    platform: 'browser',
    write: false,
    legalComments: 'none',
    loader,
  });
  return result.outputFiles[0].contents;
}

function hashedName(stem, extension, contents) {
  const hash = createHash('sha256').update(contents).digest('base64url').slice(0, 12);
  return `${stem}-${hash.replace(/[^A-Za-z0-9]/g, '0')}.${extension}`;
}

const script = await bundle('main.ts');
const style = await bundle('styles.css', { '.css': 'css' });
const scriptName = hashedName('app', 'js', script);
const styleName = hashedName('app', 'css', style);

rmSync(output, { recursive: true, force: true });
mkdirSync(join(output, 'assets'), { recursive: true });
writeFileSync(join(output, 'assets', scriptName), script);
writeFileSync(join(output, 'assets', styleName), style);
const page = readFileSync(join(source, 'page.html'), 'utf8')
  .replace('{{script}}', `/assets/${scriptName}`)
  .replace('{{style}}', `/assets/${styleName}`);
writeFileSync(join(output, 'index.html'), page);
console.log(`web page built: ${output} (${scriptName}, ${styleName})`);
