// Bundles the pages into one script and one stylesheet and writes the single index.html that
// boneyard-web answers for every path outside /api/ and /assets/.
//
//   node build.mjs --outdir DIR [--dev]
//
// --dev skips minifying and adds a source map; the default is what gets served.
import { build } from 'esbuild';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const { values: args } = parseArgs({
  options: { outdir: { type: 'string' }, dev: { type: 'boolean', default: false } },
});
if (!args.outdir) {
  console.error('usage: node build.mjs --outdir DIR [--dev]');
  process.exit(2);
}
const outdir = resolve(args.outdir);
const assets = join(outdir, 'assets');

// Fixed file names, not hashed ones: the server maps /assets/app.js and /assets/app.css
// without a manifest.
const indexHtml = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>boneyard</title>
<link rel="stylesheet" href="/assets/app.css">
<script defer src="/assets/app.js"></script>
</head>
<body>
<div id="app"></div>
<noscript>boneyard needs JavaScript.</noscript>
</body>
</html>
`;

const started = Date.now();
await rm(assets, { recursive: true, force: true });
await mkdir(assets, { recursive: true });
const result = await build({
  absWorkingDir: here,
  entryPoints: { app: 'src/main.jsx' },
  outdir: assets,
  bundle: true,
  format: 'iife',
  target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  minify: !args.dev,
  sourcemap: args.dev ? 'linked' : false,
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
  define: { 'process.env.NODE_ENV': args.dev ? '"development"' : '"production"' },
});
await writeFile(join(outdir, 'index.html'), indexHtml);

for (const [file, { bytes }] of Object.entries(result.metafile.outputs)) {
  console.log(`${relative(outdir, resolve(here, file)).padEnd(20)} ${(bytes / 1024).toFixed(1)} KiB`);
}
console.log(`built in ${Date.now() - started} ms`);
